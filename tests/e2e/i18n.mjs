// i18n.mjs - the page in the players' languages (docs/TRANSLATING.md), on
// the static site (make site: build/site) served by a plain file server of
// node's own (with the Content-Security-Policy of mancala serve, which
// forbids eval: the catalogs' plural rules are parsed, never evaluated),
// in Debian's chromium driven by playwright-core:
//   French, at 400x800: a browser set to French gets the page in French;
//     a game of each kind against the computer to its end; illegal moves
//     and refused set-ups explained in French; the language chosen in the
//     picker survives a reload (and the game on the device comes back);
//     the how-to links follow the language; mancala serve serves the
//     catalogs too;
//   the pseudo-language (?lang=en-XA): no English word left on the screen
//     (an ASCII word of three letters or more, but for the allowed list);
//   the size of each language's catalog, compressed (gzip -9): < 30 KB.
// The library's own words (explanations, results, refusals) are checked
// in French and in the pseudo-language when the library speaks them (its
// catalogs, po/lib: `mancala --lang fr` refuses a move in French); until
// then those parts say what they did not check.
// usage: node tests/e2e/i18n.mjs build/site   (MANCALA: the program)
import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { until, clickMove, CODES, staticServer } from './board.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const site = resolve(process.argv[2] || join(root, 'build', 'site'));
const tmp = process.env.MANCALA_TMP || '/tmp';
const imgDir = process.env.MANCALA_SHOTS ? join(root, process.env.MANCALA_SHOTS) : join(tmp, 'shots');
mkdirSync(imgDir, { recursive: true });
if (!existsSync(join(site, 'index.html'))) {
  console.log(`i18n.mjs: no site in ${site} (make site)`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else { failed++; console.log('FAILED: ' + what); }
}

// Does the library speak French (and the pseudo-language) yet?  Its
// refusal of a move, through the program, in English and in French.
function libSays(lang) {
  if (!process.env.MANCALA) return '';
  const r = spawnSync(process.env.MANCALA, ['--lang', lang, 'apply', 'oware', 'start', 'a'], { env: { ...process.env, MANCALA_EGDB_DIR: 'none' } });
  return r.stderr.toString();
}
const libEnglish = libSays('en');
const libFrench = libEnglish !== '' && libSays('fr') !== libEnglish;
const libPseudo = libEnglish !== '' && libSays('en-XA') !== libEnglish;
if (!libFrench) console.log('i18n.mjs: the library speaks no French yet: its words are not checked in French');
if (!libPseudo) console.log('i18n.mjs: the library marks none of its words yet: only the page\'s are checked in en-XA');

// ---- a plain static file server, with mancala serve's CSP ------------------
const CSP = "default-src 'self'; img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; frame-ancestors 'none'";
let requests = [];
const server = await staticServer(site, { onRequest: (u) => requests.push(u), headers: { 'Content-Security-Policy': CSP } });
const url = `http://127.0.0.1:${server.address().port}/`;

// A browser whose language is locale (navigator.languages).
function launch(name, locale) {
  return chromium.launchPersistentContext(`${tmp}/chromium-i18n-${name}`, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    locale,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', `--lang=${locale}`],
  });
}

const loaded = () => document.body.dataset.backends !== undefined && document.querySelectorAll('#game option').length > 0
  && !/^(Loading|Chargement)/.test(document.getElementById('status').textContent);

async function openBoard(browser, viewport, where) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  page.on('pageerror', (e) => check(false, `page error ${e.message}`));
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) check(false, `CSP: ${m.text()}`); });
  await page.goto(where || url);
  await page.evaluate(() => localStorage.setItem('mancala.prefs', JSON.stringify({ speed: 'off', sound: false, flip: 'auto' })));
  await page.reload();
  check(await until(page, loaded, 30000), 'the page loaded its engine and its games');
  return page;
}

const statusText = (page) => page.textContent('#status');
const text = (page, sel) => page.$eval(sel, (e) => e.textContent.replace(/\s+/g, ' ').trim());

async function newGame(page, game, options, opponent, level, side) {
  await page.selectOption('#game', game);
  await page.fill('#options', options || '');
  await page.selectOption('#opponent', opponent);
  await page.selectOption('#level', String(level || 1));
  await page.selectOption('#myside', side || 'S');
  await page.evaluate(() => { document.getElementById('log').textContent = ''; });
  await page.click('#start');
  return until(page, () => document.querySelectorAll('g.pit').length > 0 && document.querySelectorAll('#log li').length > 0
    && document.querySelectorAll('#moves button').length === 0, 20000);
}

const OVER = /^Partie terminée : /;
const readyOrOver = () => document.body.dataset.busy === '0' && (/^Partie terminée : /.test(document.getElementById('status').textContent)
  || document.querySelector('g.pit.playable') || document.querySelector('#choices button[data-move]'));

// ---- French -----------------------------------------------------------------

// The game titles as the library gives them (GET /api/games).
const TITLES = { oware: 'Oware', omweso: 'Omweso', gore: 'Goré', sadeqa2: 'Sadeqa II' };

async function frenchGame(browser, game, options) {
  const page = await openBoard(browser, { width: 400, height: 800 });
  const tag = `fr ${game} 400x800`;
  check(await newGame(page, game, options, 'computer', 1, 'S'), `${tag}: the game started`);
  const first = await page.$eval('#log li', (l) => l.textContent);
  const title = await page.$eval(`#game option[value="${game}"]`, (o) => o.textContent);
  check(first === `Nouvelle partie : ${title}${options ? ` (${options.replace('=', ': ')})` : ''}.`, `${tag}: the log says the new game in French (${first})`);
  await until(page, readyOrOver, 20000);
  check((await statusText(page)) === 'À vous de jouer (Sud).', `${tag}: your turn, in French (${await statusText(page)})`);
  let moves = 0;
  for (let i = 0; i < 900; i++) {
    if (!(await until(page, readyOrOver, 60000))) break;
    if (OVER.test(await statusText(page))) break;
    const n = await page.$$eval('#moves button', (bs) => bs.length);
    if (!(await clickMove(page, i * 7 + 3))) continue;
    moves++;
    await until(page, (k) => document.querySelectorAll('#moves button').length > k
      || /^Partie terminée : /.test(document.getElementById('status').textContent), 20000, n);
  }
  const status = await statusText(page);
  check(OVER.test(status), `${tag}: played to its end in French after ${moves} moves (${status})`);
  const log = await page.$$eval('#log li', (ls) => ls.map((l) => l.textContent));
  check(log.some((l) => OVER.test(l)), `${tag}: the log says the end in French`);
  if (libFrench) {
    // the result in the library's French: a side named as the page names
    // it, or a draw; not the English words
    const result = status.replace(OVER, '');
    check(/Sud|Nord|nulle|égalité/.test(result) && !/\b(wins|draw|North|South)\b/.test(result),
      `${tag}: the result in the library's French (${result})`);
    check(!log.some((l) => /\bNorth (sows|plays|captures)\b|\bSouth (sows|plays|captures)\b/.test(l)),
      `${tag}: the moves explained in French (${log.slice(1, 3).join(' | ')})`);
  }
  check(!CODES.test(status + log.join(' ')), `${tag}: no internal code shown`);
  await page.screenshot({ path: join(imgDir, `i18n-fr-${game}-400.png`) });
  await page.close();
}

async function frenchBasics(browser) {
  const page = await openBoard(browser, { width: 400, height: 800 });
  check(await page.evaluate(() => navigator.languages[0].startsWith('fr')), 'fr: the browser asks for French');
  check(await page.evaluate(() => document.documentElement.lang) === 'fr', 'fr: <html lang="fr">');
  check(await page.$eval('#lang', (s) => s.value) === 'fr', 'fr: the picker shows French');
  check(await page.$eval('#lang', (s) => s.selectedOptions[0].textContent) === 'Français', 'fr: ... by its own name');
  check(await page.$eval('#lang', (s) => [...s.options].every((o) => o.value !== 'en-XA')), 'fr: no pseudo-language in the picker unless asked');
  check((await statusText(page)) === 'Choisissez un jeu et appuyez sur Nouvelle partie.', `fr: the status (${await statusText(page)})`);
  // French plurals (the catalog's rule, n > 1): 0 and 1 singular
  const forms = await page.evaluate(() => [0, 1, 2, 17].map((n) => tn('{n} mistake', '{n} mistakes', n)).join(', '));
  check(forms === '0 erreur, 1 erreur, 2 erreurs, 17 erreurs', `fr: plural forms by the catalog's rule (${forms})`);
  const ctx = await page.evaluate(() => [tc('speed', 'off'), tc('result', 'lost'), t('{side} wins.', { side: t('North') })].join(' | '));
  check(ctx === 'désactivée | perdue | Nord gagne.', `fr: contexts and placeholders (${ctx})`);
  check((await text(page, '#start')) === 'Nouvelle partie', 'fr: the New game button');
  check((await text(page, 'label:has(#opponent)')).startsWith('Adversaire'), 'fr: the opponent\'s label');
  check((await text(page, '#opponent option[value="computer"]')) === 'l\'ordinateur', 'fr: the opponent computer (a word with a context)');
  check((await text(page, '#clock-kind option[value="none"]')) === 'aucune', 'fr: no clock (another context)');
  check((await text(page, '#speed option[value="off"]')) === 'désactivée', 'fr: the animation off (a third context)');
  check((await text(page, '#resign')) === 'Abandonner', 'fr: the resign button');
  check(await page.$eval('#rev-first', (b) => b.title) === 'Le début (touche Origine)', 'fr: a title attribute');
  check(await page.$eval('#options', (b) => b.placeholder) === 'p. ex. awari, match=bo3', 'fr: a placeholder');
  check(await page.$eval('#board', (b) => b.getAttribute('aria-label')) === 'plateau', 'fr: an aria-label');
  // the how-to link: the French page when the site has one (langs.json)
  const langs = JSON.parse(readFileSync(join(site, 'langs.json'), 'utf8'));
  const frHowto = langs.howto.includes('fr');
  const href = await page.$eval('#howto-new', (a) => a.getAttribute('href'));
  check(href === (frHowto ? 'fr/howto-oware.html' : 'howto-oware.html'), `fr: the how-to link (${href}; French pages: ${frHowto})`);
  if (frHowto) check(existsSync(join(site, 'fr', 'howto-oware.html')), 'fr: the French how-to page is in the site');
  await page.selectOption('#game', 'omweso');
  check((await page.$eval('#howto-new', (a) => a.getAttribute('href'))).endsWith('howto-omweso.html'), 'fr: ... follows the game');
  await page.screenshot({ path: join(imgDir, 'i18n-fr-start-400.png') });

  // An illegal move: North's pit on South's turn; the library says why.
  await newGame(page, 'oware', '', 'computer', 1, 'S');
  await until(page, readyOrOver, 20000);
  await page.click('g.pit[data-name="a"]');
  check(await until(page, () => document.getElementById('status').textContent !== 'À vous de jouer (Sud).', 10000),
    'fr: clicking North\'s pit on your turn says why it cannot be played');
  const why = await statusText(page);
  const lastLog = await page.$eval('#log li:last-child', (l) => l.textContent);
  check(why === lastLog && why.includes('a'), `fr: ... in the status and the log (${why})`);
  if (libFrench) check(/Nord/.test(why) && !/North|houses/.test(why), `fr: ... in French (${why})`);
  check((await page.$$eval('#moves button', (bs) => bs.length)) === 0, 'fr: ... and nothing was played');

  // A set-up refused in the page's words: Omweso's editor, a pit of North
  // while South arranges, then a seed put with none in hand.
  await page.selectOption('#game', 'omweso');
  await page.fill('#options', 'match=single');
  await page.selectOption('#opponent', 'here');
  await page.click('#edit-setup');
  check(await until(page, () => !document.getElementById('setup-bar').hidden, 10000), 'fr: the set-up editor opens');
  check((await statusText(page)) === 'Sud : disposez vos graines, puis appuyez sur Terminé.', `fr: the set-up's status (${await statusText(page)})`);
  await page.click('g.pit[data-name="a"]');
  const count = await text(page, '#setup-count');
  check(count === 'En main : 0. Au plus 10 graines par case. a n\'est pas une case de Sud.', `fr: a pit of North refused (${count})`);
  await page.click('g.pit[data-name="A"]');
  check((await text(page, '#setup-count')).includes('Prenez d\'abord des graines'), `fr: no seed in hand (${await text(page, '#setup-count')})`);
  check((await text(page, '#setup-take')) === 'Prendre des graines', 'fr: the Take seeds button');

  // Goré's offers: a refused offer in the page's words
  await newGame(page, 'gore', '', 'here', 1, 'S');
  await until(page, readyOrOver, 20000);
  if (!(await page.isHidden('#offer'))) {
    await page.click('#offer');
    for (const n of ['A', 'B', 'C', 'D']) await page.click(`g.pit[data-name="${n}"]`).catch(() => {});
    const pay = await text(page, '#offer-pay');
    check(pay.startsWith('Vous ne pouvez pas faire cette offre maintenant'), `fr: a refused offer (${pay})`);
    await page.click('#offer-cancel');
  }
  await page.close();
}

// Chosen in the picker: kept over a reload; the game on the device comes back.
async function pickerSurvives(browser) {
  const page = await openBoard(browser, { width: 400, height: 800 });
  check(await page.evaluate(() => document.documentElement.lang) === 'en', 'picker: an English browser gets English');
  const forms = await page.evaluate(() => [0, 1, 2].map((n) => tn('{n} mistake', '{n} mistakes', n)).join(', '));
  check(forms === '0 mistakes, 1 mistake, 2 mistakes', `picker: English plurals without a catalog (${forms})`);
  check((await statusText(page)) === 'Choose a game and press New game.', 'picker: ... the English status');
  await newGame(page, 'oware', '', 'computer', 1, 'S');
  await until(page, readyOrOver, 20000);
  await clickMove(page, 2);
  await until(page, () => document.querySelectorAll('#moves button').length >= 2 && document.body.dataset.busy === '0', 20000);
  const before = await page.$$eval('#moves button', (bs) => bs.map((b) => b.dataset.move).join(' '));
  await Promise.all([page.waitForNavigation(), page.selectOption('#lang', 'fr')]);
  check(await until(page, loaded, 30000), 'picker: the page came back');
  check(await page.evaluate(() => document.documentElement.lang) === 'fr', 'picker: French chosen');
  check(await until(page, () => document.getElementById('log').textContent.includes('telle que vous l\'avez laissée'), 20000),
    'picker: the game on this device came back, said in French');
  const after = await page.$$eval('#moves button', (bs) => bs.map((b) => b.dataset.move).join(' '));
  check(after === before, `picker: the same moves (${after} for ${before})`);
  check((await statusText(page)) === 'À vous de jouer (Sud).', `picker: the status in French (${await statusText(page)})`);
  await page.reload();
  check(await until(page, loaded, 30000), 'picker: reloaded');
  check(await page.evaluate(() => document.documentElement.lang) === 'fr' && (await text(page, '#start')) === 'Nouvelle partie',
    'picker: French survives a reload');
  await Promise.all([page.waitForNavigation(), page.selectOption('#lang', 'en')]);
  check(await until(page, loaded, 30000), 'picker: back to English');
  check(await page.evaluate(() => document.documentElement.lang) === 'en' && (await text(page, '#start')) === 'New game',
    'picker: English again');
  await page.reload();
  check(await until(page, loaded, 30000) && (await text(page, '#start')) === 'New game', 'picker: English survives a reload');
  await page.evaluate(() => { localStorage.removeItem('mancala.device'); localStorage.removeItem('mancala.lang'); });
  await page.close();
}

// mancala serve serves the catalogs too (embedded with the page).
async function served(browser) {
  if (!process.env.MANCALA) return;
  const srv = spawn(process.env.MANCALA, ['serve', '--port', '0', '--site', 'none', '--db', join(tmp, 'i18n-serve.db')], {
    env: { ...process.env, XDG_DATA_HOME: join(tmp, 'xdg-i18n'), MANCALA_EGDB_DIR: 'none' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const addr = await new Promise((ok) => {
    let out = '';
    srv.stdout.on('data', (d) => { out += d; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) ok(m[0]); });
    setTimeout(() => ok(null), 20000);
  });
  check(addr !== null, 'served: mancala serve started');
  if (!addr) { srv.kill(); return; }
  for (const f of ['langs.json', 'lang-fr.mo', 'lang-en-XA.mo']) {
    const r = await fetch(addr + f);
    check(r.ok, `served: ${f} (${r.status})`);
  }
  const page = await openBoard(browser, { width: 400, height: 800 }, addr);
  check((await page.evaluate(() => document.body.dataset.backends)).includes('server'), 'served: the server found');
  check((await text(page, '#start')) === 'Nouvelle partie' && (await text(page, '#lobby summary')) === 'Salon : jouer contre quelqu\'un en ligne',
    'served: the page in French, its lobby too');
  // the server's words: asked in French (Accept-Language)
  const sent = [];
  const streams = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/') && r.resourceType() === 'fetch') sent.push(r.headers()['accept-language']);
    if (r.url().includes('/events')) streams.push(r.url());
  });
  await page.selectOption('#opponent', 'link');
  await page.click('#start');
  await until(page, () => location.hash.includes('g='), 20000);
  check(sent.length > 0 && sent.every((l) => l === 'fr'), `served: the API requests say Accept-Language: fr (${sent.join(',')})`);
  check(await until(page, () => true, 100) && streams.some((u) => /\/events\?lang=fr$/.test(u)), `served: the game's event stream asks ?lang=fr (${streams.join(' ')})`);
  // a move the server refuses: its words in French
  await page.waitForSelector('g.pit.playable');
  await page.click('g.pit[data-name="a"]');
  check(await until(page, () => !/^À vous de jouer/.test(document.getElementById('status').textContent), 10000), 'served: a refused move is explained');
  const why = await statusText(page);
  if (libFrench) check(/Nord/.test(why) && !/North/.test(why), `served: ... by the server in French (${why})`);
  await page.close();
  srv.kill();
}

// ---- the pseudo-language ----------------------------------------------------
// ASCII words of 3 letters or more that may stay: the project's name, the
// games' names (proper names: Oware, Omweso, Sadeqa; Goré is not ASCII), a
// game's option values as the rules name them (a spec's words, the same in
// every language).
// every game in every language), and "English": the picker names each
// language in its own words.
const ALLOW = new Set(['mancala', 'Oware', 'Omweso', 'Sadeqa', 'English']);
function english(s) {
  return [...new Set((s.match(/\p{L}+/gu) || []).filter((w) => /^[A-Za-z]{3,}$/.test(w) && !ALLOW.has(w)))];
}
// The library's words on the page: the games' titles and options, the
// log's explanations (but its first line, the page's), refusals and
// evaluations; left out when the library marks none of its words yet.
const LIB_SEL = '#game option, #seek-game option, #options-help, #log li:not(:first-child), #eval-text, #choices .why';
// A game's options as the rules name them (`mancala games`: the option
// names, their values, the presets and the word "preset" that names them,
// a key as the options' are): codes of a game's spec, the same in every
// language, in the options' help beside its (translated) words.
const SPEC_WORDS = new Set();
if (process.env.MANCALA) {
  const out = spawnSync(process.env.MANCALA, ['games'], { env: { ...process.env, MANCALA_EGDB_DIR: 'none' } }).stdout.toString();
  for (const line of out.split('\n')) {
    const m = /^ {2}(preset\s+)?([a-z0-9_]+)\s+([a-z0-9_*|=,+.]+)/.exec(line);
    if (m) for (const w of ((m[1] || '') + m[2] + ' ' + m[3]).match(/\p{L}+/gu) || []) SPEC_WORDS.add(w);
  }
}
// The text of the page, each text node apart (a move list's letters are
// not one word); shown: only what is visible (a select's options too).
function pageText({ shown, skip }) {
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const left = skip ? [...document.querySelectorAll(skip)] : [];
  while (w.nextNode()) {
    const n = w.currentNode, p = n.parentElement;
    if (!p || /^(SCRIPT|STYLE)$/.test(p.nodeName) || left.some((e) => e.contains(p))) continue;
    const host = p.closest('select') || p;
    if (shown && !host.checkVisibility()) continue;
    out.push(n.nodeValue);
  }
  for (const e of document.querySelectorAll('[title],[placeholder],[aria-label]')) {
    if (left.some((x) => x.contains(e)) || (shown && !e.checkVisibility())) continue;
    out.push(e.title || '', e.placeholder || '', e.getAttribute('aria-label') || '');
  }
  // the games' titles in the page's own sentences ("New game: {game}.")
  let all = out.join(' ');
  if (skip) for (const o of document.querySelectorAll('#game option')) all = all.split(o.textContent).join(' ');
  return all;
}

async function pseudo(browser) {
  const page = await openBoard(browser, { width: 1280, height: 800 }, url + '?lang=en-XA');
  check(await page.evaluate(() => document.documentElement.lang) === 'en-XA', 'en-XA: <html lang="en-XA">');
  check(await page.$eval('#lang', (s) => [...s.options].some((o) => o.value === 'en-XA' && o.selected)), 'en-XA: in the picker when asked');
  // every text of the page's, and its titles, labels and placeholders
  const skip = libPseudo ? null : LIB_SEL;
  let left = english(await page.evaluate(pageText, { shown: true, skip }));
  check(left.length === 0, `en-XA: no English word on the page before a game (${left.join(' ')})`);
  // the texts hidden now (lobby, set-up, offers...): the whole document
  left = english(await page.evaluate(pageText, { shown: false, skip: skip || '#options-help' }));
  check(left.length === 0, `en-XA: no English word in the page's texts, shown or not (${left.join(' ')})`);
  if (libPseudo) {
    // the options' help of each game: its words, not its codes
    for (const game of ['oware', 'omweso', 'gore', 'sadeqa2']) {
      await page.selectOption('#game', game);
      left = english(await page.$eval('#options-help', (e) => e.textContent)).filter((w) => !SPEC_WORDS.has(w));
      check(left.length === 0 && SPEC_WORDS.size > 0, `en-XA: ${game}'s options in the pseudo-language, but for their codes (${left.join(' ')})`);
    }
    await page.selectOption('#game', 'oware');
  }
  // a game: its status, log, move list, review, analysis
  await newGame(page, 'oware', '', 'computer', 1, 'S');
  await until(page, readyOrOver, 20000);
  await page.click('g.pit[data-name="a"]'); // refused: the library's words
  await until(page, () => document.querySelectorAll('#log li').length >= 2, 10000);
  left = english(await page.evaluate(() => document.getElementById('status').textContent));
  if (libPseudo) check(left.length === 0, `en-XA: the refused move in the library's words (${left.join(' ')})`);
  for (let i = 0; i < 3; i++) {
    await until(page, readyOrOver, 20000);
    await clickMove(page, i + 1);
    await until(page, (k) => document.querySelectorAll('#moves button').length >= k && document.body.dataset.busy === '0', 20000, 2 * (i + 1));
  }
  await page.click('#hint');
  await until(page, () => document.querySelector('g.pit.best') !== null, 15000);
  await page.click('#rev-prev');
  await page.click('#rev-eval');
  await until(page, () => document.getElementById('eval-text').textContent.length > 0
    && !/…$/.test(document.getElementById('eval-text').textContent), 15000);
  // the library's words (the log's explanations, the evaluation) only
  // when the library marks them
  left = english(await page.evaluate(pageText, { shown: true, skip }));
  check(left.length === 0, `en-XA: no English word during a game${libPseudo ? '' : ' (the page\'s words)'} (${left.join(' ')})`);
  await page.screenshot({ path: join(imgDir, 'i18n-en-XA-1280.png') });
  await page.close();
}

// ---- the catalogs' size -----------------------------------------------------
function sizes() {
  const mos = readdirSync(site).filter((f) => /^lang-.*\.mo$/.test(f));
  check(mos.includes('lang-fr.mo') && mos.includes('lang-en-XA.mo'), `catalogs: French and the pseudo-language in the site (${mos.join(' ')})`);
  for (const f of mos) {
    const raw = readFileSync(join(site, f)), gz = gzipSync(raw, { level: 9 }).length;
    console.log(`i18n.mjs: ${f}: ${raw.length} bytes, ${gz} gzip -9`);
    check(gz < 30 * 1024, `catalogs: ${f} compressed is under 30 KB (${gz} bytes)`);
  }
}

async function part(name, f) {
  try {
    await f();
  } catch (e) {
    check(false, `${name}: exception: ${e.message.split('\n')[0]}`);
  }
}

const t0 = Date.now();
sizes();
const fr = await launch('fr', 'fr-FR');
await part('fr basics', () => frenchBasics(fr));
await part('fr oware', () => frenchGame(fr, 'oware', ''));
await part('fr omweso', () => frenchGame(fr, 'omweso', 'match=single'));
await part('fr gore', () => frenchGame(fr, 'gore', ''));
await part('fr sadeqa2', () => frenchGame(fr, 'sadeqa2', ''));
await part('served', () => served(fr));
await fr.close();
const en = await launch('en', 'en-US');
await part('picker', () => pickerSurvives(en));
await part('en-XA', () => pseudo(en));
await en.close();
server.close();
console.log(`i18n.mjs: ${passed} passed, ${failed} failed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
