#!/usr/bin/env python3
"""tools/time-to-depth.py - the time an engine takes to finish depth D from
each of the first N openings of data/openings/GAME.txt, in turn, over the
engine protocol: the measure of a thread count's speed-up (docs/SEARCH.md).

usage: tools/time-to-depth.py DEPTH N THREADS [PROGRAM] [GAME]
"""
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    depth, count, threads = (int(a) for a in sys.argv[1:4])
    prog = sys.argv[4] if len(sys.argv) > 4 else './mancala'
    game = sys.argv[5] if len(sys.argv) > 5 else 'oware'
    with open(f'data/openings/{game}.txt') as f:
        # the openings format: '#' starts a comment to the end of the line
        lines = [l.split('#', 1)[0].strip() for l in f]
        lines = [l for l in lines if l]
    lines = lines[:count]
    eng = subprocess.Popen([prog, 'engine'], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        eng.stdin.write(s + '\n')
        eng.stdin.flush()

    for s in (f'set game {game}', f'set threads {threads}', 'set hash 64',
              'set book off'):
        send(s)
    total = 0.0
    for line in lines:
        send('newgame')
        send(f'position start moves {line}')
        t0 = time.time()
        send(f'go depth {depth}')
        while True:
            r = eng.stdout.readline()
            if not r or r.startswith('bestmove'):
                break
            if r.startswith('error') and 'book' not in r:
                sys.exit(r.strip())
        total += time.time() - t0
    eng.stdin.close()
    eng.wait()
    print(f'{threads} threads, depth {depth}: {total:.2f} s over '
          f'{len(lines)} openings')


main()
