//! Stored matches and their action logs.

use sqlx::Row;
use sqlx::any::AnyRow;
use warroom_engine::{Outcome, Seat};
use warroom_protocol::{ActedBy, MatchId, MatchState};

use super::identities::{identity_from, parse_column};
use super::{ActionRecord, Dialect, MatchFilter, MatchRecord, Store};

/// The most matches one listing returns.
const LIST_LIMIT: i64 = 100;

impl Store {
    /// The columns [`Store::match_from`] reads, of the matches aliased `m`. `action_count` is
    /// stored when the match finishes; while it runs the writer does not rewrite the match's row
    /// for every action, and its count is its last seq (one probe of the log's primary key).
    pub(super) fn match_columns(&self) -> String {
        let d = self.dialect;
        format!(
            "{}, {}, m.ruleset, {}, m.seed, m.seed_commitment, m.state, m.winner, m.reason, \
             CASE WHEN m.state = 'finished' THEN m.action_count ELSE COALESCE((SELECT MAX(a.seq) \
             FROM match_actions a WHERE a.match_id = m.id), 0) END AS action_count, {}, {}, \
             COALESCE((SELECT {} FROM rooms rr WHERE rr.id = m.room_id), 0) AS rated",
            d.text("m.id", "id"),
            d.text("m.room_id", "room_id"),
            d.text("m.options", "options"),
            d.ms("m.started_at", "started_at"),
            d.ms("m.finished_at", "finished_at"),
            match d {
                Dialect::Sqlite => "json_extract(rr.settings, '$.rated')",
                Dialect::Postgres => "(rr.settings->>'rated')::boolean::int::bigint",
            },
        )
    }

    /// One match.
    pub async fn match_record(&self, id: MatchId) -> sqlx::Result<Option<MatchRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {} FROM matches m WHERE m.id = {}",
            self.match_columns(),
            self.dialect.uuid(1)
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
        // Unused filters compare a parameter with itself (or NULL), so one query text serves
        // them. The player's filter is written only when asked for, outside any `OR`, so the
        // database can start from that player's seats (a semi-join) instead of reading every
        // match newest first (PostgreSQL, 200,000 matches: 56 ms inside an `OR`, 0.5 ms so).
        let d = self.dialect;
        let player = match filter.player {
            Some(_) => format!(
                "AND EXISTS (SELECT 1 FROM match_seats p \
                 WHERE p.match_id = m.id AND p.identity_id = {})",
                d.uuid(5)
            ),
            None => String::new(),
        };
        let sql = format!(
            "SELECT {} FROM matches m JOIN rooms r ON r.id = m.room_id \
             WHERE ($1 = '' OR m.ruleset = $1) AND ($2 = '' OR m.state = $2) {player} \
             AND (r.private = FALSE OR EXISTS (SELECT 1 FROM match_seats v \
                  WHERE v.match_id = m.id AND v.identity_id = {})) \
             ORDER BY m.started_at DESC LIMIT $3",
            self.match_columns(),
            d.uuid(4)
        );
        let mut query = sqlx::query(&sql)
            .bind(filter.ruleset.map(|r| r.as_str()).unwrap_or("").to_owned())
            .bind(filter.state.map(|s| s.as_str()).unwrap_or("").to_owned())
            .bind(LIST_LIMIT)
            .bind(filter.viewer.map(|v| v.to_string()));
        if let Some(player) = filter.player {
            query = query.bind(player.to_string());
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut matches = Vec::with_capacity(rows.len());
        for row in rows {
            matches.push(self.match_from(&row).await?);
        }
        Ok(matches)
    }

    /// Every accepted action of a match, in order.
    pub async fn actions(&self, id: MatchId) -> sqlx::Result<Vec<ActionRecord>> {
        let d = self.dialect;
        let rows = sqlx::query(&format!(
            "SELECT seq, seat, client_id, {}, {}, acted_by, {} FROM match_actions \
             WHERE match_id = {} ORDER BY seq",
            d.text("action", "action"),
            d.text("events", "events"),
            d.text("clock", "clock"),
            d.uuid(1)
        ))
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

    /// The seats that resigned in a match (G-RESIGN-1), read from its log without the events:
    /// what a room not in memory shows of its seats' takeovers (`room/stored_summary.rs`).
    pub async fn resigned_seats(&self, id: MatchId) -> sqlx::Result<Vec<Seat>> {
        let d = self.dialect;
        let rows = sqlx::query(&format!(
            "SELECT seat, {} FROM match_actions WHERE match_id = {} AND acted_by = $2 \
             ORDER BY seq",
            d.text("action", "action"),
            d.uuid(1)
        ))
        .bind(id.to_string())
        .bind(ActedBy::Player.as_str())
        .fetch_all(&self.pool)
        .await?;
        let mut seats = Vec::new();
        for row in &rows {
            let action: String = row.try_get("action")?;
            // Only a short action can be `{"type": "resign"}`; the others are not parsed.
            if action.len() < 40
                && serde_json::from_str(&action)
                    .is_ok_and(|action| warroom_protocol::played::is_resign(&action))
            {
                seats.push(Seat(
                    u8::try_from(row.try_get::<i64, _>("seat")?).unwrap_or(u8::MAX),
                ));
            }
        }
        Ok(seats)
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
        let seat_rows = sqlx::query(&format!(
            "SELECT {}, i.name FROM match_seats s JOIN identities i ON i.id = s.identity_id \
             WHERE s.match_id = {} ORDER BY s.seat",
            self.dialect.text("i.id", "id"),
            self.dialect.uuid(1)
        ))
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?;
        let seats = seat_rows
            .iter()
            .map(|seat_row| identity_from(seat_row, "id", "name"))
            .collect::<sqlx::Result<Vec<_>>>()?;
        let rated = row.try_get::<Option<i64>, _>("rated")?.unwrap_or(0) != 0;
        let ratings = if rated && state == MatchState::Finished {
            Some(self.match_ratings(id).await?).filter(|changes| !changes.is_empty())
        } else {
            None
        };
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
            rated,
            ratings,
        })
    }
}
