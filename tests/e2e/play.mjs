// play.mjs - end-to-end tests of the browser board: Debian's chromium driven
// by playwright-core plays a full game of each kind against the computer to
// its end at 1280x800 and at 400x800 (a phone) by clicking pits, and checks
// that the board drawn matches the server's state; then each fixed item of
// issue 22: redo against the computer replays without the engine, a loaded
// record keeps its opponent, the set-up editor's limit and seats, the
// phone's letter sizes, last-move and hint marks, the other browser's move
// animated, Goré offers with their pits and price, a pass with its reason,
// letters never under seeds, the level restored from a link, the game list
// from the server, no internal codes shown, review mode with the engine's
// evaluation, board flip, sound; seats: an invitation link gives the other
// player their seat (and only once), a watch link gives none, and no link
// the page shows holds its token; accounts: register, sign out, a wrong
// password, sign in; the lobby: a rated seek taken in another browser,
// played, the ratings shown.  Screenshots <game>-1280.png and
// <game>-400.png go to $MANCALA_SHOTS (`make screenshots`: docs/img) or the
// run's scratch folder.  Run by tests/e2e/run.sh with MANCALA_URL set to a
// server on 127.0.0.1.
import { chromium } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, clickMove, CODES } from './board.mjs';

const url = process.env.MANCALA_URL;
if (!url || !url.startsWith('http://127.0.0.1:')) {
  console.log('play.mjs: MANCALA_URL must be a loopback address');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = process.env.MANCALA_TMP || '/tmp';
const imgDir = process.env.MANCALA_SHOTS ? join(root, process.env.MANCALA_SHOTS) : join(tmp, 'shots');
mkdirSync(imgDir, { recursive: true });

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else { failed++; console.log('FAILED: ' + what); }
}

// A fresh profile directory each run (playwright takes it as an argument).
// In English whatever the machine's language (i18n.mjs checks the others).
const browser = await chromium.launchPersistentContext(`${tmp}/chromium-profile`, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  locale: 'en-US',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// Another browser, with storage of its own (a friend's, a stranger's).
function otherBrowser(name) {
  return chromium.launchPersistentContext(`${tmp}/chromium-profile-${name}`, {
    executablePath: '/usr/bin/chromium', headless: true, locale: 'en-US',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

async function newPage(viewport, prefs) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport || { width: 1280, height: 800 });
  page.on('pageerror', (e) => check(false, `page error ${e.message}`));
  await page.goto(url);
  // no animation unless a test asks for it: the games stay quick
  await page.evaluate((p) => localStorage.setItem('mancala.prefs', JSON.stringify(p)),
    Object.assign({ speed: 'off', sound: false, flip: 'auto' }, prefs || {}));
  await page.reload();
  await until(page, () => document.querySelectorAll('#game option').length > 0);
  return page;
}

async function idOf(page) {
  return new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('g');
}
async function stateOf(page, id) {
  const r = await page.request.get(`${url}api/game/${id || await idOf(page)}`);
  return (await r.json()).state;
}

// Wait until the page is idle (no request, no animation) with the server's
// state drawn; with `cond`, also until cond(state) holds.
async function settled(page, cond) {
  let st = null;
  for (let k = 0; k < 300; k++) {
    st = await stateOf(page);
    const drawn = await page.$$eval('g.pit', (gs) => gs.map((g) => [Number(g.dataset.pit), Number(g.dataset.count)]));
    const same = drawn.length === st.pits.length && drawn.every(([i, n]) => st.pits[i] === n);
    const idle = await page.evaluate(() => document.body.dataset.busy === '0' && document.body.dataset.review !== '1');
    if (same && idle && (!cond || cond(st))) return st;
    await new Promise((r) => setTimeout(r, 60));
  }
  console.log(`settled: still not so after 300 looks (ply ${st && st.ply}, ${new Error().stack.split('\n')[2].trim()})`);
  return st;
}

async function boardMatches(page, st, what) {
  const drawn = await page.$$eval('g.pit', (gs) => gs.map((g) => [Number(g.dataset.pit), Number(g.dataset.count)]));
  check(drawn.length === st.pits.length, `${what}: ${drawn.length} pits drawn, ${st.pits.length} in the game`);
  check(drawn.every(([i, n]) => st.pits[i] === n), `${what}: the board shows the server's position`);
}

async function newGame(page, game, options, opponent, extra) {
  await page.selectOption('#game', game);
  await page.fill('#options', options || '');
  await page.selectOption('#opponent', opponent);
  if (extra && extra.level) await page.selectOption('#level', String(extra.level));
  if (extra && extra.side) await page.selectOption('#myside', extra.side);
  await page.click('#start');
  await until(page, () => document.querySelectorAll('g.pit').length > 0 && location.hash.includes('g='));
}

// The pixel size of the counts and letters, and whether any seed overlaps
// a letter or a count (from the drawn SVG and its computed styles).
async function letterFacts(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('board');
    const vb = svg.viewBox.baseVal, w = svg.getBoundingClientRect().width;
    const k = w / vb.width;
    const px = (sel) => Math.min(...[...svg.querySelectorAll(sel)].map((t) => parseFloat(getComputedStyle(t).fontSize) * k));
    let covered = 0;
    for (const g of svg.querySelectorAll('g.pit')) {
      const texts = [...g.querySelectorAll('text')].map((t) => t.getBBox());
      for (const s of g.querySelectorAll('circle.seed')) {
        const b = s.getBBox();
        for (const t of texts)
          if (b.x < t.x + t.width && t.x < b.x + b.width && b.y < t.y + t.height && t.y < b.y + b.height) covered++;
      }
    }
    return { count: px('text.count'), name: px('text.name'), covered, width: w, viewport: window.innerWidth };
  });
}

// ---- a full game of each kind against the computer --------------------------

async function fullGame(game, options, size) {
  const page = await newPage(size);
  const tag = `${game} ${size.width}x${size.height}`;
  const engineCalls = [];
  page.on('request', (r) => { if (r.url().includes('/engine')) engineCalls.push(r.url()); });
  await newGame(page, game, options, 'computer', { level: 1, side: 'S' });
  let st = await settled(page);
  check(st.game === game, `${tag}: the game started is ${st.game}`);
  const total = st.pits.reduce((a, b) => a + b, 0) + (st.layout.stores ? st.captured[0] + st.captured[1] : 0);
  let clicks = 0, lastChecked = false;
  for (let guard = 0; guard < 600 && !st.over; guard++) {
    st = await settled(page, (s) => s.over || s.side === 'S');
    if (st.over) break;
    await boardMatches(page, st, `${tag} ply ${st.ply}`);
    if (st.last && st.last.side === 'N' && !lastChecked) {
      // the computer's last move is marked on the board
      const marked = await page.$$eval('g.pit.last', (gs) => gs.map((g) => Number(g.dataset.pit)));
      check(st.last.pit === null ? marked.length === 0 : marked.length === 1 && marked[0] === st.last.pit,
        `${tag}: the computer's last move is marked (${marked} for pit ${st.last.pit})`);
      lastChecked = true;
    }
    const now = st.pits.reduce((a, b) => a + b, 0) + (st.layout.stores ? st.captured[0] + st.captured[1] : 0);
    if (st.layout.stores) check(now === total, `${tag}: seeds conserved (${now} of ${total})`);
    const ply = st.ply;
    if (!(await clickMove(page, clicks++ * 7 + 3))) break;
    st = await settled(page, (s) => s.ply > ply || s.over);
  }
  st = await settled(page);
  check(st.over, `${tag}: the game was played to its end (ply ${st.ply})`);
  check(engineCalls.length > 0, `${tag}: the computer played`);
  if (st.over) {
    const status = await page.textContent('#status');
    check(st.result.text && status.includes(st.result.text), `${tag}: the result sentence is shown (${status})`);
  }
  const shown = (await page.textContent('#status')) + (await page.textContent('#log')) + (await page.textContent('#moves'));
  check(!CODES.test(shown), `${tag}: no internal code shown (${(shown.match(CODES) || [])[0]})`);
  check(await page.getAttribute('#howto', 'href') === `howto-${game}.html`, `${tag}: the How to play link`);
  if (size.width <= 400) {
    const f = await letterFacts(page);
    check(f.width >= size.width - 20, `${tag}: the board fills the width (${f.width} of ${f.viewport} px)`);
    check(f.count >= 14, `${tag}: a pit's count is at least 14 px (${f.count.toFixed(1)})`);
    check(f.name >= 11, `${tag}: a pit's letter is at least 11 px (${f.name.toFixed(1)})`);
    const h = await page.$eval('#board', (b) => b.getBoundingClientRect().height);
    check(h >= 150, `${tag}: the board is ${h.toFixed(0)} px tall`);
  }
  check((await letterFacts(page)).covered === 0, `${tag}: no seed covers a letter or a count`);
  await page.screenshot({ path: join(imgDir, `${game}-${size.width}.png`) });
  await page.close();
  return st;
}

// ---- the fixed items ----------------------------------------------------------

async function redoAgainstComputer() {
  // redo replays your move and the computer's reply, the engine not asked again
  const page = await newPage({ width: 400, height: 800 });
  let calls = 0;
  page.on('request', (r) => { if (r.url().includes('/engine')) calls++; });
  await newGame(page, 'oware', '', 'computer', { level: 1 });
  await settled(page);
  await clickMove(page, 2);
  const two = await settled(page, (s) => s.ply === 2);
  check(two.ply === 2 && calls === 1, `oware vs computer: the computer answered (ply ${two.ply}, ${calls} engine calls)`);
  await page.click('#undo');
  const back = await settled(page, (s) => s.ply === 0);
  check(back.ply === 0, `undo takes back the move and the reply (ply ${back.ply})`);
  await page.click('#redo');
  const again = await settled(page, (s) => s.ply === 2);
  await new Promise((r) => setTimeout(r, 400));
  check(again.ply === 2 && again.history.join() === two.history.join(),
    `redo plays both moves again (${again.history} for ${two.history})`);
  check(calls === 1, `redo does not ask the engine again (${calls} engine calls)`);
  return { page, id: await idOf(page), record: await (await page.request.get(`${url}api/game/${await idOf(page)}/record`)).text() };
}

async function loadKeepsOpponent(record) {
  // a record loaded with "computer" chosen goes on against the computer
  const page = await newPage();
  const file = join(tmp, 'game.mcr');
  writeFileSync(file, record);
  await page.selectOption('#game', 'oware');
  await page.selectOption('#opponent', 'computer');
  await page.selectOption('#level', '1');
  await page.setInputFiles('#load', file);
  await until(page, () => location.hash.includes('g='));
  check((await page.evaluate(() => location.hash)).includes('vs=computer'), 'a loaded record keeps the computer as opponent');
  let st = await settled(page);
  check(st.ply === 2, `the loaded record has its 2 moves (${st.ply})`);
  await clickMove(page, 1);
  st = await settled(page, (s) => s.ply === 4);
  check(st.ply === 4, `after loading, the computer answers (ply ${st.ply})`);
  await page.close();
}

async function setupEditor() {
  // W3: each side arranges only its own pits, the starter first; at most 10
  // seeds a pit (the limit the server states); no "long press"
  const page = await newPage();
  await page.selectOption('#game', 'omweso');
  await page.fill('#options', 'match=single');
  await page.selectOption('#opponent', 'here');
  await page.click('#edit-setup');
  await page.waitForSelector('#setup-bar:not([hidden])');
  check(!/long press/i.test(await page.textContent('#setup-bar')), 'the set-up editor promises no long press');
  check((await page.textContent('#status')).includes('South'), 'South (the starter) arranges first');
  const pit = (n) => `g.pit[data-name="${n}"]`;
  // North's pits cannot be touched while South arranges
  await page.click(pit('i'), { modifiers: ['Shift'] });
  check((await page.getAttribute(pit('i'), 'data-count')) === '4', 'South cannot take seeds from North\'s pit i');
  // take 4 from J and 4 from K, put 6 into I (10 with its 4) and try an 11th
  await page.click('#setup-take');
  for (let k = 0; k < 4; k++) { await page.click(pit('J')); await page.click(pit('K')); }
  await page.click('#setup-take');
  for (let k = 0; k < 6; k++) await page.click(pit('I'));
  check((await page.getAttribute(pit('I'), 'data-count')) === '10', 'I holds 10 seeds');
  await page.click(pit('I'));
  check((await page.getAttribute(pit('I'), 'data-count')) === '10', 'an 11th seed is refused (W3: at most 10)');
  check((await page.textContent('#setup-count')).includes('10'), 'the editor says the limit');
  check(await page.isDisabled('#setup-play'), 'Done waits until no seed is in hand');
  await page.click(pit('A'));
  await page.click(pit('A'));
  await page.click('#setup-play');
  await until(page, () => document.getElementById('status').textContent.includes('North'));
  check((await page.textContent('#status')).includes('North'), 'then North arranges');
  await page.click(pit('I'), { modifiers: ['Shift'] });
  check((await page.getAttribute(pit('I'), 'data-count')) === '10', 'North cannot change South\'s pits');
  await page.click('#setup-play');
  const st = await settled(page, (s) => !s.setup);
  const at = (n) => st.pits[st.names.indexOf(n)];
  check(!st.setup && at('I') === 10 && at('J') === 0 && at('K') === 0 && at('A') === 2,
    `the game starts from South's set-up (I ${at('I')}, J ${at('J')}, A ${at('A')})`);
  check(st.pits.filter((_, i) => st.owner[i] === 'S').reduce((a, b) => a + b, 0) === 32, 'South still has 32 seeds');
  check((await page.$$('g.pit.playable')).length > 0, 'South may move once both have arranged');
  // the server itself refuses a 14-seed pit (the library's W3)
  const r = await page.request.post(`${url}api/new`, {
    data: { game: 'omweso:setup=custom,match=single', position: '14,4,4,4,4,2,0,0,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0' },
  });
  check(r.status() === 422, `a 14-seed set-up is refused (${r.status()})`);
  await page.close();
  // against the computer: the page arranges only the player's side
  const p2 = await newPage();
  await p2.selectOption('#game', 'omweso');
  await p2.fill('#options', 'match=single');
  await p2.selectOption('#opponent', 'computer');
  await p2.selectOption('#level', '1');
  await p2.click('#edit-setup');
  await p2.waitForSelector('#setup-bar:not([hidden])');
  await p2.click('#setup-play');
  const s2 = await settled(p2, (s) => !s.setup && s.ply >= 0);
  check(!s2.setup, 'against the computer, its side is arranged by the library');
  await until(p2, () => document.getElementById('setup-bar').hidden);
  check(await p2.isHidden('#setup-bar'), 'the editor closes once both are arranged');
  await p2.close();
}

async function madeGame(page, body, vs) {
  const r = await page.request.post(`${url}api/new`, { data: body });
  const made = await r.json();
  const id = made.state.id;
  await page.evaluate(([i, t]) => localStorage.setItem(`mancala.seats.${i}`, JSON.stringify({ S: t, N: t })), [id, made.token]);
  await page.goto(`${url}#g=${id}&side=S&vs=${vs || 'here'}`);
  await page.reload();
  await page.waitForSelector('g.pit');
  return id;
}

async function omwesoPicker() {
  // a pit with several moves (W12: 3 seeds in I before the first capture
  // give I and I*): the picker says what each is, in the library's words
  const page = await newPage();
  await madeGame(page, { game: 'omweso', position: '3,5,4,4,4,4,4,4,0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0 S first=SN captures=0,0' });
  await page.click('g.pit[data-name="I"]');
  await page.waitForSelector('#choices button[data-move="I*"]');
  const text = await page.textContent('#choices');
  check(text.includes('the three-seed opening sowing (W12)'), `omweso: the picker says what I* is (${text})`);
  check(text.includes('counter-clockwise all the way'), `omweso: ... and what I is (${text})`);
  await page.close();
}

async function goreOffer() {
  // G6 by clicking: South offers A (North has 18 captured); the price comes
  // from the state; North sees the pits and the price, and accepts
  const page = await newPage();
  await madeGame(page, { game: 'gore', position: '1,1,1,1/1,1,1,3 S own=SSSSNNNN cap=20,18' });
  await page.click('#offer');
  for (const n of ['A', 'B', 'C', 'D']) await page.click(`g.pit[data-name="${n}"]`);
  check((await page.textContent('#offer-pay')).includes('not an offer') || (await page.textContent('#offer-pay')).includes('Not an offer'),
    'gore: offering every pit is not an offer (G6: P keeps a pit)');
  // and says why, in the library's words (issue 44)
  check(await until(page, () => /4 pits; an offer is of 1, 2 or 3 pits \(G6\)/.test(document.getElementById('offer-pay').textContent), 5000),
    `gore: the refused offer says why (${await page.textContent('#offer-pay')})`);
  check(!CODES.test(await page.textContent('#offer-pay')), 'gore: ... in words, without a move token');
  check(await page.isDisabled('#offer-send'), 'gore: such an offer cannot be sent');
  for (const n of ['B', 'C', 'D']) await page.click(`g.pit[data-name="${n}"]`);
  check((await page.textContent('#offer-pay')).includes('6 captured stones'), 'gore: the price of one pit is shown (6 stones, G6)');
  await page.click('#offer-send');
  let st = await settled(page, (s) => s.ply === 1);
  check(st.moves.some((m) => m.kind === 'accept'), 'gore: North may answer the offer');
  const asked = st.moves.find((m) => m.kind === 'accept');
  check(asked && asked.pits.map((i) => st.names[i]).join() === 'A' && asked.price === 6, 'gore: North is asked 6 for A (G6)');
  await offerShown(page, st, 'gore');
  await page.click('#choices button[data-kind="accept"]');
  st = await settled(page, (s) => s.ply === 2);
  check(st.owner[0] === 'N', 'gore: A belongs to North after accept');
  check(st.pits[0] === 7, `gore: A got 6 seeds of payment (${st.pits[0]})`);
  // the words come with the positions, fetched after the move is drawn
  await until(page, () => document.getElementById('moves').textContent.includes('offers A'), 5000);
  const words = await page.textContent('#moves');
  check(!words.includes('offer:') && words.includes('offers A'), `gore: the move list says the offer in words (${words})`);
  await page.close();
}

async function goreComputerOffer() {
  // the computer (North, full strength) owns no stones: passing loses at
  // once (South's D ends it, G5), an offer lasts a ply longer, so it offers;
  // South then sees which pits and at what price (G6), not bare buttons
  const page = await newPage();
  await madeGame(page, { game: 'gore', position: '1,1,1,3/0,0,0,0 N own=SSSSNNNN cap=22,20', north: 'computer level 10' }, 'computer&level=10');
  const st = await settled(page, (s) => s.side === 'S' && s.moves.some((m) => m.kind === 'accept'));
  const answer = st.moves.find((m) => m.kind === 'accept');
  check(answer && st.ply === 1, `gore vs computer: the computer offered (ply ${st.ply})`);
  if (!answer) { await page.close(); return; }
  check(answer.price === 6 * answer.pits.length, `gore vs computer: the price is 6 a pit (G6: ${answer.price})`);
  await offerShown(page, st, 'gore vs computer');
  await page.close();
}

// The side to move answers an offer (st: the state then): the page names
// the offerer, the pits and the price, the accept button says the price,
// and the offered pits are marked on the board.
async function offerShown(page, st, tag) {
  const answer = st.moves.find((m) => m.kind === 'accept');
  const letters = answer.pits.map((i) => st.names[i]).join(', ');
  const offerer = st.side === 'S' ? 'North' : 'South';
  const note = await page.textContent('#choices');
  check(note.includes(`${offerer} offers ${letters}`) && note.includes(`${answer.price} of your captured stones`),
    `${tag}: the offer names its pits and price (${note})`);
  check((await page.textContent('#choices button[data-kind="accept"]')).includes(String(answer.price)), `${tag}: the accept button says the price`);
  check((await page.$$eval('g.pit.offered', (gs) => gs.map((g) => g.dataset.name))).join(', ') === letters, `${tag}: the offered pits are marked`);
}

async function gorePass() {
  // a pass comes with its reason (South owns only empty pits)
  const page = await newPage();
  await madeGame(page, { game: 'gore', position: '0,0,0,0/1,1,1,3 S own=SSSSNNNN cap=24,18' });
  const st = await stateOf(page);
  const pass = st.moves.find((m) => m.kind === 'pass');
  check(pass && pass.why, 'gore: the state says why South passes');
  const why = (await page.textContent('#choices .why')) || '';
  check(pass && why === pass.why, `gore: the pass button comes with the reason (${why})`);
  await page.close();
}

async function seedsAndLetters() {
  // 20 seeds in a pit: letters and counts stay visible, on a phone too
  for (const size of [{ width: 1280, height: 800 }, { width: 400, height: 800 }]) {
    const page = await newPage(size);
    await madeGame(page, { game: 'gore', position: '20,6,6,6/2,2,2,4 S own=SSSSNNNN cap=0,0' });
    const f = await letterFacts(page);
    check(f.covered === 0, `${size.width} px: no seed covers a letter with 20 seeds in a pit (${f.covered})`);
    check(f.count >= 14, `${size.width} px: counts of ${f.count.toFixed(1)} px`);
    await page.close();
  }
}

async function hintAndReview() {
  const page = await newPage();
  // a position where F takes a's 3 and wins (O8a): the hint marks F
  const id = await madeGame(page, { game: 'oware', position: '0,0,0,0,1,1/2,1,1,1,1,1 S cap=24,15' });
  await page.click('#hint');
  await page.waitForSelector('g.pit.best', { timeout: 15000 }).catch(() => {});
  const best = await page.$$eval('g.pit.best', (gs) => gs.map((g) => g.dataset.name));
  check(best.join() === 'F', `the hint is marked on the board (${best})`);
  check((await page.textContent('#status')).includes('F'), 'the hint is said in words too');
  await page.close();
  // review of a finished game: step with the keys, ask the engine
  const p2 = await newPage();
  await newGame(p2, 'oware', '', 'here');
  for (let k = 0; k < 4; k++) { await clickMove(p2, k + 1); await settled(p2, (s) => s.ply === k + 1); }
  const st = await stateOf(p2);
  await p2.click('#moves button[data-ply="1"]');
  await until(p2, () => document.body.dataset.review === '1');
  const after1 = await p2.$$eval('g.pit', (gs) => gs.map((g) => Number(g.dataset.count)));
  check(after1.reduce((a, b) => a + b, 0) === 48 && after1.filter((n) => n === 0).length === 1,
    'review: after the first move one pit is empty and 48 seeds are on the board (O3)');
  await p2.keyboard.press('Home');
  check(await until(p2, () => [...document.querySelectorAll('g.pit')].every((g) => g.dataset.count === '4')),
    'review: Home shows the start, 4 seeds in every pit (O1)');
  await p2.keyboard.press('ArrowRight');
  await until(p2, () => document.querySelector('#moves button.current') && document.querySelector('#moves button.current').dataset.ply === '1');
  check((await p2.$$eval('g.pit.last', (gs) => gs.map((g) => g.dataset.name))).join() === st.history[0],
    'review: the move that led to the position is marked');
  check((await p2.$$('g.pit.playable')).length === 0, 'review: no move can be played from a reviewed position');
  await p2.click('#rev-eval');
  await until(p2, () => /best/.test(document.getElementById('eval-text').textContent), 15000);
  check(/best: [a-f]/.test(await p2.textContent('#eval-text')), `review: the engine evaluates the position (${await p2.textContent('#eval-text')})`);
  check(await p2.isVisible('#eval'), 'review: the evaluation bar is shown');
  check((await p2.$$('g.pit.best')).length === 1, 'review: the best move is marked');
  await p2.click('#rev-exit');
  await until(p2, () => document.body.dataset.review === '0');
  check((await p2.$$('g.pit.playable')).length > 0, 'back to the game: moves again');
  // flip: South's row at the top after a flip
  const yOf = (n) => p2.$eval(`g.pit[data-name="${n}"] circle.hole`, (c) => Number(c.getAttribute('cy')));
  check((await yOf('A')) > (await yOf('a')), 'South sits at the bottom');
  await p2.click('#flip');
  check((await yOf('A')) < (await yOf('a')), 'flip: South at the top');
  await p2.click('#flip');
  // sound: a preference kept
  await p2.check('#sound');
  check(await p2.evaluate(() => JSON.parse(localStorage.getItem('mancala.prefs')).sound === true), 'the sound choice is kept');
  await p2.close();
  // playing North against the computer: your side at the bottom
  const p3 = await newPage();
  await newGame(p3, 'oware', '', 'computer', { level: 1, side: 'N' });
  await settled(p3, (s) => s.ply >= 1);
  const y3 = (n) => p3.$eval(`g.pit[data-name="${n}"] circle.hole`, (c) => Number(c.getAttribute('cy')));
  check((await y3('a')) > (await y3('A')), 'playing North: North at the bottom');
  // the level comes back from the link
  const id3 = await idOf(p3);
  await p3.goto(`${url}#g=${id3}&side=N&vs=computer&level=7`);
  await p3.reload();
  await p3.waitForSelector('g.pit');
  check((await p3.inputValue('#level')) === '7', 'the level menu is restored from the link');
  await p3.close();
  return id;
}

async function gameList() {
  const page = await newPage();
  const g = await (await page.request.get(`${url}api/games`)).json();
  const shown = await page.$$eval('#game option', (os) => os.map((o) => [o.value, o.textContent]));
  check(shown.length === g.games.length && shown.every(([v, t], i) => v === g.games[i].name && t === g.games[i].title),
    `the game list is the server's (${shown.map((s) => s[0])})`);
  await page.selectOption('#game', 'gore');
  check(await page.isHidden('#edit-setup'), 'no set-up editor for a game without a custom set-up');
  check((await page.textContent('#options-help')).includes('trades'), 'the options of the chosen game are shown');
  await page.close();
}

async function twoBrowsers() {
  // an invitation: South moves in one browser, North (a browser with its own
  // storage) joins by the link, sees the move animated and answers; a
  // watcher cannot move
  const a = await newPage();
  await newGame(a, 'sadeqa2', '', 'link');
  const link = await a.inputValue('#link-url');
  const watchLink = await a.inputValue('#watch-url');
  const id = new URLSearchParams(new URL(link).hash.slice(1)).get('g');
  const seats = await a.evaluate((i) => JSON.parse(localStorage.getItem(`mancala.seats.${i}`)), id);
  check(/invite=[0-9a-f]{32}/.test(link), `the invitation link holds a code (${link})`);
  check(seats && seats.S && !link.includes(seats.S) && !watchLink.includes(seats.S),
    'no link shown holds the page\'s own token');
  check(!(await a.evaluate(() => location.hash)).includes(seats.S), 'the page\'s address holds no token');
  const other = await otherBrowser('2');
  const b = await other.newPage();
  await b.goto(url);
  await b.evaluate(() => localStorage.setItem('mancala.prefs', JSON.stringify({ speed: 'normal' })));
  await b.goto('about:blank');
  await b.goto(link);
  await b.waitForSelector('g.pit');
  await until(b, () => location.hash.includes('side=N'), 10000);
  check(!(await b.evaluate(() => location.hash)).includes('invite'), 'the invitation leaves the address once used');
  check(await until(a, () => document.getElementById('log').textContent.includes('North has joined the game.'), 10000),
    'the creator is told when the friend joins');
  // live, not polled: each page follows the game's event stream, and asks
  // nothing more while nothing happens (issue 44)
  const polls = [];
  const onReq = (r) => { if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/game/${id}`) polls.push(r.url()); };
  a.on('request', onReq);
  b.on('request', onReq);
  await new Promise((r) => setTimeout(r, 2500));
  a.off('request', onReq);
  b.off('request', onReq);
  check(polls.length === 0, `no polling while the stream is open (${polls.length} requests in 2.5 s)`);
  // North's browser animates South's move: it goes busy, logs the move in
  // the library's words (the trace endpoint's explain), then marks the pit
  // moved
  await b.evaluate(() => {
    window.sawBusy = false;
    window.busyStatus = [];
    new MutationObserver(() => {
      if (document.body.dataset.busy !== '1') return;
      window.sawBusy = true;
      window.busyStatus.push(document.getElementById('status').textContent);
    }).observe(document.body, { attributes: true, subtree: true, childList: true, characterData: true });
  });
  await clickMove(a, 0);
  const sa = await settled(a, (s) => s.ply === 1);
  await until(b, () => document.querySelectorAll('g.pit.playable').length > 0, 10000);
  check((await b.$$('g.pit.playable')).length > 0, 'North\'s browser sees South\'s move and may answer');
  check(await b.evaluate(() => window.sawBusy), 'North\'s browser animated South\'s move');
  // while it is shown the status tells that move, not the turn before it
  const during = await b.evaluate(() => window.busyStatus);
  check(during.length > 0 && during.every((t) => !/South to move/.test(t)) && during.some((t) => t.startsWith(`South plays ${sa.history[0]}`)),
    `the status during the animation tells the move (${[...new Set(during)].join(' | ')})`);
  check((await b.textContent('#log')).includes(`South plays ${sa.history[0]}: lifts`), 'North\'s browser logs South\'s move in the library\'s words');
  check((await b.$$eval('g.pit.last', (gs) => gs.map((g) => Number(g.dataset.pit)))).join() === String(sa.last.pit),
    'North\'s browser marks South\'s last move');
  const yb = (n) => b.$eval(`g.pit[data-pit="${n}"] circle.hole`, (c) => Number(c.getAttribute('cy')));
  check((await yb(sa.layout.rows[0][0])) > (await yb(sa.layout.rows[1][0])), 'North\'s browser shows North at the bottom');
  await clickMove(b, 0);
  const st = await settled(b, (s) => s.ply === 2);
  check(st.ply === 2 && st.seats.N === 'taken', `North played through its seat (ply ${st.ply})`);
  // between two people the engine's help is off for both (issue 44)
  check(st.help === false, 'the state says the engine\'s help is off');
  check(await a.isHidden('#hint') && await b.isHidden('#hint'), 'no Hint in a game between two people');
  check(await a.isHidden('#rev-eval') && await a.isHidden('#analyse'), 'no Evaluate nor Analyse during it');
  // a takeback is a request the other player answers (issue 44)
  await b.click('#undo');
  check(await until(b, () => document.getElementById('log').textContent.includes('You asked South to take back your last move.'), 10000),
    'North asks for a takeback');
  check((await stateOf(a, id)).ply === 2, 'the request alone changes nothing');
  check(await until(a, () => !document.getElementById('takeback-bar').hidden, 10000) &&
    (await a.textContent('#takeback-text')).includes('North asks to take back'), 'South is asked');
  await a.click('#takeback-no');
  check(await until(b, () => document.getElementById('log').textContent.includes('South declined your takeback.'), 10000),
    'North is told of the refusal');
  check((await stateOf(a, id)).ply === 2, 'declined: the game is as it was');
  // asked again after a refusal: South is asked again (CI once waited here
  // 30 s for a click; what each side shows is said if it comes to that)
  await b.click('#undo', { timeout: 10000 });
  if (!(await until(a, () => !document.getElementById('takeback-bar').hidden, 10000))) {
    const shown = async (p) => p.evaluate(() => `busy=${document.body.dataset.busy} log=${document.getElementById('log').textContent.slice(-200)}`);
    throw new Error(`South is not asked again: server ${JSON.stringify((await stateOf(a, id)).takeback)}; South ${await shown(a)}; North ${await shown(b)}`);
  }
  await a.click('#takeback-yes', { timeout: 10000 });
  const back = await settled(a, (s) => s.ply === 1);
  check(back.ply === 1 && back.history.join() === sa.history.join(), `accepted: North's move is taken back (ply ${back.ply})`);
  check(await until(b, () => /taken back, as both players agreed/.test(document.getElementById('log').textContent), 10000),
    'North sees its move taken back');
  await until(b, () => document.querySelectorAll('g.pit.playable').length > 0, 10000);
  await clickMove(b, 1);
  await settled(b, (s) => s.ply === 2);
  // North reopens the invitation (spent) in its own browser: the token in
  // its storage gives the seat back (issue 44), as does the bare address
  for (const again of [link, `${url}#g=${id}`]) {
    const c = await other.newPage();
    await c.goto(again.replace('#', '?x=1#'));
    await c.waitForSelector('g.pit');
    check(await until(c, () => location.hash.includes('side=N') && document.getElementById('log').textContent.includes('You play North'), 10000),
      `North's browser keeps its seat from ${again.includes('invite') ? 'the spent invitation' : 'the game\'s address'} (${await c.evaluate(() => location.hash)})`);
    await c.close();
  }
  // a third browser, with no seat, opening the spent invitation is told so
  const third = await otherBrowser('5');
  const c3 = await third.newPage();
  await c3.goto(link);
  await c3.waitForSelector('g.pit');
  check(await until(c3, () => /already used/.test(document.getElementById('status').textContent), 10000),
    `a spent invitation says so (${await c3.textContent('#status')})`);
  check((await c3.$$('g.pit.playable')).length === 0, 'a used invitation gives no seat');
  await third.close();
  const w = await other.newPage();
  await w.goto(watchLink);
  await w.waitForSelector('g.pit');
  await new Promise((r) => setTimeout(r, 500));
  check((await w.$$('g.pit.playable')).length === 0, 'the watch link shows the game without moves');
  // without its token the server refuses a move, whatever the page does
  const r = await w.request.post(`${url}api/game/${id}/play`, { data: { move: st.moves[0].move } });
  check(r.status() === 403, `a move without the seat's token is refused (${r.status()})`);
  check(await w.isHidden('#delete'), 'a watcher is offered no delete');
  // Resign asks first: No goes on, Yes ends the game; then no Resign
  await a.click('#resign');
  check(await a.isVisible('#resign-ask') && (await a.textContent('#resign-ask')).includes('Resign this game?'), 'resign asks first');
  await a.click('#resign-no');
  check(!(await stateOf(a, id)).over && await a.isHidden('#resign-ask'), 'No: the game goes on');
  await a.click('#resign');
  await a.click('#resign-yes');
  const end = await settled(a, (s) => s.over);
  check(end.over && end.result.reason === 'resign', 'Yes: the game is resigned');
  check(await a.isHidden('#resign'), 'no Resign once the game is over');
  await until(a, () => !document.getElementById('hint').hidden, 5000);
  check(await a.isVisible('#hint'), 'the engine\'s help once the game is over');
  // the creator deletes the game: it is gone for everyone
  a.on('dialog', (d) => d.accept());
  await a.click('#delete');
  await until(a, () => document.getElementById('status').textContent.includes('deleted'), 10000);
  const gone = await w.request.get(`${url}api/game/${id}`);
  check(gone.status() === 404, `the deleted game is gone (${gone.status()})`);
  await a.close();
  await other.close();
}

// The friend's page shows the game as made: its clock in the form (not
// "none"), and each clock beside its own row (North's below when North
// plays at the bottom).
async function joinedForm() {
  const a = await newPage();
  await a.selectOption('#game', 'oware');
  await a.selectOption('#opponent', 'link');
  await a.selectOption('#clock-kind', 'game');
  await a.fill('#clock-secs', '120');
  await a.fill('#clock-inc', '2');
  await a.click('#start');
  await until(a, () => document.getElementById('link-url').value.includes('invite='), 10000);
  const link = await a.inputValue('#link-url');
  const other = await otherBrowser('4');
  const b = await other.newPage();
  await b.goto(link);
  await b.waitForSelector('g.pit');
  await until(b, () => location.hash.includes('side=N'), 10000);
  const form = await b.evaluate(() => [document.getElementById('game').value, document.getElementById('clock-kind').value,
    document.getElementById('clock-secs').value, document.getElementById('clock-inc').value].join(' '));
  check(form === 'oware game 120 2', `the joined player's form shows the game's clock (${form})`);
  const where = await b.evaluate(() => [document.getElementById('clock-N').parentElement.id, document.getElementById('clock-S').parentElement.id].join(' '));
  check(where === 'info2 info', `North's clock sits below with North's row (${where})`);
  const wa = await a.evaluate(() => [document.getElementById('clock-N').parentElement.id, document.getElementById('clock-S').parentElement.id].join(' '));
  check(wa === 'info info2', `and South's page has North's clock above (${wa})`);
  await a.close();
  await other.close();
}

async function setupTwoBrowsers() {
  // W3 across two browsers: South arranges, then North in its own browser
  const a = await newPage();
  await a.selectOption('#game', 'omweso');
  await a.fill('#options', 'match=single');
  await a.selectOption('#opponent', 'link');
  await a.click('#edit-setup');
  await a.waitForSelector('#setup-bar:not([hidden])');
  const link = await a.inputValue('#link-url');
  const other = await otherBrowser('3');
  const b = await other.newPage();
  await b.goto(link);
  await b.waitForSelector('g.pit');
  await new Promise((r) => setTimeout(r, 300));
  check(await b.isHidden('#setup-bar'), 'North waits while South arranges');
  await a.click('#setup-take');
  await a.click('g.pit[data-name="J"]');
  await a.click('#setup-take');
  await a.click('g.pit[data-name="I"]');
  await a.click('#setup-play');
  await b.waitForSelector('#setup-bar:not([hidden])', { timeout: 10000 }).catch(() => {});
  check(await b.isVisible('#setup-bar'), 'then North arranges in its browser');
  check((await b.getAttribute('g.pit[data-name="I"]', 'data-count')) === '5', 'North sees South\'s set-up');
  await b.click('#setup-play');
  const st = await settled(a, (s) => !s.setup);
  check(!st.setup && await until(a, () => document.querySelectorAll('g.pit.playable').length > 0),
    'South moves once both have arranged');
  await a.close();
  await other.close();
}

// Clocks kept by the server: the new-game form's choice, a per-move clock
// that runs out (the page asks the server, which ends the game on time),
// and a reload that shows the same clocks.
function clockSeconds(text) {
  const p = text.trim().split(':').map(Number);
  return p.length === 1 ? p[0] : p[0] * 60 + p[1];
}

// Poll cond (an async function) until true or ms pass (the page's Content
// Security Policy forbids the evaluated strings of waitForFunction).
async function untilNode(cond, ms) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function clocks() {
  const page = await newPage();
  page.on('pageerror', (e) => check(false, `clocks: page error ${e.message}`));
  await page.goto(url);
  await page.selectOption('#game', 'omweso');
  await untilNode(async () => (await page.$$('#clock-kind option[value="mode:blitz"]')).length > 0, 5000);
  const modes = await page.$$eval('#clock-kind option', (os) => os.map((o) => o.value));
  check(modes.includes('mode:blitz') && modes.includes('mode:contract'), `clocks: Omweso's W16 modes offered (${modes})`);
  await page.selectOption('#game', 'oware');
  check(!(await page.$$eval('#clock-kind option', (os) => os.map((o) => o.value))).includes('mode:blitz'),
    'clocks: no W16 mode for Oware');
  // 2 s a move: nobody moves, South's flag falls
  await page.selectOption('#opponent', 'here');
  await page.selectOption('#clock-kind', 'move');
  await page.fill('#clock-secs', '2');
  await page.click('#start');
  await page.waitForSelector('g.pit');
  let st = await stateOf(page);
  check(st.clock && st.clock.control === 'move:2' && st.clock.running === 'S', `clocks: a move:2 game (${JSON.stringify(st.clock)})`);
  check(await page.$eval('#clock-S', (e) => e.classList.contains('running')), 'clocks: South\'s clock runs on the page');
  // the page's words for it: the result's detail or its sentence
  const onTime = /South (lost on|ran out of) time/;
  await untilNode(async () => onTime.test(await page.textContent('#status')), 8000);
  check(onTime.test(await page.textContent('#status')), `clocks: the page shows the loss on time (${await page.textContent('#status')})`);
  st = await stateOf(page);
  check(st.over && st.result.reason === 'time' && st.result.winner === 'N', `clocks: the server ended the game on time (${JSON.stringify(st.result)})`);
  check((await page.$$('g.pit.playable')).length === 0, 'clocks: no move after the flag fell');
  // 5 minutes each: after a move, a reload shows the same clocks
  await page.selectOption('#clock-kind', 'game');
  await page.fill('#clock-secs', '300');
  await page.fill('#clock-inc', '0');
  await page.click('#start');
  await page.waitForSelector('g.pit.playable');
  await new Promise((r) => setTimeout(r, 1200));
  await clickMove(page, 0);
  await settled(page, (s) => s.ply >= 1);
  await new Promise((r) => setTimeout(r, 1200));
  const before = [await page.textContent('#clock-S span'), await page.textContent('#clock-N span')].map(clockSeconds);
  st = await stateOf(page);
  check(st.clock.running === 'N' && st.clock.left[0] < 300, `clocks: South was charged for its move (${st.clock.left})`);
  await page.reload();
  await page.waitForSelector('g.pit');
  await new Promise((r) => setTimeout(r, 300));
  const after = [await page.textContent('#clock-S span'), await page.textContent('#clock-N span')].map(clockSeconds);
  check(after[0] === before[0] && Math.abs(after[1] - before[1]) <= 1.5,
    `clocks: the reload shows the same clocks (${before} then ${after})`);
  check(after[1] < 300 && await page.$eval('#clock-N', (e) => e.classList.contains('running')), 'clocks: North\'s clock runs on after the reload');
  await page.close();
}

const sizes = [{ width: 1280, height: 800 }, { width: 400, height: 800 }];
const t0 = Date.now();
// Each part on its own: an exception fails that part and the run goes on.
// (each part's time goes to the log, to see where make check's time goes;
// MANCALA_E2E_ONLY=NAME,NAME runs those parts alone, when working on one)
const onlyParts = process.env.MANCALA_E2E_ONLY ? process.env.MANCALA_E2E_ONLY.split(',') : null;
async function part(name, f) {
  if (onlyParts && !onlyParts.includes(name)) return null;
  const t0 = Date.now();
  try {
    return await f();
  } catch (e) {
    // where in this file it stopped: the first frame of ours
    const at = (e.stack || '').split('\n').find((l) => l.includes('play.mjs')) || '';
    check(false, `${name}: exception: ${e.message.split('\n')[0]} ${at.trim()}`);
    return null;
  } finally {
    console.log(`part ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}
// MANCALA_E2E_PART: full (the full games alone), features (the rest) or
// unset (both), so that make check can run the halves side by side.
const only = process.env.MANCALA_E2E_PART || '';
for (const size of process.env.E2E_SKIP_FULL || only === 'features' ? [] : sizes) {
  await part(`oware ${size.width}`, () => fullGame('oware', '', size));
  await part(`omweso ${size.width}`, () => fullGame('omweso', 'match=single', size));
  await part(`gore ${size.width}`, () => fullGame('gore', '', size));
  await part(`sadeqa2 ${size.width}`, () => fullGame('sadeqa2', '', size));
}
console.log(`e2e: full games in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
if (only !== 'full') await features();
await browser.close();
console.log(`e2e: ${passed} passed, ${failed} failed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);

async function features() {
  const redo = await part('redo', redoAgainstComputer);
  if (redo) {
    await redo.page.close();
    await part('load', () => loadKeepsOpponent(redo.record));
  }
  await part('set-up editor', setupEditor);
  await part('set-up on two browsers', setupTwoBrowsers);
  await part('omweso picker', omwesoPicker);
  await part('gore offer', goreOffer);
  await part('gore computer offer', goreComputerOffer);
  await part('gore pass', gorePass);
  await part('seeds and letters', seedsAndLetters);
  await part('hint and review', hintAndReview);
  await part('game list', gameList);
  await part('two browsers', twoBrowsers);
  await part('joined form', joinedForm);
  await part('clocks', clocks);
  await part('accounts', accounts);
  await part('lobby', lobby);
  await part('house bot', houseBot);
}

// Quick pairing alone in a pool: after the server's wait (--bot-wait 2 in run.sh) the house
// bot is offered; taken, the game opens against it, and the page asks the
// server for the bot's moves.
async function houseBot() {
  const page = await newPage();
  await page.click('#lobby summary');
  await page.selectOption('#seek-game', 'gore');
  await page.click('#pair-bar button[data-time="game:900+5"]');
  check(await until(page, () => document.getElementById('seek-msg').textContent.includes('pool'), 10000),
    `house bot: waiting in the pool (${await page.textContent('#seek-msg')})`);
  check(await until(page, () => !document.getElementById('bot-offer').hidden, 40000),
    'house bot: offered after the wait');
  const offer = await page.textContent('#bot-play');
  check(/bot-level-\d+/.test(offer), `house bot: offered by name (${offer})`);
  await page.click('#bot-play');
  check(await until(page, () => location.hash.includes('g=') && document.querySelectorAll('g.pit').length > 0, 10000),
    'house bot: the game opens');
  let st = await stateOf(page);
  const mine = st.bot === 'S' ? 'N' : 'S';
  check(st.bot && (st.players[st.bot] || '').startsWith('bot-level-'), `house bot: a bot's seat (${JSON.stringify(st.players)})`);
  // the bot's first move when it starts, then mine, then the bot's reply
  for (let k = 0; k < 2; k++) {
    if (!(await until(page, () => document.querySelectorAll('g.pit.playable').length > 0, 15000))) break;
    const before = (await stateOf(page)).ply;
    await clickMove(page, 1);
    // my move and the bot's answer (it may come before the page settles)
    st = await settled(page, (s) => (s.ply >= before + 2 && s.side === mine) || s.over);
  }
  st = await settled(page, (s) => s.side === mine || s.over);
  check(st.ply >= 3 && st.side === mine, `house bot: the bot answered my moves (ply ${st.ply}, ${st.side} to move; the page says: ${await page.textContent('#status')})`);
  await page.close();
}

// The lobby: two accounts in two browsers; one posts a rated seek, the
// other takes it from the list, both pages open the game, they play two
// moves each, one resigns, and both see the ratings change (two new
// players: +162 and \u2212162, docs/RATINGS.md), then the player page.
async function lobby() {
  const tag = Date.now().toString(36).slice(-5);
  const names = ['Lo' + tag, 'Bby' + tag];
  const a = await newPage();
  const other = await otherBrowser('lobby');
  const b = await other.newPage();
  await b.goto(url);
  await until(b, () => document.querySelectorAll('#game option').length > 0);
  const pages = [a, b];
  const shown = () => !document.getElementById('acct-in').hidden;
  for (let i = 0; i < 2; i++) {
    const p = pages[i];
    await p.click('#acct-box summary');
    await p.fill('#acct-user', names[i]);
    await p.fill('#acct-pass', 'lobby password');
    await p.click('#acct-register');
    check(await until(p, shown), `lobby: ${names[i]} registered (${await p.textContent('#acct-msg')})`);
  }
  check(await a.isVisible('#lobby'), 'lobby: a lobby beside a server');
  await a.click('#lobby summary');
  await a.selectOption('#seek-game', 'oware');
  await a.selectOption('#seek-time', 'game:300+2');
  await a.selectOption('#seek-side', 'S');
  await a.check('#seek-rated');
  await a.click('#seek-post');
  check(await until(a, () => document.querySelector('#seeks .seek-withdraw') !== null, 10000),
    `lobby: the seek is listed as mine (${await a.textContent('#seek-msg')})`);
  await b.click('#lobby summary');
  check(await until(b, (n) => [...document.querySelectorAll('#seeks tr')].some((tr) =>
    tr.textContent.includes(n) && tr.querySelector('.seek-accept')), 10000, names[0]),
  'lobby: the other browser sees the seek, with its player');
  const row = await b.$(`#seeks tr:has-text("${names[0]}") .seek-accept`);
  await row.click();
  check(await until(b, () => location.hash.includes('g=') && location.hash.includes('side=N') &&
    document.querySelectorAll('g.pit').length > 0, 10000), 'lobby: the taker\'s page opens the game as North');
  check(await until(a, () => location.hash.includes('g=') && location.hash.includes('side=S') &&
    document.querySelectorAll('g.pit').length > 0, 10000), 'lobby: the creator\'s page opens the game when it is taken');
  const id = await idOf(a);
  check(id && id === await idOf(b), 'lobby: both pages show the same game');
  let st = await stateOf(a, id);
  check(st.rated && st.players.S === names[0] && st.players.N === names[1],
    `lobby: a rated game between the two accounts (${JSON.stringify(st.players)})`);
  check((await a.textContent('#ratings')).includes('rated'), 'lobby: the page says the game is rated');
  // two moves each, by clicking
  for (let ply = 0; ply < 4; ply++) {
    const p = pages[ply % 2];
    check(await until(p, () => document.querySelectorAll('g.pit.playable').length > 0, 10000),
      `lobby: move ${ply + 1} is playable`);
    await clickMove(p, 0);
    st = await settled(p, (s) => s.ply === ply + 1);
  }
  await b.click('#resign');
  await b.click('#resign-yes');
  const rated = (p) => until(p, () => document.getElementById('ratings').textContent.includes('\u2192'), 10000);
  check(await rated(a) && await rated(b), 'lobby: both pages show the ratings at the end');
  const ta = await a.textContent('#ratings'), tb = await b.textContent('#ratings');
  check(ta.includes('(+162)') && ta.includes('(\u2212162)') && ta.includes('1662?') && tb.includes('1338?'),
    `lobby: the change shown (${ta} / ${tb})`);
  // the player page, from the account
  await a.click('#acct-page');
  check(await until(a, () => !document.getElementById('player-view').hidden &&
    document.getElementById('pv-ratings').textContent.includes('1662'), 10000),
  `lobby: the player page shows the new rating (${await a.textContent('#player-view')})`);
  check((await a.textContent('#pv-games')).includes(names[1]), 'lobby: the player page lists the game and its opponent');
  // the opponent's page, from the game
  await b.click(`#who button:has-text("${names[0]}")`);
  check(await until(b, (n) => !document.getElementById('player-view').hidden &&
    document.getElementById('pv-name').textContent === n &&
    document.getElementById('pv-ratings').textContent.includes('1662'), 10000, names[0]),
  'lobby: the opponent\'s page from the game');
  for (const p of pages) await p.click('#acct-out');
  await a.close();
  await other.close();
}

// Accounts: register, sign out, a wrong password (the server's words), sign
// in; a game made on the server while signed in carries the name.
async function accounts() {
  const page = await newPage();
  const shown = () => !document.getElementById('acct-in').hidden;
  const name = 'E2e' + Date.now().toString(36).slice(-6);
  check(await page.isVisible('#account'), 'accounts: a sign-in beside a server');
  await page.click('#acct-box summary');
  await page.fill('#acct-user', name);
  await page.fill('#acct-pass', 'correct horse');
  await page.click('#acct-register');
  check(await until(page, shown), `accounts: registered (${await page.textContent('#acct-msg')})`);
  check(await page.textContent('#acct-name') === name, 'accounts: the name shown once signed in');
  await page.reload();
  check(await until(page, shown) && await page.textContent('#acct-name') === name, 'accounts: still signed in after a reload');
  await newGame(page, 'oware', '', 'link');
  const st = await stateOf(page);
  check(st.players && st.players.S === name && (await page.textContent('#clock-S')).includes(name),
    `accounts: a game made signed in is the account's (${JSON.stringify(st.players)})`);
  await page.click('#acct-out');
  check(await until(page, () => document.getElementById('acct-in').hidden && !localStorage.getItem('mancala.session')),
    'accounts: signed out, the session forgotten');
  await page.click('#acct-box summary');
  await page.fill('#acct-user', name);
  await page.fill('#acct-pass', 'wrong horse');
  await page.click('#acct-login');
  check(await until(page, () => document.getElementById('acct-msg').textContent === 'wrong name or password'),
    `accounts: a wrong password says so (${await page.textContent('#acct-msg')})`);
  await page.fill('#acct-pass', 'correct horse');
  await page.click('#acct-login');
  check(await until(page, shown) && await page.textContent('#acct-name') === name, 'accounts: signed in again');
  await page.click('#acct-out'); // the profile as the other parts found it
  await page.close();
}
