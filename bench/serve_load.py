#!/usr/bin/env python3
"""bench/serve_load.py - load tests of `mancala serve` (docs/SERVER.md),
too long for make check.  Each prints its figures on one line and exits 1
when a target of issue 21 (kill, slow, memory), issue 44 (live, fair,
crowd), issue 47 (logins) or issue 49 (pg2, pg2live; throughput: figures
only) is missed.  Run by bench/serve.sh; by hand:

  python3 bench/serve_load.py kill   ./mancala   # 1,000 malformed requests,
        200 games played to the end by 48 clients while the server is killed
        (kill -9) and restarted 10 times: acknowledged moves lost, 5xx
        answers, games intact
  python3 bench/serve_load.py slow   ./mancala   # 64 idle + 64 trickling
        connections from 127.0.0.1; another client (127.0.0.2) timed
  python3 bench/serve_load.py memory ./mancala   # the 262 KB Omweso upload
        (server memory), 17,000 tags (load time), restart with them, and
        requests on one game while another is busy
  python3 bench/serve_load.py live   ./mancala   # 100 moves between two
        players on their event streams, with a spectator: from a move sent
        to its state on the other streams (median under 200 ms)
  python3 bench/serve_load.py fair   ./mancala   # 40 engine moves (Oware,
        level 10, 1 s) while 4 addresses keep 4 Omweso analyses each going
        (p99 under 2 s)
  python3 bench/serve_load.py crowd  ./mancala   # 20 addresses x 8 idle and
        20 x 8 trickling connections; another client (127.0.0.2) timed
        (p99 under 1 s)
  python3 bench/serve_load.py logins ./mancala   # 1,000 wrong passwords
        against one name from one address and from 100, and against 1,000
        names from one: at most 10 hashed, the server's CPU under 5 s a run,
        other clients served meanwhile
  python3 bench/serve_load.py pg2    ./mancala   # issue 49: 200 games played
        to the end by 48 clients across two servers on one PostgreSQL
        database (each request to either at random) while either server is
        killed (kill -9) and restarted 10 times and PostgreSQL restarted
        twice: acknowledged moves lost, games diverging between the two,
        records intact, 5xx answers (503 io apart), time
  python3 bench/serve_load.py pg2live ./mancala  # 100 moves, each sent
        through one server, seen on the other server's event streams (the
        other player's, a spectator's): from the answer, median under 200 ms
  python3 bench/serve_load.py throughput ./mancala   # moves committed a
        second, 48 clients for 20 s: one server on SQLite, one on
        PostgreSQL, two on PostgreSQL (figures, no target)

Only the Python standard library; every server is on 127.0.0.1 with its
database in a scratch folder, or (pg2, pg2live, throughput) on a throwaway
PostgreSQL cluster made by tests/lib/pg.sh (as root run as the user
postgres), stopped and removed at the end whatever happened; without
PostgreSQL installed these say SKIPPED and exit 77.  Clients
connect from other loopback addresses (127.0.0.x, 127.0.1.x, 127.0.2.x) to
stand for other people.
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
SERVERS = []        # every server started, stopped at the end if a test failed midway


def start(db, port=0, extra=()):
    """Start a server on db; returns (process, port)."""
    out = os.path.join(TMP, 'out-%d' % time.monotonic_ns())
    env = dict(os.environ, MANCALA_EGDB_DIR='none')
    f = open(out, 'w')
    p = subprocess.Popen([MANCALA, 'serve', '--port', str(port), '--db', db] +
                         list(extra), stdout=f, stderr=subprocess.STDOUT, env=env)
    SERVERS.append(p)
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


def sockets(pid):
    """The sockets process pid holds open (its listening one too)."""
    n = 0
    for fd in os.listdir('/proc/%d/fd' % pid):
        try:
            n += os.readlink('/proc/%d/fd/%s' % (pid, fd)).startswith('socket:')
        except OSError:
            pass
    return n


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


# ---- a PostgreSQL cluster for the tests of issue 49 -------------------------

PG = {}             # the bench's cluster (tests/lib/pg.sh): url, dir, bin, owner


class Skipped(Exception):
    """The test cannot run here (no PostgreSQL): said, never counted passed."""


def as_pg(*cmd):
    """cmd as the cluster's owner (root: through runuser, as tests/lib/pg.sh's as_pg)."""
    cmd = list(cmd)
    if os.getuid() == 0 and PG.get('owner'):
        cmd = ['runuser', '-u', PG['owner'], '--'] + cmd
    return subprocess.run(cmd, cwd='/', capture_output=True, text=True)


def pg_start(*dbs):
    """A throwaway cluster made by tests/lib/pg.sh's pg_start (its folder
    under /tmp, a free port of 127.0.0.1, the user mancala trusted) with
    the databases dbs made beside its "mancala"; returns its URL
    (postgresql://mancala@127.0.0.1:PORT, add /DB).  Raises Skipped when
    PostgreSQL is not installed.  pg_stop, called by main() whatever
    happened, stops and removes it."""
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'lib', 'pg.sh')
    r = subprocess.run(['sh', '-c', '. "$0"; pg_start; rc=$?; '
                        'echo "@pg $rc|$PG_URL|$PG_DIR|$PG_BIN|$PG_OWNER"', lib],
                       capture_output=True, text=True)
    line = [x for x in r.stdout.splitlines() if x.startswith('@pg ')]
    if not line:
        raise SystemExit('tests/lib/pg.sh: ' + r.stdout + r.stderr)
    rc, url, d, b, owner = line[-1][4:].split('|')
    PG.update(url=url, dir=d, bin=b, owner=owner)
    if rc == '2':
        raise Skipped('no PostgreSQL here (Debian: postgresql)')
    if rc != '0':
        raise SystemExit('the cluster did not start: ' + r.stderr)
    for db in dbs:
        r = subprocess.run(['psql', '-X', '-q', '-d', url + '/postgres', '-c',
                            'CREATE DATABASE ' + db], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit('CREATE DATABASE %s: %s' % (db, r.stderr))
    return url


def pg_restart():
    """pg_ctl restart -m fast (the sessions ended, the cluster up again);
    returns the seconds it took."""
    t0 = time.monotonic()
    r = as_pg(os.path.join(PG['bin'], 'pg_ctl'), '-D', os.path.join(PG['dir'], 'data'),
              '-l', os.path.join(PG['dir'], 'server.log'), '-m', 'fast', '-w', '-t', '60',
              'restart')
    if r.returncode != 0:
        raise SystemExit('pg_ctl restart: ' + r.stdout + r.stderr)
    return time.monotonic() - t0


def pg_stop():
    """Stop the cluster (immediately) and remove its folder, if there is one."""
    d = PG.get('dir')
    if not d:
        return
    if os.path.exists(os.path.join(d, 'data', 'postmaster.pid')):
        as_pg(os.path.join(PG['bin'], 'pg_ctl'), '-D', os.path.join(d, 'data'),
              '-m', 'immediate', '-w', 'stop')
    shutil.rmtree(d, ignore_errors=True)
    PG.clear()


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


# ---- figures shared by the tests below ---------------------------------------

def pct(xs, p):
    """The p-th percentile of xs (nearest rank: the smallest value that at
    least p % of them do not exceed); 0 for none."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, -(-len(s) * p // 100) - 1))]


def figures(xs):
    """'p50 X ms, p99 Y ms, max Z ms' of times in seconds."""
    return 'p50 %.0f ms, p99 %.0f ms, max %.0f ms' % (
        pct(xs, 50) * 1000, pct(xs, 99) * 1000, max(xs, default=0) * 1000)


def again(c, retried, *args, **kw):
    """c.request(*args, **kw), sent again once on a new connection when the
    keep-alive one it reused had been closed by the server meanwhile (what
    a browser does; the server closes a connection idle for its deadline);
    retried counts those."""
    reused = c.c is not None
    try:
        return c.request(*args, **kw)
    except (OSError, http.client.HTTPException):
        if not reused:
            raise
        retried[0] += 1
        return c.request(*args, **kw)


# ---- a move seen live by the other player and a spectator --------------------

class Stream(threading.Thread):
    """GET /api/game/ID/events from src, read as it arrives on a raw socket
    (chunked or not): keeps when each state event arrived (by version) and
    the latest state.  No request but this one: the page's live view."""

    def __init__(self, port, gid, src):
        super().__init__(daemon=True)
        self.cond = threading.Condition()
        self.arrived = {}          # version -> time.monotonic() of its event
        self.state = None          # the latest state
        self.version = -1
        self.ended = None          # why the stream ended, once it has
        self.buf = b''
        self.s = socket.create_connection(('127.0.0.1', port), timeout=30,
                                          source_address=(src, 0))
        self.s.sendall(('GET /api/game/%s/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n'
                        'Accept: text/event-stream\r\n\r\n' % (gid, port)).encode())
        self.start()

    def _more(self):
        b = self.s.recv(65536)
        if not b:
            raise EOFError('closed by the server')
        self.buf += b

    def _line(self):
        while b'\n' not in self.buf:
            self._more()
        line, self.buf = self.buf.split(b'\n', 1)
        return line.rstrip(b'\r')

    def _exact(self, n):
        while len(self.buf) < n:
            self._more()
        b, self.buf = self.buf[:n], self.buf[n:]
        return b

    def _body(self, chunked):
        """The body's bytes as they come (one chunk at a time)."""
        while True:
            if not chunked:
                if not self.buf:
                    self._more()
                b, self.buf = self.buf, b''
                yield b
                continue
            n = int(self._line().split(b';')[0], 16)
            if n == 0:
                raise EOFError('end of the stream')
            yield self._exact(n)
            self._exact(2)      # the CRLF after the chunk

    def run(self):
        try:
            status = self._line()
            head = []
            while True:
                h = self._line()
                if not h:
                    break
                head.append(h.lower())
            if b' 200 ' not in status + b' ':
                raise EOFError(status.decode(errors='replace'))
            chunked = b'transfer-encoding: chunked' in head
            text, event = b'', {}
            for b in self._body(chunked):
                text += b
                while b'\n' in text:
                    line, text = text.split(b'\n', 1)
                    line = line.rstrip(b'\r')
                    if line:
                        if not line.startswith(b':'):       # a heartbeat comment
                            k, _, v = line.partition(b':')
                            event[k] = v[1:] if v.startswith(b' ') else v
                        continue
                    # a blank line: the event is whole, now
                    t = time.monotonic()
                    if event.get(b'event') == b'state':
                        st = json.loads(event[b'data'])['state']
                        with self.cond:
                            self.arrived[st['version']] = t
                            self.state, self.version = st, st['version']
                            self.cond.notify_all()
                    elif event.get(b'event') == b'gone':
                        raise EOFError('gone')
                    event = {}
        except (OSError, EOFError, ValueError, KeyError) as e:
            with self.cond:
                self.ended = str(e) or type(e).__name__
                self.cond.notify_all()

    def wait(self, version, timeout=5.0):
        """When the event of version (or a later one) arrived; None if it
        did not within timeout."""
        end = time.monotonic() + timeout
        with self.cond:
            while self.version < version and self.ended is None:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(left)
            if self.version < version:
                return None
            return min(t for v, t in self.arrived.items() if v >= version)

    def close(self):
        try:
            self.s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.s.close()
        self.join(5)


def follow(port, gid, src, refused):
    """A Stream of gid from src once it gave the state.  One answered 429
    (the address holds its 4 streams: a stream closed a moment ago counts
    until the server notices, at a heartbeat) is asked for again every
    0.5 s, for 30 s at most; refused gets the seconds each such stream
    waited."""
    t0 = time.monotonic()
    while True:
        s = Stream(port, gid, src)
        if s.wait(0) is not None or time.monotonic() - t0 > 30:
            if time.monotonic() - t0 > 1:
                refused.append(time.monotonic() - t0)
            return s
        s.close()
        time.sleep(0.5)


def live_test():
    """Two players (South made the game with "seats": "S", North joined with
    the invitation) and a spectator, each on its own address, follow the
    game on its event stream; each player picks its move from the state its
    stream gave it, so nothing but the moves' POSTs and the streams is ever
    asked (no polling).  Timed: from sending a move to its state arriving
    on the other player's stream and on the spectator's; target median
    under 200 ms on both, every move seen.  A game that ends is followed
    by a new one (new streams)."""
    db = os.path.join(TMP, 'live.db')
    proc, port = start(db)
    rnd = random.Random(3)
    src = {'S': '127.0.0.3', 'N': '127.0.0.4', 'watch': '127.0.0.5'}
    cl = {k: Client(port, src=a, timeout=10) for k, a in src.items() if k != 'watch'}
    lat = {'opponent': [], 'spectator': []}
    posts, play_s, nstreams, games, missed, errors, waited = 0, [], 0, 0, 0, [], []
    retried = [0]
    nmoves = 100
    while len(lat['spectator']) + missed < nmoves and not errors:
        # a game between two people: South invites, North joins
        st, j, _ = again(cl['S'], retried, 'POST', '/api/new', {'game': 'oware', 'seats': 'S'})
        posts += 1
        if st != 201:
            errors.append('new %d' % st)
            break
        gid, tok = j['state']['id'], {'S': j['token']}
        st, j, _ = again(cl['N'], retried, 'POST', '/api/game/%s/join' % gid,
                         {'invite': j['invite']['code']})
        posts += 1
        if st != 200:
            errors.append('join %d' % st)
            break
        tok['N'] = j['token']
        joined = j['state']['version']
        games += 1
        streams = {k: follow(port, gid, a, waited) for k, a in src.items()}
        nstreams += 3
        if any(s.wait(joined) is None for s in streams.values()):
            errors.append('a stream did not give the state: %s' %
                          [s.ended for s in streams.values()])
        while not errors and len(lat['spectator']) + missed < nmoves:
            # the side to move knows the state from its own stream
            side = streams['S'].state['side']
            me = streams[side].state
            if me['over'] or not me['moves']:
                break
            other = 'N' if side == 'S' else 'S'
            mv = rnd.choice(me['moves'])['move']
            t0 = time.monotonic()
            st, j, _ = again(cl[side], retried, 'POST', '/api/game/%s/play' % gid,
                             {'move': mv, 'version': me['version']}, tok[side])
            play_s.append(time.monotonic() - t0)
            posts += 1
            if st != 200:
                errors.append('play %d %s' % (st, j))
                break
            v = j['state']['version']
            seen = [streams[other].wait(v), streams['watch'].wait(v), streams[side].wait(v)]
            if None in seen[:2]:
                missed += 1
            else:
                lat['opponent'].append(seen[0] - t0)
                lat['spectator'].append(seen[1] - t0)
        for s in streams.values():
            s.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    ok = not errors and missed == 0 and len(lat['opponent']) == nmoves and \
        pct(lat['opponent'], 50) < 0.2 and pct(lat['spectator'], 50) < 0.2
    print('%d moves in %d Oware games between two addresses, a spectator on a third: '
          'the move on the opponent\'s stream %s; on the spectator\'s %s; the play answer '
          '%s; %d moves not seen within 5 s; requests: %d POSTs (new, join, play) and %d '
          'event streams, no polling; streams refused (429) at first: %d, waiting up to '
          '%.1f s for the address\'s closed streams to be let go; POSTs sent again on a new '
          'connection: %d%s' % (
              len(lat['opponent']), games, figures(lat['opponent']), figures(lat['spectator']),
              figures(play_s), missed, posts, nstreams, len(waited), max(waited, default=0),
              retried[0],
              ('; errors: %s' % errors) if errors else ''))
    return ok


# ---- a game against the computer beside analyses from every side -------------

def fair_test():
    """4 addresses each keep 4 analyses of 30 s of Omweso's start going (the
    server thinks 10 s at most for help, one at a time per address, and
    answers 503 busy after 5 s of waiting); another address plays Oware
    against the computer at level 10, 1 s a move.  Timed: each engine
    move's answer; target p99 under the move's time + 1 s."""
    db = os.path.join(TMP, 'fair.db')
    proc, port = start(db)
    stop = threading.Event()
    lock = threading.Lock()
    answers = {}                    # analysis status -> its answers' times

    def analyst(src):
        c = Client(port, src=src, timeout=60)
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                st, _, _ = c.request('POST', '/api/analyze', {
                    'game': 'omweso', 'position': 'start', 'level': 10, 'seconds': 30})
            except (OSError, http.client.HTTPException):
                st = 'error'
                time.sleep(0.1)
            if not stop.is_set():
                with lock:
                    answers.setdefault(st, []).append(time.monotonic() - t0)

    ths = [threading.Thread(target=analyst, args=('127.0.0.%d' % a,))
           for a in range(11, 15) for _ in range(4)]
    for t in ths:
        t.start()
    time.sleep(3)                   # every analyst is in, three of them thinking
    me = Client(port, src='127.0.0.20', timeout=60)
    lat, searched, depth, refused, games, nmoves = [], [], [], [], 0, 40
    gid = tok = None
    while len(lat) < nmoves and len(refused) < 5:
        if gid is None:
            st, j, _ = me.request('POST', '/api/new', {'game': 'oware'})
            assert st == 201, (st, j)
            gid, tok = j['state']['id'], j['token']
            games += 1
        t0 = time.monotonic()
        st, j, _ = me.request('POST', '/api/game/%s/engine' % gid,
                              {'level': 10, 'seconds': 1.0}, tok)
        dt = time.monotonic() - t0
        if st != 200:
            refused.append((st, j['error']['code'] if j and 'error' in j else ''))
            continue
        lat.append(dt)
        if not j.get('book'):
            searched.append(dt)
            depth.append(j['depth'])
        if j['state']['over']:
            gid = None
    stop.set()
    # the last analyses end with the server
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    for t in ths:
        t.join()
    print('%d engine moves (Oware, level 10, 1 s, %d games) while 4 addresses x 4 '
          'clients asked for Omweso analyses of 30 s: %s (the %d searched, not from the '
          'book: %s, depth p50 %d); refused: %d %s; analyses answered: %s' % (
              len(lat), games, figures(lat), len(searched), figures(searched),
              pct(depth, 50), len(refused), refused[:3],
              ', '.join('%s %d (p50 %.1f s)' % (st, len(x), pct(x, 50))
                        for st, x in sorted(answers.items(), key=str))))
    return not refused and len(lat) == nmoves and pct(lat, 99) < 2.0


# ---- many addresses holding connections idle or trickling --------------------

def crowd_test():
    """20 addresses (127.0.1.1..20) hold 8 idle connections each and 20 more
    (127.0.2.1..20) 8 connections each trickling a header byte a second, the
    most --per-ip lets each (320 in all, beyond the server's 128 request
    connections); each one the server closes is opened again within a
    second.  Another client (127.0.0.2, keep-alive, as a browser) asks GET
    /api/games every 0.2 s for 60 s: its answers are timed; target p99
    under 1 s, no failure.  Timed too, beyond the target: a new visitor
    (127.0.0.3) asking once a second on a new connection each time, and a
    game's event stream opened every 2 s (each from an address of its own,
    127.0.3.x), to its first state."""
    db = os.path.join(TMP, 'crowd.db')
    proc, port = start(db)
    head = b'GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n'
    lock = threading.Lock()
    count = {'opened': 0, 'refused': 0, 'cut': 0}
    stop = threading.Event()

    def closed(s):
        """Has the server closed (or cut) s?"""
        try:
            return s.recv(4096, socket.MSG_DONTWAIT) == b''
        except BlockingIOError:
            return False
        except OSError:
            return True

    def address(src, first, more):
        # one address's 8 connections (first: what each sends at once;
        # more: what it sends every second): each one the server closed is
        # opened again at the next round, within a second
        conns = [None] * 8
        while not stop.is_set():
            for k, s in enumerate(conns):
                if s is not None:
                    try:
                        if closed(s):
                            raise OSError
                        if more:
                            s.sendall(more)
                        continue
                    except OSError:
                        with lock:
                            count['cut'] += 1
                        s.close()
                try:
                    s = socket.create_connection(('127.0.0.1', port), timeout=2,
                                                 source_address=(src, 0))
                    s.settimeout(None)   # blocking: recv(MSG_DONTWAIT) must not wait
                    s.sendall(first)
                    conns[k] = s
                    with lock:
                        count['opened'] += 1
                except OSError:
                    conns[k] = None
                    with lock:
                        count['refused'] += 1
            stop.wait(1.0)
        for s in conns:
            if s is not None:
                s.close()

    ths = [threading.Thread(target=address, args=('127.0.1.%d' % a, b'', None))
           for a in range(1, 21)]
    ths += [threading.Thread(target=address, args=('127.0.2.%d' % a, head, b'X'))
            for a in range(1, 21)]
    for t in ths:
        t.start()
    st, j, _ = Client(port, src='127.0.0.4').request('POST', '/api/new', {'game': 'oware'})
    gid = j['state']['id']
    time.sleep(3)                  # the crowd is in
    t_end = time.monotonic() + 60
    new = {'lat': [], 'fails': 0, 'streams': [], 'no_stream': 0}

    def visitor():
        # a new connection for each request, as a new visitor's browser
        while time.monotonic() < t_end:
            t0 = time.monotonic()
            c = Client(port, src='127.0.0.3', timeout=5)
            try:
                st, _, _ = c.request('GET', '/api/games')
                new['fails'] += st != 200
            except (OSError, http.client.HTTPException):
                new['fails'] += 1
            new['lat'].append(time.monotonic() - t0)
            if c.c:
                c.c.close()
            time.sleep(max(0.0, t0 + 1.0 - time.monotonic()))

    def watcher():
        # a page opening the game's event stream
        k = 0
        while time.monotonic() < t_end:
            k += 1
            t0 = time.monotonic()
            s = Stream(port, gid, '127.0.3.%d' % k)
            t = s.wait(0, 10)
            if t is None:
                new['no_stream'] += 1
            else:
                new['streams'].append(t - t0)
            s.close()
            time.sleep(max(0.0, t0 + 2.0 - time.monotonic()))

    vt = [threading.Thread(target=visitor), threading.Thread(target=watcher)]
    for t in vt:
        t.start()
    lat, fails, retried, n, held = [], 0, [0], 0, []
    other = Client(port, src='127.0.0.2', timeout=5)
    while time.monotonic() < t_end:
        t0 = time.monotonic()
        n += 1
        try:
            st, _, _ = again(other, retried, 'GET', '/api/games')
            fails += st != 200
        except (OSError, http.client.HTTPException):
            fails += 1
        lat.append(time.monotonic() - t0)
        if n % 5 == 0:
            held.append(sockets(proc.pid) - 1)
        time.sleep(0.2)
    for t in vt:
        t.join()
    stop.set()
    for t in ths:
        t.join()
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    print('20 addresses x 8 idle + 20 addresses x 8 trickling connections for 60 s '
          '(%d opened, %d closed by the server and opened again, %d refused at connect; '
          'the server held %d-%d connections, median %d): %d requests from 127.0.0.2: '
          '%s (the first, connecting, %.0f ms); failed %d; sent again on a new connection '
          '%d. Beyond the target: %d requests '
          'of a new visitor (127.0.0.3) on new connections: %s, failed %d; %d event streams '
          'opened: the first state in %s, none in 10 s %d' % (
              count['opened'], count['cut'], count['refused'], min(held), max(held),
              pct(held, 50), n, figures(lat), lat[0] * 1000, fails, retried[0], len(new['lat']),
              figures(new['lat']), new['fails'], len(new['streams']) + new['no_stream'],
              figures(new['streams']), new['no_stream']))
    return fails == 0 and pct(lat, 99) < 1.0


# ---- password tries (issue 47) ---------------------------------------------

def cpu_s(pid):
    """The CPU seconds (user + system) process pid has used."""
    f = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')


def logins_test():
    """1,000 wrong passwords against one name from one address, then from
    100 addresses (10 each, 10 clients at once), then from one address
    against 1,000 names; meanwhile another client reads the game list every
    0.1 s and a third signs in to its own account.  Targets: each run
    hashes at most 10 passwords (the others are refused 429 tries), the
    server's CPU for each run under 5 s, the reader's p99 under 1 s, the
    bystander signed in."""
    p, port = start(os.path.join(TMP, 'logins.db'))
    setup = Client(port, '127.0.4.200')
    for name in ('target', 'target2', 'bystander'):
        st, _, _ = setup.request('POST', '/api/account',
                                 {'name': name, 'password': 'the right one'})
        assert st == 201, st
    stop = threading.Event()
    lat = []

    def reader():
        c = Client(port, '127.0.5.1')
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                c.request('GET', '/api/games')
                lat.append(time.monotonic() - t0)
            except OSError:
                lat.append(99.0)
            time.sleep(0.1)

    th = threading.Thread(target=reader)
    th.start()
    runs = [('1,000 wrong passwords from one address, one name', 1, 'target', False),
            ('1,000 wrong passwords from 100 addresses, one name', 100, 'target2', False),
            ('1,000 wrong passwords from one address, 1,000 names', 1, None, True)]
    ok = True
    for k, (what, naddr, name, many) in enumerate(runs):
        counts = {}
        lock = threading.Lock()
        c0, t0 = cpu_s(p.pid), time.monotonic()

        def attacker(addrs):
            for a in addrs:
                c = Client(port, '127.0.%d.%d' % (6 + k, a + 1))
                for i in range(1000 // naddr):
                    n = name or 'name%d-%d' % (a, i)
                    try:
                        st, _, _ = c.request('POST', '/api/login',
                                             {'name': n, 'password': 'guess %d' % i})
                    except OSError:
                        st = 0
                    with lock:
                        counts[st] = counts.get(st, 0) + 1
        groups = [list(range(naddr))[g::10] for g in range(min(10, naddr))]
        ts = [threading.Thread(target=attacker, args=(g,)) for g in groups]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        cpu, wall = cpu_s(p.pid) - c0, time.monotonic() - t0
        print('%s: %s; server CPU %.2f s, %.2f s' %
              (what, ', '.join('%d x %d' % (counts[s], s) for s in sorted(counts)), cpu, wall))
        ok = ok and counts.get(401, 0) <= 10 and sum(counts.values()) == 1000 and \
            counts.get(401, 0) + counts.get(429, 0) == 1000 and cpu < 5.0
    by = Client(port, '127.0.5.2')
    t0 = time.monotonic()
    st, _, _ = by.request('POST', '/api/login', {'name': 'bystander', 'password': 'the right one'})
    signin = time.monotonic() - t0
    stop.set()
    th.join()
    lat.sort()
    print('meanwhile: the game list read %d times, %s; the bystander signed in: %d in %.2f s' %
          (len(lat), figures(lat), st, signin))
    return ok and pct(lat, 99) < 1.0 and st == 200


# ---- two processes on one PostgreSQL database (issue 49) ---------------------

def error_code(j):
    return j['error'].get('code', '') if isinstance(j, dict) and isinstance(j.get('error'), dict) else ''


def pg2_test():
    """200 games played to the end by 48 clients across two servers (A and
    B) on one PostgreSQL database, each request sent to either at random,
    while either server is killed (kill -9) and restarted on its port 10
    times and PostgreSQL itself restarted twice (pg_ctl restart -m fast),
    one event every 1.5 s.  A read that shows fewer moves than its client
    had acknowledged is a stale read (the other process not told yet):
    counted, read again (the spells timed, from the first short read to
    the first whole one); one still short after 5 s is a lost move.
    Checked at the end (after 1 s; a game that differs is read again 2 s
    later): each game read through A and through B, the same history and
    version on both (else diverging), over, holding every acknowledged
    move, its record (through each) passing `mancala check`.  5xx answers:
    503 "io" (the database restarting) counted apart, expected; any other
    is a failure."""
    url = pg_start()
    db = url + '/mancala'
    extra = ['--per-ip', '64', '--max-conns', '256', '--quota', '1000', '--rate', '1000']
    srv = {}
    for k in 'AB':
        p, port = start(db, 0, extra)
        srv[k] = {'proc': p, 'port': port}
    ngames, nclients = 200, 48
    lock = threading.Lock()
    stats = {'moves': 0, 'retries': 0, 'conn_errors': 0, 'over': 0, 'io503': 0,
             'stale': 0, 'other5xx': {}, 'lost': [], 'unfinished': 0,
             'stale_s': [], 'refused': {}, 'get_s': []}
    games = []
    c = {k: Client(srv[k]['port']) for k in 'AB'}
    for i in range(ngames):
        st, j, _ = c['AB'[i % 2]].request('POST', '/api/new',
                                          {'game': ['oware', 'gore', 'sadeqa2', 'oware:awari'][i % 4]})
        assert st == 201, (st, j)
        games.append({'id': j['state']['id'], 'token': j['token'], 'hist': []})
    t_limit = time.monotonic() + 600      # a run that cannot end (games never seen over) stops

    def five(st, j, k):
        """Count a 5xx answer of server k: True if it was one."""
        if st < 500:
            return False
        with lock:
            if st == 503 and error_code(j) == 'io':
                stats['io503'] += 1
            else:
                key = '%s %d %s' % (k, st, error_code(j))
                stats['other5xx'][key] = stats['other5xx'].get(key, 0) + 1
        return True

    def worker(n):
        rnd = random.Random(n)
        cl = {k: Client(srv[k]['port']) for k in 'AB'}
        mine = [g for i, g in enumerate(games) if i % nclients == n]
        short = {}                  # game id -> when its reads first fell short
        while mine:
            if time.monotonic() > t_limit:
                with lock:
                    stats['unfinished'] += len(mine)
                return
            g = rnd.choice(mine)
            k = rnd.choice('AB')
            try:
                r0 = time.monotonic()
                st, j, _ = cl[k].request('GET', '/api/game/' + g['id'])
                with lock:
                    stats['get_s'].append(time.monotonic() - r0)
                if five(st, j, k):
                    continue
                s = j['state']
                if s['history'][:len(g['hist'])] != g['hist']:
                    # stale (the other process not told yet) or lost
                    with lock:
                        stats['stale'] += 1
                    first = short.setdefault(g['id'], time.monotonic())
                    if time.monotonic() - first < 5:
                        time.sleep(0.01)
                        continue
                    with lock:
                        stats['lost'].append((g['id'], k, len(g['hist']), len(s['history'])))
                    g['hist'] = s['history']
                if g['id'] in short:
                    with lock:
                        first = short.pop(g['id'])
                        stats['stale_s'].append((first, time.monotonic() - first))
                if s['over'] or s['ply'] >= 400:
                    if not s['over']:
                        k = rnd.choice('AB')
                        st, j, _ = cl[k].request('POST', '/api/game/%s/resign' % g['id'],
                                                 {'side': s['side']}, g['token'])
                        if five(st, j, k) or st != 200:
                            continue
                    g['hist'] = (j['state'] if 'state' in j else s)['history']
                    mine.remove(g)
                    with lock:
                        stats['over'] += 1
                    continue
                mv = rnd.choice(s['moves'])['move']
                k = rnd.choice('AB')
                st, j, _ = cl[k].request('POST', '/api/game/%s/play' % g['id'],
                                         {'move': mv, 'version': s['version']}, g['token'])
                if five(st, j, k):
                    pass
                elif st == 200:
                    g['hist'] = j['state']['history']
                    with lock:
                        stats['moves'] += 1
                else:
                    key = '%d %s' % (st, error_code(j))
                    with lock:
                        stats['retries'] += 1
                        stats['refused'][key] = stats['refused'].get(key, 0) + 1
            except (OSError, http.client.HTTPException, ValueError, TypeError, KeyError):
                with lock:
                    stats['conn_errors'] += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(nclients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    events = ['kill'] * 3 + ['pg'] + ['kill'] * 4 + ['pg'] + ['kill'] * 3
    rnd = random.Random(49)
    kills, pgs, restart_s, pg_s, done = 0, 0, [], [], []
    when = []                       # each event's (start, end)
    for ev in events:
        time.sleep(1.5)
        if not any(t.is_alive() for t in threads):
            break
        e0 = time.monotonic()
        if ev == 'pg':
            pg_s.append(pg_restart())
            when.append((e0, time.monotonic()))
            pgs += 1
            done.append('pg')
            continue
        k = rnd.choice('AB')
        srv[k]['proc'].send_signal(signal.SIGKILL)
        srv[k]['proc'].wait()
        kills += 1
        r0 = time.monotonic()
        srv[k]['proc'], _ = start(db, srv[k]['port'], extra)
        restart_s.append(time.monotonic() - r0)
        when.append((e0, time.monotonic()))
        done.append(k)
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    time.sleep(1)                   # the last moves told to the other process
    cl = {k: Client(srv[k]['port']) for k in 'AB'}
    intact = diverging = lost_end = 0
    path = os.path.join(TMP, 'g.mcr')

    def read(g):
        got = {}
        for k in 'AB':
            try:
                st, j, _ = cl[k].request('GET', '/api/game/' + g['id'])
                st2, _, rec = cl[k].request('GET', '/api/game/%s/record' % g['id'])
                got[k] = (st, j['state'] if st == 200 else None, st2, rec)
            except (OSError, http.client.HTTPException, TypeError, KeyError):
                got[k] = (0, None, 0, b'')
        return got

    def same(got):
        return all(got[k][1] is not None for k in 'AB') and \
            (got['A'][1]['history'], got['A'][1]['version']) == \
            (got['B'][1]['history'], got['B'][1]['version'])

    reads = [read(g) for g in games]
    differed = sum(not same(got) for got in reads)
    if differed:
        time.sleep(2)               # then those read again
        reads = [got if same(got) else read(g) for g, got in zip(games, reads)]
    for g, got in zip(games, reads):
        ok = same(got)
        diverging += not ok
        for k in 'AB':
            st, s, st2, rec = got[k]
            if s is None or s['history'][:len(g['hist'])] != g['hist']:
                lost_end += 1
                ok = False
                break
            ok = ok and st2 == 200 and s['over']
            if ok:
                open(path, 'wb').write(rec)
                ok = subprocess.run([MANCALA, 'check', path], capture_output=True).returncode == 0
        intact += ok
    for k in 'AB':
        srv[k]['proc'].send_signal(signal.SIGTERM)
        srv[k]['proc'].wait()
    lost = len(stats['lost']) + lost_end
    spells = [d for _, d in stats['stale_s']]
    # the spells begun 3 s or more after the end of every kill or restart
    quiet = [d for t, d in stats['stale_s']
             if not any(e0 <= t + d and t < e1 + 3 for e0, e1 in when)]
    other5 = sum(stats['other5xx'].values())
    print('200 games, 48 clients, 2 servers on one PostgreSQL database, %d kill -9 and '
          'restarts (%s) and %d restarts of PostgreSQL in %.1f s: %d moves acknowledged '
          '(%.0f a second), %d games finished, %d unfinished, %d intact (the same on both, '
          'records check), acknowledged moves lost: %d, games diverging between the two: %d '
          '(%d differed at the first read), 503 io (database restarting): %d, other 5xx: %d%s, '
          'reads answered in %s; stale reads (read again): %d, in %d spells of %s (the %d away from kills and '
          'restarts: %s), moves refused: %d %s, '
          'connection errors (server down): %d, server restart %.2f s at most, PostgreSQL restart %.2f s at most' % (
              kills, ' '.join(done), pgs, elapsed, stats['moves'], stats['moves'] / elapsed,
              stats['over'], stats['unfinished'], intact, lost, diverging, differed,
              stats['io503'], other5, (' %s' % stats['other5xx']) if other5 else '',
              figures(stats['get_s']), stats['stale'], len(spells), figures(spells), len(quiet), figures(quiet),
              stats['retries'], stats['refused'], stats['conn_errors'],
              max(restart_s, default=0), max(pg_s, default=0)))
    if stats['lost']:
        print('lost (game, server, acknowledged plies, plies read): %s' % stats['lost'][:5])
    return lost == 0 and diverging == 0 and other5 == 0 and intact == ngames and \
        stats['over'] == ngames and kills == 10 and pgs == 2


def figures90(xs):
    """'p50 X ms, p90 Y ms, max Z ms' of times in seconds."""
    return 'p50 %.0f ms, p90 %.0f ms, max %.0f ms' % (
        pct(xs, 50) * 1000, pct(xs, 90) * 1000, max(xs, default=0) * 1000)


def pg2live_test():
    """Two servers (A and B) on one PostgreSQL database; two players and two
    spectators on addresses of their own.  South makes each game through A
    (seats S) and sends its moves through A, following the game's event
    stream on A; North joins through B, sends its moves through B and
    follows on B; a spectator follows on A, another on B.  So each move
    sent through one process reaches the other player and a spectator on
    the other process's streams (the database's announcement).  Timed:
    from a move's answer to its state on those two streams (an event there
    before the answer counts 0), and from the move sent; target median
    (from the answer) under 200 ms on both, every move seen within 5 s.
    A game that ends, or whose move one of them missed, is followed by a
    new one (new streams); 5 missed moves end the run.  Then the same
    again, beyond the target (figures only), while 48 other clients play
    as fast as they can through both servers (throughput's load)."""
    url = pg_start()
    db = url + '/mancala'
    srv = {}
    for k in 'AB':
        srv[k] = dict(zip(('proc', 'port'), start(db)))
    home = {'S': 'A', 'N': 'B', 'wA': 'A', 'wB': 'B'}
    src = {'S': '127.0.0.3', 'N': '127.0.0.4', 'wA': '127.0.0.5', 'wB': '127.0.0.6'}
    cl = {k: Client(srv[home[k]]['port'], src=src[k], timeout=10) for k in 'SN'}
    rnd = random.Random(3)

    def tardy(streams, late, v, t1):
        """What became of version v on the streams late (not there 5 s
        after t1): the version the stream and its server had then, and
        when v came (or not within 30 s)."""
        said = []
        for k in late:
            # the server's copy meanwhile: behind too (not told yet), or not
            try:
                st, j, _ = Client(srv[home[k]]['port'], src='127.0.0.7').request(
                    'GET', '/api/game/' + streams[k].state['id'])
                said.append('%s: the stream at version %d, a GET through %s at %s' % (
                    k, streams[k].version, home[k], j['state']['version'] if st == 200 else st))
            except (OSError, http.client.HTTPException, TypeError, KeyError):
                pass
            t = streams[k].wait(v, max(0.0, t1 + 30 - time.monotonic()))
            said.append('%s: %s' % (k, 'seen after %.1f s' % (t - t1) if t is not None else
                                    'not in 30 s (stream ended: %s)' % streams[k].ended))
        return ', '.join(said)

    def measure(label):
        lat = {'opponent': [], 'spectator': []}     # from the answer, on the other process
        sent = {'opponent': [], 'spectator': []}    # from the move sent
        near, play_s = [], []                       # the mover's own process; the answers
        games, missed, errors, waited, retried, unseen = 0, 0, [], [], [0], []
        nmoves = 100
        early = 0
        while len(lat['opponent']) < nmoves and missed < 5 and not errors:
            st, j, _ = again(cl['S'], retried, 'POST', '/api/new',
                             {'game': 'oware', 'seats': 'S'})
            if st != 201:
                errors.append('new through A: %d %s' % (st, error_code(j)))
                break
            gid, tok = j['state']['id'], {'S': j['token']}
            st, j, _ = again(cl['N'], retried, 'POST', '/api/game/%s/join' % gid,
                             {'invite': j['invite']['code']})
            if st != 200:
                errors.append('join through B of a game made through A: %d %s' % (
                    st, error_code(j)))
                break
            tok['N'] = j['token']
            joined = j['state']['version']
            games += 1
            streams = {k: follow(srv[home[k]]['port'], gid, src[k], waited) for k in home}
            t1 = time.monotonic()
            late = [k for k, s in streams.items() if s.wait(joined) is None]
            if late:
                # the join (through B) not seen on A's streams: counted as a miss
                missed += 1
                unseen.append('the join on %s (%s)' % (late, tardy(streams, late, joined, t1)))
            while not late and len(lat['opponent']) < nmoves:
                side = streams['S'].state['side']
                me = streams[side].state
                if me['over'] or not me['moves']:
                    break
                other = 'N' if side == 'S' else 'S'
                here = home[side]
                far = [('opponent', other), ('spectator', 'wB' if here == 'A' else 'wA')]
                mv = rnd.choice(me['moves'])['move']
                t0 = time.monotonic()
                st, j, _ = again(cl[side], retried, 'POST', '/api/game/%s/play' % gid,
                                 {'move': mv, 'version': me['version']}, tok[side])
                t1 = time.monotonic()
                play_s.append(t1 - t0)
                if st != 200:
                    errors.append('play through %s: %d %s' % (here, st, error_code(j)))
                    break
                v = j['state']['version']
                seen = {k: streams[k].wait(v) for k in streams}
                if any(seen[k] is None for _, k in far):
                    missed += 1
                    late = [k for _, k in far if seen[k] is None]
                    unseen.append('a move through %s on %s (%s)' % (
                        here, late, tardy(streams, late, v, t1)))
                    break                   # the next mover may not know the move: a new game
                for what, k in far:
                    early += seen[k] < t1
                    lat[what].append(max(0.0, seen[k] - t1))
                    sent[what].append(seen[k] - t0)
                if seen[side] is not None:
                    near.append(seen[side] - t0)
            for s in streams.values():
                s.close()
        ok = not errors and missed == 0 and len(lat['opponent']) == nmoves and \
            pct(lat['opponent'], 50) < 0.2 and pct(lat['spectator'], 50) < 0.2
        print('%s: %d moves in %d Oware games, each through one of two servers on one PostgreSQL '
              'database, seen on the other server\'s streams: from the answer, the opponent\'s '
              '%s, the spectator\'s %s; from the move sent, the opponent\'s %s, the spectator\'s '
              '%s (on those streams before the answer: %d of %d); on the mover\'s own stream '
              '(same server) from sent %s; the play answer %s; '
              'moves not seen within 5 s: %d; streams refused (429) at first: %d; POSTs sent '
              'again on a new connection: %d%s' % (
                  label, len(lat['opponent']), games, figures90(lat['opponent']),
                  figures90(lat['spectator']), figures90(sent['opponent']),
                  figures90(sent['spectator']), early,
                  len(lat['opponent']) + len(lat['spectator']), figures90(near),
                  figures90(play_s), missed,
                  len(waited), retried[0], ('; errors: %s' % errors) if errors else ''))
        if unseen:
            print('not seen: %s' % '; '.join(unseen))
        return ok

    ok = measure('quiet')
    # again while 48 clients play as fast as they can through both (beyond the target)
    load = Load([srv[k]['port'] for k in 'AB'])
    time.sleep(1)
    measure('under load (beyond the target)')
    rate, n, errors = load.stop()
    print('the load meanwhile: %.0f moves/s (%d)%s' % (
        rate, n, ', errors: %s' % errors if errors else ''))
    for k in 'AB':
        srv[k]['proc'].send_signal(signal.SIGTERM)
        srv[k]['proc'].wait()
    return ok


# ---- moves a second: SQLite, PostgreSQL, two servers on PostgreSQL -----------

class Load:
    """nclients clients (each from an address of its own, 127.0.1.x), client
    n on server ports[n % len(ports)], each playing Oware games against
    itself as fast as it can (each move picked from the last answer's
    state, a new game when one ends or reaches 300 plies), from now to
    stop().  A refused move is an error (none is expected: each game has
    one client); the first three are told with their game, read again
    once the run is over."""

    def __init__(self, ports, nclients=48):
        self.ports = ports
        self.lock = threading.Lock()
        self.moves = 0
        self.errors = {}
        self.seen = []
        self.done = threading.Event()
        self.began = self.t0 = time.monotonic()
        self.ths = [threading.Thread(target=self.player, args=(n,), daemon=True)
                    for n in range(nclients)]
        for t in self.ths:
            t.start()

    def restart(self):
        """Count from now."""
        with self.lock:
            self.moves, self.t0 = 0, time.monotonic()

    def player(self, n):
        rnd = random.Random(n)
        c = Client(self.ports[n % len(self.ports)], src='127.0.1.%d' % (n + 1))
        s = tok = None
        while not self.done.is_set():
            try:
                if s is None or s['over'] or s['ply'] >= 300 or not s['moves']:
                    st, j, _ = c.request('POST', '/api/new', {'game': 'oware'})
                    if st != 201:
                        raise ValueError('new %d %s' % (st, error_code(j)))
                    s, tok = j['state'], j['token']
                    continue
                st, j, _ = c.request('POST', '/api/game/%s/play' % s['id'],
                                     {'move': rnd.choice(s['moves'])['move'],
                                      'version': s['version']}, tok)
                if st != 200:
                    with self.lock:
                        if len(self.seen) < 3:   # when, which game, where in it
                            self.seen.append([
                                'play %d %s at %.1f s: game %s ply %d version %d' % (
                                    st, error_code(j), time.monotonic() - self.began,
                                    s['id'], s['ply'], s['version']), c.port, s['id']])
                    raise ValueError('play %d %s' % (st, error_code(j)))
                s = j['state']
                if not self.done.is_set():
                    with self.lock:
                        self.moves += 1
            except (OSError, http.client.HTTPException, ValueError, TypeError, KeyError) as e:
                with self.lock:
                    k = str(e) if isinstance(e, ValueError) else type(e).__name__
                    self.errors[k] = self.errors.get(k, 0) + 1
                s = None
                time.sleep(0.05)

    def stop(self):
        """Stop; returns (moves committed a second since the start or
        restart(), those moves, the errors by kind)."""
        with self.lock:
            m, dt = self.moves, time.monotonic() - self.t0
        self.done.set()
        for t in self.ths:
            t.join()
        errors = dict(self.errors)
        for x in self.seen:             # each such game read again
            try:
                x[0] += ', read after the run: %d' % Client(x[1]).request(
                    'GET', '/api/game/' + x[2])[0]
            except (OSError, http.client.HTTPException):
                pass
        if self.seen:
            errors['the first'] = [x[0] for x in self.seen]
        return m / dt, m, errors


def play_for(ports, seconds, nclients=48):
    """Load(ports, nclients) for 1 + seconds: (moves committed a second in
    the last seconds, those moves, the errors by kind)."""
    load = Load(ports, nclients)
    time.sleep(1)                       # every client in
    load.restart()
    time.sleep(seconds)
    return load.stop()


def throughput_test():
    """Moves committed a second (each answered 200 after its commit), 48
    clients playing as fast as they can for 20 s: (a) one server on SQLite,
    (b) one server on PostgreSQL, (c) two servers on one PostgreSQL
    database, the clients split between them.  Not a target: each figure
    must be above 0 with no error.  Without PostgreSQL, (a) is measured and
    (b), (c) said skipped."""
    extra = ['--per-ip', '64', '--max-conns', '256', '--quota', '10000', '--rate', '10000',
             '--max-games', '100000']
    figs, ok = [], True

    def run(what, dbs):
        nonlocal ok
        ps = [start(d, 0, extra) for d in dbs]
        rate, n, errors = play_for([port for _, port in ps], 20)
        for p, _ in ps:
            p.send_signal(signal.SIGTERM)
            p.wait()
        figs.append('%s %.0f moves/s (%d in 20 s%s)' % (
            what, rate, n, ', errors: %s' % errors if errors else ''))
        ok = ok and rate > 0 and not errors

    run('(a) one server, SQLite:', [os.path.join(TMP, 'tp.db')])
    try:
        url = pg_start('tpb', 'tpc')
    except Skipped as e:
        print('48 clients, 20 s each: %s; (b), (c) SKIPPED: %s' % (figs[0], e))
        raise
    run('(b) one server, PostgreSQL:', [url + '/tpb'])
    run('(c) two servers, one PostgreSQL database:', [url + '/tpc'] * 2)
    print('48 clients playing Oware as fast as they can, 20 s each: ' + '; '.join(figs))
    return ok


def main():
    global MANCALA, TMP
    tests = {'kill': kill_test, 'slow': slow_test, 'memory': memory_test,
             'live': live_test, 'fair': fair_test, 'crowd': crowd_test,
             'logins': logins_test, 'pg2': pg2_test, 'pg2live': pg2live_test,
             'throughput': throughput_test}
    if len(sys.argv) != 3 or sys.argv[1] not in tests:
        print(__doc__)
        return 2
    MANCALA = os.path.abspath(sys.argv[2])
    TMP = tempfile.mkdtemp(prefix='mancala-serve-bench-')

    def ended(sig, frame):
        for k in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(k, signal.SIG_IGN)
        raise SystemExit('ended by signal %d' % sig)
    # killed (timeout, kill): the servers and the cluster stopped all the same
    signal.signal(signal.SIGTERM, ended)
    signal.signal(signal.SIGHUP, ended)
    skipped = None
    try:
        ok = tests[sys.argv[1]]()
    except Skipped as e:
        skipped = str(e)
    finally:
        # the cleanup not cut short by a second signal (timeout(1) signals
        # its child, then its whole process group: this process twice)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        for p in SERVERS:
            if p.poll() is None:
                p.kill()
                p.wait()
        pg_stop()
        shutil.rmtree(TMP, ignore_errors=True)
    if skipped is not None:
        print('%s: SKIPPED: %s' % (sys.argv[1], skipped))
        return 77
    print('%s: %s' % (sys.argv[1], 'targets met' if ok else 'TARGET MISSED'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
