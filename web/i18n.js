// i18n.js - the page's words in the player's language (docs/TRANSLATING.md).
// The words are marked where they are written:
//   t('Choose a game.')                       a sentence
//   t('{side} to move.', { side })            with {name} placeholders
//   tn('{n} seed', '{n} seeds', n)            a plural ({n} is n)
//   tc('verdict', 'mistake')                  a word with a context
// and `make pot` gathers them (xgettext, keywords t, tn:1,2, tc:1c,2) into
// po/web/mancala-web.pot.  A language's catalog is po/web/<tag>.po made a
// GNU gettext .mo by msgfmt at build (lang-<tag>.mo beside this file, with
// langs.json: the languages there are, and those with how-to pages); it
// is read here (two tables of strings) and its Plural-Forms rule parsed by
// a small parser of its own (the page's Content-Security-Policy allows no
// eval).  The pseudo-language en-XA (the checks': every marked text comes
// out accented and lengthened) has a catalog made from the .pot the same
// way, by the library's own transform.
//
// The language: ?lang=<tag> in the address, else the one chosen in the
// page (localStorage mancala.lang), else the browser's (navigator.languages),
// else English.  The page's static texts (index.html) are looked up by
// their English words when the catalog is loaded (apply()); they are listed
// in pageTexts() so that xgettext finds them.
'use strict';

const I18n = (() => {
  // The languages by their own names (never translated).
  const NAMES = { en: 'English', fr: 'Français', 'en-XA': '[Ƥšéûðö-Łöçåļé]' };
  const PSEUDO = 'en-XA';
  let table = null; // Map: key (context \x04 msgid) -> [forms]
  let pluralOf = (n) => (n === 1 ? 0 : 1);
  let lang = 'en';
  let langs = { page: ['en'], howto: [] };

  // ---- the catalog: a .mo file -------------------------------------------
  function parseMo(buf) {
    const dv = new DataView(buf);
    const magic = dv.getUint32(0, true);
    const le = magic === 0x950412de;
    if (!le && dv.getUint32(0, false) !== 0x950412de) throw new Error('not a catalog');
    const u32 = (off) => dv.getUint32(off, le);
    const n = u32(8), orig = u32(12), trans = u32(16);
    const dec = new TextDecoder('utf-8');
    const str = (tab, i) => dec.decode(new Uint8Array(buf, u32(tab + 8 * i + 4), u32(tab + 8 * i)));
    const map = new Map();
    for (let i = 0; i < n; i++) {
      const key = str(orig, i).split('\0')[0]; // msgid (with its context); not the plural
      map.set(key, str(trans, i).split('\0'));
    }
    return map;
  }

  // ---- the Plural-Forms rule: a C expression over n --------------------------
  // Precedence climbing over the operators gettext allows; the rule becomes
  // a tree of closures.  A rule that does not parse keeps the English one.
  const BIN = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];
  function parsePlural(src) {
    const toks = src.match(/\d+|n|\|\||&&|[=!<>]=|[-+*\/%<>!?:()]/g) || [];
    if (toks.join('') !== src.replace(/\s+/g, '')) throw new Error('bad rule');
    let k = 0;
    const peek = () => toks[k];
    const take = (want) => {
      if (toks[k] !== want) throw new Error('bad rule');
      k++;
    };
    function primary() {
      const tk = toks[k++];
      if (tk === 'n') return (n) => n;
      if (tk === '!') { const a = primary(); return (n) => (a(n) ? 0 : 1); }
      if (tk === '(') { const e = cond(); take(')'); return e; }
      if (/^\d+$/.test(tk || '')) { const v = Number(tk); return () => v; }
      throw new Error('bad rule');
    }
    function binary(level) {
      if (level === BIN.length) return primary();
      let a = binary(level + 1);
      while (BIN[level].includes(peek())) {
        const op = toks[k++], l = a, r = binary(level + 1);
        a = (n) => {
          const x = l(n), y = r(n);
          switch (op) {
            case '||': return x || y ? 1 : 0;
            case '&&': return x && y ? 1 : 0;
            case '==': return x === y ? 1 : 0;
            case '!=': return x !== y ? 1 : 0;
            case '<': return x < y ? 1 : 0;
            case '>': return x > y ? 1 : 0;
            case '<=': return x <= y ? 1 : 0;
            case '>=': return x >= y ? 1 : 0;
            case '+': return x + y;
            case '-': return x - y;
            case '*': return x * y;
            case '/': return y ? Math.floor(x / y) : 0;
            default: return y ? x % y : 0;
          }
        };
      }
      return a;
    }
    function cond() {
      const c = binary(0);
      if (peek() !== '?') return c;
      k++;
      const a = cond();
      take(':');
      const b = cond();
      return (n) => (c(n) ? a(n) : b(n));
    }
    const e = cond();
    if (k !== toks.length) throw new Error('bad rule');
    return e;
  }

  function usePlural(header) {
    const m = /plural\s*=\s*([^;\n]*)/.exec(header || '');
    const np = /nplurals\s*=\s*(\d+)/.exec(header || '');
    if (!m || !np) return;
    try {
      const rule = parsePlural(m[1].trim()), count = Number(np[1]);
      pluralOf = (n) => Math.max(0, Math.min(count - 1, rule(Math.abs(Math.trunc(n)))));
    } catch (e) { /* the English rule */ }
  }

  // ---- lookups -------------------------------------------------------------
  // {name} in s filled from args (a name args lacks stays as written).
  function format(s, args) {
    if (!args) return s;
    return s.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, k) => (k in args ? String(args[k]) : all));
  }
  function find(key) {
    const f = table && table.get(key);
    return f && f[0] ? f : null;
  }
  function t(msgid, args) {
    const f = find(msgid);
    return format(f ? f[0] : msgid, args);
  }
  function tc(context, msgid, args) {
    const f = find(context + '\x04' + msgid);
    return format(f ? f[0] : msgid, args);
  }
  function tn(singular, plural, n, args) {
    const f = find(singular);
    const s = f ? f[Math.min(pluralOf(n), f.length - 1)] || plural : n === 1 ? singular : plural;
    return format(s, Object.assign({ n }, args || {}));
  }

  // ---- which language ------------------------------------------------------
  function stored() {
    try { return localStorage.getItem('mancala.lang'); } catch (e) { return null; }
  }
  function asked() {
    try { return new URLSearchParams(location.search).get('lang'); } catch (e) { return null; }
  }
  // The served tag for a wanted one ("fr-CA" -> "fr"), or null.
  function served(want) {
    if (!want) return null;
    if (want === PSEUDO) return PSEUDO;
    const w = want.toLowerCase();
    return langs.page.find((l) => l.toLowerCase() === w) ||
      langs.page.find((l) => l.toLowerCase() === w.split(/[-_]/)[0]) || null;
  }
  function choose() {
    const a = served(asked());
    if (a) return a;
    const s = served(stored());
    if (s) return s;
    for (const l of navigator.languages || [navigator.language]) {
      const x = served(l);
      if (x && x !== PSEUDO) return x;
    }
    return 'en';
  }

  async function fetchJSON(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(url);
    return r.json();
  }

  // Load the catalog of the chosen language and translate the page's own
  // texts: resolved when done (English when anything is missing).
  async function load() {
    try {
      const l = await fetchJSON('langs.json');
      if (Array.isArray(l.page)) langs.page = ['en', ...l.page.filter((x) => x !== 'en' && x !== PSEUDO)];
      if (Array.isArray(l.howto)) langs.howto = l.howto;
    } catch (e) { /* a page without catalogs (opened from a folder): English */ }
    const want = choose();
    if (want !== 'en') {
      try {
        const r = await fetch(`lang-${want}.mo`);
        if (!r.ok) throw new Error('no catalog');
        table = parseMo(await r.arrayBuffer());
        const h = find('');
        usePlural(h ? h[0] : '');
        lang = want;
      } catch (e) {
        table = null;
        lang = 'en';
      }
    }
    document.documentElement.lang = lang;
    apply(document);
    picker();
  }

  // ---- the page's own texts ------------------------------------------------
  // Each text of index.html, as written there (spaces made one), is a
  // message: listed here so that xgettext finds it, and looked up by its
  // English words when the page loads.  Never called: pageTexts is a list.
  /* eslint-disable no-unused-vars */
  function pageTexts() {
    return [
      t('Game'), t('Options'),
      // TRANSLATORS: the example in the new-game form's options field:
      // the option names and values stay as they are (the rules' words)
      t('e.g. awari, match=bo3'), t('e.g. match=single'),
      t('Opponent'),
      // TRANSLATORS: the choices of the opponent in the new-game form
      tc('opponent', 'computer'), t('a person here'), t('a person on another browser'),
      t('Hints and the engine\'s evaluations for both players during the game (off by default between two people)'),
      t('Engine help'), t('Level'), t('You play'), t('South'), t('North'), t('Clock'),
      t('kept by the server: a flag fall loses on time'),
      // TRANSLATORS: the clock choices of the new-game form
      tc('clock', 'none'), t('per move'), t('per game + increment'),
      t('seconds'), t('increment'),
      // TRANSLATORS: the unit after the seconds fields of the clock ("300 s")
      tc('unit', 's'),
      // TRANSLATORS: after the increment's field: "300 s + 5 s a move"
      t('s a move'), t('30 s a move'),
      t('New game'), t('Arrange your seeds before the game (a custom set-up)'), t('Set-up editor'),
      t('How to play'), t('Options of this game'),
      // TRANSLATORS: followed by the account's name
      t('Signed in as'), t('My ratings'), t('Sign out'), t('Sign in'), t('Name'), t('Password'),
      t('Register'), t('Lobby: play someone online'), t('either side'),
      t('Rated games change both players\' ratings; they need an account'), t('Rated'),
      t('Post a seek'), t('Quick pairing in this game:'), t('No one yet.'),
      t('Play the house bot instead'), t('Player'), t('Rating'), t('Side'),
      t('No open seeks: post one, and wait here for someone to take it.'), t('Games being played'),
      t('player'), t('Games'), t('Won'), t('Drawn'), t('Lost'), t('Close'),
      t('Choose a game and press New game.'), t('Players\' pages:'), t('board'),
      t('The engine\'s evaluation: South\'s share'),
      t('Set-up: take seeds from your pits (Take seeds, then click; or right-click or shift-click a pit), then click pits to put them.'),
      t('Take seeds'), t('Done'), t('Start again'), t('Accept'), t('Decline'),
      t('Offer: click your pits to choose them.'), t('Offer'), t('Cancel'),
      t('Undo'), t('Redo'), t('Hint'), t('Offer pits…'), t('Resign'), t('Resign this game?'),
      t('Yes, resign'), t('No'), t('Next game'), t('Save record'), t('Delete game'), t('Load record'),
      t('Full board'), t('review'), t('Review'), t('The start (Home)'), t('One move back (←)'),
      t('One move on (→)'), t('The last move (End)'), t('Evaluate'), t('Back to the game'),
      t('The engine values every position of the game and marks the mistakes'), t('Analyse the game'),
      t('analysis'), t('South\'s chance to win, move by move'), t('Turn the board round'), t('Flip board'),
      t('Sound'), t('Animation'),
      // TRANSLATORS: the animation's speeds
      tc('speed', 'normal'), tc('speed', 'fast'), tc('speed', 'off'),
      t('moves'),
      t('Invite the other player with this link (it gives them their seat, once):'),
      t('Anyone may watch with this link (no moves):'),
      t('Language'),
    ];
  }
  /* eslint-enable no-unused-vars */
  // The contexts of the page's texts that have one (by the element).
  const CONTEXTS = [
    ['#opponent option[value="computer"]', 'opponent'], ['#clock-kind option[value="none"]', 'clock'],
    ['#speed option', 'speed'], ['#clock-times', 'unit'],
  ];

  // Translate the texts and the titles, placeholders and labels under root.
  function apply(root) {
    if (!table) return;
    const ctxOf = new Map();
    for (const [sel, c] of CONTEXTS) for (const e of root.querySelectorAll(sel)) ctxOf.set(e, c);
    const look = (s, e) => {
      const words = s.replace(/\s+/g, ' ').trim();
      if (!words) return null;
      const c = e && ctxOf.get(e);
      const f = (c && find(c + '\x04' + words)) || find(words);
      return f ? s.replace(s.trim(), () => f[0]) : null;
    };
    const walk = document.createTreeWalker(root.body || root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    while (walk.nextNode()) nodes.push(walk.currentNode);
    for (const n of nodes) {
      const parent = n.parentNode;
      if (!parent || /^(SCRIPT|STYLE|PRE)$/.test(parent.nodeName)) continue;
      const s = look(n.nodeValue, parent);
      if (s !== null) n.nodeValue = s;
    }
    for (const attr of ['title', 'placeholder', 'aria-label']) {
      for (const e of (root.body || root).querySelectorAll(`[${attr}]`)) {
        const s = look(e.getAttribute(attr));
        if (s !== null) e.setAttribute(attr, s);
      }
    }
    const tl = find(document.title);
    if (tl) document.title = tl[0];
  }

  // ---- the picker: the languages there are, the pseudo-language when asked --
  // A language by its own name (the browser's, for those not listed).
  function nameOf(l) {
    if (NAMES[l]) return NAMES[l];
    try {
      const n = new Intl.DisplayNames([l], { type: 'language' }).of(l);
      return n ? n.charAt(0).toLocaleUpperCase(l) + n.slice(1) : l;
    } catch (e) {
      return l;
    }
  }
  function picker() {
    const sel = document.getElementById('lang');
    if (!sel) return;
    sel.textContent = '';
    const list = langs.page.slice();
    if (asked() === PSEUDO || lang === PSEUDO) list.push(PSEUDO);
    for (const l of list) sel.add(new Option(nameOf(l), l, false, l === lang));
    sel.closest('label').hidden = list.length < 2;
    sel.addEventListener('change', () => {
      try { localStorage.setItem('mancala.lang', sel.value); } catch (e) { /* private mode */ }
      // the page is made again in the new language (a game on this device
      // comes back from storage; one on the server by its address)
      const u = new URL(location.href);
      u.searchParams.delete('lang');
      if (sel.value === PSEUDO) u.searchParams.set('lang', PSEUDO);
      location.replace(u.href);
    });
  }

  // The how-to page of a game in the page's language, when there is one.
  function howto(game) {
    return langs.howto.includes(lang) ? `${lang}/howto-${game}.html` : `howto-${game}.html`;
  }

  // The page's script (data-then: app.js) starts once the language is
  // loaded and the page's other scripts have run: it never shows a word
  // before its language, and the page opens no more connections at once
  // than it did with one script fewer (a server limits them per address).
  const then = document.currentScript && document.currentScript.dataset.then;
  const parsed = new Promise((ok) => (document.readyState === 'loading'
    ? document.addEventListener('DOMContentLoaded', ok, { once: true }) : ok()));
  const ready = load().catch(() => {});
  if (then) {
    Promise.all([ready, parsed]).then(() => {
      const s = document.createElement('script');
      s.src = then;
      document.body.appendChild(s);
    });
  }
  return { t, tn, tc, format, ready, howto, get lang() { return lang; }, apply, parsePlural };
})();
const { t, tn, tc } = I18n;
