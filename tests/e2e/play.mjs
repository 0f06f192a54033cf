// play.mjs - end-to-end tests of the browser board: Debian's chromium driven
// by playwright-core plays a short game of each kind by clicking pits (and a
// Goré offer, an engine reply, undo), and checks that the board drawn matches
// the server's state after every move.  Screenshots <game>.png go to
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
  const id = (await r.json()).state.id;
  await page.goto(`${url}#g=${id}&side=S&vs=here`);
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
  // a game link: South moves in one browser, North sees it in another
  const a = await newPage();
  await newGame(a, 'sadeqa2', '', 'link');
  const link = await a.inputValue('#link-url');
  check(link.includes('side=N'), 'the game link seats the other player');
  const b = await newPage();
  await b.goto(link);
  await b.waitForSelector('g.pit');
  await clickMove(a, 0);
  await settled(a, 1);
  await b.waitForFunction(() => document.querySelectorAll('g.pit.playable').length > 0, null, { timeout: 10000 })
    .catch(() => {});
  check((await b.$$('g.pit.playable')).length > 0, 'North\'s browser sees South\'s move and may answer');
  await a.close();
  await b.close();
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

try {
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
