//! A player's page: their record per ruleset and their matches, newest first, a page at a time
//! (keyset pagination on the start time and id, so a page never repeats or skips a match when
//! new ones begin meanwhile).

use sqlx::Row;
use warroom_engine::{RulesetId, Seat};
use warroom_protocol::{IdentityId, MatchResult, MatchState, RulesetRecord};

use super::identities::parse_column;
use super::{MatchRecord, Store};

/// Which of a player's matches to list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerMatchQuery {
    /// Whose matches.
    pub player: IdentityId,
    /// Who asks: a private room's matches are listed only to those who played them.
    pub viewer: Option<IdentityId>,
    /// Only this ruleset.
    pub ruleset: Option<RulesetId>,
    /// Only matches that went this way for the player.
    pub result: Option<MatchResult>,
    /// Only matches older than this one (start time, id): the previous page's last.
    pub before: Option<(i64, String)>,
    /// At most this many.
    pub limit: u32,
}

/// One page of a player's matches.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerMatchRows {
    /// The matches with the seat the player played.
    pub matches: Vec<(MatchRecord, Seat)>,
    /// True when older matches follow.
    pub more: bool,
    /// How many the filter selects in all.
    pub total: u64,
}

impl Store {
    /// The condition shared by the page and its count: `$1` player, `$2` viewer (or NULL),
    /// `$3` ruleset, `$4` result ('' for any).
    fn player_filter(&self) -> String {
        let (player, viewer) = (self.dialect.uuid(1), self.dialect.uuid(2));
        format!(
            "s.identity_id = {player} \
             AND ($3 = '' OR m.ruleset = $3) \
             AND ($4 = '' \
                  OR ($4 = 'won' AND m.state = 'finished' AND m.winner = s.seat) \
                  OR ($4 = 'lost' AND m.state = 'finished' AND m.winner <> s.seat) \
                  OR ($4 = 'playing' AND m.state = 'playing')) \
             AND (r.private = FALSE OR EXISTS (SELECT 1 FROM match_seats v \
                  WHERE v.match_id = m.id AND v.identity_id = {viewer}))"
        )
    }

    /// The player's won/lost/playing counts per ruleset (every match they played counts).
    pub async fn player_records(&self, player: IdentityId) -> sqlx::Result<Vec<RulesetRecord>> {
        let rows = sqlx::query(&format!(
            "SELECT m.ruleset, \
             SUM(CASE WHEN m.state = 'finished' THEN 1 ELSE 0 END) AS played, \
             SUM(CASE WHEN m.state = 'finished' AND m.winner = s.seat THEN 1 ELSE 0 END) AS won, \
             SUM(CASE WHEN m.state = 'playing' THEN 1 ELSE 0 END) AS playing \
             FROM match_seats s JOIN matches m ON m.id = s.match_id \
             WHERE s.identity_id = {} GROUP BY m.ruleset",
            self.dialect.uuid(1)
        ))
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        let mut records = Vec::with_capacity(rows.len());
        for row in rows {
            let count = |column: &str| -> sqlx::Result<u64> {
                Ok(u64::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
            };
            let played = count("played")?;
            let won = count("won")?;
            records.push(RulesetRecord {
                ruleset: parse_column("ruleset", &row.try_get::<String, _>("ruleset")?)?,
                played,
                won,
                lost: played.saturating_sub(won),
                playing: count("playing")?,
            });
        }
        records.sort_by_key(|record| RulesetId::ALL.iter().position(|&id| id == record.ruleset));
        Ok(records)
    }

    /// One page of the player's matches, newest first.
    pub async fn player_matches(&self, query: &PlayerMatchQuery) -> sqlx::Result<PlayerMatchRows> {
        let (before_time, before_id) = (self.dialect.time(5), self.dialect.uuid(6));
        let sql = format!(
            "SELECT {}, s.seat AS player_seat FROM match_seats s \
             JOIN matches m ON m.id = s.match_id JOIN rooms r ON r.id = m.room_id \
             WHERE {} \
             AND ($5 IS NULL OR m.started_at < {before_time} \
                  OR (m.started_at = {before_time} AND m.id < {before_id})) \
             ORDER BY m.started_at DESC, m.id DESC LIMIT $7",
            self.match_columns(),
            self.player_filter()
        );
        let (before_time, before_id) = query.before.clone().unzip();
        let rows = sqlx::query(&sql)
            .bind(query.player.to_string())
            .bind(query.viewer.map(|v| v.to_string()))
            .bind(query.ruleset.map(|r| r.as_str()).unwrap_or("").to_owned())
            .bind(query.result.map(|r| r.as_str()).unwrap_or("").to_owned())
            .bind(before_time)
            .bind(before_id)
            .bind(i64::from(query.limit) + 1)
            .fetch_all(&self.pool)
            .await?;
        let more = rows.len() > usize::try_from(query.limit).unwrap_or(usize::MAX);
        let mut matches = Vec::with_capacity(rows.len());
        for row in rows
            .iter()
            .take(usize::try_from(query.limit).unwrap_or(usize::MAX))
        {
            let seat = u8::try_from(row.try_get::<i64, _>("player_seat")?).unwrap_or(u8::MAX);
            matches.push((self.match_from(row).await?, Seat(seat)));
        }
        let count = sqlx::query(&format!(
            "SELECT COUNT(*) AS total FROM match_seats s \
             JOIN matches m ON m.id = s.match_id JOIN rooms r ON r.id = m.room_id \
             WHERE {}",
            self.player_filter()
        ))
        .bind(query.player.to_string())
        .bind(query.viewer.map(|v| v.to_string()))
        .bind(query.ruleset.map(|r| r.as_str()).unwrap_or("").to_owned())
        .bind(query.result.map(|r| r.as_str()).unwrap_or("").to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(PlayerMatchRows {
            matches,
            more,
            total: u64::try_from(count.try_get::<i64, _>("total")?).unwrap_or(0),
        })
    }
}

/// How a match went for the player in `seat`.
pub fn result_for(record: &MatchRecord, seat: Seat) -> MatchResult {
    match (&record.state, &record.outcome) {
        (MatchState::Finished, Some(outcome)) if outcome.winner == seat => MatchResult::Won,
        (MatchState::Finished, _) => MatchResult::Lost,
        (MatchState::Playing, _) => MatchResult::Playing,
    }
}
