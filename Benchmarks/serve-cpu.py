#!/usr/bin/env python3
"""CPU per request of `intents serve` on PostgreSQL (issue 21): the server's and the cluster's
utime+stime (/proc/PID/stat) over N requests of `POST /v1/say`, executing ("add task load …") and
dry run ("create a radar on quantum computing"), C keep-alive connections dealt out among U users,
after a warm-up of 3 requests a user. CPU per request is the figure to trust on a shared machine;
req/s and the latencies are printed too.

  serve-cpu.py --binary .build/release/intents --store postgres://intents@127.0.0.1:PORT/postgres \
               --data PGDATA [--requests 600] [--connections 10] [--users 10] [--modes exec,dry]
               [--statements]          # pg_stat_statements over 100 requests on one connection first
               [--perf FILE]           # perf record -g of the server during the first mode
               [--folder DIR]          # where .intents (users, compiled cache) goes: reuse it

PGDATA is the cluster's data folder (its postmaster.pid names the processes counted). Every run
makes a new schema; --statements needs `shared_preload_libraries=pg_stat_statements` and the
extension created in the database.
"""
import argparse, http.client, json, os, subprocess, sys, tempfile, threading, time, uuid

p = argparse.ArgumentParser()
p.add_argument("--binary", required=True)
p.add_argument("--store", required=True)
p.add_argument("--data", required=True)
p.add_argument("--schema", default=None)
p.add_argument("--requests", type=int, default=600)
p.add_argument("--connections", type=int, default=10)
p.add_argument("--users", type=int, default=10)
p.add_argument("--intents", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Intents"))
p.add_argument("--folder", default=None)
p.add_argument("--statements", action="store_true")
p.add_argument("--modes", default="exec,dry")
p.add_argument("--perf", default=None, help="perf record the server into this file during the first mode")
a = p.parse_args()

schema = a.schema or ("c" + uuid.uuid4().hex[:8])
store = a.store + "?schema=" + schema
folder = a.folder or tempfile.mkdtemp(prefix="servecpu-")
os.makedirs(folder, exist_ok=True)
os.chdir(folder)
tick = os.sysconf("SC_CLK_TCK")


def cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def cluster_pids():
    with open(os.path.join(a.data, "postmaster.pid")) as f:
        master = int(f.readline())
    pids = [master]
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if ppid == master:
                    pids.append(int(d))
            except OSError:
                pass
    return pids


def cluster_cpu():
    return {pid: cpu(pid) for pid in cluster_pids()}


tokens = []
for i in range(a.users):
    out = subprocess.run([a.binary, "users", "add", f"{schema}u{i}", "--store", store], capture_output=True, text=True, check=True)
    tokens.append(out.stdout.strip())
port = 30000 + os.getpid() % 20000
server = subprocess.Popen(
    [a.binary, "serve", "--port", str(port), "--store", store, "--intents", a.intents, "--rate", "1000000",
     "--burst", "1000000", "--max-concurrent", "256", "--max-engines", "32"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(6000):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("server did not come up")

    def phrase(i, dry, tag):
        return "create a radar on quantum computing" if dry else f"add task load {tag} {i} to my tasks"

    def run(dry, count, conns, tag, users=None):
        users = users or a.users
        per = count // conns
        errors = [0]
        lat = []
        lock = threading.Lock()

        def worker(k):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            token = tokens[k % users]
            mine = []
            for j in range(per):
                body = json.dumps({"text": phrase(k * per + j, dry, tag), "dryRun": dry})
                t = time.perf_counter()
                c.request("POST", "/v1/say", body=body,
                          headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
                r = c.getresponse()
                data = r.read()
                mine.append(time.perf_counter() - t)
                if r.status != 200 or (b'"status":"done"' not in data and b'"status" : "done"' not in data and not dry):
                    with lock:
                        errors[0] += 1
                        if errors[0] < 3:
                            print("unexpected:", r.status, data[:300], file=sys.stderr)
            with lock:
                lat.extend(mine)

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(conns)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return per * conns, time.perf_counter() - start, errors[0], sorted(lat)

    results = {}
    for mode in a.modes.split(","):
        dry = mode == "dry"
        # warm: every user's engine open, caches built
        run(dry, a.users * 3, a.users, "w" + mode)
        if a.statements:
            subprocess.run(["psql", a.store, "-qAtc", "select pg_stat_statements_reset()"], capture_output=True)
            run(dry, 100, 1, "s" + mode, users=1)
            out = subprocess.run(["psql", a.store, "-qAtF", "\t", "-c",
                                  "select toplevel, sum(calls), round(sum(total_exec_time)::numeric,2), "
                                  "left(regexp_replace(regexp_replace(query, '\\s+', ' ', 'g'), 'SAVEPOINT s[0-9]+', 'SAVEPOINT sN'), 150) q from pg_stat_statements "
                                  "where query not like '%pg_stat_statements%' group by 1, 4 order by toplevel desc, 2 desc"],
                                 capture_output=True, text=True)
            print(f"--- statements, 100 {mode} requests (top level, calls, execution ms in all, statement)")
            print(out.stdout)
        perf = None
        if a.perf and not results:
            perf = subprocess.Popen(["perf", "record", "-F", "999", "-g", "-o", a.perf, "-p", str(server.pid)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        s0, c0, t0 = cpu(server.pid), cluster_cpu(), os.times()
        n, wall, errors, lat = run(dry, a.requests, a.connections, "m" + mode)
        s1, c1, t1 = cpu(server.pid), cluster_cpu(), os.times()
        if perf:
            perf.send_signal(2)
            perf.wait()
        pg = sum(v - c0.get(pid, 0) for pid, v in c1.items())
        client = (t1.user + t1.system) - (t0.user + t0.system)
        results[mode] = (1000 * (s1 - s0) / tick / n, 1000 * pg / tick / n, 1000 * client / n, n / wall,
                         1000 * lat[len(lat) // 2], 1000 * lat[int(len(lat) * 0.99) - 1], errors)
    for mode, r in results.items():
        print(f"{os.path.basename(os.path.dirname(a.binary)) or a.binary} {mode}: server {r[0]:.2f} ms, postgres {r[1]:.2f} ms, "
              f"client {r[2]:.2f} ms per request; {r[3]:.0f} req/s, p50 {r[4]:.1f} ms, p99 {r[5]:.1f} ms, errors {r[6]}",
              flush=True)
finally:
    server.terminate()
    server.wait()
