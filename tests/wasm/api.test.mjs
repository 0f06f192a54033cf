// tests/wasm/api.test.mjs - the package's JavaScript API (js/mancala-core.js
// over build/wasm/pkg), with node's test runner: make check-wasm.  The
// expected positions are the README's and the rule files' worked examples
// (worked by hand there), not this module's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { load, MancalaError } from '../../build/wasm/pkg/mancala.mjs';

const m = await load();

test('games and version', () => {
  assert.deepEqual(m.gameNames().sort(), ['gore', 'omweso', 'oware', 'sadeqa2']);
  assert.match(m.version(), /^\d+\.\d+\.\d+$/);
});

test('Oware start: six actions, sowing C (O3, README)', () => {
  const s = m.loadGame('oware').newInitialState();
  assert.deepEqual(s.legalActions(), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(s.legalMoves(), ['A', 'B', 'C', 'D', 'E', 'F']);
  assert.equal(s.currentPlayer(), 0);
  const words = s.applyMove('C');
  assert.match(words, /lifts 4 seeds from C/);
  assert.equal(s.toString(), '4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0');
  assert.equal(s.currentPlayer(), 1);
  assert.deepEqual(s.history(), ['C']);
  s.undo();
  assert.equal(s.ply(), 0);
  assert.equal(s.toString(), '4,4,4,4,4,4/4,4,4,4,4,4 S cap=0,0');
  s.free();
});

test('a capture chain (O5) and feeding (O7)', () => {
  const g = m.loadGame('oware');
  const s = g.stateFromPosition('0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20');
  s.applyMove('C');
  assert.equal(s.toString(), '0,0,0,1,1,2/0,0,0,0,0,3 N cap=21,20');
  const f = g.stateFromPosition('1,0,0,0,0,1/0,0,0,0,0,0 S cap=23,23');
  assert.deepEqual(f.legalMoves(), ['F']);
  assert.throws(() => f.applyMove('A'), (e) => e instanceof MancalaError && e.code === 'illegal');
  s.free(); f.free();
});

test('the end: win25 grand slam gives North the game (O8a)', () => {
  const s = m.loadGame('oware:grand_slam=win25').stateFromPosition('1,1,1,1,1,0/0,0,8,0,0,1 N cap=17,17');
  s.applyMove('c');
  assert.equal(s.isTerminal(), true);
  assert.equal(s.currentPlayer(), -4);
  assert.deepEqual(s.returns(), [-1, 1]);
  assert.equal(s.result().winner, 1);
  assert.deepEqual(s.legalActions(), []);
  assert.throws(() => s.applyAction(0), (e) => e.code === 'over');
  s.free();
});

test('a repetition draw after twelve moves (O8b)', () => {
  const s = m.loadGame('oware').stateFromPosition('1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23');
  for (const mv of 'A a B b C c D d E e F f'.split(' ')) s.applyMove(mv);
  assert.equal(s.isTerminal(), true);
  assert.deepEqual(s.returns(), [0, 0]);
  assert.equal(s.result().winner, null);
  s.free();
});

test('clone keeps the history, and bad input is refused in words', () => {
  const s = m.loadGame('omweso').newInitialState();
  assert.equal(s.legalActions().length > 0, true);
  const c = s.clone();
  assert.equal(c.toString(), s.toString());
  assert.throws(() => m.loadGame('owar'), (e) => e instanceof MancalaError && /owar/.test(e.message));
  assert.throws(() => m.loadGame('oware').stateFromPosition('1,2,3'), (e) => e.code === 'position');
  s.free(); c.free();
  assert.throws(() => s.applyMove('A'), (e) => e.code === 'arg');
});

test('perft from the start equals the README\'s counts', () => {
  // perft 3 of Oware is 190 (README); walk it through the API.
  const g = m.loadGame('oware');
  const count = (s, d) => {
    if (d === 0) return 1;
    let n = 0;
    for (const a of s.legalActions()) { const c = s.clone(); c.applyAction(a); n += count(c, d - 1); c.free(); }
    return n;
  };
  const s = g.newInitialState();
  assert.equal(count(s, 3), 190);
  s.free();
});

// The UCI example of docs/PROTOCOL.md, against `mancala engine --uci`:
// the same lines but for times and speeds.  As a GUI does, each line is
// sent when the last is answered (isready: readyok; go: bestmove).
const UCI_EXAMPLE = ['uci', 'setoption name OwnBook value false', 'position startpos moves FaB',
  'go depth 3', 'position startpos moves FaBB', 'position fen 0-0-8-0-0-1-1-1-1-1-2-3-14-16-S',
  'go depth 2'];

// The native engine as a GUI drives it: each line sent when the last one
// is answered.  args: the engine's arguments; send(line): the text to
// write for a line and the pattern of the answer's last line.
function native(args, lines, send) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.env.MANCALA || './mancala', ['engine', ...args],
      { env: { ...process.env, MANCALA_EGDB_DIR: 'none' } });
    const out = [];
    let buf = '', k = 0, waiting = null;
    const next = () => {
      if (k === lines.length) { p.stdin.end('quit\n'); return; }
      const [text, until] = send(lines[k++]);
      waiting = until;
      p.stdin.write(text);
    };
    p.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line !== 'readyok') out.push(line); // UCI's isready marker
        if (waiting && waiting.test(line)) { waiting = null; next(); }
      }
    });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error('exit ' + code))));
    next();
  });
}

// UCI answers nothing to setoption or position: isready's readyok marks
// the end (and is left out).
const nativeUci = (lines) => native(['--uci'], lines, (l) => (l.startsWith('go') ? [l + '\n', /^bestmove/]
  : l === 'uci' ? [l + '\n', /^uciok/] : [l + '\nisready\n', /^readyok/]));
// The mancala protocol answers every line, last with ok, error or bestmove.
const nativeEngine = (lines) => native([], lines, (l) => [l + '\n', /^(ok|error|bestmove)/]);

test('the UCI example answers as the native engine', async () => {
  const want = await nativeUci(UCI_EXAMPLE);
  const e = m.engine({ uci: true });
  const got = UCI_EXAMPLE.flatMap((l) => e.send(l));
  e.free();
  const norm = (l) => l.replace(/ time \d+/, ' time T').replace(/ nps \d+/, ' nps N')
    .replace(/^(option name Threads type spin default 1 min 1 max) \d+$/, '$1 N');
  assert.deepEqual(got.map(norm), want.map(norm));
  assert.ok(got.includes('bestmove e ponder F'), 'the example\'s answer');
  assert.ok(got.includes('bestmove C'), 'the win in one');
});

// The page's engine (one thread) searches node for node as the native one:
// the bench's positions (src/cli/analyze.c) at fixed depths through the
// protocol, each final iteration's node count the native engine's.
test('the page engine searches node for node as the native one', async () => {
  const cases = [['oware', 'start', 14], ['oware', '0,0,8,0,0,1/1,1,1,1,2,3 S cap=10,20', 14],
    ['gore', 'start', 14], ['sadeqa2', 'start', 16], ['omweso', 'start', 7]];
  for (const [game, pos, depth] of cases) {
    const lines = ['set book none', 'set database none', `set game ${game}`, `position ${pos}`, `go depth ${depth}`];
    const want = await nativeEngine(lines);
    const e = m.engine();
    const got = lines.flatMap((l) => e.send(l));
    e.free();
    const nodes = (ls) => ls.filter((l) => l.startsWith('info depth')).map((l) => l.replace(/ time \d+ nps \d+/, ''));
    assert.deepEqual(nodes(got), nodes(want), `${game} ${pos} depth ${depth}`);
    assert.equal(got[got.length - 1], want.find((l) => l.startsWith('bestmove')));
  }
});

test('the JSON API in memory: a game against the computer', () => {
  let r = m.api('POST', '/api/new', { game: 'oware' });
  assert.equal(r.status, 201);
  const made = JSON.parse(r.body);
  assert.deepEqual(made.state.moves.map((x) => x.move), ['A', 'B', 'C', 'D', 'E', 'F']);
  r = m.api('POST', `/api/game/${made.state.id}/play`, { move: 'C' }, made.token);
  assert.equal(r.status, 200);
  assert.equal(JSON.parse(r.body).state.position, '4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0');
  r = m.api('POST', `/api/game/${made.state.id}/engine`, { level: 2, seconds: 0.1 }, made.token);
  assert.equal(r.status, 200);
  assert.equal(JSON.parse(r.body).state.side, 'S');
  r = m.api('POST', `/api/game/${made.state.id}/play`, { move: 'C' });
  assert.equal(r.status, 403); // no token: no move
});
