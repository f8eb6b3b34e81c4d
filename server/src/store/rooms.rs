//! Stored rooms and their seats, the start of a room's match, and the room of its rematch.

use sqlx::Row;
use sqlx::any::AnyRow;
use warroom_engine::{BotLevel, RulesetId, Seat};
use warroom_protocol::{Identity, IdentityId, MatchState, RoomId, RoomSettings, RoomState};

use super::identities::{id_column, identity_from, json_column, parse_column};
use super::{LobbyQuery, MatchRecord, RoomRecord, Store};
use crate::bots::bot_identity;

const ROOM_COLUMNS: &str = "id, ruleset, options, seat_count, private, invite_code, creator_id, \
                            state, match_id, created_at, settings";

impl Store {
    /// Stores a new room (its seats all free).
    pub async fn create_room(&self, room: &RoomRecord) -> sqlx::Result<()> {
        sqlx::query(&format!(
            "INSERT INTO rooms ({ROOM_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        ))
        .bind(room.id.to_string())
        .bind(room.ruleset.as_str())
        .bind(room.options.to_string())
        .bind(i64::from(room.seat_count))
        .bind(i64::from(room.private))
        .bind(room.invite_code.clone())
        .bind(room.creator.to_string())
        .bind(room.state.as_str())
        .bind(room.match_id.map(|id| id.to_string()))
        .bind(room.created_at)
        .bind(serde_json::to_string(&room.settings).unwrap_or_default())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Gives `seat` of `room` to `holder`, or frees it.
    pub async fn set_seat(
        &self,
        room: RoomId,
        seat: Seat,
        holder: Option<IdentityId>,
    ) -> sqlx::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM room_seats WHERE room_id = $1 AND seat = $2")
            .bind(room.to_string())
            .bind(i64::from(seat.0))
            .execute(&mut *tx)
            .await?;
        if let Some(holder) = holder {
            sqlx::query("INSERT INTO room_seats (room_id, seat, identity_id) VALUES ($1, $2, $3)")
                .bind(room.to_string())
                .bind(i64::from(seat.0))
                .bind(holder.to_string())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }

    /// Records that `room`'s match has started: the match row, who plays which seat, and the
    /// room's new state, in one transaction.
    pub async fn start_match(&self, started: &MatchRecord) -> sqlx::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO matches (id, room_id, ruleset, options, seat_count, seed, seed_commitment, \
             state, action_count, started_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9)",
        )
        .bind(started.id.to_string())
        .bind(started.room_id.to_string())
        .bind(started.ruleset.as_str())
        .bind(started.options.to_string())
        .bind(i64::try_from(started.seats.len()).unwrap_or(i64::MAX))
        .bind(started.seed.clone())
        .bind(started.seed_commitment.clone())
        .bind(MatchState::Playing.as_str())
        .bind(started.started_at)
        .execute(&mut *tx)
        .await?;
        for (seat, player) in started.seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO match_seats (match_id, seat, identity_id) VALUES ($1, $2, $3)",
            )
            .bind(started.id.to_string())
            .bind(i64::try_from(seat).unwrap_or(i64::MAX))
            .bind(player.id.to_string())
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE rooms SET state = $1, match_id = $2 WHERE id = $3")
            .bind(RoomState::Playing.as_str())
            .bind(started.id.to_string())
            .bind(started.room_id.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Every room waiting for players or playing (to rebuild at start-up).
    pub async fn live_rooms(&self) -> sqlx::Result<Vec<RoomRecord>> {
        let rows = sqlx::query(&format!(
            "SELECT {ROOM_COLUMNS} FROM rooms WHERE state IN ($1, $2) ORDER BY created_at"
        ))
        .bind(RoomState::Waiting.as_str())
        .bind(RoomState::Playing.as_str())
        .fetch_all(&self.pool)
        .await?;
        let mut rooms = Vec::with_capacity(rows.len());
        for row in rows {
            rooms.push(self.room_from(&row).await?);
        }
        Ok(rooms)
    }

    /// One page of the lobby: public rooms waiting or playing with a seat not held by a bot,
    /// newest first (creation time, then id), filtered; and whether more follow.
    pub async fn lobby_rooms(&self, query: &LobbyQuery) -> sqlx::Result<(Vec<RoomRecord>, bool)> {
        // Unused filters compare a parameter with itself, so one query text serves every case.
        let sql = format!(
            "SELECT {ROOM_COLUMNS} FROM rooms r WHERE r.private = 0 \
             AND r.state IN ('waiting', 'playing') AND ($1 = '' OR r.state = $1) \
             AND ($2 = '' OR r.ruleset = $2) \
             AND ($3 = 0 OR (r.state = 'waiting' AND \
                  (SELECT COUNT(*) FROM room_seats s WHERE s.room_id = r.id) < r.seat_count)) \
             AND ($4 = '' OR r.created_at < $5 OR (r.created_at = $5 AND r.id < $4)) \
             AND (SELECT COUNT(*) FROM room_seats b WHERE b.room_id = r.id \
                  AND b.identity_id IN ($7, $8, $9)) < r.seat_count \
             ORDER BY r.created_at DESC, r.id DESC LIMIT $6"
        );
        let (before_time, before_id) = query.before.clone().unwrap_or((0, String::new()));
        let rows = sqlx::query(&sql)
            .bind(query.state.map(|s| s.as_str()).unwrap_or("").to_owned())
            .bind(query.ruleset.map(|r| r.as_str()).unwrap_or("").to_owned())
            .bind(i64::from(query.open))
            .bind(before_id)
            .bind(before_time)
            .bind(i64::from(query.limit) + 1)
            .bind(bot_identity(BotLevel::Easy).id.to_string())
            .bind(bot_identity(BotLevel::Normal).id.to_string())
            .bind(bot_identity(BotLevel::Hard).id.to_string())
            .fetch_all(&self.pool)
            .await?;
        let more = rows.len() > query.limit as usize;
        let mut rooms = Vec::with_capacity(rows.len());
        for row in rows.iter().take(query.limit as usize) {
            rooms.push(self.room_from(row).await?);
        }
        Ok((rooms, more))
    }

    /// One room.
    pub async fn room(&self, id: RoomId) -> sqlx::Result<Option<RoomRecord>> {
        let row = sqlx::query(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => Ok(Some(self.room_from(&row).await?)),
            None => Ok(None),
        }
    }

    async fn room_from(&self, row: &AnyRow) -> sqlx::Result<RoomRecord> {
        let id: RoomId = parse_column("id", &row.try_get::<String, _>("id")?)?;
        let ruleset: RulesetId = parse_column("ruleset", &row.try_get::<String, _>("ruleset")?)?;
        let options =
            parse_column::<serde_json::Value>("options", &row.try_get::<String, _>("options")?)?;
        let seat_count = u8::try_from(row.try_get::<i64, _>("seat_count")?).unwrap_or(0);
        let state_text: String = row.try_get("state")?;
        let state = RoomState::parse(&state_text).ok_or_else(|| sqlx::Error::ColumnDecode {
            index: "state".into(),
            source: format!("unknown room state {state_text:?}").into(),
        })?;
        let match_id = match row.try_get::<Option<String>, _>("match_id")? {
            Some(text) => Some(parse_column("match_id", &text)?),
            None => None,
        };
        let settings = match row.try_get::<Option<String>, _>("settings")? {
            Some(text) => json_column("settings", &text)?,
            // Rooms older than migration 0004 play as they did: no clock, bots act at once.
            None => RoomSettings {
                clock: None,
                bot_delay_ms: 0,
                ..RoomSettings::default()
            },
        };
        let mut seats: Vec<Option<Identity>> = vec![None; usize::from(seat_count)];
        let seat_rows = sqlx::query(
            "SELECT s.seat, i.id, i.name FROM room_seats s JOIN identities i ON i.id = s.identity_id \
             WHERE s.room_id = $1",
        )
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?;
        for seat_row in seat_rows {
            let seat = seat_row.try_get::<i64, _>("seat")?;
            if let Some(slot) = usize::try_from(seat).ok().and_then(|s| seats.get_mut(s)) {
                *slot = Some(identity_from(&seat_row, "id", "name")?);
            }
        }
        Ok(RoomRecord {
            id,
            ruleset,
            options,
            settings,
            seat_count,
            private: row.try_get::<i64, _>("private")? != 0,
            invite_code: row.try_get("invite_code")?,
            creator: id_column(row, "creator_id")?,
            state,
            match_id,
            created_at: row.try_get("created_at")?,
            seats,
        })
    }
}

impl Store {
    /// Records the room a finished room's rematch is played in.
    pub async fn set_rematch_room(&self, room: RoomId, rematch: RoomId) -> sqlx::Result<()> {
        sqlx::query("UPDATE rooms SET rematch_room = $1 WHERE id = $2")
            .bind(rematch.to_string())
            .bind(room.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The room a finished room's rematch is played in, if its players agreed to one.
    pub async fn rematch_room(&self, room: RoomId) -> sqlx::Result<Option<RoomId>> {
        let row = sqlx::query("SELECT rematch_room FROM rooms WHERE id = $1")
            .bind(room.to_string())
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        row.try_get::<Option<String>, _>("rematch_room")?
            .map(|id| parse_column("rematch_room", &id))
            .transpose()
    }
}

impl Store {
    /// Expires every waiting room created before `cutoff_ms` (Unix milliseconds); how many.
    pub async fn expire_waiting_rooms_before(&self, cutoff_ms: i64) -> sqlx::Result<u64> {
        let done = sqlx::query("UPDATE rooms SET state = $1 WHERE state = $2 AND created_at < $3")
            .bind(RoomState::Expired.as_str())
            .bind(RoomState::Waiting.as_str())
            .bind(cutoff_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Closes a waiting room nobody was connected to for too long (a room that started
    /// meanwhile is left alone).
    pub async fn expire_room(&self, room: RoomId) -> sqlx::Result<()> {
        sqlx::query("UPDATE rooms SET state = $1 WHERE id = $2 AND state = $3")
            .bind(RoomState::Expired.as_str())
            .bind(room.to_string())
            .bind(RoomState::Waiting.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
