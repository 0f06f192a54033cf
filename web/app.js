// app.js - the browser board of `mancala serve`: draws any game from the
// layout the server sends (it knows no rule), plays clicked pits, animates
// the trace of each move seed by seed and explains it, and talks to the JSON
// API of docs/API.md.  Plain JavaScript, no build step.
//
// Seats: the server gives the creator of a game a secret token for the seats
// it takes, and an invitation code for the other one.  The page keeps its
// tokens in this browser's localStorage (never in its address or in a link
// it shows) and sends them as "Authorization: Bearer"; the links it offers
// are an invitation (the code, spent when the other player opens it) and a
// watch link (the game's id only).
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

let st = null;          // the game state from the server
let me = { side: 'S', opponent: 'computer', level: 3 }; // opponent: computer, here, link, watch
let busy = false;       // a request or an animation is running
let offerSel = new Set();
let offerMode = false;
let setup = null;       // Omweso set-up editor: pit counts being arranged
let clockAt = 0;        // when the state's clock.left was true (Date.now())
let clockSeen = null;   // the state clockAt belongs to
let clockAsked = 0;     // when the page last asked the server after a 0
let timeModes = {};     // game name -> its own time modes [{name, text}] (GET /api/games)
let shown = null;       // pits and captures on screen (during animation)
let pitXY = [];         // centre of each pit on the board

for (let l = 1; l <= 10; l++) $('level').add(new Option(String(l), String(l), l === 3, l === 3));

// The seats this browser holds in game id: { S: token, N: token, invite: code,
// owner: true when it made the game }.
function seatsOf(id) {
  try { return JSON.parse(localStorage.getItem('mancala.seats.' + id)) || {}; } catch (e) { return {}; }
}
function keepSeats(id, add) {
  const s = Object.assign(seatsOf(id), add);
  try { localStorage.setItem('mancala.seats.' + id, JSON.stringify(s)); } catch (e) { /* private mode */ }
  return s;
}
// The token that acts for side (the side to move, the side resigning), else any held.
function tokenFor(side) {
  if (!st) return null;
  const s = seatsOf(st.id);
  return s[side] || s[me.side] || s.S || s.N || null;
}

async function api(method, path, body, token) {
  const headers = {};
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  const r = await fetch('/api/' + path, {
    method, headers, body: method === 'POST' ? JSON.stringify(body || {}) : undefined,
  });
  const t = await r.text();
  let j = null;
  try { j = JSON.parse(t); } catch (e) { j = { text: t }; }
  if (!r.ok) throw new Error(j.error ? j.error.message : 'HTTP ' + r.status);
  return j;
}

function say(msg) { $('status').textContent = msg; }
function log(msg) {
  const li = document.createElement('li');
  li.textContent = msg;
  $('log').appendChild(li);
  $('log').scrollTop = $('log').scrollHeight;
}
const sideName = (s) => (s === 'S' ? 'South' : 'North');

// ---- drawing ---------------------------------------------------------------

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function draw() {
  document.body.dataset.busy = busy ? '1' : '0'; // for the browser tests
  const svg = $('board');
  svg.textContent = '';
  if (!st) return;
  const rows = st.layout.rows, R = rows.length, C = rows[0].length;
  const cell = 90, store = st.layout.stores ? 90 : 0, pad = 14;
  const W = C * cell + 2 * store + 2 * pad, H = R * cell + 2 * pad;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  el('rect', { x: 2, y: 2, width: W - 4, height: H - 4, rx: 30, class: 'wood' }, svg);
  if (R === 4) el('line', { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, stroke: '#5b3a1e', 'stroke-width': 3 }, svg);
  const pits = shown ? shown.pits : st.pits, cap = shown ? shown.cap : st.captured;
  const playable = new Map();
  if (!busy && myTurn() && !setup) for (const m of st.moves) if (m.pit !== null) {
    if (!playable.has(m.pit)) playable.set(m.pit, []);
    playable.get(m.pit).push(m.move);
  }
  pitXY = [];
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) {
    const i = rows[r][c];
    if (i < 0) continue;
    const cx = pad + store + c * cell + cell / 2, cy = pad + r * cell + cell / 2;
    pitXY[i] = [cx, cy];
    const n = setup ? setup[i] : pits[i];
    const g = el('g', { class: 'pit own-' + st.owner[i], 'data-pit': i, 'data-name': st.names[i], 'data-count': n }, svg);
    if (playable.has(i)) g.classList.add('playable');
    if (offerSel.has(i)) g.classList.add('selected');
    el('circle', { cx, cy, r: cell * 0.42, class: 'hole' }, g);
    drawSeeds(g, cx, cy, n, i);
    const t = el('text', { x: cx, y: cy + cell * 0.42 - 4, class: 'count' }, g);
    t.textContent = n;
    const nm = el('text', { x: cx, y: cy - cell * 0.42 + 14, class: 'name' }, g);
    nm.textContent = st.names[i];
    g.addEventListener('click', (ev) => clickPit(i, playable.get(i), ev));
  }
  if (store) for (const s of ['N', 'S']) {
    const x = s === 'N' ? pad : W - pad - store + 6;
    const g = el('g', { class: 'store', 'data-store': s }, svg);
    el('rect', { x, y: pad, width: store - 6, height: H - 2 * pad, rx: 30 }, g);
    const t = el('text', { x: x + (store - 6) / 2, y: H / 2 + 6 }, g);
    t.textContent = cap[s === 'S' ? 0 : 1];
    const l = el('text', { x: x + (store - 6) / 2, y: s === 'N' ? pad + 24 : H - pad - 14, 'font-size': 12 }, g);
    l.textContent = s;
  }
}

function drawSeeds(g, cx, cy, n, salt) {
  const k = Math.min(n, 24);
  for (let j = 0; j < k; j++) {
    // a fixed scatter: golden-angle spiral
    const a = j * 2.39996 + salt, rr = 7 * Math.sqrt(j + 0.5);
    el('circle', { cx: cx + rr * Math.cos(a), cy: cy - 6 + rr * Math.sin(a) * 0.9, r: 5, class: 'seed' }, g);
  }
}

function render() {
  draw();
  if (!st) return;
  const over = st.over;
  const r = st.result;
  if (setup) say('Arrange the seeds, then press Play this set-up.');
  else if (over) say(`Game over: ${r.winner === 'draw' ? 'a draw' : sideName(r.winner) + ' wins'} (${r.reason}${r.detail ? ', ' + r.detail : ''}).`);
  else say(`${sideName(st.side)} to move${myTurn() ? ' (you)' : ''}.` + (st.side !== me.side && me.opponent === 'computer' ? ' The computer is thinking…' : ''));
  $('match').textContent = st.match.on ? `Match, game ${st.match.round}: ${st.match.score}` : '';
  $('next').hidden = !(over && st.match.on && !st.match.winner);
  $('save').href = `/api/game/${st.id}/record`;
  $('save').download = `${st.game}-${st.id}.mcr`;
  const ch = $('choices');
  ch.textContent = '';
  if (!busy && myTurn() && !setup) for (const m of st.moves) if (m.pit === null && !m.move.startsWith('offer:')) {
    const b = document.createElement('button');
    b.textContent = m.move;
    b.dataset.move = m.move;
    b.addEventListener('click', () => play(m.move));
    ch.appendChild(b);
  }
  $('offer').hidden = !(myTurn() && st.moves.some((m) => m.move.startsWith('offer:')));
  const seats = seatsOf(st.id);
  const other = me.side === 'S' ? 'N' : 'S';
  $('link').hidden = !(me.opponent === 'link' && seats.invite && st.seats[other] === 'open');
  $('link-url').value = seats.invite ? `${location.origin}/#g=${st.id}&invite=${seats.invite}` : '';
  $('watch').hidden = false;
  $('watch-url').value = `${location.origin}/#g=${st.id}&watch=1`;
  $('delete').hidden = me.opponent === 'watch' || !seats.owner; // only the creator may
  for (const b of ['undo', 'redo', 'hint', 'resign']) $(b).hidden = me.opponent === 'watch';
  runClocks();
}

function myTurn() {
  if (!st || st.over || me.opponent === 'watch') return false;
  return me.opponent === 'here' || st.side === me.side;
}

// ---- clocks (kept by the server: state.clock; counted down here between answers) ----

function fmtClock(sec) {
  if (sec < 10) return sec.toFixed(1);
  const t = Math.floor(sec), m = Math.floor(t / 60), h = Math.floor(m / 60);
  const mm = h ? String(m % 60).padStart(2, '0') : String(m);
  return (h ? h + ':' : '') + `${mm}:${String(t % 60).padStart(2, '0')}`;
}

// Seconds left to side now, from the last answer (null: no clock).
function clockLeft(side) {
  const c = st && st.clock;
  if (!c || c.left[side === 'S' ? 0 : 1] === null) return null;
  const left = c.left[side === 'S' ? 0 : 1];
  return c.running === side ? Math.max(0, left - (Date.now() - clockAt) / 1000) : left;
}

function runClocks() {
  if (st !== clockSeen) { clockSeen = st; clockAt = Date.now(); }
  const c = st && st.clock;
  for (const s of ['S', 'N']) {
    const left = clockLeft(s);
    $('clock-' + s).querySelector('span').textContent = left !== null ? fmtClock(left) : c && c.mode ? c.mode : '–';
    $('clock-' + s).classList.toggle('running', !!(c && c.running === s && !setup));
    $('clock-' + s).title = c ? c.text : 'no clock';
  }
}
// When the running clock shows 0, ask the server: it decides whether the
// flag fell (the game is then over on time, or the turn passed).
setInterval(async () => {
  if (!st) return;
  runClocks();
  const c = st.clock;
  if (!c || !c.running || busy || clockLeft(c.running) > 0 || Date.now() - clockAsked < 1000) return;
  clockAsked = Date.now();
  try {
    const res = await api('GET', `game/${st.id}`);
    if (busy) return;
    if (res.state.version !== st.version) {
      st = res.state;
      if (st.over) log(st.result.text);
      render();
      maybeComputer();
    } else {
      st.clock = res.state.clock; // not yet: the server's count, from now
      clockAt = Date.now();
    }
  } catch (e) { /* the server may be restarting */ }
}, 250);

// The clock choice of the new-game form: the forms every game has, and the
// game's own modes (Omweso's W16) as the server lists them.
function fillClockChoices() {
  const sel = $('clock-kind');
  for (const o of [...sel.options]) if (o.value.startsWith('mode:')) o.remove();
  for (const m of timeModes[$('game').value] || []) {
    const o = new Option(m.name, 'mode:' + m.name);
    o.title = m.text;
    sel.add(o);
  }
  clockForm();
}
function clockForm() {
  const k = $('clock-kind').value;
  $('clock-times').hidden = k !== 'move' && k !== 'game';
  $('clock-inc-part').hidden = k !== 'game';
}
let clockKindShown = 'none';
$('clock-kind').addEventListener('change', () => {
  const k = $('clock-kind').value;
  if (k !== clockKindShown && (k === 'move' || k === 'game')) $('clock-secs').value = k === 'move' ? 30 : 300;
  clockKindShown = k;
  clockForm();
});
$('game').addEventListener('change', fillClockChoices);
// The time control chosen, in the server's text form.
function clockControl() {
  const k = $('clock-kind').value, secs = Number($('clock-secs').value), inc = Number($('clock-inc').value) || 0;
  if (k.startsWith('mode:')) return k.slice(5);
  if (k === 'move') return `move:${secs}`;
  if (k === 'game') return `game:${secs}` + (inc > 0 ? `+${inc}` : '');
  return 'none';
}
api('GET', 'games').then((r) => {
  for (const g of r.games) timeModes[g.name] = g.time_modes || [];
  fillClockChoices();
}).catch(() => { /* the form then offers the common clocks only */ });

// ---- moves and animation ---------------------------------------------------

function clickPit(i, moves, ev) {
  if (setup) return editSetup(i, ev.shiftKey ? -1 : 1);
  if (offerMode) {
    if (st.owner[i] !== st.side) return;
    offerSel.has(i) ? offerSel.delete(i) : offerSel.add(i);
    $('offer-pay').textContent = offerSel.size ? `${sideName(st.side === 'S' ? 'N' : 'S')} would pay ${offerSel.size * 6} captured seeds.` : '';
    return draw();
  }
  if (!moves || busy) return;
  if (moves.length === 1) return play(moves[0]);
  // several moves from one pit (Omweso directions, the three-seed opening)
  const ch = $('choices');
  ch.textContent = `From ${st.names[i]}: `;
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m;
    b.dataset.move = m;
    b.title = m.includes('-') ? 'clockwise at the marked choice' : m.includes('*') ? 'three-seed opening sowing' : 'counter-clockwise';
    b.addEventListener('click', () => play(m));
    ch.appendChild(b);
  }
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

async function animate(before, res) {
  const tr = res.trace || [];
  shown = { pits: before.pits.slice(), cap: before.captured.slice() };
  const drops = tr.filter((e) => e.kind === 'drop').length;
  const step = drops > 150 ? 0 : drops > 40 ? 40 : 140;
  log(`${sideName(before.side)}: ${res.move}`);
  for (const e of tr) {
    if (e.kind === 'lift') shown.pits[e.pit] = 0;
    else if (e.kind === 'drop') shown.pits[e.pit] = e.n;
    else if (e.kind === 'capture') {
      shown.pits[e.pit] = Math.max(0, shown.pits[e.pit] - e.n);
      if (st.layout.stores) shown.cap[e.aux] += e.n;
      log('  ' + e.text);
    } else if (['nocapture', 'trade', 'pass', 'resow', 'opening', 'annul', 'lap'].includes(e.kind)) {
      if (e.kind !== 'lap' || tr.length < 200) log('  ' + e.text);
    }
    if (step && ['lift', 'drop', 'capture'].includes(e.kind)) {
      draw();
      const g = document.querySelector(`g.pit[data-pit="${e.pit}"]`);
      if (g && e.kind === 'capture') g.classList.add('flash');
      await sleep(e.kind === 'capture' ? 3 * step : step);
    }
  }
  if (res.trace_dropped) log(`  (${res.trace_dropped} more events not shown)`);
  shown = null;
}

async function apply(res, think = true) {
  const before = st;
  busy = true;
  try {
    if (res.move && res.trace) await animate(before, res);
  } finally {
    busy = false;
  }
  st = res.state;
  render();
  if (st.over) log(`Game over: ${st.result.winner === 'draw' ? 'draw' : sideName(st.result.winner) + ' wins'} (${st.result.reason} ${st.result.detail})`);
  if (think) maybeComputer();
}

async function play(move) {
  if (busy || !st) return;
  busy = true;
  try {
    const res = await api('POST', `game/${st.id}/play`, { move, version: st.version }, tokenFor(st.side));
    busy = false;
    await apply(res);
  } catch (e) {
    busy = false;
    say(e.message);
    log(e.message);
    render();
  }
}

async function act(what, body, side) {
  if (busy || !st) return;
  busy = true;
  try {
    const res = await api('POST', `game/${st.id}/${what}`, body, tokenFor(side || me.side));
    busy = false;
    if (what === 'hint') {
      log(`Hint: ${res.hint}`);
      say(`Hint: play ${res.hint}.`);
      return;
    }
    await apply(res, what !== 'undo');
  } catch (e) {
    busy = false;
    say(e.message);
  }
}

async function maybeComputer() {
  if (!st || st.over || me.opponent !== 'computer' || st.side === me.side || busy) return;
  render();
  busy = true;
  try {
    const res = await api('POST', `game/${st.id}/engine`, { level: me.level, seconds: 1 }, tokenFor(st.side));
    busy = false;
    await apply(res);
  } catch (e) {
    busy = false;
    say(e.message);
  }
}

// ---- games -----------------------------------------------------------------

function spec() {
  const o = $('options').value.trim().replace(/\s+/g, '');
  return $('game').value + (o ? ':' + o : '');
}

async function newGame(position) {
  me = { side: $('myside').value, opponent: $('opponent').value, level: Number($('level').value) };
  try {
    const body = { game: spec() };
    if (position) body.position = position;
    const time = clockControl();
    if (time !== 'none') body.time = time;
    if (me.opponent === 'computer') body[me.side === 'S' ? 'north' : 'south'] = `computer level ${me.level}`;
    // Against a person elsewhere: take one seat, invite them to the other.
    body.seats = me.opponent === 'link' ? me.side : 'both';
    const res = await api('POST', 'new', body);
    held(res);
    start(res.state);
  } catch (e) {
    say(e.message);
  }
}

// Keep the seats a new game gave this browser.
function held(res) {
  const add = { owner: true };
  for (const c of res.sides) add[c] = res.token;
  if (res.invite) add.invite = res.invite.code;
  keepSeats(res.state.id, add);
}

function start(state) {
  st = state;
  setup = null;
  offerMode = false;
  offerSel.clear();
  $('log').textContent = '';
  log(`New ${st.spec} game (${st.id}).`);
  history.replaceState(null, '', `#g=${st.id}&side=${me.side}&vs=${me.opponent}&level=${me.level}`);
  render();
  maybeComputer();
}

// ---- Omweso set-up editor --------------------------------------------------

function editSetup(i, d) {
  const half = st.pits.length / 2;
  const mine = i < half ? 0 : 1;
  const total = setup.slice(mine * half, mine * half + half).reduce((a, b) => a + b, 0);
  if (d > 0 && total >= 32) {
    // take the seed from the fullest other pit of the same side
    let from = -1;
    for (let k = mine * half; k < mine * half + half; k++) if (k !== i && (from < 0 || setup[k] > setup[from])) from = k;
    if (from < 0 || setup[from] === 0) return;
    setup[from]--;
  }
  if (d < 0 && setup[i] === 0) return;
  setup[i] += d;
  $('setup-count').textContent = `South ${setup.slice(0, half).reduce((a, b) => a + b, 0)}, North ${setup.slice(half).reduce((a, b) => a + b, 0)} seeds`;
  draw();
}

$('edit-setup').addEventListener('click', async () => {
  $('game').value = 'omweso';
  await newGame();
  if (!st) return;
  setup = st.pits.slice();
  $('setup-bar').hidden = false;
  render();
});
$('setup-cancel').addEventListener('click', () => { setup = null; $('setup-bar').hidden = true; render(); });
$('setup-play').addEventListener('click', async () => {
  const half = setup.length / 2;
  const pos = setup.slice(0, half).join(',') + '/' + setup.slice(half).join(',') + ' ' + st.position.split(' ').slice(1).join(' ');
  $('setup-bar').hidden = true;
  setup = null;
  await newGame(pos);
});

// ---- Goré offers ----------------------------------------------------------

$('offer').addEventListener('click', () => {
  offerMode = true;
  offerSel.clear();
  $('offer-bar').hidden = false;
  $('offer-pay').textContent = '';
  draw();
});
$('offer-cancel').addEventListener('click', () => { offerMode = false; offerSel.clear(); $('offer-bar').hidden = true; draw(); });
$('offer-send').addEventListener('click', async () => {
  const letters = [...offerSel].sort((a, b) => a - b).map((i) => st.names[i]).join('');
  offerMode = false;
  offerSel.clear();
  $('offer-bar').hidden = true;
  await play('offer:' + letters);
});

// ---- the rest of the controls ---------------------------------------------

$('newgame').addEventListener('submit', (e) => { e.preventDefault(); newGame(); });
$('undo').addEventListener('click', async () => {
  await act('undo');
  if (me.opponent === 'computer' && st && st.side !== me.side && st.ply > 0) await act('undo');
});
$('redo').addEventListener('click', () => act('redo'));
$('hint').addEventListener('click', () => act('hint', { level: 10, seconds: 1 }));
$('resign').addEventListener('click', () => st && act('resign', { side: me.opponent === 'here' ? st.side : me.side }));
$('next').addEventListener('click', () => act('next'));
$('load').addEventListener('change', async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  try {
    const res = await api('POST', 'load', { record: await f.text() });
    held(res);
    me.opponent = 'here';
    start(res.state);
  } catch (err) {
    say(err.message);
  }
});
$('link-url').addEventListener('focus', (e) => e.target.select());
$('watch-url').addEventListener('focus', (e) => e.target.select());
$('delete').addEventListener('click', async () => {
  if (!st || busy || !confirm('Delete this game for everyone?')) return;
  try {
    await api('DELETE', `game/${st.id}`, null, tokenFor(me.side));
    try { localStorage.removeItem('mancala.seats.' + st.id); } catch (e) { /* ignore */ }
    st = null;
    history.replaceState(null, '', '#');
    $('log').textContent = '';
    say('The game was deleted.');
    draw();
  } catch (e) {
    say(e.message);
  }
});

// Two browsers on one game: follow the other player's moves.
setInterval(async () => {
  if (!st || busy || (me.opponent !== 'link' && me.opponent !== 'watch')) return;
  try {
    const res = await api('GET', `game/${st.id}`);
    if (res.state.version !== st.version && !busy) {
      st = res.state;
      log(`${st.history.length ? 'Move: ' + st.history[st.history.length - 1] : 'The game changed.'}`);
      render();
    }
  } catch (e) { /* the server may be restarting */ }
}, 1000);

// The page's own address: #g=<id>&side=<S|N>&vs=<computer|here|link>&level=<n>
// (no secret: the tokens are in localStorage); an invitation #g=<id>&invite=<code>
// takes its seat and becomes such an address; #g=<id>&watch=1 looks on.
(async function init() {
  const h = new URLSearchParams(location.hash.slice(1));
  const id = h.get('g');
  if (!id) return;
  me = { side: h.get('side') === 'N' ? 'N' : 'S', opponent: h.get('vs') || 'link', level: Number(h.get('level')) || 3 };
  try {
    if (h.get('invite')) {
      const res = await api('POST', `game/${encodeURIComponent(id)}/join`, { invite: h.get('invite') });
      keepSeats(id, { [res.side]: res.token });
      me = { side: res.side, opponent: 'link', level: 3 };
      history.replaceState(null, '', `#g=${id}&side=${res.side}&vs=link`);
    } else if (h.get('watch') || !(seatsOf(id).S || seatsOf(id).N)) {
      me.opponent = 'watch';
    }
  } catch (e) {
    say(e.message);
    me.opponent = 'watch';
  }
  if (me.opponent !== 'watch') {
    $('opponent').value = me.opponent;
    $('myside').value = me.side;
  }
  try {
    const res = await api('GET', 'game/' + encodeURIComponent(h.get('g')));
    st = res.state;
    $('game').value = st.game;
    log(me.opponent === 'watch' ? `Watching game ${st.id}.` : `Joined game ${st.id} as ${sideName(me.side)}.`);
    render();
    maybeComputer();
  } catch (e) {
    say(e.message);
  }
})();
