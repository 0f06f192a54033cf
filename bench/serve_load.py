#!/usr/bin/env python3
"""bench/serve_load.py - load tests of `mancala serve` (docs/SERVER.md),
too long for make check.  Each prints its figures and exits 1 when a target
of issue 21 is missed.  Run by bench/serve.sh; by hand:

  python3 bench/serve_load.py kill   ./mancala   # 1,000 malformed requests,
        200 games played to the end by 48 clients while the server is killed
        (kill -9) and restarted 10 times: acknowledged moves lost, 5xx
        answers, games intact
  python3 bench/serve_load.py slow   ./mancala   # 64 idle + 64 trickling
        connections from 127.0.0.1; another client (127.0.0.2) timed
  python3 bench/serve_load.py memory ./mancala   # the 262 KB Omweso upload
        (server memory), 17,000 tags (load time), restart with them, and
        requests on one game while another is busy

Only the Python standard library; every server is on 127.0.0.1 with its
database in a scratch folder.
"""
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

MANCALA = None
TMP = None


def start(db, port=0, extra=()):
    """Start a server on db; returns (process, port)."""
    out = os.path.join(TMP, 'out-%d' % time.monotonic_ns())
    env = dict(os.environ, MANCALA_EGDB_DIR='none')
    f = open(out, 'w')
    p = subprocess.Popen([MANCALA, 'serve', '--port', str(port), '--db', db] +
                         list(extra), stdout=f, stderr=subprocess.STDOUT, env=env)
    for _ in range(200):
        time.sleep(0.05)
        t = open(out).read()
        if 'http://' in t:
            port = int(t.split('http://127.0.0.1:')[1].split('/')[0])
            return p, port
        if p.poll() is not None:
            break
    raise SystemExit('server did not start: ' + open(out).read())


def rss_kb(pid, key='VmRSS'):
    for line in open('/proc/%d/status' % pid):
        if line.startswith(key + ':'):
            return int(line.split()[1])
    return 0


class Client:
    """One keep-alive connection; src: the local address to connect from."""

    def __init__(self, port, src='127.0.0.1', timeout=30):
        self.port, self.src, self.timeout = port, src, timeout
        self.c = None

    def request(self, method, path, body=None, token=None):
        if self.c is None:
            self.c = http.client.HTTPConnection('127.0.0.1', self.port, timeout=self.timeout,
                                                source_address=(self.src, 0))
        h = {'Host': '127.0.0.1:%d' % self.port}
        if method == 'POST':
            h['Content-Type'] = 'application/json'
        if token:
            h['Authorization'] = 'Bearer ' + token
        data = None if body is None else (body if isinstance(body, (bytes, str)) else json.dumps(body))
        try:
            self.c.request(method, path, body=data, headers=h)
            r = self.c.getresponse()
            t = r.read()
        except (OSError, http.client.HTTPException):
            self.c.close()
            self.c = None
            raise
        try:
            j = json.loads(t)
        except ValueError:
            j = None
        return r.status, j, t


# ---- kill -9 under load ----------------------------------------------------

def malformed(port):
    """1,000 malformed requests: each must get a 4xx, none a 5xx."""
    rnd = random.Random(21)
    bad5 = 0
    kinds = {}
    for i in range(1000):
        k = i % 10
        s = socket.create_connection(('127.0.0.1', port), timeout=10)
        if k == 0:
            req = b'POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n{"ga'
        elif k == 1:
            req = b'POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 16\r\n\r\n{"game":"oware"}'
        elif k == 2:
            req = b'GET /api/game/' + bytes(rnd.choice(b'0123456789abcdef') for _ in range(32)) + b' HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
        elif k == 3:
            req = b'POST /api/new HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{"game":"oware"}'
        elif k == 4:
            req = b'POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{"game":"oware"}'
        elif k == 5:
            junk = bytes(rnd.randrange(1, 256) for _ in range(rnd.randrange(1, 200)))
            req = b'POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n' % len(junk) + junk
        elif k == 6:
            req = b'POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n\r\n{}'
        elif k == 7:
            req = b'GET /../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
        elif k == 8:
            req = b'BREW /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
        else:
            req = b'POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{"game":"oware","seats":"Q"}  '
        s.sendall(req)
        try:
            head = s.recv(64)
        except OSError:
            head = b''
        s.close()
        code = int(head.split()[1]) if head.startswith(b'HTTP/1.') else 0
        kinds[code] = kinds.get(code, 0) + 1
        if code >= 500:
            bad5 += 1
    return bad5, kinds


def kill_test():
    db = os.path.join(TMP, 'kill.db')
    extra = ['--per-ip', '64', '--max-conns', '256', '--quota', '1000', '--rate', '1000']
    proc, port = start(db, 0, extra)
    bad5, kinds = malformed(port)
    print('malformed requests: 1000 sent, answers by status %s, 5xx: %d' % (
        dict(sorted(kinds.items())), bad5), flush=True)
    ngames, nclients = 200, 48
    state = {'proc': proc, 'port': port, 'down': False}
    lock = threading.Lock()
    acked = {}      # game id -> list of acknowledged histories' lengths and the history
    stats = {'5xx': 0, 'moves': 0, 'retries': 0, 'conn_errors': 0, 'over': 0}
    games = []
    c = Client(port)
    for i in range(ngames):
        st, j, _ = c.request('POST', '/api/new', {'game': ['oware', 'gore', 'sadeqa2', 'oware:awari'][i % 4]})
        assert st == 201, (st, j)
        games.append({'id': j['state']['id'], 'token': j['token'], 'hist': []})
    todo = list(range(ngames))
    rnd = random.Random(7)

    def worker(k):
        cl = Client(state['port'])
        mine = [g for i, g in enumerate(games) if i % nclients == k]
        while mine:
            g = rnd.choice(mine)
            try:
                cl.port = state['port']
                st, j, _ = cl.request('GET', '/api/game/' + g['id'])
                if st >= 500:
                    with lock:
                        stats['5xx'] += 1
                    continue
                s = j['state']
                # the server must hold every acknowledged move
                if s['history'][:len(g['hist'])] != g['hist']:
                    with lock:
                        stats.setdefault('lost', []).append((g['id'], len(g['hist']), len(s['history'])))
                    g['hist'] = s['history']
                if s['over'] or s['ply'] >= 400:
                    if not s['over']:
                        st, j, _ = cl.request('POST', '/api/game/%s/resign' % g['id'],
                                              {'side': s['side']}, g['token'])
                        if st >= 500:
                            with lock:
                                stats['5xx'] += 1
                            continue
                        if st != 200:
                            continue
                    g['hist'] = (j['state'] if 'state' in j else s)['history']
                    mine.remove(g)
                    with lock:
                        stats['over'] += 1
                    continue
                mv = rnd.choice(s['moves'])['move']
                st, j, _ = cl.request('POST', '/api/game/%s/play' % g['id'],
                                      {'move': mv, 'version': s['version']}, g['token'])
                if st >= 500:
                    with lock:
                        stats['5xx'] += 1
                elif st == 200:
                    g['hist'] = j['state']['history']
                    with lock:
                        stats['moves'] += 1
                else:
                    with lock:
                        stats['retries'] += 1
            except (OSError, http.client.HTTPException, ValueError, TypeError, KeyError):
                with lock:
                    stats['conn_errors'] += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(nclients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    kills = 0
    restart_s = []
    while kills < 10 and any(t.is_alive() for t in threads):
        time.sleep(2.0)
        state['proc'].send_signal(signal.SIGKILL)
        state['proc'].wait()
        kills += 1
        r0 = time.monotonic()
        p, _ = start(db, state['port'], extra)
        restart_s.append(time.monotonic() - r0)
        state['proc'] = p
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    # every game intact: its record reads back, ends as its history says
    cl = Client(state['port'])
    intact = 0
    lost = stats.get('lost', [])
    for g in games:
        st, j, _ = cl.request('GET', '/api/game/' + g['id'])
        st2, _, rec = cl.request('GET', '/api/game/%s/record' % g['id'])
        ok = st == 200 and st2 == 200 and j['state']['over'] and \
            j['state']['history'][:len(g['hist'])] == g['hist']
        if ok:
            path = os.path.join(TMP, 'g.mcr')
            open(path, 'wb').write(rec)
            ok = subprocess.run([MANCALA, 'check', path], capture_output=True).returncode == 0
        intact += ok
    state['proc'].send_signal(signal.SIGTERM)
    state['proc'].wait()
    print('200 games, 48 clients, %d kill -9 and restarts in %.1f s: %d moves acknowledged, '
          '%d games finished, %d intact (records check), acknowledged moves lost: %d, '
          '5xx answers: %d, refused or retried: %d, connection errors (server down): %d, '
          'restart %.2f s at most' % (
              kills, elapsed, stats['moves'], stats['over'], intact, len(lost), stats['5xx'],
              stats['retries'], stats['conn_errors'], max(restart_s) if restart_s else 0))
    leftovers = [f for f in os.listdir(TMP) if 'tmp' in f.lower() and f.endswith('.mcr')]
    return len(lost) == 0 and stats['5xx'] == 0 and bad5 == 0 and intact == ngames and \
        stats['over'] == ngames and kills == 10 and not leftovers


# ---- idle and trickling connections ------------------------------------------

def slow_test():
    db = os.path.join(TMP, 'slow.db')
    proc, port = start(db)
    socks = []
    for i in range(64):        # idle: connect, send nothing
        try:
            socks.append(socket.create_connection(('127.0.0.1', port), timeout=5))
        except OSError:
            pass
    trick = []
    for i in range(64):        # trickle: a header byte a second
        try:
            s = socket.create_connection(('127.0.0.1', port), timeout=5)
            s.sendall(b'GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n')
            trick.append(s)
        except OSError:
            pass
    stop = threading.Event()
    cut = [0]

    def trickler():
        # keep 64 trickling connections going: reconnect when the server cuts one
        while not stop.is_set():
            for k in range(len(trick)):
                try:
                    trick[k].sendall(b'X')
                except OSError:
                    cut[0] += 1
                    try:
                        trick[k] = socket.create_connection(('127.0.0.1', port), timeout=5)
                        trick[k].sendall(b'GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n')
                    except OSError:
                        pass
            stop.wait(1.0)

    th = threading.Thread(target=trickler)
    th.start()
    worst, n, fails = 0.0, 0, 0
    t_end = time.monotonic() + 60
    other = Client(port, src='127.0.0.2', timeout=5)
    while time.monotonic() < t_end:
        t0 = time.monotonic()
        try:
            st, _, _ = other.request('GET', '/api/games')
            if st != 200:
                fails += 1
        except (OSError, http.client.HTTPException):
            fails += 1
        dt = time.monotonic() - t0
        worst = max(worst, dt)
        n += 1
        time.sleep(0.2)
    stop.set()
    th.join()
    for s in socks + trick:
        s.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    print('64 idle + 64 trickling connections from 127.0.0.1 for 60 s (%d cut by the server '
          'and reopened): %d requests from 127.0.0.2, slowest %.3f s, failed %d' % (
              cut[0], n, worst, fails))
    return worst < 1.0 and fails == 0


# ---- memory, tags, one game not waiting for another ---------------------------

def omweso_body(limit=262144):
    one = '[Game \\"omweso\\"]\\n*\\n'
    k = (limit - 20) // len(one)
    return '{"record":"' + one * k + '"}', k


def tags_body(n=17000):
    digits = '0123456789abcdefghijklmnopqrstuvwxyz'

    def name(i):
        s = ''
        while True:
            s = digits[i % 36] + s
            i //= 36
            if i == 0:
                return 'T' + s
    t = '[Game \\"oware\\"]\\n' + ''.join('[%s \\"\\"]\\n' % name(i) for i in range(n)) + '\\n1. C *\\n'
    return '{"record":"' + t + '"}'


def memory_test():
    db = os.path.join(TMP, 'mem.db')
    proc, port = start(db)
    c = Client(port)
    c.request('GET', '/api/games')
    before = rss_kb(proc.pid)
    body, k = omweso_body()
    t0 = time.monotonic()
    st, j, _ = c.request('POST', '/api/load', body)
    dt = time.monotonic() - t0
    after = rss_kb(proc.pid)
    peak = rss_kb(proc.pid, 'VmHWM')
    msg = j['error']['message'] if j and 'error' in j else ''
    print('Omweso upload of %d bytes (%d empty games): status %d in %.3f s (%s); server '
          'memory %d -> %d kB (peak %d kB): grew %.1f MB' % (
              len(body), k, st, dt, msg[:60], before, after, peak, (after - before) / 1024))
    ok = after - before < 10 * 1024 and peak - before < 10 * 1024
    for _ in range(2):
        c.request('POST', '/api/load', body)
    after3 = rss_kb(proc.pid)
    print('three of them: %d kB (grew %.1f MB)' % (after3, (after3 - before) / 1024))
    ok = ok and after3 - before < 10 * 1024
    # a match of 200 rounds, the most a game holds: accepted
    one = '[Game \\"omweso\\"]\\n*\\n'
    st, j, _ = c.request('POST', '/api/load', '{"record":"' + one * 200 + '"}')
    print('200 games (the most a game holds): status %d, server memory %d kB' % (st, rss_kb(proc.pid)))
    ok = ok and st == 201
    # 17,000 tags
    tb = tags_body()
    t0 = time.monotonic()
    st, j, _ = c.request('POST', '/api/load', tb)
    load = time.monotonic() - t0
    gid = j['state']['id'] if st == 201 else ''
    t0 = time.monotonic()
    st2, j2, _ = c.request('GET', '/api/game/' + gid)
    get = time.monotonic() - t0
    print('17,000 tags (%d bytes): load %d in %.1f ms, then a GET in %.1f ms' % (
        len(tb), st, load * 1000, get * 1000))
    ok = ok and st == 201 and load < 0.05 and st2 == 200
    # one game busy (the tags game read again and again), another timed
    small = c.request('POST', '/api/new', {'game': 'oware'})[1]['state']['id']
    stop = threading.Event()

    def busy():
        b = Client(port)
        while not stop.is_set():
            b.request('GET', '/api/game/' + gid)
            b.request('GET', '/api/game/%s/record' % gid)

    ths = [threading.Thread(target=busy) for _ in range(3)]
    for t in ths:
        t.start()
    worst, n, t_end = 0.0, 0, time.monotonic() + 3
    while time.monotonic() < t_end:
        t0 = time.monotonic()
        c.request('GET', '/api/game/' + small)
        worst = max(worst, time.monotonic() - t0)
        n += 1
    stop.set()
    for t in ths:
        t.join()
    print('a small game while three clients read the 17,000-tag game for 3 s: slowest of '
          '%d GETs %.1f ms' % (n, worst * 1000))
    ok = ok and worst < 0.5
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    t0 = time.monotonic()
    proc, port = start(db)
    rs = time.monotonic() - t0
    print('restart with these games: %.2f s, %d kB' % (rs, rss_kb(proc.pid)))
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    # mancala check on a 280 KB file of empty Omweso games
    path = os.path.join(TMP, 'omweso280.mcr')
    open(path, 'w').write('[Game "omweso"]\n*\n' * 15600)
    r = subprocess.run(['/usr/bin/time', '-f', '%M %e', MANCALA, 'check', path],
                       capture_output=True, text=True)
    kb, secs = r.stderr.split()[-2:]
    print('mancala check, %d bytes (15600 games): %s kB at most, %s s' % (
        os.path.getsize(path), kb, secs))
    return ok and int(kb) < 20 * 1024


def main():
    global MANCALA, TMP
    if len(sys.argv) != 3 or sys.argv[1] not in ('kill', 'slow', 'memory'):
        print(__doc__)
        return 2
    MANCALA = os.path.abspath(sys.argv[2])
    TMP = tempfile.mkdtemp(prefix='mancala-serve-bench-')
    try:
        ok = {'kill': kill_test, 'slow': slow_test, 'memory': memory_test}[sys.argv[1]]()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print('%s: %s' % (sys.argv[1], 'targets met' if ok else 'TARGET MISSED'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
