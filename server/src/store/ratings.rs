//! Ratings in the database (migrations 0013 and 0014, docs/RATINGS.md): the rating changes of a rated
//! match, written by the batching writer in the very transaction that stores the match's
//! result ([`rate_in`]), and what the REST API reads back: a ruleset's leaderboard page, a
//! player's ratings with history and record against each opponent, a match's changes, and
//! how many finished matches an identity has (the casual-first rule).
//!
//! Exactly once: [`rate_in`] runs only when the transaction's `UPDATE matches … WHERE state <>
//! 'finished'` changed the row, i.e. for the one transaction that ends the match; a settle or a
//! retry of a committed result finds the match finished and rates nothing, and a rolled-back
//! transaction takes its rating rows with it. `rating_changes`' key (match, seat) would refuse
//! a second write anyway.

use std::collections::HashMap;

use sqlx::{Any, Row};
use warroom_engine::{RulesetId, Seat};
use warroom_protocol::{
    IdentityId, Leaderboard, LeaderboardEntry, MatchId, OpponentRecord, RatingPoint, RulesetRating,
    SeatRating,
};
use warroom_room::Append;

use super::identities::{identity_from, parse_column};
use super::{Dialect, Store, rfc3339};
use crate::ratings::abuse::{SeatIdentity, not_counted};
use crate::ratings::{Rating, RatingPolicy, about_as_strong_as, rate, system_of};

/// The most history points a player's ratings show per ruleset.
const HISTORY: i64 = 200;

/// One seat's stored rating as read in the transaction.
struct Stored {
    rating: Rating,
    provisional: bool,
    matches: i64,
    updated_at: i64,
}

/// Adds `players` to the count of a ruleset's established or provisional players
/// (`rating_counts`, which a leaderboard's `total` reads); the same text in both dialects.
pub const COUNT_PLAYERS: &str = "INSERT INTO rating_counts (ruleset, provisional, players) \
     VALUES ($1, $2, $3) ON CONFLICT (ruleset, provisional) \
     DO UPDATE SET players = rating_counts.players + excluded.players";

/// Rates a rated match that `append` ended, in `tx`, which also stores its result: reads its
/// seats' identities and current ratings (PostgreSQL: locked `FOR UPDATE` in identity order, so
/// two matches ending at once on two lanes take turns), applies the abuse rule, and writes
/// the new ratings and one `rating_changes` row per seat. Rates nothing for a result that does
/// not count (logged).
pub(super) async fn rate_in(
    tx: &mut sqlx::Transaction<'_, Any>,
    d: Dialect,
    policy: &RatingPolicy,
    append: &Append,
    places: &[u8],
    finished_at: i64,
) -> sqlx::Result<()> {
    let match_id = append.match_id.to_string();
    let rows = sqlx::query(&format!(
        "SELECT s.seat, {}, {}, i.created_address, m.ruleset FROM match_seats s \
         JOIN identities i ON i.id = s.identity_id JOIN matches m ON m.id = s.match_id \
         WHERE s.match_id = {} ORDER BY s.seat",
        d.text("s.identity_id", "identity_id"),
        d.ms("i.created_at", "created_at"),
        d.uuid(1)
    ))
    .bind(&match_id)
    .fetch_all(&mut **tx)
    .await?;
    let Some(first) = rows.first() else {
        return Ok(());
    };
    let ruleset: RulesetId = parse_column("ruleset", &first.try_get::<String, _>("ruleset")?)?;
    let mut seats = Vec::with_capacity(rows.len());
    for row in &rows {
        seats.push(SeatIdentity {
            id: parse_column("identity_id", &row.try_get::<String, _>("identity_id")?)?,
            created_at: row.try_get("created_at")?,
            created_address: row.try_get("created_address")?,
        });
    }
    if seats.len() != places.len() {
        tracing::error!(
            "match {match_id} has {} seats and {} places: not rated",
            seats.len(),
            places.len()
        );
        return Ok(());
    }
    if let Some(why) = not_counted(policy, &seats, finished_at) {
        tracing::info!(%match_id, "rated result not counted: {why}");
        return Ok(());
    }
    let system = system_of(ruleset);
    let mut ids: Vec<String> = seats.iter().map(|seat| seat.id.to_string()).collect();
    ids.sort();
    let params = (0..ids.len())
        .map(|i| d.uuid(u8::try_from(i + 2).unwrap_or(u8::MAX)))
        .collect::<Vec<_>>()
        .join(", ");
    let lock = match d {
        Dialect::Postgres => " ORDER BY identity_id FOR UPDATE",
        Dialect::Sqlite => "",
    };
    let sql = format!(
        "SELECT {}, rating, deviation, volatility, {}, matches, {} FROM ratings \
         WHERE ruleset = $1 AND identity_id IN ({params}){lock}",
        d.text("identity_id", "identity_id"),
        d.flag("provisional", "provisional"),
        d.ms("updated_at", "updated_at"),
    );
    let mut query = sqlx::query(&sql).bind(ruleset.as_str());
    for id in &ids {
        query = query.bind(id.clone());
    }
    let mut stored: HashMap<String, Stored> = HashMap::new();
    for row in query.fetch_all(&mut **tx).await? {
        stored.insert(
            row.try_get("identity_id")?,
            Stored {
                rating: Rating {
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    volatility: row.try_get("volatility")?,
                },
                provisional: row.try_get::<i64, _>("provisional")? != 0,
                matches: row.try_get("matches")?,
                updated_at: row.try_get("updated_at")?,
            },
        );
    }
    let before: Vec<Rating> = seats
        .iter()
        .map(|seat| match stored.get(&seat.id.to_string()) {
            Some(s) => s
                .rating
                .after_idle(system, finished_at.saturating_sub(s.updated_at)),
            None => Rating::new(system),
        })
        .collect();
    let after = rate(system, &before, places);
    // Players joining a leaderboard or moving between its two lists, [established, provisional].
    let mut moved = [0i64; 2];
    for (seat, ((identity, old), new)) in seats.iter().zip(&before).zip(&after).enumerate() {
        let id = identity.id.to_string();
        let matches = stored.get(&id).map_or(0, |s| s.matches) + 1;
        let (update, insert) = (
            format!(
                "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, shown = $6, \
                 shown_deviation = $7, provisional = $8, matches = $9, updated_at = {} \
                 WHERE identity_id = {} AND ruleset = $2",
                d.time(10),
                d.uuid(1)
            ),
            format!(
                "INSERT INTO ratings (identity_id, ruleset, rating, deviation, volatility, shown, \
                 shown_deviation, provisional, matches, updated_at) \
                 VALUES ({}, $2, $3, $4, $5, $6, $7, $8, $9, {})",
                d.uuid(1),
                d.time(10)
            ),
        );
        let was = stored.get(&id).map(|s| s.provisional);
        if was != Some(new.provisional(system)) {
            if let Some(was) = was {
                moved[usize::from(was)] -= 1;
            }
            moved[usize::from(new.provisional(system))] += 1;
        }
        let sql = if stored.contains_key(&id) {
            update
        } else {
            insert
        };
        sqlx::query(&sql)
            .bind(id.clone())
            .bind(ruleset.as_str())
            .bind(new.rating)
            .bind(new.deviation)
            .bind(new.volatility)
            .bind(new.shown(system))
            .bind(new.shown_deviation(system))
            .bind(new.provisional(system))
            .bind(matches)
            .bind(finished_at)
            .execute(&mut **tx)
            .await?;
        sqlx::query(&format!(
            "INSERT INTO rating_changes (match_id, seat, identity_id, ruleset, place, \
             rating_before, rating_after, finished_at) VALUES ({}, $2, {}, $4, $5, $6, $7, {})",
            d.uuid(1),
            d.uuid(3),
            d.time(8)
        ))
        .bind(&match_id)
        .bind(i64::try_from(seat).unwrap_or(i64::MAX))
        .bind(id)
        .bind(ruleset.as_str())
        .bind(i64::from(places[seat]))
        .bind(old.shown(system))
        .bind(new.shown(system))
        .bind(finished_at)
        .execute(&mut **tx)
        .await?;
    }
    // Always established first, then provisional: two matches ending at once lock the two
    // count rows in one order.
    for (provisional, players) in [(false, moved[0]), (true, moved[1])] {
        if players != 0 {
            sqlx::query(COUNT_PLAYERS)
                .bind(ruleset.as_str())
                .bind(provisional)
                .bind(players)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

/// A leaderboard page's request.
#[derive(Clone, Debug)]
pub struct LeaderboardQuery {
    /// Which ruleset.
    pub ruleset: RulesetId,
    /// The provisional players' list instead of the established one.
    pub provisional: bool,
    /// Entries on the page (1–100).
    pub limit: i64,
    /// Where the page starts.
    pub from: PageStart,
    /// Now (Unix ms): Glicko-2 deviations are shown grown by the time idle since.
    pub now_ms: i64,
}

/// Where a leaderboard page starts: a number of entries skipped (read through, so a deep
/// offset costs time in proportion), or a cursor: right after or right before an entry,
/// found in the `ratings_leaderboard` index whatever its depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageStart {
    /// Entries skipped from the top.
    Offset(i64),
    /// The entries after this one (a page's `next`).
    After(Position),
    /// The entries before this one (a page's `previous`).
    Before(Position),
}

/// A leaderboard entry as read, with the deviation its order is kept by (as of its last rated
/// match; the entry shows it grown by the time idle since).
struct Listed {
    entry: LeaderboardEntry,
    stored_deviation: i64,
}

/// An entry's place in a leaderboard's order (rating descending, deviation ascending, then
/// the player id), and its rank when the cursor was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The rank (1 for the best).
    pub rank: u64,
    /// The shown rating.
    pub rating: i64,
    /// The shown deviation.
    pub deviation: i64,
    /// The player.
    pub player: IdentityId,
}

impl Position {
    /// The cursor's text: `n` (after) or `p` (before), then rank, rating, deviation and id,
    /// dot-separated. Clients pass it back as it is.
    pub fn cursor(&self, after: bool) -> String {
        format!(
            "{}{}.{}.{}.{}",
            if after { 'n' } else { 'p' },
            self.rank,
            self.rating,
            self.deviation,
            self.player
        )
    }
}

impl std::str::FromStr for PageStart {
    type Err = ();

    /// A cursor's text ([`Position::cursor`]) read back.
    fn from_str(text: &str) -> Result<PageStart, ()> {
        let mut chars = text.chars();
        let after = match chars.next() {
            Some('n') => true,
            Some('p') => false,
            _ => return Err(()),
        };
        let mut parts = chars.as_str().split('.');
        let mut part = || parts.next().ok_or(());
        let position = Position {
            rank: part()?.parse().map_err(|_| ())?,
            rating: part()?.parse().map_err(|_| ())?,
            deviation: part()?.parse().map_err(|_| ())?,
            player: part()?.parse().map_err(|_| ())?,
        };
        if parts.next().is_some() || position.rank == 0 {
            return Err(());
        }
        Ok(if after {
            PageStart::After(position)
        } else {
            PageStart::Before(position)
        })
    }
}

impl Store {
    /// One page of a ruleset's leaderboard, best first, ties by the lower deviation (read in
    /// the order of the `ratings_leaderboard` index), with the cursors of the pages around it.
    /// A page from a cursor carries on the cursor's rank; one that would run past the top
    /// is the first page.
    pub async fn leaderboard(&self, query: LeaderboardQuery) -> sqlx::Result<Leaderboard> {
        let total: i64 = match sqlx::query(
            "SELECT players FROM rating_counts WHERE ruleset = $1 AND provisional = $2",
        )
        .bind(query.ruleset.as_str())
        .bind(query.provisional)
        .fetch_optional(&self.pool)
        .await?
        {
            Some(row) => row.try_get(0)?,
            None => 0,
        };
        // One more row than the page says whether there is more beyond it.
        let (mut rows, first_rank, more_before, more_after) = match &query.from {
            PageStart::Offset(offset) => {
                let mut rows = self.leaderboard_rows(&query, *offset, None).await?;
                let more = rows.len() as i64 > query.limit;
                rows.truncate(usize::try_from(query.limit).unwrap_or(0));
                (
                    rows,
                    u64::try_from(*offset).unwrap_or(0) + 1,
                    *offset > 0,
                    more,
                )
            }
            PageStart::After(at) => {
                let mut rows = self.leaderboard_rows(&query, 0, Some((at, true))).await?;
                let more = rows.len() as i64 > query.limit;
                rows.truncate(usize::try_from(query.limit).unwrap_or(0));
                (rows, at.rank + 1, true, more)
            }
            PageStart::Before(at) => {
                let mut rows = self.leaderboard_rows(&query, 0, Some((at, false))).await?;
                if rows.len() as i64 <= query.limit {
                    // Nothing before this page: it is the first.
                    let mut rows = self.leaderboard_rows(&query, 0, None).await?;
                    let more = rows.len() as i64 > query.limit;
                    rows.truncate(usize::try_from(query.limit).unwrap_or(0));
                    (rows, 1, false, more)
                } else {
                    rows.truncate(usize::try_from(query.limit).unwrap_or(0));
                    rows.reverse();
                    let first = at.rank.saturating_sub(rows.len() as u64).max(1);
                    (rows, first, true, true)
                }
            }
        };
        for (index, row) in rows.iter_mut().enumerate() {
            row.entry.rank = first_rank + index as u64;
        }
        // The cursors hold the stored deviation: the order the index keeps.
        let position = |row: &Listed| Position {
            rank: row.entry.rank,
            rating: row.entry.rating,
            deviation: row.stored_deviation,
            player: row.entry.player.id,
        };
        Ok(Leaderboard {
            ruleset: query.ruleset,
            system: system_of(query.ruleset),
            provisional: query.provisional,
            total: u64::try_from(total).unwrap_or(0),
            next: rows
                .last()
                .filter(|_| more_after)
                .map(|row| position(row).cursor(true)),
            previous: rows
                .first()
                .filter(|_| more_before)
                .map(|row| position(row).cursor(false)),
            entries: rows.into_iter().map(|row| row.entry).collect(),
        })
    }

    /// Up to `limit + 1` entries of a leaderboard (ranks left 0): from `offset`, or those right
    /// after (`true`) or right before (`false`) a position, nearest it first.
    async fn leaderboard_rows(
        &self,
        query: &LeaderboardQuery,
        offset: i64,
        cursor: Option<(&Position, bool)>,
    ) -> sqlx::Result<Vec<Listed>> {
        let d = self.dialect;
        let system = system_of(query.ruleset);
        // `shown <= $4` (or `>=`) bounds the index scan; the rest orders ties.
        let (filter, order) = match cursor {
            None => (
                String::new(),
                "r.shown DESC, r.shown_deviation, r.identity_id",
            ),
            Some((_, true)) => (
                format!(
                    " AND r.shown <= $4 AND (r.shown < $4 OR r.shown_deviation > $5 \
                     OR (r.shown_deviation = $5 AND r.identity_id > {}))",
                    d.uuid(6)
                ),
                "r.shown DESC, r.shown_deviation, r.identity_id",
            ),
            Some((_, false)) => (
                format!(
                    " AND r.shown >= $4 AND (r.shown > $4 OR r.shown_deviation < $5 \
                     OR (r.shown_deviation = $5 AND r.identity_id < {}))",
                    d.uuid(6)
                ),
                "r.shown, r.shown_deviation DESC, r.identity_id DESC",
            ),
        };
        let sql = format!(
            "SELECT {}, i.name, r.shown, r.shown_deviation, r.matches, r.rating, r.deviation, \
             r.volatility, {} FROM ratings r JOIN identities i ON i.id = r.identity_id \
             WHERE r.ruleset = $1 AND r.provisional = $2{filter} \
             ORDER BY {order} LIMIT $3{}",
            d.text("r.identity_id", "id"),
            d.ms("r.updated_at", "updated_at"),
            if cursor.is_none() { " OFFSET $4" } else { "" },
        );
        let mut sql_query = sqlx::query(&sql)
            .bind(query.ruleset.as_str())
            .bind(query.provisional)
            .bind(query.limit + 1);
        sql_query = match cursor {
            None => sql_query.bind(offset),
            Some((at, _)) => sql_query
                .bind(at.rating)
                .bind(at.deviation)
                .bind(at.player.to_string()),
        };
        let rows = sql_query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                let now = Rating {
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    volatility: row.try_get("volatility")?,
                }
                .after_idle(system, query.now_ms - row.try_get::<i64, _>("updated_at")?);
                Ok(Listed {
                    entry: LeaderboardEntry {
                        rank: 0,
                        player: identity_from(row, "id", "name")?,
                        rating: row.try_get("shown")?,
                        deviation: now.shown_deviation(system),
                        matches: u64::try_from(row.try_get::<i64, _>("matches")?).unwrap_or(0),
                    },
                    stored_deviation: row.try_get("shown_deviation")?,
                })
            })
            .collect()
    }

    /// A player's ratings, one per ruleset they have one in (in `RulesetId::ALL` order), with
    /// their history (the last 200, oldest first), rank and record against each opponent.
    /// Glicko-2 deviations are shown as grown by the time idle since the last rated match.
    pub async fn player_ratings(
        &self,
        player: IdentityId,
        now_ms: i64,
    ) -> sqlx::Result<Vec<RulesetRating>> {
        let d = self.dialect;
        let rows = sqlx::query(&format!(
            "SELECT ruleset, rating, deviation, volatility, shown, shown_deviation, matches, {}, \
             {} FROM ratings WHERE identity_id = {}",
            d.flag("provisional", "provisional"),
            d.ms("updated_at", "updated_at"),
            d.uuid(1)
        ))
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        let mut ratings = Vec::with_capacity(rows.len());
        for row in rows {
            let ruleset: RulesetId =
                parse_column("ruleset", &row.try_get::<String, _>("ruleset")?)?;
            let system = system_of(ruleset);
            let now = Rating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            }
            .after_idle(system, now_ms - row.try_get::<i64, _>("updated_at")?);
            let shown: i64 = row.try_get("shown")?;
            let shown_deviation: i64 = row.try_get("shown_deviation")?;
            let stored_provisional = row.try_get::<i64, _>("provisional")? != 0;
            let rank = if stored_provisional {
                None
            } else {
                // Ahead: a higher rating, or the same with a lower deviation (or the same
                // deviation and a smaller id), as the leaderboard orders them.
                let ahead: i64 = sqlx::query(&format!(
                    "SELECT COUNT(*) FROM ratings WHERE ruleset = $1 AND provisional = $2 \
                     AND (shown > $3 OR (shown = $3 AND (shown_deviation < $4 \
                     OR (shown_deviation = $4 AND identity_id < {}))))",
                    d.uuid(5)
                ))
                .bind(ruleset.as_str())
                .bind(false)
                .bind(shown)
                .bind(shown_deviation)
                .bind(player.to_string())
                .fetch_one(&self.pool)
                .await?
                .try_get(0)?;
                Some(u64::try_from(ahead).unwrap_or(0) + 1)
            };
            ratings.push(RulesetRating {
                ruleset,
                system,
                rating: shown,
                deviation: now.shown_deviation(system),
                // The list the player is on, as the leaderboard shows them (set by each rated
                // match; an idle deviation grown past the bound does not move them).
                provisional: stored_provisional,
                about_as_strong_as: about_as_strong_as(ruleset, shown),
                matches: u64::try_from(row.try_get::<i64, _>("matches")?).unwrap_or(0),
                rank,
                history: self.rating_history(player, ruleset).await?,
                opponents: self.opponents(player, ruleset).await?,
            });
        }
        ratings.sort_by_key(|r| RulesetId::ALL.iter().position(|&id| id == r.ruleset));
        Ok(ratings)
    }

    /// The last [`HISTORY`] rating changes of a player in a ruleset, oldest first.
    async fn rating_history(
        &self,
        player: IdentityId,
        ruleset: RulesetId,
    ) -> sqlx::Result<Vec<RatingPoint>> {
        let d = self.dialect;
        let rows = sqlx::query(&format!(
            "SELECT {}, {}, rating_before, rating_after FROM rating_changes \
             WHERE identity_id = {} AND ruleset = $2 ORDER BY finished_at DESC, match_id LIMIT $3",
            d.text("match_id", "match_id"),
            d.ms("finished_at", "finished_at"),
            d.uuid(1)
        ))
        .bind(player.to_string())
        .bind(ruleset.as_str())
        .bind(HISTORY)
        .fetch_all(&self.pool)
        .await?;
        let mut history = rows
            .iter()
            .map(|row| {
                let (before, after): (i64, i64) =
                    (row.try_get("rating_before")?, row.try_get("rating_after")?);
                Ok(RatingPoint {
                    match_id: parse_column("match_id", &row.try_get::<String, _>("match_id")?)?,
                    finished_at: rfc3339(row.try_get("finished_at")?),
                    before,
                    after,
                    change: after - before,
                })
            })
            .collect::<sqlx::Result<Vec<_>>>()?;
        history.reverse();
        Ok(history)
    }

    /// A player's record against each opponent met in rated matches of a ruleset (by place:
    /// ahead is won, behind is lost), most played first.
    async fn opponents(
        &self,
        player: IdentityId,
        ruleset: RulesetId,
    ) -> sqlx::Result<Vec<OpponentRecord>> {
        let d = self.dialect;
        let rows = sqlx::query(&format!(
            "SELECT {}, i.name, COUNT(*) AS played, \
             SUM(CASE WHEN me.place < them.place THEN 1 ELSE 0 END) AS won, \
             SUM(CASE WHEN me.place > them.place THEN 1 ELSE 0 END) AS lost \
             FROM rating_changes me JOIN rating_changes them \
             ON them.match_id = me.match_id AND them.identity_id <> me.identity_id \
             JOIN identities i ON i.id = them.identity_id \
             WHERE me.identity_id = {} AND me.ruleset = $2 \
             GROUP BY them.identity_id, i.name ORDER BY played DESC, i.name LIMIT 100",
            d.text("them.identity_id", "id"),
            d.uuid(1)
        ))
        .bind(player.to_string())
        .bind(ruleset.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let count = |column: &str| -> sqlx::Result<u64> {
                    Ok(u64::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
                };
                Ok(OpponentRecord {
                    player: identity_from(row, "id", "name")?,
                    played: count("played")?,
                    won: count("won")?,
                    lost: count("lost")?,
                })
            })
            .collect()
    }

    /// The rating changes of a match's seats, in seat order (empty: not rated, not finished,
    /// or its result did not count).
    pub async fn match_ratings(&self, id: MatchId) -> sqlx::Result<Vec<SeatRating>> {
        let rows = sqlx::query(&format!(
            "SELECT seat, rating_before, rating_after FROM rating_changes WHERE match_id = {} \
             ORDER BY seat",
            self.dialect.uuid(1)
        ))
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let (before, after): (i64, i64) =
                    (row.try_get("rating_before")?, row.try_get("rating_after")?);
                Ok(SeatRating {
                    seat: Seat(u8::try_from(row.try_get::<i64, _>("seat")?).unwrap_or(u8::MAX)),
                    before,
                    after,
                    change: after - before,
                })
            })
            .collect()
    }

    /// How many finished matches `identity` played, counted no further than `at_most` (the
    /// casual-first rule needs no more): a seat taken by a player of thousands of matches reads
    /// a few rows, not all of them.
    pub async fn finished_matches(&self, identity: IdentityId, at_most: u64) -> sqlx::Result<u64> {
        let count: i64 = sqlx::query(&format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM match_seats s JOIN matches m \
             ON m.id = s.match_id WHERE s.identity_id = {} AND m.state = 'finished' \
             LIMIT $2) AS counted",
            self.dialect.uuid(1)
        ))
        .bind(identity.to_string())
        .bind(i64::try_from(at_most).unwrap_or(i64::MAX))
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// The shown rating of each of these identities in `ruleset` (a new player's 1500 for
    /// those without one): what rated quick play matches by.
    pub async fn shown_ratings(
        &self,
        ruleset: RulesetId,
        identities: &[IdentityId],
    ) -> sqlx::Result<HashMap<IdentityId, i64>> {
        let mut shown: HashMap<IdentityId, i64> = identities
            .iter()
            .map(|&id| {
                (
                    id,
                    Rating::new(system_of(ruleset)).shown(system_of(ruleset)),
                )
            })
            .collect();
        if identities.is_empty() {
            return Ok(shown);
        }
        let d = self.dialect;
        let params = (0..identities.len())
            .map(|i| d.uuid(u8::try_from(i + 2).unwrap_or(u8::MAX)))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT {}, shown FROM ratings WHERE ruleset = $1 AND identity_id IN ({params})",
            d.text("identity_id", "id")
        );
        let mut query = sqlx::query(&sql).bind(ruleset.as_str());
        for id in identities {
            query = query.bind(id.to_string());
        }
        for row in query.fetch_all(&self.pool).await? {
            let id: IdentityId = parse_column("id", &row.try_get::<String, _>("id")?)?;
            shown.insert(id, row.try_get("shown")?);
        }
        Ok(shown)
    }
}
