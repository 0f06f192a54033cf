// howto.mjs - the beginner's pages (howto-GAME.html, issue 22) in headless
// Chromium on a 400 px wide phone screen: each page loads from the server,
// fetches nothing from any other address, needs no sideways scrolling, draws
// its pictures at a readable size within the screen, and its link leads back
// to the board.  Run by tests/e2e/run.sh with MANCALA_URL set.
import { chromium } from 'playwright-core';

const url = process.env.MANCALA_URL;
if (!url || !url.startsWith('http://127.0.0.1:')) {
  console.log('howto.mjs: MANCALA_URL must be a loopback address');
  process.exit(2);
}
let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else { failed++; console.log('FAILED: ' + what); }
}

const browser = await chromium.launchPersistentContext(
  `${process.env.MANCALA_TMP || '/tmp'}/chromium-profile-howto`, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

try {
  for (const game of ['oware', 'omweso', 'gore', 'sadeqa2']) {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 400, height: 800 });
    const elsewhere = [], errors = [];
    page.on('request', (r) => { if (!r.url().startsWith(url)) elsewhere.push(r.url()); });
    // the server's Content-Security-Policy refuses inline styles: the
    // page must need none (issue 44)
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const resp = await page.goto(`${url}howto-${game}.html`);
    check(resp && resp.status() === 200, `${game}: status ${resp && resp.status()}`);
    await page.waitForLoadState('load');
    check(elsewhere.length === 0, `${game}: fetched from elsewhere: ${elsewhere.join(' ')}`);
    check(errors.length === 0, `${game}: console errors: ${errors.join(' | ')}`);
    const m = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      css: getComputedStyle(document.body).backgroundColor,
      svgs: [...document.querySelectorAll('figure svg')].map((s) => {
        const r = s.getBoundingClientRect();
        return [r.left, r.right, r.width];
      }),
    }));
    check(m.scroll <= 400, `${game}: the page is ${m.scroll} px wide on a 400 px screen`);
    check(m.css !== 'rgba(0, 0, 0, 0)', `${game}: the stylesheet did not apply`);
    check(m.svgs.length >= 3, `${game}: ${m.svgs.length} pictures`);
    for (const [l, r, w] of m.svgs)
      check(l >= 0 && r <= 400 && w >= 250, `${game}: a picture at ${l}..${r} (${w} px wide)`);
    await page.click('header a[href="index.html"]');
    await page.waitForLoadState('load');
    check(/^\/(index\.html)?$/.test(new URL(page.url()).pathname), `${game}: the link back went to ${page.url()}`);
    check((await page.title()) === 'mancala', `${game}: the board's page is not there`);
    await page.close();
  }
} catch (e) {
  check(false, 'exception: ' + e.message);
}
await browser.close();
console.log(`howto.mjs: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
