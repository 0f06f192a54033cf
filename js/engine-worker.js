// engine-worker.js - libmancala in a Web Worker (docs/WASM.md), so that a
// page never waits while the computer thinks.  A classic worker (it loads
// from any host, with importScripts):
//   new Worker('engine-worker.js')
// Text messages are engine lines, answered line by line as text messages,
// the way sites drive stockfish.wasm: the first line `uci` makes it speak
// the UCI dialect of the Oware GUIs, any other the mancala protocol
// (docs/PROTOCOL.md).  `go infinite` goes one iteration deeper between
// messages, so `stop` is read; a bounded search answers when it is done.
// Object messages {type: 'api', id, method, path, body, token} are requests
// to the JSON API of `mancala serve` (docs/API.md) on games kept in the
// worker; each is answered {type: 'api', id, status, body}.  A request's
// `lang` (a tag: "fr") is the language of the library's words in its
// answer.  The page's
// "device" back end (web/backend.js) is made of them.
'use strict';
importScripts('mancala-web.js', 'mancala-core.js');

// Oware's endgame tables, when the site ships them (make site: egdb.json
// lists the compressed layers beside this script): into the module's
// memory before it starts, so the computer plays endings perfectly, with
// no network after the first visit (the service worker keeps them).
async function tables() {
  try {
    const r = await fetch('egdb.json');
    if (!r.ok) return [];
    const names = await r.json();
    const files = [];
    for (const n of Array.isArray(names) ? names : []) {
      if (!/^oware-[a-z]+-[0-9]{2}\.egdbz?$/.test(n)) continue;
      const f = await fetch(n);
      if (!f.ok) return [];
      files.push([n, new Uint8Array(await f.arrayBuffer())]);
    }
    return files;
  } catch (e) {
    return []; // no tables: the engine searches
  }
}

const ready = tables().then((files) => MancalaCore.loadWith(createMancala, files.length ? {
  preRun: [(M) => {
    M.FS.mkdir('/egdb');
    for (const [n, d] of files) M.FS.writeFile('/egdb/' + n, d);
    M.ENV.MANCALA_EGDB_DIR = '/egdb';
  }],
} : {}));
let pump = null;

function onLine(m, line) {
  if (!pump) {
    pump = new MancalaCore.EnginePump(m.call, line.trim() === 'uci',
      (l) => self.postMessage(l), () => { pump = null; });
  }
  pump.push(line);
}

self.onmessage = (ev) => {
  const d = ev.data;
  ready.then((m) => {
    if (typeof d === 'string') {
      for (const line of d.split('\n')) onLine(m, line);
    } else if (d && d.type === 'api') {
      let r;
      try {
        r = m.call({ op: 'api', method: d.method, path: d.path, body: d.body || '', token: d.token || null, lang: d.lang || 'en' });
      } catch (e) {
        r = { status: 500, body: JSON.stringify({ error: { code: 'memory', message: String(e.message || e) } }) };
      }
      self.postMessage({ type: 'api', id: d.id, status: r.status, body: r.body });
    }
  }, (e) => self.postMessage({ type: 'error', message: 'the engine did not load: ' + (e && e.message || e) }));
};
