// backend.js - where the board's requests go (docs/WASM.md, DESIGN.md "one
// face, two back ends").  The page speaks one small interface, the JSON API
// of docs/API.md: request(method, path, body, token) answers {status, body}.
// Two back ends give it:
//   server: `mancala serve`'s HTTP API (online games, games between two
//           browsers);
//   device: the same API in the WebAssembly module on this device, in a Web
//           Worker (engine-worker.js), or in the page itself when a worker
//           cannot start (a page opened from a folder): games against the
//           computer, two people at one screen, analysis, with no network.
// Which exist is found out once: the device one where the site ships the
// module (make site), the server one where /api/ answers.  This file knows
// no rule and no game: it only carries requests, each with the page's
// language (i18n.js: I18n.lang), so that the library's words in the
// answers (explanations, results, errors) come in it: the server's as
// Accept-Language, the device's as the request's "lang".  (The errors
// here are never shown: a back end that does not start is not used.)
'use strict';

const MancalaBackend = (() => {
  // ---- server ----
  const server = {
    name: 'server',
    async request(method, path, body, token) {
      const headers = { 'Accept-Language': lang() };
      if (method !== 'GET') headers['Content-Type'] = 'application/json';
      if (token) headers.Authorization = 'Bearer ' + token;
      const r = await fetch('api/' + path, {
        method, headers, body: method === 'POST' ? JSON.stringify(body || {}) : undefined,
      });
      return { status: r.status, body: await r.text() };
    },
  };

  // ---- device ----
  let worker = null, seq = 0, inPage = null;
  const waiting = new Map();
  const lang = () => (typeof I18n !== 'undefined' ? I18n.lang : 'en');

  function startWorker() {
    return new Promise((resolve, reject) => {
      let w;
      try {
        w = new Worker('engine-worker.js');
      } catch (e) {
        reject(e);
        return;
      }
      const timer = setTimeout(() => reject(new Error('the engine did not start')), 20000);
      w.onerror = (e) => { clearTimeout(timer); reject(new Error(e.message || 'no worker')); };
      w.onmessage = (ev) => {
        const d = ev.data;
        if (d && d.type === 'api' && waiting.has(d.id)) {
          waiting.get(d.id)(d);
          waiting.delete(d.id);
          if (d.id === 0) { clearTimeout(timer); resolve(w); }
        } else if (d && d.type === 'error') {
          clearTimeout(timer);
          reject(new Error(d.message));
        }
      };
      // The first request proves the module loaded.
      waiting.set(0, () => {});
      w.postMessage({ type: 'api', id: 0, method: 'GET', path: '/api/games' });
    });
  }

  // A page opened from a folder: no worker, so the module runs here (the
  // page waits while the computer thinks).  Plain scripts load from files.
  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error('no ' + src));
      document.head.appendChild(s);
    });
  }
  async function startInPage() {
    await loadScript('mancala-web.js');
    await loadScript('mancala-core.js');
    return MancalaCore.loadWith(createMancala);
  }

  const device = {
    name: 'device',
    request(method, path, body, token) {
      const b = method === 'POST' ? JSON.stringify(body || {}) : '';
      if (inPage) {
        let r;
        try {
          r = inPage.call({ op: 'api', method, path: '/api/' + path, body: b, token: token || null, lang: lang() });
        } catch (e) {
          r = { status: 500, body: JSON.stringify({ error: { code: e.code || 'memory', message: String(e.message || e) } }) };
        }
        return Promise.resolve({ status: r.status, body: r.body });
      }
      return new Promise((resolve) => {
        const id = ++seq;
        waiting.set(id, resolve);
        worker.postMessage({ type: 'api', id, method, path: '/api/' + path, body: b, token: token || null, lang: lang() });
      });
    },
  };

  // Find out once which back ends there are.
  let found = null;
  function detect() {
    if (found) return found;
    found = (async () => {
      let hasDevice = false, hasServer = false;
      try {
        worker = await startWorker();
        hasDevice = true;
      } catch (e) {
        try {
          inPage = await startInPage();
          hasDevice = true;
        } catch (e2) { /* the page came without the module: server only */ }
      }
      if (location.protocol === 'http:' || location.protocol === 'https:') {
        try {
          const r = await fetch('api/games', { headers: { Accept: 'application/json' } });
          hasServer = r.ok && (r.headers.get('Content-Type') || '').includes('json');
        } catch (e) { /* offline, or a static host */ }
      }
      return { device: hasDevice ? device : null, server: hasServer ? server : null };
    })();
    return found;
  }

  return { detect, server, device };
})();
