#!/usr/bin/env bash
# The leaderboard at scale (issue 39, docs/RATINGS.md): a fresh PostgreSQL database with the
# server's migrations, 100,000 rated hexdice players seeded straight in SQL (ratings spread
# around 1500, 80% established), then the leaderboard's queries as `GET /api/leaderboards`
# runs them (server/src/store/ratings.rs), each timed over 20 runs (psql's \timing, the
# median printed), with the plans of the first page and of a deep page by cursor.
#
# Then what a rating update adds to the end of a match: pgbench finishes seeded 2-seat
# matches one per transaction, once with the end alone (the `UPDATE matches` that marks a
# match finished, as `store/writer.rs` does) and once with the statements `rate_in`
# (store/ratings.rs) adds for a rated match: the seats read, both ratings locked `FOR UPDATE`,
# each seat's rating written and its `rating_changes` row inserted; then the same for matches
# of 6 seats. Each run is UPDATES
# transactions (default 5,000) on one connection, each transaction's latency logged
# (`pgbench -l`), p50 and p99 printed; the difference is the update's cost (its maths,
# microseconds, is timed apart by the bots bench's ratings mode).
#
# Run: bench/ratings.sh postgres://postgres@127.0.0.1:5432/postgres
# (the role needs CREATEDB; the database `warroom_bench_ratings` is dropped and made again).
set -euo pipefail
admin=${1:-postgres://postgres@127.0.0.1:5432/postgres}
players=${PLAYERS:-100000}
updates=${UPDATES:-5000}
deep=${DEEP:-50000}
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
time_query "page at offset 5,000 (the deepest allowed)" "$page LIMIT 50 OFFSET 5000"
time_query "page at offset 50,000" "$page LIMIT 50 OFFSET 50000"
# The entry at $deep (50,000; as a `next` cursor names it), then the page after it and the page
# before it, as store/ratings.rs `leaderboard_rows` reads them (51 rows: one more says
# whether a page follows).
read -r c_shown c_dev c_id < <(psql -qtA -F ' ' "$url" -c "SELECT r.shown, r.shown_deviation, r.identity_id FROM ratings r WHERE r.ruleset = 'hexdice' AND r.provisional = false ORDER BY r.shown DESC, r.shown_deviation, r.identity_id LIMIT 1 OFFSET $((deep - 1))")
cols="r.identity_id::text AS id, i.name, r.shown, r.shown_deviation, r.matches, r.rating, r.deviation, r.volatility, (extract(epoch FROM r.updated_at) * 1000)::bigint AS updated_at"
after="SELECT $cols FROM ratings r JOIN identities i ON i.id = r.identity_id WHERE r.ruleset = 'hexdice' AND r.provisional = false AND r.shown <= $c_shown AND (r.shown < $c_shown OR r.shown_deviation > $c_dev OR (r.shown_deviation = $c_dev AND r.identity_id > '$c_id'::uuid)) ORDER BY r.shown DESC, r.shown_deviation, r.identity_id LIMIT 51"
before="SELECT $cols FROM ratings r JOIN identities i ON i.id = r.identity_id WHERE r.ruleset = 'hexdice' AND r.provisional = false AND r.shown >= $c_shown AND (r.shown > $c_shown OR r.shown_deviation < $c_dev OR (r.shown_deviation = $c_dev AND r.identity_id < '$c_id'::uuid)) ORDER BY r.shown, r.shown_deviation DESC, r.identity_id DESC LIMIT 51"
time_query "page after entry $deep (cursor next)" "$after"
time_query "page before entry $deep (cursor previous)" "$before"
time_query "total (kept in rating_counts)" "SELECT players FROM rating_counts WHERE ruleset = 'hexdice' AND provisional = false"
time_query "total counted (before rating_counts)" "SELECT COUNT(*) FROM ratings WHERE ruleset = 'hexdice' AND provisional = false"
time_query "a player's rank" "SELECT COUNT(*) FROM ratings WHERE ruleset = 'hexdice' AND provisional = false AND (shown > 1600 OR (shown = 1600 AND (shown_deviation < 60 OR (shown_deviation = 60 AND identity_id < md5('p7')::uuid))))"
echo "plan of the first page:"
psql -q "$url" -c "EXPLAIN (ANALYZE, COSTS OFF) $page LIMIT 50"
echo "plan of the page after entry $deep:"
psql -q "$url" -c "EXPLAIN (ANALYZE, COSTS OFF) $after"

# A rating update at the end of a match: 2 × UPDATES matches of 2 seats to finish, then
# UPDATES of 6 seats (a full classic free-for-all).
psql -q -v ON_ERROR_STOP=1 "$url" <<SQL
INSERT INTO rooms (id, ruleset, options, seat_count, private, invite_code, creator_id, state, created_at)
VALUES (md5('room')::uuid, 'hexdice', '{}', 2, false, 'bench', md5('p1')::uuid, 'playing', now());
INSERT INTO matches (id, room_id, ruleset, options, seat_count, seed, seed_commitment, state, started_at)
SELECT md5('m' || n)::uuid, md5('room')::uuid, 'hexdice', '{}', 2, '', '', 'playing', now()
FROM generate_series(1, 3 * $updates) n;
INSERT INTO match_seats (match_id, seat, identity_id)
SELECT md5('m' || n)::uuid, s, md5('p' || (1 + (n * 7919 + s * 104729) % $players))::uuid
FROM generate_series(1, 3 * $updates) n,
     LATERAL generate_series(0, CASE WHEN n <= 2 * $updates THEN 1 ELSE 5 END) s;
CREATE SEQUENCE bench_matches;
VACUUM ANALYZE;
SQL
work=$(mktemp -d)
# The end alone: the match marked finished (store/writer.rs), one transaction. (pgbench puts
# variables into the text as they are: the ids are made from numbers in the statements.)
cat > "$work/end.sql" <<'SQL'
SELECT nextval('bench_matches') AS n \gset
BEGIN;
UPDATE matches SET state = 'finished', winner = 0, reason = 'bench', finished_at = now() WHERE id = md5('m' || :n)::uuid AND state <> 'finished';
COMMIT;
SQL
# The end with the rating update (store/ratings.rs `rate_in`, as PostgreSQL runs it); seat 0
# plays player a, seat 1 player b (as seeded above).
cat > "$work/rated.sql" <<SQL
SELECT nextval('bench_matches') AS n \\gset
\\set a 1 + (:n * 7919) % $players
\\set b 1 + (:n * 7919 + 104729) % $players
BEGIN;
UPDATE matches SET state = 'finished', winner = 0, reason = 'bench', finished_at = now() WHERE id = md5('m' || :n)::uuid AND state <> 'finished';
SELECT s.seat, s.identity_id::text AS identity_id, (extract(epoch FROM i.created_at) * 1000)::bigint AS created_at, i.created_address, m.ruleset FROM match_seats s JOIN identities i ON i.id = s.identity_id JOIN matches m ON m.id = s.match_id WHERE s.match_id = md5('m' || :n)::uuid ORDER BY s.seat;
SELECT identity_id::text AS identity_id, rating, deviation, volatility, provisional::int AS provisional, matches, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_at FROM ratings WHERE ruleset = 'hexdice' AND identity_id IN (md5('p' || :a)::uuid, md5('p' || :b)::uuid) ORDER BY identity_id FOR UPDATE;
UPDATE ratings SET rating = rating + 1, deviation = deviation, volatility = volatility, shown = shown + 1, shown_deviation = shown_deviation, provisional = provisional, matches = matches + 1, updated_at = now() WHERE identity_id = md5('p' || :a)::uuid AND ruleset = 'hexdice';
INSERT INTO rating_changes (match_id, seat, identity_id, ruleset, place, rating_before, rating_after, finished_at) VALUES (md5('m' || :n)::uuid, 0, md5('p' || :a)::uuid, 'hexdice', 1, 1500, 1501, now());
UPDATE ratings SET rating = rating - 1, deviation = deviation, volatility = volatility, shown = shown - 1, shown_deviation = shown_deviation, provisional = provisional, matches = matches + 1, updated_at = now() WHERE identity_id = md5('p' || :b)::uuid AND ruleset = 'hexdice';
INSERT INTO rating_changes (match_id, seat, identity_id, ruleset, place, rating_before, rating_after, finished_at) VALUES (md5('m' || :n)::uuid, 1, md5('p' || :b)::uuid, 'hexdice', 2, 1500, 1499, now());
COMMIT;
SQL
# The same for a 6-seat match: six ratings locked, written and recorded.
{
  echo "SELECT nextval('bench_matches') AS n \\gset"
  for seat in 0 1 2 3 4 5; do echo "\\set p$seat 1 + (:n * 7919 + $seat * 104729) % $players"; done
  echo "BEGIN;"
  echo "UPDATE matches SET state = 'finished', winner = 0, reason = 'bench', finished_at = now() WHERE id = md5('m' || :n)::uuid AND state <> 'finished';"
  echo "SELECT s.seat, s.identity_id::text AS identity_id, (extract(epoch FROM i.created_at) * 1000)::bigint AS created_at, i.created_address, m.ruleset FROM match_seats s JOIN identities i ON i.id = s.identity_id JOIN matches m ON m.id = s.match_id WHERE s.match_id = md5('m' || :n)::uuid ORDER BY s.seat;"
  echo "SELECT identity_id::text AS identity_id, rating, deviation, volatility, provisional::int AS provisional, matches, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_at FROM ratings WHERE ruleset = 'hexdice' AND identity_id IN ($(for seat in 0 1 2 3 4 5; do printf "md5('p' || :p%s)::uuid%s" $seat "$([ $seat -lt 5 ] && echo ', ')"; done)) ORDER BY identity_id FOR UPDATE;"
  for seat in 0 1 2 3 4 5; do
    echo "UPDATE ratings SET rating = rating + 1, deviation = deviation, volatility = volatility, shown = shown + 1, shown_deviation = shown_deviation, provisional = provisional, matches = matches + 1, updated_at = now() WHERE identity_id = md5('p' || :p$seat)::uuid AND ruleset = 'hexdice';"
    echo "INSERT INTO rating_changes (match_id, seat, identity_id, ruleset, place, rating_before, rating_after, finished_at) VALUES (md5('m' || :n)::uuid, $seat, md5('p' || :p$seat)::uuid, 'hexdice', $((seat + 1)), 1500, 1501, now());"
  done
  echo "COMMIT;"
} > "$work/rated6.sql"
latencies() {
  local script=$1
  rm -f "$work"/log*
  (cd "$work" && pgbench -n -r -M prepared -c 1 -t "$updates" -f "$script" -l --log-prefix="$work/log" "$url" > "$work/report")
  cut -d ' ' -f 3 "$work"/log* | sort -n > "$work/sorted"
  local n
  n=$(wc -l < "$work/sorted")
  echo "median $(sed -n "$(( (n + 1) / 2 ))p" "$work/sorted") µs, p99 $(sed -n "$(( (n * 99 + 99) / 100 ))p" "$work/sorted") µs ($n transactions)"
}
echo "end of a match alone: $(latencies "$work/end.sql")"
echo "end of a match with its rating update: $(latencies "$work/rated.sql")"
# pgbench -r: each statement's mean latency (ms) in the rated run; the rating update's own
# work is the lines between the `UPDATE matches` and the COMMIT.
echo "mean latency per statement of the rated run (ms):"
sed -n '/statement latencies/,$p' "$work/report" | tail -n +2 | cut -c1-110
echo "the rating update's statements, summed: $(sed -n '/statement latencies/,$p' "$work/report" | grep -E 'SELECT s.seat|FOR UPDATE|UPDATE ratings|INSERT INTO rating_changes' | awk '{ sum += $1 } END { printf "%.3f ms", sum }')"
echo "end of a 6-seat match with its rating update: $(latencies "$work/rated6.sql")"
echo "its rating update's statements, summed: $(sed -n '/statement latencies/,$p' "$work/report" | grep -E 'SELECT s.seat|FOR UPDATE|UPDATE ratings|INSERT INTO rating_changes' | awk '{ sum += $1 } END { printf "%.3f ms", sum }')"
echo "rating_changes rows written: $(psql -qtA "$url" -c "SELECT count(*) FROM rating_changes")"
rm -r "$work"
psql -q "$admin" -c "DROP DATABASE $db"
