// mancala-board.js - a playable board in any web page (docs/WASM.md,
// "Embedding"): load this script from a mancala site (make site) and write
//   <mancala-board game="omweso" level="3"></mancala-board>
// Attributes: game (oware, omweso, gore, sadeqa2; default oware), options
// (the game's options, "awari", "match=single"), opponent (computer, the
// default, or here: two people at this screen), level (1-10, default 5),
// side (S or N: the side the visitor plays).  The board is the site's own
// page in an iframe of the script's folder, with its engine in a worker:
// nothing else to load, no server, and the host page's scripts and styles
// never touch it.  Its height follows the board's.
(function () {
  'use strict';
  if (typeof customElements === 'undefined' || customElements.get('mancala-board')) return;
  const base = document.currentScript && document.currentScript.src
    ? new URL('.', document.currentScript.src).href : new URL('.', location.href).href;
  const frames = new Set();

  class MancalaBoard extends HTMLElement {
    static get observedAttributes() { return ['game', 'options', 'opponent', 'level', 'side']; }

    connectedCallback() {
      if (!this.frame) {
        const root = this.attachShadow({ mode: 'open' });
        const style = document.createElement('style');
        style.textContent = ':host{display:block;max-width:100%}iframe{display:block;width:100%;min-height:420px;border:0}';
        this.frame = document.createElement('iframe');
        this.frame.title = 'mancala: a board to play on';
        this.frame.loading = 'lazy';
        root.append(style, this.frame);
      }
      frames.add(this.frame);
      this.load();
    }

    disconnectedCallback() { frames.delete(this.frame); }

    attributeChangedCallback() { if (this.frame) this.load(); }

    load() {
      const a = (k, d) => this.getAttribute(k) || d;
      const p = new URLSearchParams({
        embed: '1', game: a('game', 'oware'), options: a('options', ''),
        vs: a('opponent', 'computer') === 'here' ? 'here' : 'computer',
        level: a('level', '5'), side: a('side', 'S') === 'N' ? 'N' : 'S',
      });
      const src = `${base}index.html#${p}`;
      if (this.frame.src !== src) this.frame.src = src;
    }
  }

  // The board tells its height; only our own frames are listened to.
  window.addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'mancala-board-height' || typeof d.height !== 'number') return;
    for (const f of frames) {
      if (f.contentWindow === e.source) f.style.height = `${Math.max(300, Math.min(4000, Math.ceil(d.height)))}px`;
    }
  });

  customElements.define('mancala-board', MancalaBoard);
})();
