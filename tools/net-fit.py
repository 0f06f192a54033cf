#!/usr/bin/python3
"""tools/net-fit.py - fit a small neural network to a tune data set and
compare it with the linear model (docs/SEARCH.md, "Learned evaluations").

    mancala tune GAME dump --data GAME.tune --out GAME.features
    /usr/bin/python3 tools/net-fit.py GAME.features [--hidden H] [--epochs E]
                                      [--out DIR/GAME.txt]

The network is the NNUE shape in miniature: the game's sparse features
(mc_eval_features) into H clipped-ReLU units (0..1), then one output in
hundredths of a seed.  Both models are fitted by Adam to the target of
'mancala tune fit' (lambda x result + (1 - lambda) x sigmoid(score / K),
the exact result where the tables know it) on the games not held out, and
scored as the fit scores them: cross-entropy against the results of the
held-out games (every tenth game).  --out writes the network as a weights
file the program reads (MANCALA_EVAL_DIR=DIR; its format in docs/SEARCH.md).
Uses Debian's python3-numpy only.
"""
import argparse
import sys

import numpy as np


def load(path):
    held, res, exact, score, rows, cols, vals = [], [], [], [], [], [], []
    nf = None
    game = '?'
    with open(path) as f:
        for line in f:
            if line.startswith('# mancala tune dump: '):
                game = line.split()[4].rstrip(',')
            if line.startswith('#'):
                continue
            if line.startswith('features '):
                nf = int(line.split()[1])
                continue
            t = line.split()
            i = len(held)
            held.append(int(t[0]))
            res.append(int(t[1]))
            exact.append(-1 if t[2] == '-' else int(t[2]))
            score.append(int(t[3]))
            for fv in t[4:]:
                a, b = fv.split(':')
                rows.append(i)
                cols.append(int(a))
                vals.append(int(b))
    if nf is None:
        sys.exit('net-fit: %s: no "features N" line' % path)
    n = len(held)
    x = np.zeros((n, nf), dtype=np.float32)
    np.add.at(x, (np.array(rows), np.array(cols)), np.array(vals, dtype=np.float32))
    return (game, x, np.array(held, bool), np.array(res, np.float32) / 2,
            np.array(exact), np.array(score, np.float32))


def sigm(z):
    return 1 / (1 + np.exp(-np.clip(z, -50, 50)))


def xent(q, t):
    e = 1e-12
    return float(np.mean(-(t * np.log(q + e) + (1 - t) * np.log(1 - q + e))))


def fit_k(score, res):
    best, bk = 1e300, 100.0
    k = 20.0
    while k <= 2000:
        l = xent(sigm(score / k), res)
        if l < best:
            best, bk = l, k
        k *= 1.02
    return bk


class Adam:
    def __init__(self, params, rate):
        self.p, self.rate, self.t = params, rate, 0
        self.m = [np.zeros_like(a) for a in params]
        self.v = [np.zeros_like(a) for a in params]

    def step(self, grads):
        self.t += 1
        for a, g, m, v in zip(self.p, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh = m / (1 - 0.9 ** self.t)
            vh = v / (1 - 0.999 ** self.t)
            a -= self.rate * mh / (np.sqrt(vh) + 1e-8)


def batches(n, size, rng):
    idx = rng.permutation(n)
    for s in range(0, n, size):
        yield idx[s:s + size]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('features')
    ap.add_argument('--hidden', type=int, default=32)
    ap.add_argument('--epochs', type=int, default=30)
    ap.add_argument('--lambda', dest='lam', type=float, default=0.5)
    ap.add_argument('--batch', type=int, default=1024)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rate', type=float, default=0.01)
    ap.add_argument('--linear-rate', type=float, default=2.0)
    ap.add_argument('--out')
    a = ap.parse_args()
    game, x, held, res, exact, score = load(a.features)
    k = fit_k(score, res)
    t = a.lam * res + (1 - a.lam) * sigm(score / k)
    t = np.where(exact >= 0, exact / 2.0, t).astype(np.float32)
    truth = np.where(exact >= 0, exact / 2.0, res).astype(np.float32)
    tr, va = ~held, held
    xt, tt = x[tr], t[tr]
    rng = np.random.default_rng(a.seed)
    print('%d positions (%d held out), %d features, K %.1f'
          % (len(t), int(va.sum()), x.shape[1], k))
    print('held-out loss of the search scores: %.5f'
          % xent(sigm(score[va] / k), truth[va]))

    # The linear model: weights in hundredths of a seed, like the fit's.
    w = np.zeros(x.shape[1], np.float32)
    opt = Adam([w], a.linear_rate)
    for ep in range(a.epochs):
        for b in batches(len(tt), a.batch, rng):
            q = sigm(xt[b] @ w / k)
            opt.step([xt[b].T @ ((q - tt[b]) / k) / len(b)])
    lin = xent(sigm(x[va] @ w / k), truth[va])
    search = xent(sigm(score[va] / k), truth[va])
    print('held-out loss, linear: %.5f' % lin)

    # The network: H clipped-ReLU units, one output; the output layer is in
    # seeds (x 100), so that every weight is of order one for Adam.
    h = a.hidden
    w1 = (rng.standard_normal((x.shape[1], h)) * 0.1).astype(np.float32)
    b1 = np.full(h, 0.5, np.float32)
    w2 = (rng.standard_normal(h) * 0.1).astype(np.float32)
    b2 = np.zeros(1, np.float32)
    opt = Adam([w1, b1, w2, b2], a.rate)
    for ep in range(a.epochs):
        for b in batches(len(tt), a.batch, rng):
            z = xt[b] @ w1 + b1
            hid = np.clip(z, 0, 1)
            out = 100 * (hid @ w2 + b2[0])
            q = sigm(out / k)
            go = 100 * (q - tt[b]) / k / len(b)
            gw2 = hid.T @ go
            gb2 = np.array([go.sum()], np.float32)
            gh = np.outer(go, w2) * ((z > 0) & (z < 1))
            opt.step([xt[b].T @ gh, gh.sum(0), gw2, gb2])
        z = 100 * (np.clip(x[va] @ w1 + b1, 0, 1) @ w2 + b2[0])
        net = xent(sigm(z / k), truth[va])
        print('epoch %d: held-out loss, network (%d hidden): %.5f'
              % (ep + 1, h, net), flush=True)
    if a.out:
        with open(a.out, 'w') as f:
            f.write('# mancala learned evaluation: %s, a network (docs/SEARCH.md)\n'
                    % game)
            f.write('# fitted by: tools/net-fit.py %s\n' % ' '.join(sys.argv[1:]))
            f.write('# %d positions (%d held out), K %.1f, lambda %.2f, %d epochs\n'
                    % (len(t), int(va.sum()), k, a.lam, a.epochs))
            f.write('# held-out loss: network %.5f, linear %.5f, search scores %.5f\n'
                    % (net, lin, search))
            f.write('features %d\nhidden %d\n' % (x.shape[1], h))
            f.write('bias %s\n' % ' '.join('%.6g' % v for v in b1))
            f.write('output %s %.6g\n'
                    % (' '.join('%.6g' % (100 * v) for v in w2), 100 * b2[0]))
            for j in range(x.shape[1]):
                if np.any(w1[j] != 0):
                    f.write('%d %s\n' % (j, ' '.join('%.6g' % v for v in w1[j])))


if __name__ == '__main__':
    main()
