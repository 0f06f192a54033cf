// board.mjs - what the browser tests share (play.mjs against mancala
// serve, site.mjs and i18n.mjs against the static site): polling the page,
// playing a move by clicking as a person would, and a plain file server.
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.webmanifest': 'application/manifest+json', '.json': 'application/json' };

// A plain static file server of the folder site on 127.0.0.1, a free port:
// files by name, nothing else (so nothing of mancala serve helps the page);
// onRequest(url) sees each request, headers go with every file.  Resolves
// to the listening server.
export function staticServer(site, { onRequest, headers } = {}) {
  const srv = createServer((req, res) => {
    if (onRequest) onRequest(req.url);
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(site, path);
    if (!file.startsWith(site) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', ...(headers || {}) });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => srv.listen(0, '127.0.0.1', () => ok(srv)));
}

// Poll fn(arg) in the page until it is true (waitForFunction's polling
// evaluates a string, which the served page's Content-Security-Policy
// forbids).
export async function until(page, fn, timeout = 10000, arg) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg).catch(() => false)) return true;
    if (Date.now() > end) {
      // in the log: a wait that ran out (a check's failure, or time lost)
      console.log(`until: not so after ${timeout} ms (${new Error().stack.split('\n')[2].trim()})`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Click a playable pit (the k-th one), and a direction button if asked; else
// the first answer or pass button.  False when there is nothing to press.
// A board drawn again under the pointer is looked at again (a few times).
export async function clickMove(page, k) {
  for (let tries = 0; tries < 5; tries++) {
    try {
      const pits = await page.$$('g.pit.playable');
      if (pits.length > 0) {
        await pits[k % pits.length].click();
        // several moves from the pit (in any language: #choices[data-from])
        if (await page.$('#choices[data-from]')) await page.click('#choices button[data-move]');
        return true;
      }
      const b = await page.$('#choices button[data-move]');
      if (!b) return false;
      await b.click();
      return true;
    } catch (e) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return false;
}

// The words a player must never see (internal codes of the library and
// records).
export const CODES = /\bnoglory\b|\bnomove\b|\(resignation\)|offer:|\bmax_plies\b|\bno_legal_move\b|\b(?:oware|omweso|gore|sadeqa2):|\w_\w+=/;
