// app.js - the browser board: draws any game from the layout the back end
// sends (it knows no rule), plays clicked pits, animates the trace of each
// move seed by seed and explains it, and talks to the JSON API of
// docs/API.md through one of two back ends (backend.js): the WebAssembly
// module on this device (games here, analysis, offline) or `mancala
// serve` (games between browsers).  Plain JavaScript, no build step.
//
// What the page must not know: the games and their options come from
// GET /api/games; the legal moves, each move's pit, kind, price and reason
// from state.moves; the result in words from state.result.text; the set-up
// limit from state.setup.  The page only draws and asks.
//
// Seats: the server gives the creator of a game a secret token for the seats
// it takes, and an invitation code for the other one.  The page keeps its
// tokens in this browser's localStorage (never in its address or in a link
// it shows) and sends them as "Authorization: Bearer"; the links it offers
// are an invitation (the code, spent when the other player opens it) and a
// watch link (the game's id only).
//
// Accounts (optional, the server's only): signed in, the page keeps the
// session token as it keeps seat tokens (localStorage, mancala.session),
// sends it when it makes or joins a game on the server (the seat is then
// the account's) and for a seat it holds no token of; the server says
// what a name or a password may be, and when a session has ended.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

let st = null;          // the game state from the server
// The computer's level by default: 5, as in the terminal (mancala play).
const DEFAULT_LEVEL = 5;
let me = { side: 'S', opponent: 'computer', level: DEFAULT_LEVEL }; // opponent: computer, here, link, watch
let busy = false;       // a request or an animation is running
let offerSel = new Set();
let offerMode = false;
let setup = null;       // set-up editor: { pits, hand, side } being arranged
let clockAt = 0;        // when the state's clock.left was true (Date.now())
let clockSeen = null;   // the state clockAt belongs to
let clockAsked = 0;     // when the page last asked the server after a 0
let timeModes = {};     // game name -> its own time modes [{name, text}] (GET /api/games)
let shown = null;       // pits and captures on screen (during animation)
let pitXY = [];         // centre of each pit on the board
let games = [];         // GET /api/games
let hintPit = null;     // the pit of the hint shown on the board
let review = null;      // review mode: { k, positions, version, best, evals }
let prefs = loadPrefs(); // { flip, sound, speed }

for (let l = 1; l <= 10; l++) $('level').add(new Option(String(l), String(l), l === DEFAULT_LEVEL, l === DEFAULT_LEVEL));

function loadPrefs() {
  const d = { flip: 'auto', sound: false, speed: 'normal' };
  try { return Object.assign(d, JSON.parse(localStorage.getItem('mancala.prefs')) || {}); } catch (e) { return d; }
}
function savePrefs() {
  try { localStorage.setItem('mancala.prefs', JSON.stringify(prefs)); } catch (e) { /* private mode */ }
}

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
// The token that acts for side (the side to move, the side resigning), else
// any held; else, in a game on the server, the account's session (which acts
// for the seats the account holds).
function tokenFor(side) {
  if (!st) return null;
  const s = seatsOf(st.id);
  return s[side] || s[me.side] || s.S || s.N || (where === 'server' && session ? session.token : null);
}

// The account this browser is signed in to: { token, name } or null.
let session = loadSession();
function loadSession() {
  try { return JSON.parse(localStorage.getItem('mancala.session')) || null; } catch (e) { return null; }
}
function keepSession(s) {
  session = s;
  try {
    if (s) localStorage.setItem('mancala.session', JSON.stringify(s));
    else localStorage.removeItem('mancala.session');
  } catch (e) { /* private mode: for this page only */ }
  showAccount();
}
const sessionToken = () => (session ? session.token : null);

// The back ends there are (backend.js: device, server; either may be null)
// and the one that holds the game shown ('device' or 'server').
let backends = { device: null, server: null };
let where = null;
// Embedded in another page (mancala-board.js, #embed=1&game=...): a board
// with few controls, its game not kept, its height told to the page.
let embedded = false;
// Why this browser only watches (a spent invitation), kept in the status.
let watchNotice = '';

// A request to the JSON API: a game's requests go to its back end, others
// (the games, analysis) to the device when there is one, so that they need
// no network and leave the server's time to online games.
async function api(method, path, body, token, via) {
  const name = via || (path.startsWith('game/') && where) || (backends.device ? 'device' : 'server');
  const b = backends[name];
  if (!b) throw new Error(name === 'server' ? t('Games between two browsers need the mancala server; this page runs without one.')
    : t('The engine is not loaded on this device.'));
  const r = await b.request(method, path, body, token);
  let j = null;
  try { j = JSON.parse(r.body); } catch (e) { j = { text: r.body }; }
  if (r.status < 200 || r.status >= 300) {
    const err = new Error(j.error ? j.error.message : t('The server answered HTTP {status}.', { status: r.status }));
    err.code = j.error ? j.error.code : '';
    // the session sent has ended (signed out elsewhere, expired, a new
    // password): this browser is signed out too
    if (err.code === 'session' && session && token === session.token) {
      keepSession(null);
      $('acct-msg').textContent = t('You were signed out: sign in again.');
    }
    throw err;
  }
  return j;
}

// ---- account: sign in, register, sign out ----------------------------------

function showAccount() {
  $('account').hidden = !backends.server || embedded;
  $('lobby').hidden = !backends.server || embedded;
  $('acct-in').hidden = !session;
  $('acct-box').hidden = !!session;
  $('acct-name').textContent = session ? session.name : '';
}

async function signIn(register) {
  $('acct-msg').textContent = '';
  try {
    const res = await api('POST', register ? 'account' : 'login',
      { name: $('acct-user').value, password: $('acct-pass').value }, null, 'server');
    $('acct-pass').value = '';
    keepSession({ token: res.token, name: res.name });
    $('acct-msg').textContent = register ? t('Welcome, {name}: your account is made.', { name: res.name }) : '';
  } catch (e) {
    $('acct-msg').textContent = e.message;
  }
}

async function signOut() {
  const tok = sessionToken();
  keepSession(null);
  $('acct-msg').textContent = t('Signed out.');
  if (tok) try { await api('POST', 'logout', {}, tok, 'server'); } catch (e) { /* ended already */ }
}

$('acct-form').addEventListener('submit', (ev) => { ev.preventDefault(); signIn(false); });
$('acct-register').addEventListener('click', () => signIn(true));
$('acct-out').addEventListener('click', signOut);

// Is the kept session still live (and whose)?  Asked once at start.
async function checkSession() {
  showAccount();
  if (!session || !backends.server) return;
  try {
    const me = await api('GET', 'me', null, session.token, 'server');
    keepSession({ token: session.token, name: me.name });
  } catch (e) { /* ended: api() signed out; offline: kept */ }
}

function say(msg) { $('status').textContent = msg; }
function log(msg) {
  const li = document.createElement('li');
  li.textContent = msg;
  $('log').appendChild(li);
  $('log').scrollTop = $('log').scrollHeight;
}
const sideName = (s) => (s === 'S' ? t('South') : t('North'));
const otherSide = (s) => (s === 'S' ? 'N' : 'S');

// A move in words for players, from what the state says of it (never the
// bare token of an offer or an answer).
// A game for people: its title and, when it has any, the options that
// differ from the usual ones, as words rather than the spec's codes.
function gameWords(s) {
  const opts = s.spec.includes(':') ? s.spec.slice(s.spec.indexOf(':') + 1).split(',') : [];
  const words = opts.map((o) => o.replace('=', ': ').replace(/_/g, ' '));
  if (!words.length) return s.title || s.game;
  // TRANSLATORS: a game's title and the options that differ from the
  // usual ones (the rules' option names and values: "Oware (match: bo3)")
  return t('{game} ({options})', { game: s.title || s.game, options: words.join('; ') });
}

// What the game's pieces are called (the library's: Goré's stones).
function units() { return st && st.unit ? st.unit[1] : t('seeds'); }

function moveWords(m) {
  if (!m) return '';
  const letters = (pits) => (pits || []).map((i) => st.names[i]).join(', ');
  const priced = m.price !== null && m.price !== undefined;
  switch (m.kind) {
    // TRANSLATORS: a move of Goré's offers or a pass, after the name of
    // the side that makes it ("North offers a, b for 3 captured stones");
    // {pits}: the pits' letters, {units}: the game's pieces
    case 'offer': return priced ? t('offers {pits} for {price} captured {units}', { pits: letters(m.pits), price: m.price, units: units() })
      : t('offers {pits}', { pits: letters(m.pits) });
    case 'accept': return priced ? t('accepts the offer of {pits} and pays {price}', { pits: letters(m.pits), price: m.price })
      : t('accepts the offer of {pits}', { pits: letters(m.pits) });
    case 'refuse': return t('refuses the offer');
    case 'pass': return m.why ? t('passes ({why})', { why: m.why }) : t('passes');
    default: return m.move;
  }
}

// The analysis' verdict on a move (the API's code) in words.
function verdictWord(v) {
  // TRANSLATORS: the verdicts of the whole-game analysis on a move
  return { inaccuracy: tc('verdict', 'inaccuracy'), mistake: tc('verdict', 'mistake'), blunder: tc('verdict', 'blunder') }[v] || v;
}

// A rated game's result on a player's page (the API's code) in words.
function resultCode(r) {
  // TRANSLATORS: the result of a rated game, for the player whose page it is
  return { win: tc('result', 'won'), draw: tc('result', 'drawn'), loss: tc('result', 'lost'), aborted: tc('result', 'aborted') }[r] || r;
}

// ---- drawing ---------------------------------------------------------------

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// South at the bottom unless the player sits North (or asked otherwise).
function flipped() {
  if (prefs.flip === 'on') return true;
  if (prefs.flip === 'off') return false;
  return me.opponent !== 'here' && me.opponent !== 'watch' && me.side === 'N';
}

// What the board shows now: the live game, an animation, or a reviewed position.
function view() {
  if (review) {
    const p = review.positions[review.k];
    const prev = review.k > 0 ? review.positions[review.k - 1] : null;
    return { pits: p.pits, owner: p.owner, cap: p.captured, last: prev && prev.played ? prev.played.pit : null, best: review.best };
  }
  if (setup) return { pits: setup.pits, owner: st.owner, cap: st.captured, last: null, best: null };
  return {
    pits: shown ? shown.pits : st.pits, owner: st.owner, cap: shown ? shown.cap : st.captured,
    last: shown ? shown.from : st.last ? st.last.pit : null, best: hintPit,
  };
}

function draw() {
  document.body.dataset.busy = busy ? '1' : '0'; // for the browser tests
  document.body.dataset.review = review ? '1' : '0';
  const svg = $('board');
  svg.textContent = '';
  if (!st) return;
  const v = view();
  const rows = st.layout.rows, R = rows.length, C = rows[0].length;
  const flip = flipped();
  const cell = 90, store = st.layout.stores ? 80 : 0, pad = 12;
  const W = C * cell + 2 * store + 2 * pad;
  // The size of the letters follows the screen: a count is at least 15 px
  // and a pit's letter 12 px on any screen, and both sit outside the hole
  // so that seeds never cover them.
  // On a wide screen the board's height is kept to about 60 % of the window
  // (a four-row board would push the controls off the screen).
  const wrap = $('board-wrap');
  const avail = Math.max(200, wrap.clientWidth || 800);
  const maxH = embedded ? Infinity : Math.max(260, window.innerHeight * 0.6);
  let scale = avail < 600 ? avail / W : Math.min(1.25, avail / W), fs, ns, nameBand, countBand, rowH, H;
  const hole = cell * 0.86;
  for (let pass = 0; pass < 3; pass++) {
    fs = Math.max(18, Math.ceil(15.5 / scale));
    ns = Math.max(12, Math.ceil(12.5 / scale));
    nameBand = ns + 6;
    countBand = fs + 6;
    rowH = nameBand + hole + countBand + 4;
    H = R * rowH + 2 * pad;
    if (H * scale <= maxH || avail < 600) break;
    scale = maxH / H;
  }
  svg.style.width = avail < 600 ? '100%' : `${Math.round(W * scale)}px`;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.dataset.scale = String(scale);
  el('rect', { x: 2, y: 2, width: W - 4, height: H - 4, rx: 24, class: 'wood' }, svg);
  if (R === 4) el('line', { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, stroke: '#5b3a1e', 'stroke-width': 3 }, svg);
  const playable = new Map();
  if (!busy && myTurn() && !setup && !review && !offerMode) for (const m of st.moves) if (m.pit !== null && m.pit !== undefined) {
    if (!playable.has(m.pit)) playable.set(m.pit, []);
    playable.get(m.pit).push(m.move);
  }
  const offered = new Set();
  if (!review) for (const m of st.moves) if (m.kind === 'accept' && m.pits) m.pits.forEach((i) => offered.add(i));
  pitXY = [];
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) {
    const i = rows[r][c];
    if (i < 0) continue;
    const rr = flip ? R - 1 - r : r, cc = flip ? C - 1 - c : c;
    const x0 = pad + store + cc * cell, y0 = pad + rr * rowH;
    const cx = x0 + cell / 2, cy = y0 + nameBand + hole / 2;
    pitXY[i] = [cx, cy];
    const n = v.pits[i];
    const g = el('g', { class: 'pit own-' + v.owner[i], 'data-pit': i, 'data-name': st.names[i], 'data-count': n }, svg);
    if (playable.has(i)) g.classList.add('playable');
    if (offerSel.has(i)) g.classList.add('selected');
    if (offered.has(i)) g.classList.add('offered');
    if (v.last === i) g.classList.add('last');
    if (v.best === i) g.classList.add('best');
    if (setup && setupMine(i)) g.classList.add('arrange');
    el('rect', { x: x0 + 3, y: y0 + 2, width: cell - 6, height: rowH - 4, rx: 12, class: 'hit' }, g);
    el('circle', { cx, cy, r: hole / 2, class: 'hole' }, g);
    drawSeeds(g, cx, cy, n, i, hole / 2);
    const nm = el('text', { x: cx, y: y0 + nameBand - 4, class: 'name', 'font-size': ns }, g);
    nm.textContent = st.names[i];
    const cnt = el('text', { x: cx, y: cy + hole / 2 + fs, class: 'count', 'font-size': fs }, g);
    cnt.textContent = n;
    g.addEventListener('click', (ev) => clickPit(i, playable.get(i), ev));
    g.addEventListener('contextmenu', (ev) => { if (setup) { ev.preventDefault(); editSetup(i, -1); } });
  }
  if (store) for (const s of ['N', 'S']) {
    const left = (s === 'N') !== flip;
    const x = left ? pad : W - pad - store + 4;
    const g = el('g', { class: 'store', 'data-store': s }, svg);
    el('rect', { x, y: pad, width: store - 4, height: H - 2 * pad, rx: 24 }, g);
    const cnt = el('text', { x: x + (store - 4) / 2, y: H / 2 + fs / 3, 'font-size': fs, class: 'store-count' }, g);
    cnt.textContent = v.cap[s === 'S' ? 0 : 1];
    const top = s === 'N' ? !flip : flip;
    const l = el('text', { x: x + (store - 4) / 2, y: top ? pad + ns + 8 : H - pad - 10, 'font-size': ns }, g);
    l.textContent = s;
  }
}

function drawSeeds(g, cx, cy, n, salt, radius) {
  const k = Math.min(n, 24);
  const sr = radius * 0.13, step = radius * 0.18;
  for (let j = 0; j < k; j++) {
    // a fixed scatter: golden-angle spiral, inside the hole
    const a = j * 2.39996 + salt, rr = Math.min(radius - sr - 1, step * Math.sqrt(j + 0.5));
    el('circle', { cx: cx + rr * Math.cos(a), cy: cy + rr * Math.sin(a), r: sr, class: 'seed' }, g);
  }
}

function resultWords(r) {
  if (!r) return '';
  if (r.text) return r.text;
  return r.winner === 'draw' ? t('A draw.') : t('{side} wins.', { side: sideName(r.winner) });
}

function render() {
  draw();
  if (!st) return;
  // each clock beside its own row: North's above the board unless flipped
  const fl = flipped(), top = fl ? $('clock-S') : $('clock-N'), bottom = fl ? $('clock-N') : $('clock-S');
  if ($('info').firstElementChild !== top) { $('info').prepend(top); $('info2').prepend(bottom); }
  // the accounts that hold the seats, by their names (the server's words)
  for (const s of ['S', 'N']) {
    const who = st.players && st.players[s];
    $('clock-' + s).firstChild.textContent = `${sideName(s)}${who ? ' · ' + who : ''} `;
  }
  const over = st.over;
  if (shown && shown.words) {
    say(shown.words); // a move being shown: not yet the next one's turn
  } else if (review) {
    const n = review.positions.length - 1, p = review.positions[review.k];
    const side = sideName(p.side);
    say(review.k === 0 ? t('Review: the start, {side} to move.', { side })
      : t('Review: after move {k} of {n}, {side} to move.', { k: review.k, n, side }));
  } else if (setup) {
    const side = sideName(setup.side);
    say(setup.side === me.side || me.opponent === 'here' ? t('{side}: arrange your seeds, then press Done.', { side })
      : t('{side} arranges its seeds.', { side }));
  } else if (st.setup) {
    say(t('Waiting for {side} to arrange its seeds.', { side: sideName(st.setup.turn) }));
  } else if (over) {
    say(t('Game over: {result}', { result: resultWords(st.result) }));
  } else {
    const side = sideName(st.side);
    // TRANSLATORS: {side} is South or North (as translated here)
    let s = myTurn() ? t('{side} to move (you).', { side }) : t('{side} to move.', { side });
    if (me.opponent === 'watch' && watchNotice) s = `${watchNotice} ${s}`;
    if (st.side !== me.side && me.opponent === 'computer') s += ' ' + t('The computer is thinking…');
    say(s);
  }
  // TRANSLATORS: a match of several games: {round} the game's number,
  // {score} the score so far ("2-1")
  $('match').textContent = st.match.on ? t('Match, game {round}: {score}', { round: st.match.round, score: st.match.score }) : '';
  renderRatings();
  $('next').hidden = !(over && st.match.on && !st.match.winner);
  $('save').download = `${st.game}-${st.id.slice(0, 8)}.mcr`;
  $('howto').href = I18n.howto(st.game);
  renderChoices();
  renderMoveList();
  renderReviewBar();
  $('offer').hidden = !(myTurn() && !review && st.moves.some((m) => m.kind === 'offer'));
  const seats = seatsOf(st.id);
  const other = otherSide(me.side);
  $('link').hidden = !(me.opponent === 'link' && seats.invite && st.seats[other] === 'open');
  $('link-url').value = seats.invite ? `${pageURL()}#g=${st.id}&invite=${seats.invite}` : '';
  $('watch').hidden = where !== 'server';
  $('watch-url').value = `${pageURL()}#g=${st.id}&watch=1`;
  $('delete').hidden = me.opponent === 'watch' || !seats.owner; // only the creator may
  for (const b of ['undo', 'redo', 'hint', 'resign']) $(b).hidden = me.opponent === 'watch';
  // no resigning a game that is over, nor while the question is asked
  if (st.over || !$('resign-ask').hidden) $('resign').hidden = true;
  // the engine's help is off during a game between two people (the
  // server says when it is open: state.help)
  const help = st.help !== false;
  if (!help) $('hint').hidden = true;
  $('rev-eval').hidden = !help;
  maybeArrange();
  runClocks();
  keepDeviceGame();
  tellHeight();
  renderTakeback();
  follow();
  if (pendingState && !busy) {
    const p = pendingState;
    pendingState = null;
    // not a state older than the one the page has since drawn
    if (!st || p.version > st.version) setTimeout(() => followState(p), 0);
  }
}

// Takebacks between two people (issue 44): Undo asks, the other player
// accepts or declines; the server keeps the request (state.takeback).
let takebackSeen = '';
function renderTakeback() {
  const tb = st && st.takeback, two = me.opponent === 'link';
  const key = tb ? `${st.id}:${tb.by}:${tb.status}:${st.ply}` : '';
  const mine = tb && tb.by === me.side;
  $('takeback-bar').hidden = !(two && tb && tb.status === 'asked' && !mine && !st.over);
  if (!$('takeback-bar').hidden) $('takeback-text').textContent = t('{side} asks to take back its last move.', { side: sideName(tb.by) });
  $('redo').hidden = $('redo').hidden || two;
  if (key === takebackSeen) return;
  takebackSeen = key;
  if (!two || !tb) return;
  if (tb.status === 'asked') {
    log(mine ? t('You asked {side} to take back your last move.', { side: sideName(otherSide(me.side)) })
      : t('{side} asks to take back its last move.', { side: sideName(tb.by) }));
  } else if (tb.status === 'declined') {
    log(mine ? t('{side} declined your takeback.', { side: sideName(otherSide(me.side)) }) : t('You declined the takeback.'));
  }
}
$('takeback-yes').addEventListener('click', () => act('takeback', { accept: true }, me.side, false));
$('takeback-no').addEventListener('click', () => act('takeback', { accept: false }, me.side, false));

// Embedded: the page around us sizes its frame to the board.
function tellHeight() {
  if (embedded && window.parent !== window) {
    window.parent.postMessage({ type: 'mancala-board-height', height: document.documentElement.scrollHeight }, '*');
  }
}

// Embedded: the game the element's attributes ask for.
async function startEmbedded(h) {
  embedded = true;
  document.body.classList.add('embed');
  const game = h.get('game');
  if (games.some((g) => g.name === game)) $('game').value = game;
  $('options').value = h.get('options') || '';
  $('opponent').value = h.get('vs') === 'here' ? 'here' : 'computer';
  const lv = Number(h.get('level'));
  $('level').value = String(lv >= 1 && lv <= 10 ? lv : DEFAULT_LEVEL);
  $('myside').value = h.get('side') === 'N' ? 'N' : 'S';
  $('again').hidden = false;
  $('full').hidden = false;
  showGameInfo();
  await newGame();
}
$('again').addEventListener('click', () => newGame());
window.addEventListener('resize', tellHeight);

// The page's address without its fragment (the links it offers).
function pageURL() { return location.href.replace(/#.*$/, ''); }

// A game on this device lives in the worker's memory: its record is kept
// in this browser's storage after every change, so a reload (or a phone
// that closed the page) gets it back (restoreDeviceGame).
let keptVersion = null;
async function keepDeviceGame() {
  if (embedded || where !== 'device' || !st || keptVersion === `${st.id}:${st.version}`) return;
  const id = st.id, v = st.version;
  keptVersion = `${id}:${v}`;
  try {
    const rec = await api('GET', `game/${id}/record`);
    localStorage.setItem('mancala.device', JSON.stringify({ record: rec.text, me }));
  } catch (e) { keptVersion = null; }
}

async function restoreDeviceGame() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem('mancala.device')); } catch (e) { kept = null; }
  if (!kept || !kept.record || !backends.device) return false;
  try {
    me = Object.assign({ side: 'S', opponent: 'computer', level: DEFAULT_LEVEL }, kept.me);
    const res = await api('POST', 'load', { record: kept.record, seats: 'both' }, null, 'device');
    where = 'device';
    held(res);
    $('opponent').value = me.opponent;
    $('myside').value = me.side;
    $('level').value = String(me.level);
    start(res.state, t('Your game on this device, as you left it.'));
    return true;
  } catch (e) {
    return false;
  }
}

// The buttons for moves without a pit: answers to an offer (with the pits
// and the price), a pass (with its reason).
function renderChoices() {
  const ch = $('choices');
  ch.textContent = '';
  delete ch.dataset.from;
  if (busy || !myTurn() || setup || review) return;
  const answer = st.moves.find((m) => m.kind === 'accept');
  if (answer) {
    const p = document.createElement('p');
    p.className = 'offer-note';
    const words = { side: sideName(otherSide(st.side)), pits: (answer.pits || []).map((i) => st.names[i]).join(', '), price: answer.price, units: units() };
    p.textContent = answer.price !== null && answer.price !== undefined
      ? t('{side} offers {pits} for {price} of your captured {units} (marked on the board).', words)
      : t('{side} offers {pits} (marked on the board).', words);
    ch.appendChild(p);
  }
  for (const m of st.moves) if ((m.pit === null || m.pit === undefined) && m.kind !== 'offer') {
    const b = document.createElement('button');
    b.dataset.move = m.move;
    b.dataset.kind = m.kind || '';
    if (m.kind === 'accept') b.textContent = m.price !== null && m.price !== undefined ? t('Accept (pay {price})', { price: m.price }) : t('Accept');
    else if (m.kind === 'refuse') b.textContent = t('Refuse');
    else if (m.kind === 'pass') b.textContent = t('Pass');
    else b.textContent = m.move;
    b.addEventListener('click', () => play(m.move));
    ch.appendChild(b);
    if (m.kind === 'pass' && m.why) {
      const w = document.createElement('span');
      w.className = 'why';
      w.textContent = m.why;
      ch.appendChild(w);
    }
  }
}

function myTurn() {
  if (!st || st.over || me.opponent === 'watch' || st.setup) return false;
  return me.opponent === 'here' || st.side === me.side;
}

// ---- clocks (kept by the server: state.clock; counted down here between answers) ----

function fmtClock(sec) {
  if (sec < 10) return sec.toFixed(1);
  const secs = Math.floor(sec), m = Math.floor(secs / 60), h = Math.floor(m / 60);
  const mm = h ? String(m % 60).padStart(2, '0') : String(m);
  return (h ? h + ':' : '') + `${mm}:${String(secs % 60).padStart(2, '0')}`;
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
    $('clock-' + s).title = c ? c.text : t('no clock');
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
// The form shows a game joined or reopened as it is: its game, options and
// clock (a friend who joins a 120+2 game sees 120+2, not "none").
function formFromState() {
  if (!st) return;
  $('game').value = st.game;
  fillClockChoices();
  const colon = st.spec.indexOf(':');
  $('options').value = colon < 0 ? '' : st.spec.slice(colon + 1);
  const c = st.clock && st.clock.control ? st.clock.control : 'none';
  let m;
  if ((m = /^move:([\d.]+)$/.exec(c))) { $('clock-kind').value = 'move'; $('clock-secs').value = m[1]; }
  else if ((m = /^game:([\d.]+)(?:\+([\d.]+))?$/.exec(c))) {
    $('clock-kind').value = 'game';
    $('clock-secs').value = m[1];
    $('clock-inc').value = m[2] || '0';
  } else if ([...$('clock-kind').options].some((o) => o.value === 'mode:' + c)) $('clock-kind').value = 'mode:' + c;
  else $('clock-kind').value = 'none';
  clockKindShown = $('clock-kind').value;
  clockForm();
  showGameInfo();
}

// The time control chosen, in the server's text form.
function clockControl() {
  const k = $('clock-kind').value, secs = Number($('clock-secs').value), inc = Number($('clock-inc').value) || 0;
  if (k.startsWith('mode:')) return k.slice(5);
  if (k === 'move') return `move:${secs}`;
  if (k === 'game') return `game:${secs}` + (inc > 0 ? `+${inc}` : '');
  return 'none';
}

// ---- moves and animation ---------------------------------------------------

function clickPit(i, moves, ev) {
  if (review) return;
  if (setup) return editSetup(i, ev.shiftKey || setup.take ? -1 : 1);
  if (offerMode) {
    // only pits some legal offer contains (the state's offers say which)
    if (!st.moves.some((m) => m.kind === 'offer' && (m.pits || []).includes(i))) return;
    offerSel.has(i) ? offerSel.delete(i) : offerSel.add(i);
    showOffer();
    return draw();
  }
  if (!moves) return whyNot(i);
  if (busy) return;
  hintPit = null;
  if (moves.length === 1) return play(moves[0]);
  // several moves from one pit (Omweso directions, the three-seed opening):
  // each with the library's words for what sets it apart
  const ch = $('choices');
  ch.dataset.from = st.names[i]; // for the browser tests
  // TRANSLATORS: before the moves that sow from one pit ({pit}: its letter)
  ch.textContent = t('From {pit}:', { pit: st.names[i] }) + ' ';
  for (const m of moves) {
    const info = st.moves.find((x) => x.move === m);
    const b = document.createElement('button');
    b.textContent = m;
    b.dataset.move = m;
    b.addEventListener('click', () => play(m));
    ch.appendChild(b);
    if (info && info.choice && info.choice !== m) {
      b.title = info.choice;
      const w = document.createElement('span');
      w.className = 'why';
      w.textContent = info.choice;
      ch.appendChild(w);
    }
  }
}

// A pit with no move now, clicked on the player's turn: the library says
// why (its refusal of the pit's move: empty, the other side's, a rule), in
// the status and the log.
async function whyNot(i) {
  if (busy || !myTurn() || setup || review || offerMode) return;
  busy = true;
  try {
    const res = await api('POST', `game/${st.id}/play`, { move: st.names[i], version: st.version }, tokenFor(st.side));
    busy = false;
    await apply(res); // a move after all: played
  } catch (e) {
    busy = false;
    render();
    say(e.message);
    log(e.message);
  }
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

// A short click per seed sown (WebAudio; off unless asked for).
let audio = null;
function tick(kind) {
  if (!prefs.sound) return;
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain(), at = audio.currentTime;
    o.frequency.value = kind === 'capture' ? 330 : 880;
    g.gain.setValueAtTime(0.15, at);
    g.gain.exponentialRampToValueAtTime(0.001, at + 0.06);
    o.connect(g).connect(audio.destination);
    o.start(at);
    o.stop(at + 0.07);
  } catch (e) { /* no sound here */ }
}

function stepMs(drops) {
  if (prefs.speed === 'off') return 0;
  const base = prefs.speed === 'fast' ? 50 : 140;
  return drops > 150 ? 0 : drops > 40 ? base / 3 : base;
}

// Play the trace of a move on the board from `before` (pits, captured, side);
// `from` is the pit the move sows from (the state's last move), marked.  The
// log gets the library's sentence for the whole move (res.explain).
async function animate(before, res, from) {
  const tr = res.trace || [];
  const m = (before.moves || []).find((x) => x.move === res.move);
  shown = {
    pits: before.pits.slice(), cap: before.captured.slice(), from: from === undefined ? null : from,
    words: m && m.kind && m.kind !== 'sow' ? t('{side} {move}…', { side: sideName(before.side), move: moveWords(m) })
      : t('{side} plays {move}…', { side: sideName(before.side), move: res.move }),
  };
  say(shown.words);
  const drops = tr.filter((e) => e.kind === 'drop').length;
  const step = stepMs(drops);
  log(res.explain || `${sideName(before.side)}: ${res.move}`);
  for (const e of tr) {
    if (e.kind === 'lift') shown.pits[e.pit] = 0;
    else if (e.kind === 'drop') shown.pits[e.pit] = e.n;
    else if (e.kind === 'capture') {
      shown.pits[e.pit] = Math.max(0, shown.pits[e.pit] - e.n);
      if (st.layout.stores) shown.cap[e.aux] += e.n;
    }
    if (step && ['lift', 'drop', 'capture'].includes(e.kind)) {
      if (e.kind !== 'lift') tick(e.kind);
      draw();
      const g = document.querySelector(`g.pit[data-pit="${e.pit}"]`);
      if (g && e.kind === 'capture') g.classList.add('flash');
      if (g && e.kind === 'drop') g.classList.add('drop');
      await sleep(e.kind === 'capture' ? 3 * step : step);
    }
  }
  if (res.trace_dropped) log('  ' + tn('({n} more event not shown)', '({n} more events not shown)', res.trace_dropped));
  shown = null;
}

async function apply(res, think = true) {
  const before = st;
  busy = true;
  try {
    if (res.move && res.trace) await animate(before, res, res.state.last ? res.state.last.pit : null);
  } finally {
    busy = false;
  }
  st = res.state;
  hintPit = null;
  render();
  if (st.over) log(t('Game over: {result}', { result: resultWords(st.result) }));
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

// No longer busy: a state the live stream brought meanwhile is shown now
// (render does the same; this is for the paths that do not render).
function idle() {
  busy = false;
  if (!pendingState) return;
  const p = pendingState;
  pendingState = null;
  if (!st || p.version > st.version) setTimeout(() => followState(p), 0);
}

// A request on the game; the answer's state is drawn.  Returns true when done.
async function act(what, body, side, think = what !== 'undo' && what !== 'redo') {
  if (busy || !st) return false;
  busy = true;
  try {
    const res = await api('POST', `game/${st.id}/${what}`, body, tokenFor(side || me.side));
    busy = false;
    if (what === 'hint') {
      showHint(res);
      idle();
      return true;
    }
    await apply(res, think);
    return true;
  } catch (e) {
    idle();
    say(e.message);
    return false;
  }
}

function showHint(res) {
  const m = st.moves.find((x) => x.move === res.hint);
  hintPit = m && m.pit !== null && m.pit !== undefined ? m.pit : null;
  const words = m ? moveWords(m) : res.hint;
  const perfect = res.perfect ? ` (${res.perfect})` : '';
  log(t('Hint: {move}', { move: words }) + perfect);
  draw();
  const what = { move: words, pit: hintPit !== null ? st.names[hintPit] : '' };
  let s = m && m.kind !== 'sow' && m.kind
    // TRANSLATORS: the engine's hint: {move} the move (a pit's letter, or
    // an offer's words), {pit} the pit's letter
    ? hintPit !== null ? t('Hint: {move} (the pit marked on the board, {pit})', what) : t('Hint: {move}', what)
    : hintPit !== null ? t('Hint: play {move} (the pit marked on the board, {pit})', what) : t('Hint: play {move}', what);
  say(`${s}${perfect}.`);
}

async function maybeComputer() {
  // a house bot of the lobby (state.bot): this seat asks the server for
  // its move, which the server plays at the bot's own level
  const bot = st && where === 'server' && me.opponent === 'link' && st.bot && st.bot !== me.side;
  if (!st || st.over || st.setup || (me.opponent !== 'computer' && !bot) || st.side === me.side || busy || review) return;
  render();
  busy = true;
  try {
    const res = await api('POST', `game/${st.id}/engine`, bot ? {} : { level: me.level, seconds: computerSeconds() },
      bot ? tokenFor(me.side) : tokenFor(st.side));
    busy = false;
    await apply(res);
  } catch (e) {
    idle();
    say(e.message);
  }
}

// The computer's thinking time: a second, less at the low levels.
function computerSeconds() { return me.level <= 2 ? 0.2 : me.level <= 5 ? 0.5 : 1; }

// ---- games -----------------------------------------------------------------

function gameInfo(name) { return games.find((g) => g.name === name); }

function spec(extra) {
  let o = $('options').value.trim().replace(/\s+/g, '');
  if (extra) o = o ? o + ',' + extra : extra;
  return $('game').value + (o ? ':' + o : '');
}

function readForm() {
  me = { side: $('myside').value, opponent: $('opponent').value, level: Number($('level').value) };
}

// The seats a new game or load asks for, and who plays the computer (a
// new game's tag; a record keeps its own).
function seatBody(body) {
  if (me.opponent === 'computer' && !body.record) body[me.side === 'S' ? 'north' : 'south'] = `computer level ${me.level}`;
  // Against a person elsewhere: take one seat, invite them to the other;
  // the engine's help during the game only if asked for (both see it).
  body.seats = me.opponent === 'link' ? me.side : 'both';
  if (me.opponent === 'link' && $('assist').checked && !body.record) body.assist = true;
  return body;
}

// Where a new game is played: with a person on another browser, on the
// server; otherwise on this device when it can.
function placeFor(opponent) {
  return opponent === 'link' || !backends.device ? 'server' : 'device';
}

async function newGame(extraOption) {
  readForm();
  try {
    const body = seatBody({ game: spec(extraOption) });
    const time = clockControl();
    if (time !== 'none') body.time = time;
    const via = placeFor(me.opponent);
    // on the server, made while signed in: the seats are the account's
    const res = await api('POST', 'new', body, via === 'server' ? sessionToken() : null, via);
    where = via;
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

function address() {
  // A game on this device has no address: it comes back from storage.
  if (embedded) return;
  if (where === 'device') history.replaceState(null, '', pageURL());
  else history.replaceState(null, '', `#g=${st.id}&side=${me.side}&vs=${me.opponent}&level=${me.level}`);
}

function start(state, note) {
  st = state;
  setup = null;
  review = null;
  hintPit = null;
  offerMode = false;
  offerSel.clear();
  $('log').textContent = '';
  log(note || t('New game: {game}.', { game: gameWords(st) }));
  address();
  render();
  maybeComputer();
}

// ---- custom set-up (Omweso W3): each seat arranges its own pits ------------

// Whether this browser arranges side now (its seat; both in one browser).
function arranges(side) {
  if (me.opponent === 'watch') return false;
  if (me.opponent === 'here') return true;
  if (me.opponent === 'computer') return side === me.side;
  return side === me.side;
}
function setupMine(i) { return setup && st.owner[i] === setup.side; }

// Open the editor when it is this browser's turn to arrange; the computer's
// side keeps the library's arrangement.
let arrangeFailed = null; // the game version at which asking failed (no loop)
async function maybeArrange() {
  if (!st || !st.setup || setup || busy || review) return;
  const turn = st.setup.turn;
  if (me.opponent === 'computer' && turn !== me.side) {
    if (arrangeFailed === st.id + st.version) return;
    busy = true;
    try {
      const res = await api('POST', `game/${st.id}/setup`, { side: turn, pits: null }, tokenFor(turn));
      st = res.state;
      log(t('{side} (the computer) keeps the usual set-up.', { side: sideName(turn) }));
    } catch (e) {
      arrangeFailed = st.id + st.version;
      idle();
      say(e.message);
      return;
    }
    busy = false;
    render();
    maybeComputer();
    return;
  }
  if (!arranges(turn)) return;
  setup = { pits: st.pits.slice(), hand: 0, side: turn, take: false };
  $('setup-bar').hidden = false;
  setupNote('');
  render();
}

function setupNote(extra) {
  const cap = st.setup && st.setup.cap;
  $('setup-count').textContent = t('In hand: {n}.', { n: setup.hand }) +
    (cap ? ' ' + tn('At most {n} seed a pit.', 'At most {n} seeds a pit.', cap) : '') + (extra ? ' ' + extra : '');
  $('setup-play').disabled = setup.hand > 0;
  $('setup-take').setAttribute('aria-pressed', setup.take ? 'true' : 'false');
}

function editSetup(i, d) {
  if (!setupMine(i)) { setupNote(t('{pit} is not a pit of {side}.', { pit: st.names[i], side: sideName(setup.side) })); return; }
  const cap = st.setup && st.setup.cap;
  if (d < 0) {
    if (setup.pits[i] === 0) return;
    setup.pits[i]--;
    setup.hand++;
  } else {
    if (setup.hand === 0) { setupNote(t('Take seeds first (Take seeds, right-click or shift-click).')); return; }
    if (cap && setup.pits[i] >= cap) { setupNote(t('{pit} holds {n}, the most a pit may get.', { pit: st.names[i], n: cap })); return; }
    setup.pits[i]++;
    setup.hand--;
  }
  setupNote('');
  draw();
}

$('edit-setup').addEventListener('click', () => newGame(setupOption()));
$('setup-take').addEventListener('click', () => { if (setup) { setup.take = !setup.take; setupNote(''); } });
$('setup-cancel').addEventListener('click', () => {
  if (!setup) return;
  setup = { pits: st.pits.slice(), hand: 0, side: setup.side, take: false };
  setupNote('');
  render();
});
$('setup-play').addEventListener('click', async () => {
  if (!setup || setup.hand > 0) return;
  const side = setup.side;
  try {
    const res = await api('POST', `game/${st.id}/setup`, { side, pits: setup.pits }, tokenFor(side));
    st = res.state;
    setup = null;
    $('setup-bar').hidden = true;
    log(t('{side} arranged its seeds.', { side: sideName(side) }));
    render();
    maybeComputer();
  } catch (e) {
    setupNote(e.message);
  }
});

// The option that makes a game's set-up custom, as /api/games describes it
// (a "setup" option with a "custom" value), or '' when the game has none.
function setupOption() {
  const g = gameInfo($('game').value);
  if (!g) return '';
  const line = g.options.split('\n').find((l) => /^\s*setup\s/.test(l));
  return line && /\bcustom\b/.test(line) ? 'setup=custom' : '';
}

// ---- offers (Goré G6): the legal offers and their price come from the state --

function showOffer() {
  const want = [...offerSel].sort((a, b) => a - b).join(',');
  const m = st.moves.find((x) => x.kind === 'offer' && (x.pits || []).slice().sort((a, b) => a - b).join(',') === want);
  $('offer-send').disabled = !m;
  $('offer-send').dataset.move = m ? m.move : '';
  if (!offerSel.size) $('offer-pay').textContent = '';
  else if (m) $('offer-pay').textContent = t('{side} would pay {price} captured {units}.', { side: sideName(otherSide(st.side)), price: m.price, units: units() });
  else {
    // why not: the library's words for this choice of pits
    $('offer-pay').textContent = t('Not an offer you may make now.');
    const asked = want, id = st.id;
    api('POST', `game/${id}/offer`, { pits: [...offerSel] }).then((r) => {
      const now = [...offerSel].sort((a, b) => a - b).join(',');
      if (!r.legal && r.why && st && st.id === id && now === asked) $('offer-pay').textContent = t('Not an offer you may make now: {why}.', { why: r.why });
    }).catch(() => {});
  }
}

$('offer').addEventListener('click', () => {
  offerMode = true;
  offerSel.clear();
  $('offer-bar').hidden = false;
  showOffer();
  draw();
});
$('offer-cancel').addEventListener('click', () => { offerMode = false; offerSel.clear(); $('offer-bar').hidden = true; render(); });
$('offer-send').addEventListener('click', async () => {
  const move = $('offer-send').dataset.move;
  if (!move) return;
  offerMode = false;
  offerSel.clear();
  $('offer-bar').hidden = true;
  await play(move);
});

// ---- review: step through the game, ask the engine about any position -------

async function enterReview(k) {
  if (!st || busy || setup) return;
  try {
    if (!review || review.version !== st.version) {
      const res = await api('GET', `game/${st.id}/positions`);
      review = { k: 0, positions: res.positions, version: res.version, best: null, evals: {} };
    }
    review.k = Math.max(0, Math.min(k, review.positions.length - 1));
    review.best = null;
    render();
    showEval();
  } catch (e) {
    say(e.message);
  }
}

function leaveReview() {
  review = null;
  render();
  maybeComputer();
}

function reviewStep(d) {
  if (!review) return enterReview(d < 0 ? st.ply - 1 : st.ply);
  const k = review.k + d;
  if (k < 0 || k >= review.positions.length) return;
  enterReview(k);
}

function renderReviewBar() {
  $('review-bar').dataset.on = review ? '1' : '0';
  $('rev-exit').hidden = !review;
  $('rev-eval').disabled = !review;
  if (!review) { $('eval').hidden = true; $('eval-text').textContent = ''; }
  $('analyse').disabled = !st || st.ply === 0 || !!analysing;
  $('analyse').hidden = !!st && st.help === false;
  renderAnalysis();
}

// ---- whole-game analysis: every position valued, the mistakes marked ------

// {id, version, moves: [{ply, side, move, best, before, after, verdict,
// words}], graph: [South's chance at each position]}: the library's review
// (POST game/ID/review) of the engine's values (POST game/ID/analysis).
let analysis = null, analysing = null;
const ANALYSIS_SECONDS = 0.25; // a position

async function analyseGame() {
  if (!st || busy || analysing || st.ply === 0) return;
  const id = st.id, version = st.version, total = st.over ? st.ply : st.ply + 1;
  analysing = { id, version };
  const scores = [], best = [];
  $('analysis').hidden = false;
  $('analysis-run').hidden = false;
  $('analysis-progress').max = total;
  renderReviewBar();
  try {
    for (let k = 0; k < total; k++) {
      $('analysis-progress').value = k;
      $('analysis-note').textContent = t('The engine values position {k} of {n}…', { k: k + 1, n: total });
      let r = null;
      for (let tries = 0; !r; tries++) {
        try {
          r = await api('POST', `game/${id}/analysis`, { ply: k, level: 10, seconds: ANALYSIS_SECONDS }, tokenFor(me.side));
        } catch (e) {
          if (e.code !== 'busy' || tries >= 3) throw e; // busy: ask again
        }
      }
      if (!st || st.id !== id || st.version !== version) throw new Error(t('The game changed: the analysis stopped.'));
      scores.push(r.score);
      best.push(r.best);
    }
    $('analysis-progress').value = total;
    const rv = await api('POST', `game/${id}/review`, { scores, best });
    analysis = { id, version, moves: rv.moves, graph: rv.graph };
    $('analysis-note').textContent = '';
    $('analysis-run').hidden = true;
    log(t('Analysis: {summary}', { summary: analysisSummary() }));
  } catch (e) {
    $('analysis-note').textContent = e.message;
  } finally {
    analysing = null;
    renderMoveList();
    renderReviewBar();
  }
}

function analysisFits() { return analysis && st && analysis.id === st.id && analysis.version === st.version; }

function analysisSummary() {
  return ['S', 'N'].map((side) => {
    const c = (v) => analysis.moves.filter((m) => m.side === side && m.verdict === v).length;
    // TRANSLATORS: the analysis' summary of one side: "South: 2
    // inaccuracies, 1 mistake, 0 blunders"
    return t('{side}: {inaccuracies}, {mistakes}, {blunders}', {
      side: sideName(side),
      inaccuracies: tn('{n} inaccuracy', '{n} inaccuracies', c('inaccuracy')),
      mistakes: tn('{n} mistake', '{n} mistakes', c('mistake')),
      blunders: tn('{n} blunder', '{n} blunders', c('blunder')),
    });
  }).join('; ') + '.';
}

// The graph: South's chance to win from the start to the end (South's
// share light, North's dark), the moves judged marked, the reviewed one
// lined; a click reviews the position under it.
function renderAnalysis() {
  const g = $('graph');
  if (!analysisFits()) {
    if (!analysing) $('analysis').hidden = true;
    return;
  }
  $('analysis').hidden = false;
  $('analysis-sum').textContent = analysisSummary();
  g.textContent = '';
  const W = 600, H = 120, n = analysis.graph.length;
  const x = (k) => (n > 1 ? (k * W) / (n - 1) : W / 2), y = (p) => H - p * H;
  const pts = analysis.graph.map((p, k) => `${x(k).toFixed(1)},${y(p).toFixed(1)}`);
  el('polygon', { points: `0,${H} ${pts.join(' ')} ${W},${H}`, class: 'south' }, g);
  el('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'mid' }, g);
  for (const m of analysis.moves) if (m.verdict) {
    el('circle', { cx: x(m.ply), cy: y(analysis.graph[m.ply]), r: 5, class: `v-${m.verdict}` }, g).appendChild(
      Object.assign(document.createElementNS(SVGNS, 'title'), { textContent: t('{ply}. {move}: {verdict}, better {best}', { ply: m.ply, move: m.move, verdict: verdictWord(m.verdict), best: m.best }) }));
  }
  if (review) el('line', { x1: x(review.k), x2: x(review.k), y1: 0, y2: H, class: 'now' }, g);
}

$('analyse').addEventListener('click', analyseGame);
$('graph').addEventListener('click', (e) => {
  if (!analysisFits()) return;
  const r = $('graph').getBoundingClientRect();
  const k = Math.round(((e.clientX - r.left) / r.width) * (analysis.graph.length - 1));
  enterReview(k);
});

// The move list: each move in words once the positions are known (the
// server's facts of each played move), its token until then.
let played = { version: -1, id: null, moves: [] };
async function refreshPlayed() {
  if (!st || (played.version === st.version && played.id === st.id)) return;
  const want = st.version, id = st.id;
  played.version = want;
  played.id = id;
  try {
    const res = review && review.version === want ? { positions: review.positions }
      : await api('GET', `game/${id}/positions`);
    if (!st || st.id !== id) return;
    played.moves = res.positions.map((p) => p.played).filter((m) => m);
    played.sides = res.positions.map((p) => p.side);
    renderMoveList();
  } catch (e) { played.version = -1; }
}

function renderMoveList() {
  const ol = $('moves');
  ol.textContent = '';
  const hist = st.history;
  const known = played.id === st.id && played.moves.length === hist.length;
  // numbered as records and the terminal number them: "1. C d 2. A f",
  // "1... c" when North starts (the movers from the positions when known,
  // else by turns back from the side to move)
  const moverOf = (i) => (known && played.sides ? played.sides[i]
    : (st.ply - i) % 2 === 0 ? st.side : otherSide(st.side));
  let num = 0;
  hist.forEach((tok, i) => {
    const li = document.createElement('li');
    if (moverOf(i) === 'S') li.dataset.num = `${++num}.`;
    else if (i === 0) li.dataset.num = `${++num}...`;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = known ? moveWords(played.moves[i]) : tok;
    b.dataset.ply = String(i + 1);
    b.dataset.move = tok;
    const judged = analysisFits() ? analysis.moves[i] : null;
    if (judged && judged.verdict) {
      b.classList.add(`v-${judged.verdict}`);
      b.dataset.verdict = judged.verdict;
      b.title = t('{verdict}: better {best} (before it, {words})', { verdict: verdictWord(judged.verdict), best: judged.best, words: judged.words });
    }
    if (review && review.k === i + 1) b.classList.add('current');
    b.addEventListener('click', () => enterReview(i + 1));
    li.appendChild(b);
    ol.appendChild(li);
  });
  if (!known) refreshPlayed();
}

// The engine's view of the shown position: a bar (South's share) and a line,
// the best move marked on the board.
async function evaluate() {
  if (!review) return;
  const k = review.k, p = review.positions[k];
  if (!review.evals[k]) {
    $('eval-text').textContent = t('The engine is thinking…');
    try {
      review.evals[k] = await api('POST', 'analyze', { game: st.spec, position: p.position, level: 10, seconds: 1 });
    } catch (e) {
      review.evals[k] = { error: e.message };
    }
  }
  if (review && review.k === k) showEval();
}

function showEval() {
  if (!review) return;
  const e = review.evals[review.k];
  $('eval').hidden = !e || !!e.error;
  if (!e) { $('eval-text').textContent = ''; review.best = null; return draw(); }
  if (e.error) { $('eval-text').textContent = e.error; review.best = null; return draw(); }
  const south = e.side === 'S' ? e.score : -e.score; // South's view
  // the library's words and chance: seeds where seeds decide the game,
  // a chance to win where survival does
  const words = e.words;
  const share = e.side === 'S' ? e.chance : 1 - e.chance;
  $('eval-south').style.width = `${(share * 100).toFixed(1)}%`;
  $('eval').dataset.south = String(south);
  review.best = e.pit === null || e.pit === undefined ? null : e.pit;
  $('eval-text').textContent = review.best !== null ? t('{words}; best: {best} (marked).', { words, best: e.best })
    : t('{words}; best: {best}.', { words, best: e.best });
  draw();
}

$('rev-first').addEventListener('click', () => enterReview(0));
$('rev-prev').addEventListener('click', () => reviewStep(-1));
$('rev-next').addEventListener('click', () => reviewStep(1));
$('rev-last').addEventListener('click', () => enterReview(1e9));
$('rev-eval').addEventListener('click', evaluate);
$('rev-exit').addEventListener('click', leaveReview);
document.addEventListener('keydown', (e) => {
  if (!st || /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
  if (e.key === 'ArrowLeft') { e.preventDefault(); reviewStep(-1); }
  else if (e.key === 'ArrowRight') { e.preventDefault(); reviewStep(1); }
  else if (e.key === 'Home') { e.preventDefault(); enterReview(0); }
  else if (e.key === 'End') { e.preventDefault(); enterReview(1e9); }
  else if (e.key === 'Escape' && review) leaveReview();
});

// ---- the rest of the controls ---------------------------------------------

$('newgame').addEventListener('submit', (e) => { e.preventDefault(); newGame(); });
$('undo').addEventListener('click', async () => {
  hintPit = null;
  if (!(await act('undo'))) return;
  if (me.opponent === 'link') return; // a request to the other player
  // against the computer: take back its reply and your move
  if (me.opponent === 'computer' && st && st.side !== me.side && st.ply > 0) await act('undo');
});
$('redo').addEventListener('click', async () => {
  hintPit = null;
  // against the computer: your move and its reply again, as they were played
  if (!(await act('redo', {}, st && st.side))) return;
  if (me.opponent === 'computer' && st && st.side !== me.side && !st.over) {
    if (!(await act('redo', {}, st.side))) { render(); maybeComputer(); }
  }
});
$('hint').addEventListener('click', () => act('hint', { level: 10, seconds: 1 }));
// Resign asks first, as the full screen does: one stray click ends nothing.
$('resign').addEventListener('click', () => {
  if (!st || st.over) return;
  $('resign').hidden = true;
  $('resign-ask').hidden = false;
  $('resign-yes').focus();
});
function closeResignAsk() { $('resign-ask').hidden = true; render(); }
$('resign-no').addEventListener('click', closeResignAsk);
$('resign-yes').addEventListener('click', async () => {
  $('resign-ask').hidden = true;
  if (st && !st.over) await act('resign', { side: me.opponent === 'here' ? st.side : me.side });
  render();
});
$('next').addEventListener('click', () => act('next'));
// Save: the record as a file, from whichever back end holds the game.
$('save').addEventListener('click', async (e) => {
  e.preventDefault();
  if (!st) return;
  try {
    const rec = await api('GET', `game/${st.id}/record`);
    const url = URL.createObjectURL(new Blob([rec.text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = $('save').download;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    say(err.message);
  }
});
$('load').addEventListener('change', async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  // the record is played on with the opponent chosen in the form
  readForm();
  try {
    const via = placeFor(me.opponent);
    const res = await api('POST', 'load', seatBody({ record: await f.text() }), null, via);
    where = via;
    held(res);
    start(res.state);
    const file = f.name;
    log(me.opponent === 'computer' ? t('Loaded {file}: against the computer, you play {side}.', { file, side: sideName(me.side) })
      : me.opponent === 'here' ? t('Loaded {file}: two players at this browser.', { file })
        : t('Loaded {file}: invite the other player with the link.', { file }));
  } catch (err) {
    say(err.message);
  }
  e.target.value = '';
});
$('link-url').addEventListener('focus', (e) => e.target.select());
$('watch-url').addEventListener('focus', (e) => e.target.select());
$('delete').addEventListener('click', async () => {
  if (!st || busy || !confirm(t('Delete this game for everyone?'))) return;
  try {
    await api('DELETE', `game/${st.id}`, null, tokenFor(me.side));
    try { localStorage.removeItem('mancala.seats.' + st.id); } catch (e) { /* ignore */ }
    st = null;
    review = null;
    history.replaceState(null, '', '#');
    $('log').textContent = '';
    $('moves').textContent = '';
    say(t('The game was deleted.'));
    draw();
  } catch (e) {
    say(e.message);
  }
});
$('flip').addEventListener('click', () => {
  prefs.flip = flipped() ? 'off' : 'on';
  savePrefs();
  draw();
});
$('sound').checked = !!prefs.sound;
$('sound').addEventListener('change', (e) => { prefs.sound = e.target.checked; savePrefs(); });
$('speed').value = prefs.speed;
$('speed').addEventListener('change', (e) => { prefs.speed = e.target.value; savePrefs(); });
$('game').addEventListener('change', showGameInfo);
$('opponent').addEventListener('change', () => { $('assist-box').hidden = $('opponent').value !== 'link'; });
window.addEventListener('resize', () => draw());

function showGameInfo() {
  const g = gameInfo($('game').value);
  $('options-help').textContent = g ? g.options : '';
  $('edit-setup').hidden = !setupOption();
  $('howto-new').href = I18n.howto($('game').value);
}

// Two browsers on one game: the other player's moves as the server commits
// them, from its event stream (GET game/ID/events: Server-Sent Events; the
// browser reconnects by itself, with the last version seen), animated.
// Polling once a second only where no stream can be had.
let stream = null, streamId = null, pendingState = null;

async function followState(next) {
  if (!st || !next || next.id !== st.id) return;
  // held while busy, the newest only; shown once idle (render, idle)
  if (busy) { if (!pendingState || next.version > pendingState.version) pendingState = next; return; }
  if (next.version === st.version) return;
  const before = st;
  // the friend took the invited seat: the creator is told
  for (const k of ['S', 'N'])
    if (before.seats && next.seats && before.seats[k] === 'open' && next.seats[k] === 'taken')
      log(t('{side} has joined the game.', { side: sideName(k) }));
  busy = true;
  try {
    if (next.ply === before.ply + 1 && !setup) {
      const tr = await api('GET', `game/${st.id}/trace`);
      if (tr.ply === next.ply) await animate(tr.before, tr, next.last ? next.last.pit : null);
    } else if (next.ply < before.ply) {
      log(before.ply - next.ply === 1 ? t('A move was taken back, as both players agreed.') : t('Moves were taken back, as both players agreed.'));
    } else if (next.ply !== before.ply) {
      log(t('The game changed.'));
    }
  } catch (e) {
    /* no trace: the state alone */
  } finally {
    busy = false;
  }
  if (!st || st.id !== next.id) return;
  st = next;
  if (review) review.version = -1;
  render();
  if (st.over) log(t('Game over: {result}', { result: resultWords(st.result) }));
}

// Open (or close) the stream of the game shown, when it is followed.
function follow() {
  const want = st && where === 'server' && (me.opponent === 'link' || me.opponent === 'watch') ? st.id : null;
  if (want === streamId) return;
  if (stream) stream.close();
  stream = null;
  streamId = want;
  if (!want || typeof EventSource === 'undefined') return;
  stream = new EventSource(`api/game/${encodeURIComponent(want)}/events?lang=${encodeURIComponent(I18n.lang)}`);
  stream.addEventListener('state', (ev) => {
    try { followState(JSON.parse(ev.data).state); } catch (e) { /* a bad event: the next one */ }
  });
}

setInterval(async () => {
  follow();
  // a house bot's move that was not asked for (a refusal of a busy server,
  // a moment the page was busy): asked again, at most once a second
  if (st && !busy && st.bot && st.bot !== me.side && st.side === st.bot && !st.over) maybeComputer();
  if (!st || busy || (me.opponent !== 'link' && me.opponent !== 'watch')) return;
  if (stream && stream.readyState !== EventSource.CLOSED) return; // live
  try {
    followState((await api('GET', `game/${st.id}`)).state);
  } catch (e) { /* the server may be restarting */ }
}, 1000);

// ---- the lobby (the server's only): seeks, games being played, players -----
//
// A seek is an open challenge (docs/API.md, "The lobby").  The one this
// browser posted is kept in localStorage (mancala.seek: its id and token)
// and looked at every two seconds while it is open: the server ends a seek
// whose creator stops looking, and tells its creator, once someone takes
// it, the game and the seat's token; the page then opens the game.  What
// may be posted and taken (a game, a clock, rated or not) is the server's
// to say: the page shows its words.

let mySeek = (() => {
  try { return JSON.parse(localStorage.getItem('mancala.seek')); } catch (e) { return null; }
})();
function keepMySeek(k) {
  mySeek = k;
  renderSeeks(lastSeeks);
  try {
    if (k) localStorage.setItem('mancala.seek', JSON.stringify(k));
    else localStorage.removeItem('mancala.seek');
  } catch (e) { /* private mode: this page's memory only */ }
}

// Go to another of the page's addresses (a game, a game to watch).
function goTo(hash) {
  location.hash = hash;
  location.reload();
}

// A game of the lobby, this browser's seat in it: kept, then opened.
function openLobbyGame(id, side, token) {
  keepSeats(id, { [side]: token });
  goTo(`g=${id}&side=${side}&vs=link`);
}

// An HTML element (el makes the board's SVG ones).
function hel(tag, attrs, parent) {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function changeText(c) { return c > 0 ? '+' + c : c < 0 ? '\u2212' + -c : '0'; }
function ratingText(r, prov) { return `${r}${prov ? '?' : ''}`; }

// The pages of the accounts holding the seats (a game on the server).
let whoShown = '';
function renderWho() {
  const names = st && where === 'server' && st.players
    ? ['S', 'N'].map((k) => st.players[k]).filter((n) => n && n !== 'deleted player') : [];
  const key = names.join(' ');
  if (key === whoShown) return;
  whoShown = key;
  const box = $('who');
  box.hidden = !names.length || !backends.server || embedded;
  while (box.childNodes.length > 1) box.lastChild.remove();
  for (const n of [...new Set(names)]) {
    const b = hel('button', { type: 'button', class: 'player-link' }, box);
    b.textContent = n;
    b.addEventListener('click', () => showPlayer(n));
    box.append(' ');
  }
}

function renderRatings() {
  renderWho();
  const box = $('ratings'), rt = st && st.ratings;
  box.hidden = !(st && st.rated);
  if (box.hidden) return;
  if (!rt) { box.textContent = t('A rated game.'); return; }
  if (rt.aborted) { box.textContent = t('Aborted before each side made two moves: not rated.'); return; }
  box.textContent = t('Ratings: {list}', { list: ['S', 'N'].map((k) => {
    const x = rt[k];
    return `${(st.players && st.players[k]) || sideName(k)} ${ratingText(x.before, x.before_provisional)} \u2192 ${ratingText(x.after, x.provisional)} (${changeText(x.change)})`;
  }).join(', ') });
}

function seekSpec() {
  const o = $('seek-options').value.trim().replace(/\s+/g, '');
  return $('seek-game').value + (o ? ':' + o : '');
}

async function postSeek() {
  $('seek-msg').textContent = '';
  try {
    const res = await api('POST', 'seek', {
      game: seekSpec(), time: $('seek-time').value, rated: $('seek-rated').checked, side: $('seek-side').value,
    }, sessionToken(), 'server');
    keepMySeek({ id: res.seek.id, token: res.token });
    $('seek-msg').textContent = t('Your seek is posted: stay on this page, the game opens when someone takes it.');
    lobbyTick();
  } catch (e) {
    $('seek-msg').textContent = e.message;
  }
}

// Quick pairing: the pool of the game chosen above and a time control;
// paired at once (the game opens), or waiting as a seek of this browser,
// later offered the house bot.
async function pair(time) {
  $('seek-msg').textContent = '';
  try {
    const res = await api('POST', 'pair', { game: seekSpec(), time, rated: $('seek-rated').checked }, sessionToken(), 'server');
    if (res.state) { openLobbyGame(res.state.id, res.side, res.token); return; }
    keepMySeek({ id: res.seek.id, token: res.token });
    $('seek-msg').textContent = t('Waiting in the pool for a player of about your rating…');
    lobbyTick();
  } catch (e) {
    $('seek-msg').textContent = e.message;
  }
}

async function playBot() {
  if (!mySeek) return;
  try {
    const res = await api('POST', `seek/${mySeek.id}/bot`, {}, mySeek.token, 'server');
    keepMySeek(null);
    openLobbyGame(res.state.id, res.side, res.token);
  } catch (e) {
    $('seek-msg').textContent = e.message;
  }
}

async function acceptSeek(id) {
  $('seek-msg').textContent = '';
  try {
    const res = await api('POST', `seek/${id}/accept`, {}, sessionToken(), 'server');
    openLobbyGame(res.state.id, res.side, res.token);
  } catch (e) {
    $('seek-msg').textContent = e.message;
    lobbyTick();
  }
}

async function withdrawSeek() {
  if (!mySeek) return;
  const k = mySeek;
  keepMySeek(null);
  $('bot-offer').hidden = true;
  try { await api('DELETE', `seek/${k.id}`, null, k.token, 'server'); } catch (e) { /* ended already */ }
  $('seek-msg').textContent = t('Your seek is withdrawn.');
  lobbyTick();
}

let lastSeeks = [];
function renderSeeks(list) {
  lastSeeks = list;
  const body = $('seeks').tBodies[0];
  body.textContent = '';
  $('seeks-none').hidden = list.length > 0;
  for (const k of list) {
    const tr = hel('tr', {}, body);
    const who = hel('td', {}, tr);
    if (k.player) {
      const b = hel('button', { type: 'button', class: 'player-link' }, who);
      b.textContent = k.player;
      b.addEventListener('click', () => showPlayer(k.player));
    } else {
      who.textContent = t('a guest');
    }
    hel('td', {}, tr).textContent = k.rating ? ratingText(k.rating.shown, k.rating.provisional) : '';
    hel('td', {}, tr).textContent = k.title + (k.game !== k.kind ? ` (${k.game})` : '');
    hel('td', {}, tr).textContent = k.time;
    hel('td', {}, tr).textContent = k.rated ? t('rated') : '';
    hel('td', {}, tr).textContent = k.side === 'random' ? t('either') : sideName(k.side);
    // this browser's own seek (the server's `mine`, or known by its id:
    // the stream says nothing of whose a seek is)
    const mine = k.mine || (mySeek && k.id === mySeek.id);
    const act = hel('td', {}, tr);
    const b = hel('button', { type: 'button', class: mine ? 'seek-withdraw' : 'seek-accept' }, act);
    b.textContent = mine ? t('Withdraw') : t('Play');
    b.dataset.id = k.id;
    b.addEventListener('click', () => (mine ? withdrawSeek() : acceptSeek(k.id)));
  }
}

function renderLive(list) {
  const ul = $('live');
  ul.textContent = '';
  for (const g of list) {
    const li = hel('li', {}, ul);
    const a = hel('a', { href: `#g=${g.id}&watch=1`, class: 'live-game' }, li);
    const name = (k) => g.players[k] || t('a guest');
    const parts = [`${name('S')} \u2013 ${name('N')}`, g.game];
    if (g.rated) parts.push(t('rated'));
    // TRANSLATORS: how far a game being played is (the lobby's list):
    // {ply} moves played
    parts.push(t('move {ply}', { ply: g.ply }));
    a.textContent = parts.join(' · ');
    a.addEventListener('click', (ev) => { ev.preventDefault(); goTo(`g=${g.id}&watch=1`); });
  }
  if (!list.length) hel('li', {}, ul).textContent = t('None now.');
}

async function showPlayer(name) {
  try {
    const p = await api('GET', `player/${encodeURIComponent(name)}`, null, null, 'server');
    $('pv-name').textContent = p.name;
    const body = $('pv-ratings').tBodies[0];
    body.textContent = '';
    for (const [kind, r] of Object.entries(p.ratings)) {
      const tr = hel('tr', {}, body);
      const info = gameInfo(kind);
      for (const v of [info ? info.title || kind : kind, ratingText(r.rating, r.provisional), r.deviation, r.games, r.wins, r.draws, r.losses])
        hel('td', {}, tr).textContent = String(v);
    }
    const ol = $('pv-games');
    ol.textContent = '';
    for (const g of p.games) {
      const li = hel('li', {}, ol);
      const a = hel('a', { href: g.review }, li);
      const info = gameInfo(g.kind);
      const words = { game: info ? info.title || g.kind : g.kind, opponent: g.opponent, result: resultCode(g.result), rating: g.rating, change: changeText(g.change) };
      a.textContent = g.result === 'aborted' ? t('{game} against {opponent}: {result}', words)
        : t('{game} against {opponent}: {result}, {rating} ({change})', words);
      a.addEventListener('click', (ev) => { ev.preventDefault(); goTo(`g=${g.id}`); });
    }
    if (!p.games.length) hel('li', {}, ol).textContent = t('No rated game yet.');
    $('player-view').hidden = false;
    $('lobby').open = true;
  } catch (e) {
    $('seek-msg').textContent = e.message;
  }
}

// The lobby's stream (GET /api/seeks/events) while the lobby is open: the
// open seeks at each change.  It says nothing of whose a seek is: this
// browser's own is known by its id.
let lobbyStream = null;
function followLobby() {
  const want = $('lobby').open && backends.server && !embedded && typeof EventSource !== 'undefined';
  if (!want) {
    if (lobbyStream) lobbyStream.close();
    lobbyStream = null;
    return;
  }
  if (lobbyStream && lobbyStream.readyState !== EventSource.CLOSED) return;
  lobbyStream = new EventSource(`api/seeks/events?lang=${encodeURIComponent(I18n.lang)}`);
  lobbyStream.addEventListener('seeks', (ev) => {
    try {
      renderSeeks(JSON.parse(ev.data).seeks);
    } catch (e) { /* a bad event: the next one */ }
  });
}

let lobbyAsking = false;
async function lobbyTick() {
  if (!backends.server || embedded || lobbyAsking) return;
  lobbyAsking = true;
  try {
    if (mySeek) {
      try {
        const k = (await api('GET', `seek/${mySeek.id}`, null, mySeek.token, 'server')).seek;
        if (k.status === 'taken' && k.play) {
          keepMySeek(null);
          openLobbyGame(k.play.game, k.play.side, k.play.token);
          return;
        }
        $('bot-offer').hidden = !k.bot;
        if (k.bot) $('bot-play').textContent = t('Play {bot} instead', { bot: k.bot.name });
        if (k.status !== 'open') {
          keepMySeek(null);
          $('bot-offer').hidden = true;
          $('seek-msg').textContent = k.status === 'withdrawn' ? t('Your seek was withdrawn.')
            : k.status === 'taken' ? t('Your seek was taken.') : t('Your seek ended.');
        }
      } catch (e) {
        if (e.code === 'not_found') keepMySeek(null);
      }
    }
    followLobby();
    if (!$('lobby').open) return;
    // the list comes by the lobby's stream while it is open; asked for
    // when there is none
    if (!lobbyStream || lobbyStream.readyState === EventSource.CLOSED) {
      const tok = mySeek ? mySeek.token : sessionToken();
      renderSeeks((await api('GET', 'seeks', null, tok, 'server')).seeks);
    }
    renderLive((await api('GET', 'live', null, null, 'server')).games);
  } catch (e) {
    /* the server may be restarting: the next tick */
  } finally {
    lobbyAsking = false;
  }
}

$('seek-form').addEventListener('submit', (ev) => { ev.preventDefault(); postSeek(); });
for (const b of document.querySelectorAll('#pair-bar button[data-time]')) b.addEventListener('click', () => pair(b.dataset.time));
$('bot-play').addEventListener('click', playBot);
$('lobby').addEventListener('toggle', lobbyTick);
$('pv-close').addEventListener('click', () => { $('player-view').hidden = true; });
$('acct-page').addEventListener('click', () => { if (session) showPlayer(session.name); });
setInterval(lobbyTick, 2000);

// The game list and options, from the server.
async function loadGames() {
  try {
    games = (await api('GET', 'games')).games;
  } catch (e) {
    games = [];
  }
  const sel = $('game'), was = sel.value;
  sel.textContent = '';
  for (const g of games) sel.add(new Option(g.title || g.name, g.name));
  if (games.some((g) => g.name === was)) sel.value = was;
  const ss = $('seek-game');
  ss.textContent = '';
  for (const g of games) ss.add(new Option(g.title || g.name, g.name));
  showGameInfo();
  // each game's own time modes (Omweso's W16) for the clock choice
  for (const g of games) timeModes[g.name] = g.time_modes || [];
  fillClockChoices();
}

// The page's own address: #g=<id>&side=<S|N>&vs=<computer|here|link>&level=<n>
// (no secret: the tokens are in localStorage); an invitation #g=<id>&invite=<code>
// takes its seat and becomes such an address; #g=<id>&watch=1 looks on.
(async function init() {
  await I18n.ready;
  say(t('Loading…'));
  backends = await MancalaBackend.detect();
  // Without the server, no game between two browsers.
  const link = [...$('opponent').options].find((o) => o.value === 'link');
  if (link) link.disabled = link.hidden = !backends.server;
  if (!backends.device && !backends.server) { say(t('Neither the engine nor the server could be reached.')); return; }
  document.body.dataset.backends = Object.keys(backends).filter((k) => backends[k]).join(' ');
  await checkSession();
  // A site without a server (make site): the pages work offline once seen.
  if (backends.device && !backends.server && 'serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
    navigator.serviceWorker.register('sw.js').catch(() => { /* no offline copy: still plays */ });
  }
  await loadGames();
  say(t('Choose a game and press New game.'));
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get('embed') === '1') {
    await startEmbedded(h);
    return;
  }
  const id = h.get('g');
  if (!id) {
    await restoreDeviceGame();
    return;
  }
  where = 'server';
  const lv = Number(h.get('level'));
  me = { side: h.get('side') === 'N' ? 'N' : 'S', opponent: h.get('vs') || 'link', level: lv >= 1 && lv <= 10 ? lv : DEFAULT_LEVEL };
  // A browser that holds a seat of this game is that seat's player again,
  // whatever link brought it here (its invitation, the game's address, the
  // watch link): the token in its storage is what counts.
  const held = seatsOf(id);
  let notice = '';
  try {
    if (held.S || held.N) {
      if (!(held.S && held.N)) me.side = held.S ? 'S' : 'N';
      else if (!['here', 'computer'].includes(me.opponent)) me.opponent = 'here';
      if (!held[me.side]) me.side = held.S ? 'S' : 'N';
      if (!(held.S && held.N)) me.opponent = 'link';
    } else if (h.get('invite')) {
      const res = await api('POST', `game/${encodeURIComponent(id)}/join`, { invite: h.get('invite') }, sessionToken());
      keepSeats(id, { [res.side]: res.token });
      me = { side: res.side, opponent: 'link', level: DEFAULT_LEVEL };
    } else {
      me.opponent = 'watch';
    }
  } catch (e) {
    me.opponent = 'watch';
    notice = e.code === 'seat' ? t('This invitation was already used: you can watch this game, not play in it.') : e.message;
  }
  if (me.opponent !== 'watch') history.replaceState(null, '', `#g=${id}&side=${me.side}&vs=${me.opponent}&level=${me.level}`);
  if (me.opponent !== 'watch') {
    $('opponent').value = me.opponent;
    $('myside').value = me.side;
    $('level').value = String(me.level);
  }
  try {
    const res = await api('GET', 'game/' + encodeURIComponent(id));
    st = res.state;
    // signed in to the account that holds a seat here (from another
    // browser): that seat's player, through the session
    const mine = session && !notice && me.opponent === 'watch' && st.players
      ? ['S', 'N'].filter((k) => st.players[k] === session.name) : [];
    if (mine.length) {
      const vs = ['here', 'computer'].includes(h.get('vs')) ? h.get('vs') : 'here';
      me = { side: mine[0], opponent: mine.length === 2 ? vs : 'link', level: me.level };
      history.replaceState(null, '', `#g=${id}&side=${me.side}&vs=${me.opponent}&level=${me.level}`);
      $('opponent').value = me.opponent;
      $('myside').value = me.side;
    }
    formFromState();
    if (notice) log(notice);
    if (st.help && !st.over && st.seats && me.opponent === 'link')
      log(t('In this game both players may ask for the engine\'s help (agreed when it was made).'));
    log(me.opponent === 'watch' ? t('You are watching this game.') : t('You play {side} in this game.', { side: sideName(me.side) }));
    watchNotice = notice;
    render();
    maybeComputer();
  } catch (e) {
    say(e.message);
  }
})();
