// mancala-core.js - the JavaScript face of libmancala compiled to
// WebAssembly (make wasm; docs/WASM.md), on top of the module's one entry
// point (src/wasm/wasm.c): games in the shape of the Python module
// (docs/PYTHON.md), engines speaking the protocol or the UCI dialect, the
// JSON API of `mancala serve` in memory, and the pump that drives an
// engine from lines arriving while it works.  It knows no rule: every
// answer is the library's.
//
// A plain script, so that a page opened from a folder (file://), a classic
// Web Worker (importScripts) and ES modules (mancala.mjs imports it) can all
// use it: it sets globalThis.MancalaCore and nothing else.
(function () {
  'use strict';

  class MancalaError extends Error {
    constructor(message, code) {
      super(message);
      this.name = 'MancalaError';
      this.code = code;
    }
  }

  // One request to the module: JSON in, JSON out.
  function callWith(M, req) {
    const p = M.ccall('mc_wasm_call', 'number', ['string'], [JSON.stringify(req)]);
    if (!p) throw new MancalaError('out of memory', 'memory');
    const s = M.UTF8ToString(p);
    M._free(p);
    const j = JSON.parse(s);
    if (j.error) throw new MancalaError(j.error.message, j.error.code);
    return j;
  }

  class Game {
    constructor(call, spec) {
      this._call = call;
      // A game that does not parse is refused here, in the library's words.
      const s = call({ op: 'state_new', game: spec || 'oware' });
      call({ op: 'free', id: s.id });
      this.spec = s.spec;
      this.name = s.game;
      this._numActions = s.num_actions;
    }
    numDistinctActions() { return this._numActions; }
    newInitialState() { return new State(this._call, this._call({ op: 'state_new', game: this.spec })); }
    /** A state from a position string of the game (mancala apply's). */
    stateFromPosition(position) {
      return new State(this._call, this._call({ op: 'state_new', game: this.spec, position }));
    }
    toString() { return this.spec; }
  }

  class State {
    constructor(call, s) { this._call = call; this._s = s; this.lastExplanation = null; }
    _id() {
      if (!this._s) throw new MancalaError('this state was freed', 'arg');
      return this._s.id;
    }
    /** The position string (mancala apply's). */
    toString() { return this._s.position; }
    position() { return this._s.position; }
    currentPlayer() { return this._s.current_player; }
    legalActions() { return this._s.legal_actions.slice(); }
    /** The legal moves in the rule file's notation, in legalActions' order. */
    legalMoves() { return this._s.legal_moves.slice(); }
    isTerminal() { return this._s.terminal; }
    returns() { return this._s.returns.slice(); }
    /** null while the game goes on; else {winner: 0, 1 or null, reason, scores, text}. */
    result() { return this._s.result; }
    history() { return this._s.history.slice(); }
    ply() { return this._s.ply; }
    /** Play an action number; returns the move in words. */
    applyAction(action) { return this._play({ op: 'apply', id: this._id(), action }); }
    /** Play a move in notation ('C', 'I-', 'offer:AC'); returns it in words. */
    applyMove(move) { return this._play({ op: 'apply', id: this._id(), move: String(move) }); }
    _play(req) {
      this._s = this._call(req);
      this.lastExplanation = this._s.explain;
      return this._s.explain;
    }
    undo() { this._s = this._call({ op: 'undo', id: this._id() }); }
    clone() { return new State(this._call, this._call({ op: 'clone', id: this._id() })); }
    /** Free the state's memory in the module (not garbage-collected). */
    free() { if (this._s) this._call({ op: 'free', id: this._s.id }); this._s = null; }
  }

  /** An engine on the caller's thread: a line in, its answer lines out. */
  class Engine {
    constructor(call, opts) {
      this._call = call;
      this._id = call({ op: 'engine_new', uci: !!(opts && opts.uci) }).id;
    }
    send(line) { return this._call({ op: 'engine_line', id: this._id, line: String(line) }).lines; }
    /** An open-ended search (go infinite) one iteration deeper: {lines, more}. */
    step() { return this._call({ op: 'engine_step', id: this._id }); }
    free() { if (this._id) this._call({ op: 'engine_free', id: this._id }); this._id = 0; }
  }

  // An engine driven by lines that arrive while it works, as `mancala
  // engine` reads its input during a search: each line in turn, and
  // between lines an open-ended search goes one iteration deeper (the
  // module has one thread).  The Web Worker and the tests' Node driver use
  // it.
  class EnginePump {
    constructor(call, uci, out, onQuit) {
      this.call = call;
      this.out = out;
      this.onQuit = onQuit || (() => {});
      this.id = call({ op: 'engine_new', uci: !!uci }).id;
      this.queue = [];
      this.more = false;
      this.scheduled = false;
      this.done = false;
      this.ending = false;
    }
    push(line) {
      if (this.done) return;
      this.queue.push(line);
      this.kick();
    }
    /** The end of input: an open search answers, then the engine goes. */
    end() { this.ending = true; this.kick(); }
    kick() {
      if (this.scheduled || this.done) return;
      this.scheduled = true;
      setTimeout(() => this.run(), 0);
    }
    run() {
      this.scheduled = false;
      if (this.done) return;
      if (this.queue.length) {
        const r = this.call({ op: 'engine_line', id: this.id, line: this.queue.shift() });
        r.lines.forEach((l) => this.out(l));
        if (r.quit) { this.finish(false); return; }
        this.more = true;
      } else if (this.more) {
        const r = this.call({ op: 'engine_step', id: this.id });
        r.lines.forEach((l) => this.out(l));
        this.more = r.more;
      } else if (this.ending) {
        this.finish(true);
        return;
      }
      if (this.queue.length || this.more || this.ending) this.kick();
    }
    finish(answer) {
      if (answer) this.call({ op: 'engine_finish', id: this.id }).lines.forEach((l) => this.out(l));
      this.call({ op: 'engine_free', id: this.id });
      this.done = true;
      this.onQuit();
    }
  }

  // The API over a loaded module M.
  function api(M) {
    const call = (req) => callWith(M, req);
    return {
      version: () => call({ op: 'version' }).version,
      gameNames: () => call({ op: 'version' }).games,
      loadGame: (spec) => new Game(call, spec),
      engine: (opts) => new Engine(call, opts),
      /** The JSON API of `mancala serve` (docs/API.md), its games in memory. */
      api: (method, path, body, token) => {
        const r = call({
          op: 'api', method, path, token: token || null,
          body: body == null ? '' : typeof body === 'string' ? body : JSON.stringify(body),
        });
        return { status: r.status, type: r.type, body: r.body };
      },
      /** The module's file system in memory (tables, books). */
      fs: M.FS,
      call,
    };
  }

  /** Load: createMancala is the module's factory (mancala-web.js). */
  function loadWith(createMancala, opts) {
    return createMancala(opts || {}).then(api);
  }

  globalThis.MancalaCore = { MancalaError, Game, State, Engine, EnginePump, loadWith, callWith };
})();
