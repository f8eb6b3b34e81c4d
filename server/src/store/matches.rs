//! Stored matches and their action logs.

use sqlx::Row;
use sqlx::any::AnyRow;
use warroom_engine::{Outcome, Seat};
use warroom_protocol::{ActedBy, MatchId, MatchState};

use super::identities::{identity_from, parse_column};
use super::{ActionRecord, MatchFilter, MatchRecord, Store};

pub(super) const MATCH_COLUMNS: &str = "m.id, m.room_id, m.ruleset, m.options, m.seed, m.seed_commitment, \
                             m.state, m.winner, m.reason, m.action_count, m.started_at, m.finished_at";

/// The most matches one listing returns.
const LIST_LIMIT: i64 = 100;

impl Store {
    /// One match.
    pub async fn match_record(&self, id: MatchId) -> sqlx::Result<Option<MatchRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {MATCH_COLUMNS} FROM matches m WHERE m.id = $1"
        ))
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => Ok(Some(self.match_from(&row).await?)),
            None => Ok(None),
        }
    }

    /// Matches, newest first, filtered; a private room's only if the viewer played them.
    pub async fn list_matches(&self, filter: &MatchFilter) -> sqlx::Result<Vec<MatchRecord>> {
        // Unused filters compare a parameter with itself, so one query text serves every case.
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM matches m JOIN rooms r ON r.id = m.room_id \
             WHERE ($1 = '' OR m.ruleset = $1) AND ($2 = '' OR m.state = $2) \
             AND ($3 = '' OR EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id AND s.identity_id = $3)) \
             AND (r.private = 0 OR EXISTS (SELECT 1 FROM match_seats v \
                  WHERE v.match_id = m.id AND v.identity_id = $5)) \
             ORDER BY m.started_at DESC LIMIT $4"
        );
        let rows = sqlx::query(&sql)
            .bind(filter.ruleset.map(|r| r.as_str()).unwrap_or("").to_owned())
            .bind(filter.state.map(|s| s.as_str()).unwrap_or("").to_owned())
            .bind(filter.player.map(|p| p.to_string()).unwrap_or_default())
            .bind(LIST_LIMIT)
            .bind(filter.viewer.map(|v| v.to_string()).unwrap_or_default())
            .fetch_all(&self.pool)
            .await?;
        let mut matches = Vec::with_capacity(rows.len());
        for row in rows {
            matches.push(self.match_from(&row).await?);
        }
        Ok(matches)
    }

    /// Every accepted action of a match, in order.
    pub async fn actions(&self, id: MatchId) -> sqlx::Result<Vec<ActionRecord>> {
        let rows = sqlx::query(
            "SELECT seq, seat, client_id, action, events, acted_by, clock FROM match_actions \
             WHERE match_id = $1 ORDER BY seq",
        )
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let by: String = row.try_get("acted_by")?;
                let clock: Option<String> = row.try_get("clock")?;
                Ok(ActionRecord {
                    seq: u64::try_from(row.try_get::<i64, _>("seq")?).unwrap_or(0),
                    seat: Seat(u8::try_from(row.try_get::<i64, _>("seat")?).unwrap_or(u8::MAX)),
                    by: ActedBy::parse(&by).ok_or_else(|| sqlx::Error::ColumnDecode {
                        index: "acted_by".into(),
                        source: format!("unknown actor {by:?}").into(),
                    })?,
                    clock: clock.map(|text| parse_column("clock", &text)).transpose()?,
                    client_id: row.try_get("client_id")?,
                    action: parse_column("action", &row.try_get::<String, _>("action")?)?,
                    events: serde_json::from_str(&row.try_get::<String, _>("events")?).map_err(
                        |error| sqlx::Error::ColumnDecode {
                            index: "events".into(),
                            source: Box::new(error),
                        },
                    )?,
                })
            })
            .collect()
    }

    pub(super) async fn match_from(&self, row: &AnyRow) -> sqlx::Result<MatchRecord> {
        let id: MatchId = parse_column("id", &row.try_get::<String, _>("id")?)?;
        let state = match row.try_get::<String, _>("state")?.as_str() {
            "finished" => MatchState::Finished,
            _ => MatchState::Playing,
        };
        let winner: Option<i64> = row.try_get("winner")?;
        let reason: Option<String> = row.try_get("reason")?;
        let outcome = match (winner, reason) {
            (Some(winner), Some(reason)) => Some(Outcome {
                winner: Seat(u8::try_from(winner).unwrap_or(u8::MAX)),
                reason,
            }),
            _ => None,
        };
        let seat_rows = sqlx::query(
            "SELECT i.id, i.name FROM match_seats s JOIN identities i ON i.id = s.identity_id \
             WHERE s.match_id = $1 ORDER BY s.seat",
        )
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?;
        let seats = seat_rows
            .iter()
            .map(|seat_row| identity_from(seat_row, "id", "name"))
            .collect::<sqlx::Result<Vec<_>>>()?;
        Ok(MatchRecord {
            id,
            room_id: parse_column("room_id", &row.try_get::<String, _>("room_id")?)?,
            ruleset: parse_column("ruleset", &row.try_get::<String, _>("ruleset")?)?,
            options: parse_column("options", &row.try_get::<String, _>("options")?)?,
            seed: row.try_get("seed")?,
            seed_commitment: row.try_get("seed_commitment")?,
            state,
            outcome,
            action_count: u64::try_from(row.try_get::<i64, _>("action_count")?).unwrap_or(0),
            started_at: row.try_get("started_at")?,
            finished_at: row.try_get("finished_at")?,
            seats,
        })
    }
}
