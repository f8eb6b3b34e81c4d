"""PostgreSQL's CPU per action row for variants of the writer's batch INSERT (issue 14).

Reads real rows of `match_actions` (a JSON array of objects with match_id, seq, seat, client_id,
action, events, acted_by, clock as text, e.g. copied from a load run's database with
`select json_agg(json_build_object(...)) from (select * from match_actions limit 2000) t`), makes
a scratch database `pgb` with the log table with and without its foreign key to `matches`, and
inserts the rows in batches of $BATCH (default 10), $REP times each, as prepared statements of
three kinds: the texts as JSON strings cast to jsonb (`json_to_recordset`, main before
2026-12-04), embedded JSON read by `jsonb_to_recordset` (now), and embedded JSON read by
`json_to_recordset` with jsonb columns. Prints the backend's CPU (from /proc, 10 ms ticks) per
row. Needs psycopg2 (`pip install psycopg2-binary`) and a PostgreSQL on 127.0.0.1 (trust).

    python3 bench/pg_action_rows.py rows.json
"""
import json, os, sys, psycopg2
rows = json.load(open(sys.argv[1]))
ids = sorted({r['match_id'] for r in rows})
def cpu(pid):
    f = open(f'/proc/{pid}/stat').read().rsplit(')',1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
admin = psycopg2.connect('host=127.0.0.1 user=postgres dbname=postgres'); admin.autocommit = True
admin.cursor().execute('DROP DATABASE IF EXISTS pgb'); admin.cursor().execute('CREATE DATABASE pgb')
c = psycopg2.connect('host=127.0.0.1 user=postgres dbname=pgb'); c.autocommit = True
cur = c.cursor()
cur.execute('CREATE TABLE matches (id uuid PRIMARY KEY, x text)')
cur.execute('INSERT INTO matches SELECT unnest(%s::uuid[]), %s', (ids, 'x'))
for fk in ('fk', 'nofk'):
    ref = 'REFERENCES matches (id)' if fk == 'fk' else ''
    cur.execute(f'''CREATE TABLE a_{fk} (match_id uuid NOT NULL {ref}, seq BIGINT NOT NULL, seat BIGINT NOT NULL,
      client_id TEXT NOT NULL, action jsonb NOT NULL, events jsonb NOT NULL, acted_by TEXT NOT NULL DEFAULT 'player', clock jsonb,
      PRIMARY KEY (match_id, seq), UNIQUE (match_id, seat, client_id))''')
cur.execute('SELECT pg_backend_pid()'); pid = cur.fetchone()[0]
cur.execute('SET synchronous_commit = off')
B = int(os.environ.get('BATCH', '10'))
def text_rows(chunk): return json.dumps(chunk)
def raw_rows(chunk):
    return '[' + ','.join('{"match_id":%s,"seq":%d,"seat":%d,"client_id":%s,"action":%s,"events":%s,"acted_by":%s,"clock":%s}' % (
        json.dumps(r['match_id']), r['seq'], r['seat'], json.dumps(r['client_id']), r['action'], r['events'], json.dumps(r['acted_by']), r['clock'] or 'null') for r in chunk) + ']'
cols = 'match_id text, seq bigint, seat bigint, client_id text, {j}, acted_by text, clock {t}'
variants = {
 'text':  ("INSERT INTO a_{fk} SELECT r.match_id::uuid, r.seq, r.seat, r.client_id, r.action::jsonb, r.events::jsonb, r.acted_by, r.clock::jsonb FROM json_to_recordset(%s::json) AS r(match_id text, seq bigint, seat bigint, client_id text, action text, events text, acted_by text, clock text)", text_rows),
 'jsonb': ("INSERT INTO a_{fk} SELECT r.match_id::uuid, r.seq, r.seat, r.client_id, r.action, r.events, r.acted_by, r.clock FROM jsonb_to_recordset(%s::jsonb) AS r(match_id text, seq bigint, seat bigint, client_id text, action jsonb, events jsonb, acted_by text, clock jsonb)", raw_rows),
 'json':  ("INSERT INTO a_{fk} SELECT r.match_id::uuid, r.seq, r.seat, r.client_id, r.action, r.events, r.acted_by, r.clock FROM json_to_recordset(%s::json) AS r(match_id text, seq bigint, seat bigint, client_id text, action jsonb, events jsonb, acted_by text, clock jsonb)", raw_rows),
}
chunks = [rows[i:i+B] for i in range(0, len(rows), B)]
REP = int(os.environ.get('REP', '10'))
for rnd in range(2):
  for fk in ('fk', 'nofk'):
    for name, (sql, enc) in variants.items():
        params = [enc(ch) for ch in chunks]
        cur.execute('DEALLOCATE ALL')
        cur.execute('PREPARE p(text) AS ' + sql.format(fk=fk).replace('%s', '$1'))
        total = 0.0
        for _ in range(REP):
            cur.execute(f'TRUNCATE a_{fk}')
            t0 = cpu(pid)
            for p in params: cur.execute('EXECUTE p(%s)', (p,))
            total += cpu(pid) - t0
        print(f'{fk:5} {name:6} batch {B}: {total / (REP * len(rows)) * 1e6:6.1f} us CPU per row', flush=True)
