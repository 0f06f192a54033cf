// tests/wasm/web-engine.mjs - `engine [--uci]` of the page's WebAssembly
// module (one thread, driven as the Web Worker drives it: EnginePump) on
// standard input and output, so that the protocol's transcripts
// (tests/protocol, run by test_protocol) check the engine that pages run:
// make check-wasm.  Files the transcripts name (tests/book) are put into
// the module's file system in memory, at the same paths.
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { load, EnginePump } from '../../build/wasm/pkg/mancala.mjs';

const args = process.argv.slice(2);
if (args[0] !== 'engine' || args.length > 2 || (args[1] && args[1] !== '--uci')) {
  process.stderr.write('usage: web-engine.mjs engine [--uci]\n');
  process.exit(2);
}
const m = await load();
m.fs.mkdirTree('/tests/book');
for (const f of readdirSync('tests/book')) m.fs.writeFile('/tests/book/' + f, readFileSync('tests/book/' + f));
m.fs.chdir('/');
const pump = new EnginePump(m.call, args[1] === '--uci',
  (line) => process.stdout.write(line + '\n'), () => process.exit(0));
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => pump.push(line));
rl.on('close', () => pump.end());
