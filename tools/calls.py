#!/usr/bin/env python3
"""tools/calls.py - who calls whom among the project's object files.

Reads the symbols each object of a build defines and needs (nm), and
reports what docs/HACKING.md ("The layers") forbids: a call from a layer
into one above it, two files that call each other, and any longer circle
of calls.  Exit status 0 when there is none.

    python3 tools/calls.py [BUILD_DIR]      (default: build)
"""
import collections
import glob
import os
import subprocess
import sys

# The layers from the bottom; a file may call its own layer and those below.
LAYERS = [
    ('core', ['src/core']),
    ('rules', ['src/games']),
    ('history and tables', ['src/session', 'src/egdb']),
    ('play', ['src/search', 'src/record']),
    ('services', ['src/server', 'src/protocol']),
    ('front-ends', ['src/cli', 'src/wasm']),
]


def layer_of(src):
    for rank, (_, dirs) in enumerate(LAYERS):
        if any(src.startswith(d + '/') for d in dirs):
            return rank
    return None


def symbols(obj):
    out = subprocess.run(['nm', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDRB':
            defined.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            needed.add(f[1])
    return defined, needed


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    objs = sorted(glob.glob(os.path.join(build, 'src', '**', '*.o'),
                            recursive=True))
    if not objs:
        print('tools/calls.py: no objects under %s/src (make first)' % build,
              file=sys.stderr)
        return 2
    src = {o: os.path.relpath(o, build)[:-2] + '.c' for o in objs}
    owner, needs = {}, {}
    for o in objs:
        d, n = symbols(o)
        needs[o] = n
        for s in d:
            owner.setdefault(s, o)
    calls = collections.defaultdict(lambda: collections.defaultdict(list))
    for o in objs:
        for s in sorted(needs[o]):
            t = owner.get(s)
            if t and t != o:
                calls[o][t].append(s)
    bad = 0
    for a in objs:
        for b, syms in sorted(calls[a].items()):
            la, lb = layer_of(src[a]), layer_of(src[b])
            if la is not None and lb is not None and lb > la:
                print('up: %s calls %s (%s)' % (src[a], src[b],
                                              ', '.join(syms[:4])))
                bad += 1
            if a < b and a in calls[b]:
                print('each other: %s (%s) and %s (%s)' % (
                    src[a], ', '.join(syms[:4]), src[b],
                    ', '.join(calls[b][a][:4])))
                bad += 1
    # Longer circles: the strongly connected components (Tarjan).
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in calls[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 2:
                comps.append(comp)
    for o in objs:
        if o not in index:
            visit(o)
    for comp in comps:
        print('circle: ' + ', '.join(sorted(src[o] for o in comp)))
        bad += 1
    print('tools/calls.py: %d files, %d calls between files, %d problems' % (
        len(objs), sum(len(v) for v in calls.values()), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
