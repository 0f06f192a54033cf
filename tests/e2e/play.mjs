// play.mjs - end-to-end tests of the browser board: Debian's chromium driven
// by playwright-core plays a short game of each kind by clicking pits (and a
// Goré offer, an engine reply, undo), and checks that the board drawn matches
// the server's state after every move; seats: an invitation link gives the
// other player their seat (and only once), a watch link gives none, and no
// link the page shows holds its token.  Screenshots <game>.png go to
// $MANCALA_SHOTS (`make screenshots`: docs/img) or the run's scratch folder.
// Run by tests/e2e/run.sh with MANCALA_URL set to a server on 127.0.0.1.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const url = process.env.MANCALA_URL;
if (!url || !url.startsWith('http://127.0.0.1:')) {
  console.log('play.mjs: MANCALA_URL must be a loopback address');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const imgDir = process.env.MANCALA_SHOTS ? join(root, process.env.MANCALA_SHOTS)
  : join(process.env.MANCALA_TMP || '/tmp', 'shots');
mkdirSync(imgDir, { recursive: true });

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else { failed++; console.log('FAILED: ' + what); }
}

// A fresh profile directory each run (playwright takes it as an argument).
const browser = await chromium.launchPersistentContext(
  `${process.env.MANCALA_TMP || '/tmp'}/chromium-profile`, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

async function newPage(viewport) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport || { width: 900, height: 700 });
  return page;
}

async function stateOf(page) {
  const id = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('g');
  const r = await page.request.get(`${url}api/game/${id}`);
  return (await r.json()).state;
}

// Wait until the page is idle (no animation) with the server's state drawn.
async function settled(page, ply) {
  for (let k = 0; k < 100; k++) {
    const st = await stateOf(page);
    const drawn = await page.$$eval('g.pit', (gs) => gs.map((g) => [Number(g.dataset.pit), Number(g.dataset.count)]));
    const same = drawn.length === st.pits.length && drawn.every(([i, n]) => st.pits[i] === n);
    const idle = await page.evaluate(() => document.body.dataset.busy === '0');
    if ((ply === undefined || st.ply === ply) && same && idle) return st;
    await new Promise((r) => setTimeout(r, 100));
  }
  return stateOf(page);
}

async function boardMatches(page, st, what) {
  const drawn = await page.$$eval('g.pit', (gs) => gs.map((g) => [Number(g.dataset.pit), Number(g.dataset.count)]));
  check(drawn.length === st.pits.length, `${what}: ${drawn.length} pits drawn, ${st.pits.length} in the game`);
  check(drawn.every(([i, n]) => st.pits[i] === n), `${what}: the board shows the server's position`);
}

// Click a playable pit (the k-th one), and a direction button if asked.
async function clickMove(page, k) {
  const pits = await page.$$('g.pit.playable');
  if (pits.length === 0) return false;
  await pits[k % pits.length].click();
  const choice = await page.$('#choices button[data-move]');
  if (choice && (await page.$$('g.pit.playable')).length > 0 && (await page.textContent('#choices')).startsWith('From'))
    await choice.click();
  return true;
}

async function newGame(page, game, options, opponent) {
  await page.goto(url);
  await page.selectOption('#game', game);
  await page.fill('#options', options || '');
  await page.selectOption('#opponent', opponent);
  await page.click('#start');
  await page.waitForSelector('g.pit');
}

async function shortGame(game, options, plies) {
  const page = await newPage({ width: 900, height: 700 });
  page.on('pageerror', (e) => check(false, `${game}: page error ${e.message}`));
  await newGame(page, game, options, 'here');
  let st = await settled(page, 0);
  check(st.game === game, `${game}: the game started is ${st.game}`);
  const total = st.pits.reduce((a, b) => a + b, 0) + st.captured[0] + st.captured[1];
  for (let p = 1; p <= plies && !st.over; p++) {
    const clicked = await clickMove(page, p);
    if (!clicked) {
      // moves without a pit (Goré pass/answers): press the first button
      const b = await page.$('#choices button[data-move]');
      if (!b) break;
      await b.click();
    }
    st = await settled(page, p);
    check(st.ply === p, `${game}: ply ${p} after ${p} clicks (got ${st.ply})`);
    await boardMatches(page, st, `${game} ply ${p}`);
    const now = st.pits.reduce((a, b) => a + b, 0) + (st.layout.stores ? st.captured[0] + st.captured[1] : 0);
    if (st.layout.stores) check(now === total, `${game}: seeds conserved (${now} of ${total})`);
  }
  const logText = await page.textContent('#log');
  check(logText.includes(st.history[0]), `${game}: the log names the first move`);
  await page.screenshot({ path: join(imgDir, `${game}.png`) });
  await page.close();
}

async function computerGame() {
  // against the computer at level 1: one move, the reply comes by itself
  const page = await newPage({ width: 400, height: 700 }); // a phone
  await newGame(page, 'oware', '', 'computer');
  await settled(page, 0);
  await clickMove(page, 2);
  const st = await settled(page, 2);
  check(st.ply === 2, `oware vs computer: the computer answered (ply ${st.ply})`);
  await boardMatches(page, st, 'oware vs computer');
  const width = await page.$eval('#board', (b) => b.getBoundingClientRect().width);
  check(width <= 400, `the board fits a phone screen (${width}px)`);
  await page.click('#undo');
  const back = await settled(page, 0);
  check(back.ply === 0, `undo takes back the move and the reply (ply ${back.ply})`);
  await page.close();
}

async function goreOffer() {
  // G6 by clicking: South offers A (North has 18 captured), North accepts
  const page = await newPage({ width: 900, height: 700 });
  const r = await page.request.post(`${url}api/new`, {
    data: { game: 'gore', position: '1,1,1,1/1,1,1,3 S own=SSSSNNNN cap=20,18' },
  });
  const made = await r.json();
  const id = made.state.id;
  // the page holds the creator's token (both seats), as if it had made the game
  await page.goto(url);
  await page.evaluate(([i, t]) => localStorage.setItem(`mancala.seats.${i}`, JSON.stringify({ S: t, N: t })), [id, made.token]);
  await page.goto(`${url}#g=${id}&side=S&vs=here`);
  await page.reload();
  await page.waitForSelector('g.pit');
  await page.click('#offer');
  await page.click('g.pit[data-name="A"]');
  check((await page.textContent('#offer-pay')).includes('6'), 'gore: the payment is shown');
  await page.click('#offer-send');
  let st = await settled(page, 1);
  check(st.moves.some((m) => m.move === 'accept'), 'gore: North may answer the offer');
  await page.click('#choices button[data-move="accept"]');
  st = await settled(page, 2);
  check(st.owner[0] === 'N', 'gore: A belongs to North after accept');
  check(st.pits[0] === 7, `gore: A got 6 seeds of payment (${st.pits[0]})`);
  await page.close();
}

async function twoBrowsers() {
  // an invitation: South moves in one browser, North (a browser with its own
  // storage) joins by the link, sees the move and answers; a watcher cannot move
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
  const other = await chromium.launchPersistentContext(`${process.env.MANCALA_TMP || '/tmp'}/chromium-profile-2`, {
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const b = await other.newPage();
  await b.goto(link);
  await b.waitForSelector('g.pit');
  await b.waitForFunction(() => location.hash.includes('side=N'), null, { timeout: 10000 }).catch(() => {});
  check(!(await b.evaluate(() => location.hash)).includes('invite'), 'the invitation leaves the address once used');
  await clickMove(a, 0);
  await settled(a, 1);
  await b.waitForFunction(() => document.querySelectorAll('g.pit.playable').length > 0, null, { timeout: 10000 })
    .catch(() => {});
  check((await b.$$('g.pit.playable')).length > 0, 'North\'s browser sees South\'s move and may answer');
  await clickMove(b, 0);
  const st = await settled(b, 2);
  check(st.ply === 2 && st.seats.N === 'taken', `North played through its seat (ply ${st.ply})`);
  // the invitation is spent: a third browser gets no seat
  const c = await other.newPage();
  await c.goto(link.replace('#', '?x=1#'));
  await c.waitForSelector('g.pit');
  check((await c.textContent('#status')).length > 0 && (await c.$$('g.pit.playable')).length === 0,
    'a used invitation gives no seat');
  const w = await other.newPage();
  await w.goto(watchLink);
  await w.waitForSelector('g.pit');
  await new Promise((r) => setTimeout(r, 500));
  check((await w.$$('g.pit.playable')).length === 0, 'the watch link shows the game without moves');
  // without its token the server refuses a move, whatever the page does
  const r = await w.request.post(`${url}api/game/${id}/play`, { data: { move: st.moves[0].move } });
  check(r.status() === 403, `a move without the seat's token is refused (${r.status()})`);
  check(await w.isHidden('#delete'), 'a watcher is offered no delete');
  // the creator deletes the game: it is gone for everyone
  a.on('dialog', (d) => d.accept());
  await a.click('#delete');
  await a.waitForFunction(() => document.getElementById('status').textContent.includes('deleted'), null, { timeout: 10000 })
    .catch(() => {});
  const gone = await w.request.get(`${url}api/game/${id}`);
  check(gone.status() === 404, `the deleted game is gone (${gone.status()})`);
  await a.close();
  await other.close();
}

async function omwesoSetup() {
  // the set-up editor: move seeds into South's inner row, then play from it
  const page = await newPage();
  await page.goto(url);
  await page.selectOption('#opponent', 'here');
  await page.click('#edit-setup');
  await page.waitForSelector('#setup-bar:not([hidden])');
  for (let k = 0; k < 3; k++) await page.click('g.pit[data-name="A"]');
  check((await page.getAttribute('g.pit[data-name="A"]', 'data-count')) === '3', 'omweso set-up: A holds 3 seeds');
  await page.click('#setup-play');
  const st = await settled(page, 0);
  check(st.game === 'omweso' && st.pits[st.names.indexOf('A')] === 3, 'omweso set-up: the game starts from it');
  check(st.pits.slice(0, 16).reduce((a, b) => a + b, 0) === 32, 'omweso set-up: South still has 32 seeds');
  await page.close();
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
async function until(cond, ms) {
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
  await until(async () => (await page.$$('#clock-kind option[value="mode:blitz"]')).length > 0, 5000);
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
  await until(async () => onTime.test(await page.textContent('#status')), 8000);
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
  await settled(page, 1);
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

try {
  await clocks();
  await omwesoSetup();
  await shortGame('oware', '', 6);
  await shortGame('omweso', '', 4);
  await shortGame('gore', '', 6);
  await shortGame('sadeqa2', '', 4);
  await computerGame();
  await goreOffer();
  await twoBrowsers();
} catch (e) {
  check(false, 'exception: ' + e.message);
}
await browser.close();
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
