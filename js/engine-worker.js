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
// worker; each is answered {type: 'api', id, status, body}.  The page's
// "device" back end (web/backend.js) is made of them.
'use strict';
importScripts('mancala-web.js', 'mancala-core.js');

const ready = MancalaCore.loadWith(createMancala);
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
        r = m.api(d.method, d.path, d.body, d.token);
      } catch (e) {
        r = { status: 500, body: JSON.stringify({ error: { code: 'memory', message: String(e.message || e) } }) };
      }
      self.postMessage({ type: 'api', id: d.id, status: r.status, body: r.body });
    }
  }, (e) => self.postMessage({ type: 'error', message: 'the engine did not load: ' + (e && e.message || e) }));
};
