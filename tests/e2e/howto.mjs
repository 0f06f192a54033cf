// howto.mjs - the beginner's pages (howto-GAME.html, issue 22) in headless
// Chromium on a 400 px wide phone screen: each page loads from the server,
// fetches nothing from any other address, needs no sideways scrolling, draws
// its pictures at a readable size within the screen, and its link leads back
// to the board.  The French pages (fr/howto-GAME.html, made from
// po/howto/fr.po, issue 48) the same, one folder down: lang="fr", their
// stylesheet and icon from the folder above, a French sentence of each, every
// rule number of the English page, no English word left in the text, and the
// links between the two languages.  Run by tests/e2e/run.sh with MANCALA_URL
// set.
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

// A sentence of each French page, written here from the rules (not copied
// from the page): the translation must say it.
const FRENCH = {
  oware: 'Nourrissez votre adversaire.',
  omweso: 'Un tour de jeu : semer en relais',
  gore: 'Échanger des cases',
  sadeqa2: 'Retirer des graines du jeu',
};
// English words that no French sentence of these pages needs.
const ENGLISH = /\b(the|and|your|you|seeds?|pits?|holes?|houses?|stones?|captures?|board|move|wins?)\b/i;

// Open one page and check what every page must do; returns the page (open)
// and what it shows.
async function open(game, path) {
  const what = path;
  const page = await browser.newPage();
  await page.setViewportSize({ width: 400, height: 800 });
  const elsewhere = [], errors = [], broken = [];
  page.on('request', (r) => { if (!r.url().startsWith(url)) elsewhere.push(r.url()); });
  page.on('requestfailed', (r) => broken.push(r.url()));
  page.on('response', (r) => { if (r.status() >= 400) broken.push(`${r.url()} (${r.status()})`); });
  // the server's Content-Security-Policy refuses inline styles: the
  // page must need none (issue 44)
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const resp = await page.goto(url + path);
  check(resp && resp.status() === 200, `${what}: status ${resp && resp.status()}`);
  const csp = resp && resp.headers()['content-security-policy'];
  check(csp && csp.includes("default-src 'self'"), `${what}: no Content-Security-Policy (${csp})`);
  await page.waitForLoadState('load');
  check(elsewhere.length === 0, `${what}: fetched from elsewhere: ${elsewhere.join(' ')}`);
  check(errors.length === 0, `${what}: console errors: ${errors.join(' | ')}`);
  check(broken.length === 0, `${what}: failed to load: ${broken.join(' ')}`);
  const m = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    scroll: document.documentElement.scrollWidth,
    css: getComputedStyle(document.body).backgroundColor,
    icon: [...document.querySelectorAll('link[rel="icon"]')].map((l) => l.href),
    svgs: [...document.querySelectorAll('figure svg')].map((s) => {
      const r = s.getBoundingClientRect();
      return [r.left, r.right, r.width];
    }),
    rules: [...document.querySelectorAll('.rule')].map((e) => e.textContent.replace(/\s+/g, ' ')),
    text: document.querySelector('main').innerText.replace(/\s+/g, ' '),
    labels: [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')),
  }));
  check(m.scroll <= 400, `${what}: the page is ${m.scroll} px wide on a 400 px screen`);
  check(m.css !== 'rgba(0, 0, 0, 0)', `${what}: the stylesheet did not apply`);
  check(m.svgs.length >= 3, `${what}: ${m.svgs.length} pictures`);
  for (const [l, r, w] of m.svgs)
    check(l >= 0 && r <= 400 && w >= 250, `${what}: a picture at ${l}..${r} (${w} px wide)`);
  for (const href of m.icon) {
    const r = await page.request.get(href);
    check(r.status() === 200, `${what}: its icon ${href}: ${r.status()}`);
  }
  return { page, m };
}

// Follow the header's link matching sel; check where it went.
async function follow(page, sel, want, what) {
  await Promise.all([page.waitForNavigation(), page.click(sel)]);
  await page.waitForLoadState('load');
  check(want.test(new URL(page.url()).pathname), `${what}: the link went to ${page.url()}`);
}

try {
  for (const game of ['oware', 'omweso', 'gore', 'sadeqa2']) {
    const en = await open(game, `howto-${game}.html`);
    check(en.m.lang === 'en', `${game}: lang="${en.m.lang}"`);
    // the English page's link to the French one
    await follow(en.page, 'header a.lang[hreflang="fr"]', new RegExp(`^/fr/howto-${game}\\.html$`),
      `${game}: Français`);
    await en.page.close();

    const fr = await open(game, `fr/howto-${game}.html`);
    const what = `fr/howto-${game}.html`;
    check(fr.m.lang === 'fr', `${what}: lang="${fr.m.lang}"`);
    check(fr.m.text.replace(/\u00a0/g, ' ').includes(FRENCH[game]),
      `${what}: does not say "${FRENCH[game]}"`);
    const left = fr.m.text.match(ENGLISH);
    check(!left, `${what}: an English word left: "${left && left[0]}" in ${left &&
      fr.m.text.slice(Math.max(0, left.index - 40), left.index + 40)}`);
    for (const l of fr.m.labels) {
      const w = l.match(ENGLISH);
      check(!w, `${what}: a picture's description in English: "${l}"`);
    }
    const enRules = new Set(en.m.rules), frRules = new Set(fr.m.rules);
    for (const r of enRules) check(frRules.has(r), `${what}: lacks the rule number ${r}`);
    check(enRules.size >= 5 && frRules.size === enRules.size,
      `${what}: ${frRules.size} rule numbers, the English page ${enRules.size}`);
    // the other French pages, the English page, the board
    const nav = await fr.page.$$eval('nav.games a', (as) => as.map((a) => a.href));
    check(nav.length === 3 && nav.every((h) => /\/fr\/howto-[a-z0-9]+\.html$/.test(h)),
      `${what}: the other games' links are not French pages: ${nav.join(' ')}`);
    await follow(fr.page, 'header a.lang[hreflang="en"]', new RegExp(`^/howto-${game}\\.html$`),
      `${what}: English`);
    await fr.page.goBack();
    await follow(fr.page, 'header a[href="../index.html"]', /^\/(index\.html)?$/, `${what}: back to the board`);
    check((await fr.page.title()) === 'mancala', `${what}: the board's page is not there`);
    await fr.page.close();

    // the English page's own link back to the board
    const page = (await open(game, `howto-${game}.html`)).page;
    await follow(page, 'header a[href="index.html"]', /^\/(index\.html)?$/, `${game}: back to the board`);
    check((await page.title()) === 'mancala', `${game}: the board's page is not there`);
    await page.close();
  }
} catch (e) {
  check(false, 'exception: ' + e.message);
}
await browser.close();
console.log(`howto.mjs: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
