#!/usr/bin/env python3
"""`intents store import` beside plain SQLite inserting the same rows (issue 25 item 4).

    python3 Benchmarks/import-vs-sqlite.py [--records 200000] [--intents .build/release/intents]

Writes N FocusBlox tasks as an export, imports them into a new store with the release `intents`
(CPU seconds of the child, its peak memory), then inserts the same rows with Python's sqlite3 (the C
library, prepared statement, one transaction) into a new file with the very schema the store made:
the table alone, the table with the same indexes, and the same plus an FTS5 index of the titles.
Prints records per CPU-second for each and the ratio to ours. The goal: ours >= 50 % of SQLite
with the same indexes.
"""
import argparse
import json
import os
import resource
import sqlite3
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("--records", type=int, default=200_000)
parser.add_argument("--intents", default=".build/release/intents")
args = parser.parse_args()
n = args.records
work = tempfile.mkdtemp(prefix="intents-import-")
export = os.path.join(work, "tasks.json")
subjects = ["taxes", "milk", "rent", "the car"]
rows = [
    (f"t{i}", "2026-11-01T09:00:00Z", "2026-11-01T09:00:00Z", f"task number {i} about {subjects[i % 4]}", None, "[]",
     "urgent" if i % 10 == 0 else "not_urgent", None, 1 if i % 5 == 0 else 0, None)
    for i in range(n)
]
with open(export, "w") as out:
    json.dump({"FocusBlox.Task": [
        {"id": r[0], "title": r[3], "urgency": r[6], "isCompleted": bool(r[8]), "createdAt": r[1]} for r in rows
    ]}, out)

# Ours: a new process, CPU time of the child, peak memory.
store = os.path.join(work, "store.sqlite")
env = dict(os.environ, INTENTS_NOW="2026-11-22T10:00:00Z", TZ="UTC")
before = resource.getrusage(resource.RUSAGE_CHILDREN)
wall = time.monotonic()
subprocess.run([args.intents, "store", "import", "--intents", "Intents", "--store", store, export],
               check=True, env=env, stdout=subprocess.DEVNULL)
wall = time.monotonic() - wall
after = resource.getrusage(resource.RUSAGE_CHILDREN)
ours_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
peak_mb = after.ru_maxrss / 1024

schema = sqlite3.connect(store)
table_sql = schema.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'FocusBlox.Task'").fetchone()[0]
index_sql = [r[0] for r in schema.execute(
    "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'FocusBlox.Task' AND sql IS NOT NULL")]
schema.close()


def plain(indexes, fts):
    path = os.path.join(work, f"plain-{len(indexes)}-{fts}.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute(table_sql)
    for sql in indexes:
        db.execute(sql)
    if fts:
        db.execute("CREATE VIRTUAL TABLE titles USING fts5(title, tokenize = 'unicode61 remove_diacritics 2')")
    start = time.process_time()
    db.execute("BEGIN")
    db.executemany('INSERT INTO "FocusBlox.Task" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', rows)
    if fts:
        db.executemany("INSERT INTO titles (rowid, title) VALUES (?, ?)", ((i, r[3]) for i, r in enumerate(rows)))
    db.execute("COMMIT")
    seconds = time.process_time() - start
    db.close()
    return n / seconds


ours = n / ours_cpu
print(f"{n:,} tasks; ours: {ours_cpu:.1f} CPU-s ({wall:.1f} s wall), {ours:,.0f} records/CPU-s, peak {peak_mb:.0f} MB")
for label, indexes, fts in [("table alone", [], False), (f"table + {len(index_sql)} indexes", index_sql, False),
                            (f"table + {len(index_sql)} indexes + FTS5 titles", index_sql, True)]:
    rate = plain(indexes, fts)
    print(f"  plain SQLite, {label}: {rate:,.0f} records/CPU-s; ours {ours / rate * 100:.1f} % of it ({rate / ours:.1f}x slower)")
subprocess.run(["rm", "-rf", work])
