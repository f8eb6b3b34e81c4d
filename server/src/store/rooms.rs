//! Stored rooms and their seats, the start of a room's match, and the room of its rematch. A
//! room's own writes (seats, start, rematch, expiry) are fenced by its lease in cluster mode
//! (`fenced.rs`).

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};
use warroom_engine::{BotLevel, RulesetId, Seat};
use warroom_protocol::{Identity, IdentityId, MatchState, RoomId, RoomSettings, RoomState};

use super::fenced::{FencedError, Statements};
use super::identities::{id_column, identity_from, json_column, parse_column};
use super::leases::Fence;
use super::{LobbyQuery, MatchRecord, RoomRecord, Store};
use crate::bots::bot_identity;

impl Store {
    /// The columns [`Store::room_from`] reads, of the rooms aliased `r`.
    fn room_columns(&self) -> String {
        let d = self.dialect;
        format!(
            "{}, r.ruleset, {}, r.seat_count, {}, r.invite_code, {}, r.state, {}, {}, {}",
            d.text("r.id", "id"),
            d.text("r.options", "options"),
            d.flag("r.private", "private"),
            d.text("r.creator_id", "creator_id"),
            d.text("r.match_id", "match_id"),
            d.ms("r.created_at", "created_at"),
            d.text("r.settings", "settings"),
        )
    }

    /// Stores a new room and its taken seats (its creator's, bots'; a rematch's players) in one
    /// transaction.
    pub async fn create_room(&self, room: &RoomRecord) -> sqlx::Result<()> {
        let mut tx = self.pool.begin().await?;
        self.insert_room(&mut tx, room).await?;
        tx.commit().await
    }

    /// Inserts that `identity` holds `seat` of the room or match `owner`, into `table_and_owner`
    /// (`room_seats (room_id` or `match_seats (match_id`).
    async fn insert_seat(
        &self,
        conn: &mut AnyConnection,
        table_and_owner: &str,
        owner: impl ToString,
        seat: usize,
        identity: IdentityId,
    ) -> sqlx::Result<()> {
        let d = self.dialect;
        sqlx::query(&format!(
            "INSERT INTO {table_and_owner}, seat, identity_id) VALUES ({}, $2, {})",
            d.uuid(1),
            d.uuid(3)
        ))
        .bind(owner.to_string())
        .bind(i64::try_from(seat).unwrap_or(i64::MAX))
        .bind(identity.to_string())
        .execute(conn)
        .await?;
        Ok(())
    }

    /// Inserts a new room and its taken seats on `conn`.
    async fn insert_room(&self, conn: &mut AnyConnection, room: &RoomRecord) -> sqlx::Result<()> {
        let d = self.dialect;
        let (id, options, creator, match_id) = (d.uuid(1), d.json(3), d.uuid(7), d.uuid(9));
        let (created_at, settings) = (d.time(10), d.json(11));
        sqlx::query(&format!(
            "INSERT INTO rooms (id, ruleset, options, seat_count, private, invite_code, creator_id, \
             state, match_id, created_at, settings) VALUES ({id}, $2, {options}, $4, $5, $6, \
             {creator}, $8, {match_id}, {created_at}, {settings})"
        ))
        .bind(room.id.to_string())
        .bind(room.ruleset.as_str())
        .bind(room.options.to_string())
        .bind(i64::from(room.seat_count))
        .bind(room.private)
        .bind(room.invite_code.clone())
        .bind(room.creator.to_string())
        .bind(room.state.as_str())
        .bind(room.match_id.map(|id| id.to_string()))
        .bind(room.created_at)
        .bind(serde_json::to_string(&room.settings).unwrap_or_default())
        .execute(&mut *conn)
        .await?;
        for (seat, holder) in room.seats.iter().enumerate() {
            if let Some(holder) = holder {
                self.insert_seat(conn, "room_seats (room_id", room.id, seat, holder.id)
                    .await?;
            }
        }
        Ok(())
    }

    /// Gives `seat` of `room` to `holder`, or frees it (one statement, so one round trip
    /// without a fence); in cluster mode fenced by the room's lease (`fenced.rs`).
    pub async fn set_seat(
        &self,
        fence: Option<&Fence>,
        room: RoomId,
        seat: Seat,
        holder: Option<IdentityId>,
    ) -> Result<(), FencedError> {
        let d = self.dialect;
        let mut write = self.begin_room_write(room, fence, Statements::One).await?;
        match holder {
            Some(holder) => {
                sqlx::query(&format!(
                    "INSERT INTO room_seats (room_id, seat, identity_id) VALUES ({}, $2, {}) \
                     ON CONFLICT (room_id, seat) DO UPDATE SET identity_id = excluded.identity_id",
                    d.uuid(1),
                    d.uuid(3)
                ))
                .bind(room.to_string())
                .bind(i64::from(seat.0))
                .bind(holder.to_string())
                .execute(write.conn())
                .await?;
            }
            None => {
                sqlx::query(&format!(
                    "DELETE FROM room_seats WHERE room_id = {} AND seat = $2",
                    d.uuid(1)
                ))
                .bind(room.to_string())
                .bind(i64::from(seat.0))
                .execute(write.conn())
                .await?;
            }
        }
        Ok(write.commit().await?)
    }

    /// Records that `room`'s match has started: the match row, who plays which seat, and the
    /// room's new state, in one transaction (in cluster mode fenced by the room's lease).
    pub async fn start_match(
        &self,
        started: &MatchRecord,
        fence: Option<&Fence>,
    ) -> Result<(), FencedError> {
        let d = self.dialect;
        let (id, room_id, options, started_at) = (d.uuid(1), d.uuid(2), d.json(4), d.time(9));
        let mut write = self
            .begin_room_write(started.room_id, fence, Statements::Many)
            .await?;
        sqlx::query(&format!(
            "INSERT INTO matches (id, room_id, ruleset, options, seat_count, seed, seed_commitment, \
             state, action_count, started_at) \
             VALUES ({id}, {room_id}, $3, {options}, $5, $6, $7, $8, 0, {started_at})"
        ))
        .bind(started.id.to_string())
        .bind(started.room_id.to_string())
        .bind(started.ruleset.as_str())
        .bind(started.options.to_string())
        .bind(i64::try_from(started.seats.len()).unwrap_or(i64::MAX))
        .bind(started.seed.clone())
        .bind(started.seed_commitment.clone())
        .bind(MatchState::Playing.as_str())
        .bind(started.started_at)
        .execute(write.conn())
        .await?;
        for (seat, player) in started.seats.iter().enumerate() {
            self.insert_seat(
                write.conn(),
                "match_seats (match_id",
                started.id,
                seat,
                player.id,
            )
            .await?;
        }
        sqlx::query(&format!(
            "UPDATE rooms SET state = $1, match_id = {} WHERE id = {}",
            d.uuid(2),
            d.uuid(3)
        ))
        .bind(RoomState::Playing.as_str())
        .bind(started.id.to_string())
        .bind(started.room_id.to_string())
        .execute(write.conn())
        .await?;
        Ok(write.commit().await?)
    }

    /// Every room whose match is being played (to rebuild at start-up).
    pub async fn playing_rooms(&self) -> sqlx::Result<Vec<RoomRecord>> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM rooms r WHERE r.state = $1 ORDER BY r.created_at",
            self.room_columns()
        ))
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
        // Unused filters compare a parameter with itself (or NULL), so one query text serves
        // every case. The first line is the predicate of the `rooms_lobby` index (PostgreSQL).
        let d = self.dialect;
        let (before_time, before_id) = (d.time(5), d.uuid(4));
        let bots = [d.uuid(7), d.uuid(8), d.uuid(9)].join(", ");
        let sql = format!(
            "SELECT {} FROM rooms r WHERE r.private = FALSE AND r.state IN ('waiting', 'playing') \
             AND ($1 = '' OR r.state = $1) \
             AND ($2 = '' OR r.ruleset = $2) \
             AND ($3 = 0 OR (r.state = 'waiting' AND \
                  (SELECT COUNT(*) FROM room_seats s WHERE s.room_id = r.id) < r.seat_count)) \
             AND ($4 IS NULL OR r.created_at < {before_time} \
                  OR (r.created_at = {before_time} AND r.id < {before_id})) \
             AND (SELECT COUNT(*) FROM room_seats b WHERE b.room_id = r.id \
                  AND b.identity_id IN ({bots})) < r.seat_count \
             ORDER BY r.created_at DESC, r.id DESC LIMIT $6",
            self.room_columns()
        );
        let (before_time, before_id) = query.before.clone().unzip();
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
        let row = self
            .row_by_id(&self.room_columns(), "rooms r", "r.id", id)
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
        let seat_rows = sqlx::query(&format!(
            "SELECT s.seat, {}, i.name FROM room_seats s JOIN identities i ON i.id = s.identity_id \
             WHERE s.room_id = {}",
            self.dialect.text("i.id", "id"),
            self.dialect.uuid(1)
        ))
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
    /// Stores the rematch room of the finished room `room` (with its seats taken) and links
    /// it from `room`, in one transaction (in cluster mode fenced by `room`'s lease).
    pub async fn store_rematch(
        &self,
        room: RoomId,
        rematch: &RoomRecord,
        fence: Option<&Fence>,
    ) -> Result<(), FencedError> {
        let mut write = self.begin_room_write(room, fence, Statements::Many).await?;
        self.insert_room(write.conn(), rematch).await?;
        sqlx::query(&format!(
            "UPDATE rooms SET rematch_room = {} WHERE id = {}",
            self.dialect.uuid(1),
            self.dialect.uuid(2)
        ))
        .bind(rematch.id.to_string())
        .bind(room.to_string())
        .execute(write.conn())
        .await?;
        Ok(write.commit().await?)
    }

    /// The room a finished room's rematch is played in, if its players agreed to one.
    pub async fn rematch_room(&self, room: RoomId) -> sqlx::Result<Option<RoomId>> {
        let column = self.dialect.text("rematch_room", "rematch_room");
        let row = self.row_by_id(&column, "rooms", "id", room).await?;
        let Some(row) = row else { return Ok(None) };
        row.try_get::<Option<String>, _>("rematch_room")?
            .map(|id| parse_column("rematch_room", &id))
            .transpose()
    }
}

impl Store {
    /// Expires every waiting room created before `cutoff_ms` (Unix milliseconds); how many.
    pub async fn expire_waiting_rooms_before(&self, cutoff_ms: i64) -> sqlx::Result<u64> {
        let done = sqlx::query(&format!(
            "UPDATE rooms SET state = $1 WHERE state = $2 AND created_at < {}",
            self.dialect.time(3)
        ))
        .bind(RoomState::Expired.as_str())
        .bind(RoomState::Waiting.as_str())
        .bind(cutoff_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// The waiting rooms created before `cutoff_ms` (Unix milliseconds).
    pub async fn waiting_rooms_before(&self, cutoff_ms: i64) -> sqlx::Result<Vec<RoomId>> {
        let d = self.dialect;
        let rows = sqlx::query(&format!(
            "SELECT {} FROM rooms WHERE state = $1 AND created_at < {}",
            d.text("id", "id"),
            d.time(2)
        ))
        .bind(RoomState::Waiting.as_str())
        .bind(cutoff_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| parse_column("id", &row.try_get::<String, _>("id")?))
            .collect()
    }

    /// Closes the waiting rooms among `rooms` (a statement per 200), leaving any other alone.
    pub async fn expire_waiting_rooms(&self, rooms: &[RoomId]) -> sqlx::Result<u64> {
        const CHUNK: u8 = 200;
        let mut expired = 0;
        for chunk in rooms.chunks(usize::from(CHUNK)) {
            let ids: Vec<String> = (0..chunk.len())
                .filter_map(|n| u8::try_from(n + 3).ok())
                .map(|n| self.dialect.uuid(n))
                .collect();
            let sql = format!(
                "UPDATE rooms SET state = $1 WHERE state = $2 AND id IN ({})",
                ids.join(", ")
            );
            let mut query = sqlx::query(&sql)
                .bind(RoomState::Expired.as_str())
                .bind(RoomState::Waiting.as_str());
            for room in chunk {
                query = query.bind(room.to_string());
            }
            expired += query.execute(&self.pool).await?.rows_affected();
        }
        Ok(expired)
    }

    /// Closes a waiting room nobody was connected to for too long (a room that started
    /// meanwhile is left alone); in cluster mode fenced by the room's lease.
    pub async fn expire_room(
        &self,
        room: RoomId,
        fence: Option<&Fence>,
    ) -> Result<(), FencedError> {
        let mut write = self.begin_room_write(room, fence, Statements::One).await?;
        sqlx::query(&format!(
            "UPDATE rooms SET state = $1 WHERE id = {} AND state = $3",
            self.dialect.uuid(2)
        ))
        .bind(RoomState::Expired.as_str())
        .bind(room.to_string())
        .bind(RoomState::Waiting.as_str())
        .execute(write.conn())
        .await?;
        Ok(write.commit().await?)
    }
}
