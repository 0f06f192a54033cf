// mancala.mjs - the package's ES module: libmancala in WebAssembly for
// pages, workers, bundlers and Node (docs/WASM.md, README.md of the
// package).  `const m = await load(); const s =
// m.loadGame('oware').newInitialState(); s.applyMove('C')`.
import createMancala from './mancala-web.mjs';
import './mancala-core.js';

const core = globalThis.MancalaCore;
let loaded = null;

/** The module, loaded once: {version, gameNames, loadGame, engine, api, fs, call}. */
export function load() {
  if (!loaded) loaded = core.loadWith(createMancala);
  return loaded;
}
export const { MancalaError, Game, State, Engine, EnginePump } = core;
export default load;
