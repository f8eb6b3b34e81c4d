//! Stored rooms and their seats, the start of a room's match, and the room of its rematch. A
//! room's own writes (seats, start, rematch, expiry) are fenced by its lease in cluster mode
//! (`fenced.rs`).

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};
use warroom_engine::{BotLevel, RulesetId, Seat};
use warroom_protocol::{Identity, IdentityId, MatchState, RoomId, RoomSettings, RoomState};

use super::fenced::{FencedError, Statements, held, held_part};
use super::identities::{id_column, identity_from, json_column, parse_column};
use super::leases::Fence;
use super::{Dialect, LobbyQuery, MatchRecord, RoomRecord, SqlType, Store};
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

    /// Stores a new room and its taken seats (its creator's, bots'): on PostgreSQL one
    /// statement (one round trip), on SQLite one transaction.
    pub async fn create_room(&self, room: &RoomRecord) -> sqlx::Result<()> {
        match self.dialect {
            Dialect::Postgres => {
                let sql = format!(
                    "WITH room AS ({}) {}",
                    self.room_insert(),
                    self.seats_insert("room_seats (room_id", 1, 12)
                );
                bind_room(sqlx::query(&sql), room)
                    .bind(room_seat_rows(room))
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }
            Dialect::Sqlite => {
                let mut tx = self.pool.begin().await?;
                self.insert_room(&mut tx, room).await?;
                tx.commit().await
            }
        }
    }

    /// The `INSERT` of a room's row, its values `$1` to `$11` ([`bind_room`]).
    fn room_insert(&self) -> String {
        let d = self.dialect;
        let (id, options, creator, match_id) = (d.uuid(1), d.json(3), d.uuid(7), d.uuid(9));
        let (created_at, settings) = (d.time(10), d.json(11));
        format!(
            "INSERT INTO rooms (id, ruleset, options, seat_count, private, invite_code, creator_id, \
             state, match_id, created_at, settings) VALUES ({id}, $2, {options}, $4, $5, $6, \
             {creator}, $8, {match_id}, {created_at}, {settings})"
        )
    }

    /// The `INSERT` of taken seats into `table_and_owner` (`room_seats (room_id` or
    /// `match_seats (match_id`): the owner's id is parameter `owner`, the seats parameter
    /// `rows` ([`seat_rows`]).
    fn seats_insert(&self, table_and_owner: &str, owner: u8, rows: u8) -> String {
        let d = self.dialect;
        format!(
            "INSERT INTO {table_and_owner}, seat, identity_id) SELECT {}, s.seat, {} FROM {}",
            d.uuid(owner),
            d.as_uuid("s.identity_id"),
            d.json_rows(
                rows,
                "s",
                &[("seat", SqlType::BigInt), ("identity_id", SqlType::Text)]
            )
        )
    }

    /// Inserts a new room and its taken seats on `conn` (two statements).
    async fn insert_room(&self, conn: &mut AnyConnection, room: &RoomRecord) -> sqlx::Result<()> {
        bind_room(sqlx::query(&self.room_insert()), room)
            .execute(&mut *conn)
            .await?;
        sqlx::query(&self.seats_insert("room_seats (room_id", 1, 2))
            .bind(room.id.to_string())
            .bind(room_seat_rows(room))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Gives `seat` of `room` to `holder`, or frees it: one statement (one round trip), on
    /// PostgreSQL in cluster mode with the room's lease checked in it (`fenced.rs`).
    pub async fn set_seat(
        &self,
        fence: Option<&Fence>,
        room: RoomId,
        seat: Seat,
        holder: Option<IdentityId>,
    ) -> Result<(), FencedError> {
        let d = self.dialect;
        let (room_id, identity) = (d.uuid(1), d.uuid(3));
        let write = match holder {
            Some(_) => format!(
                "INSERT INTO room_seats (room_id, seat, identity_id) {} ON CONFLICT (room_id, \
                 seat) DO UPDATE SET identity_id = excluded.identity_id",
                if d == Dialect::Postgres {
                    format!("SELECT {room_id}, $2, {identity} FROM held")
                } else {
                    format!("VALUES ({room_id}, $2, {identity})")
                }
            ),
            None => format!(
                "DELETE FROM room_seats WHERE room_id = {room_id} AND seat = $2{}",
                if d == Dialect::Postgres {
                    " AND EXISTS (SELECT 1 FROM held)"
                } else {
                    ""
                }
            ),
        };
        // The identity's parameter is bound either way, so the fence's are always `$4`, `$5`.
        let identity = holder.map_or_else(String::new, |holder| holder.to_string());
        if d == Dialect::Postgres {
            let sql = format!(
                "WITH {}, seat AS ({write}) SELECT COUNT(*) AS held FROM held",
                held_part(fence.is_some(), 1, 4)
            );
            let query = sqlx::query(&sql)
                .bind(room.to_string())
                .bind(i64::from(seat.0))
                .bind(identity);
            return held(self, query, fence).await;
        }
        let mut query = sqlx::query(&write)
            .bind(room.to_string())
            .bind(i64::from(seat.0));
        if holder.is_some() {
            query = query.bind(identity);
        }
        query.execute(&self.pool).await?;
        Ok(())
    }

    /// Records that `room`'s match has started: the match row, who plays which seat, and the
    /// room's new state, together (in cluster mode fenced by the room's lease). On PostgreSQL
    /// one statement, the lease's lock and check included (one round trip); on SQLite one
    /// transaction.
    pub async fn start_match(
        &self,
        started: &MatchRecord,
        fence: Option<&Fence>,
    ) -> Result<(), FencedError> {
        let d = self.dialect;
        let (id, room_id) = (d.uuid(1), d.uuid(2));
        let values = format!(
            "{id}, {room_id}, $3, {}, $5, $6, $7, $8, 0, {}",
            d.json(4),
            d.time(9)
        );
        let columns = "INSERT INTO matches (id, room_id, ruleset, options, seat_count, seed, \
                       seed_commitment, state, action_count, started_at)";
        let seats = seat_rows(started.seats.iter().map(|player| Some(player.id)));
        if d == Dialect::Postgres {
            let sql = format!(
                "WITH {}, started AS ({columns} SELECT {values} FROM held), \
                 seats AS ({} WHERE EXISTS (SELECT 1 FROM held)), \
                 room AS (UPDATE rooms SET state = $11, match_id = {id} \
                 WHERE id = {room_id} AND EXISTS (SELECT 1 FROM held)) \
                 SELECT COUNT(*) AS held FROM held",
                held_part(fence.is_some(), 2, 12),
                self.seats_insert("match_seats (match_id", 1, 10)
            );
            let query = bind_match(sqlx::query(&sql), started)
                .bind(seats)
                .bind(RoomState::Playing.as_str());
            return held(self, query, fence).await;
        }
        let mut write = self
            .begin_room_write(started.room_id, fence, Statements::Many)
            .await?;
        bind_match(
            sqlx::query(&format!("{columns} VALUES ({values})")),
            started,
        )
        .execute(write.conn())
        .await?;
        sqlx::query(&self.seats_insert("match_seats (match_id", 1, 2))
            .bind(started.id.to_string())
            .bind(seats)
            .execute(write.conn())
            .await?;
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

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Binds a room's row as `$1` to `$11` of [`Store::room_insert`].
fn bind_room<'q>(query: AnyQuery<'q>, room: &RoomRecord) -> AnyQuery<'q> {
    query
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
}

/// Binds a started match's row as `$1` to `$9` of [`Store::start_match`].
fn bind_match<'q>(query: AnyQuery<'q>, started: &MatchRecord) -> AnyQuery<'q> {
    query
        .bind(started.id.to_string())
        .bind(started.room_id.to_string())
        .bind(started.ruleset.as_str())
        .bind(started.options.to_string())
        .bind(i64::try_from(started.seats.len()).unwrap_or(i64::MAX))
        .bind(started.seed.clone())
        .bind(started.seed_commitment.clone())
        .bind(MatchState::Playing.as_str())
        .bind(started.started_at)
}

/// A room's taken seats as the rows of [`Store::seats_insert`].
fn room_seat_rows(room: &RoomRecord) -> String {
    seat_rows(
        room.seats
            .iter()
            .map(|holder| holder.as_ref().map(|h| h.id)),
    )
}

/// The taken seats among `holders` (indexed by seat) as the JSON rows of
/// [`Store::seats_insert`]: `[{"seat": 0, "identity_id": "…"}, …]`.
fn seat_rows(holders: impl Iterator<Item = Option<IdentityId>>) -> String {
    let rows: Vec<serde_json::Value> = holders
        .enumerate()
        .filter_map(|(seat, holder)| {
            holder.map(|id| serde_json::json!({"seat": seat, "identity_id": id.to_string()}))
        })
        .collect();
    serde_json::Value::Array(rows).to_string()
}
