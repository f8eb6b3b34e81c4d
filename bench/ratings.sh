#!/usr/bin/env bash
# The leaderboard at scale (issue 39, docs/RATINGS.md): a fresh PostgreSQL database with the
# server's migrations, 100,000 rated hexdice players seeded straight in SQL (ratings spread
# around 1500, 80% established), then the leaderboard's queries as `GET /api/leaderboards`
# runs them (server/src/store/ratings.rs), each timed over 20 runs (psql's \timing, the
# median printed), with the plan of the first page.
#
# Run: bench/ratings.sh postgres://postgres@127.0.0.1:5432/postgres
# (the role needs CREATEDB; the database `warroom_bench_ratings` is dropped and made again).
set -euo pipefail
admin=${1:-postgres://postgres@127.0.0.1:5432/postgres}
players=${PLAYERS:-100000}
db=warroom_bench_ratings
here=$(cd "$(dirname "$0")/.." && pwd)
url=${admin%/*}/$db
psql -q "$admin" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
for migration in "$here"/migrations/postgres/*.sql; do
  psql -q -v ON_ERROR_STOP=1 "$url" -f "$migration" > /dev/null
done
psql -q -v ON_ERROR_STOP=1 "$url" <<SQL
INSERT INTO identities (id, name, name_key, token_hash, created_at)
SELECT md5('p' || n)::uuid, 'p' || n, 'p' || n, md5('t' || n), now() FROM generate_series(1, $players) n;
INSERT INTO ratings (identity_id, ruleset, rating, deviation, volatility, shown, shown_deviation,
                     provisional, matches, updated_at)
SELECT md5('p' || n)::uuid, 'hexdice', r, d, 0.06, round(r), round(d), d > 110, 1 + n % 300, now()
FROM (SELECT n, 1500 + 300 * (random() + random() + random() - 1.5) AS r,
             CASE WHEN n % 5 = 0 THEN 150 + random() * 200 ELSE 45 + random() * 60 END AS d
      FROM generate_series(1, $players) n) s;
INSERT INTO rating_counts (ruleset, provisional, players)
SELECT ruleset, provisional, COUNT(*) FROM ratings GROUP BY ruleset, provisional;
VACUUM ANALYZE;
SQL
time_query() {
  local what=$1 sql=$2
  local runs
  runs=$( (echo '\timing on'; for _ in $(seq 20); do echo "$sql;"; done) | psql -q "$url" \
    | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n)
  echo "$what: median $(echo "$runs" | sed -n 10p) ms, max $(echo "$runs" | tail -1) ms (20 runs)"
}
page="SELECT r.identity_id::text AS id, i.name, r.shown, r.shown_deviation, r.matches FROM ratings r JOIN identities i ON i.id = r.identity_id WHERE r.ruleset = 'hexdice' AND r.provisional = false ORDER BY r.shown DESC, r.shown_deviation, r.identity_id"
echo "players: $(psql -qtA "$url" -c "SELECT count(*) FROM ratings") ($(psql -qtA "$url" -c "SELECT count(*) FROM ratings WHERE NOT provisional") established)"
time_query "first page (50)" "$page LIMIT 50 OFFSET 0"
time_query "page at offset 1,000" "$page LIMIT 50 OFFSET 1000"
time_query "page at offset 50,000" "$page LIMIT 50 OFFSET 50000"
time_query "total (kept in rating_counts)" "SELECT players FROM rating_counts WHERE ruleset = 'hexdice' AND provisional = false"
time_query "total counted (before rating_counts)" "SELECT COUNT(*) FROM ratings WHERE ruleset = 'hexdice' AND provisional = false"
time_query "a player's rank" "SELECT COUNT(*) FROM ratings WHERE ruleset = 'hexdice' AND provisional = false AND (shown > 1600 OR (shown = 1600 AND (shown_deviation < 60 OR (shown_deviation = 60 AND identity_id < md5('p7')::uuid))))"
echo "plan of the first page:"
psql -q "$url" -c "EXPLAIN (ANALYZE, COSTS OFF) $page LIMIT 50"
psql -q "$admin" -c "DROP DATABASE $db"
