//! Stored chat: each line of a room with the match it belongs to and the seq it was said at
//! (so replays show it at its moment), and whose chat each identity muted.

use sqlx::Row;
use warroom_protocol::{ChatChannel, ChatLine, IdentityId, MatchId, RoomId};

use super::fenced::{FencedError, Statements};
use super::identities::{identity_from, parse_column};
use super::leases::Fence;
use super::{Store, now_ms, rfc3339};
use warroom_room::chat::HISTORY_LINES;

impl Store {
    /// The columns [`line_from`] reads, of the lines aliased `c` and their speakers `i`.
    fn line_columns(&self) -> String {
        format!(
            "c.id, c.seq, c.channel, c.body, {}, {}, i.name AS speaker_name",
            self.dialect.ms("c.created_at", "created_at"),
            self.dialect.text("i.id", "speaker_id"),
        )
    }

    /// Stores a line said in `room` (during or after `match_id`, if the match has started); in
    /// cluster mode fenced by the room's lease (`fenced.rs`).
    pub async fn add_chat_line(
        &self,
        fence: Option<&Fence>,
        room: RoomId,
        match_id: Option<MatchId>,
        line: &ChatLine,
        at_ms: i64,
    ) -> Result<(), FencedError> {
        let d = self.dialect;
        let mut write = self.begin_room_write(room, fence, Statements::One).await?;
        let (room_id, match_id_param, speaker, at) = (d.uuid(1), d.uuid(3), d.uuid(6), d.time(8));
        sqlx::query(&format!(
            "INSERT INTO chat_messages \
             (room_id, id, match_id, seq, channel, identity_id, body, created_at) \
             VALUES ({room_id}, $2, {match_id_param}, $4, $5, {speaker}, $7, {at})"
        ))
        .bind(room.to_string())
        .bind(i64::try_from(line.id).unwrap_or(i64::MAX))
        .bind(match_id.map(|id| id.to_string()))
        .bind(i64::try_from(line.seq).unwrap_or(i64::MAX))
        .bind(line.channel.as_str())
        .bind(line.from.id.to_string())
        .bind(line.text.clone())
        .bind(at_ms)
        .execute(write.conn())
        .await?;
        Ok(write.commit().await?)
    }

    /// The room's newest lines (at most [`HISTORY_LINES`]), oldest first.
    pub async fn room_chat(&self, room: RoomId) -> sqlx::Result<Vec<ChatLine>> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM chat_messages c JOIN identities i ON i.id = c.identity_id \
             WHERE c.room_id = {} ORDER BY c.id DESC LIMIT $2",
            self.line_columns(),
            self.dialect.uuid(1)
        ))
        .bind(room.to_string())
        .bind(i64::try_from(HISTORY_LINES).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows
            .iter()
            .map(line_from)
            .collect::<sqlx::Result<Vec<_>>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// Every line said during or after a match, oldest first.
    pub async fn match_chat(&self, match_id: MatchId) -> sqlx::Result<Vec<ChatLine>> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM chat_messages c JOIN identities i ON i.id = c.identity_id \
             WHERE c.match_id = {} ORDER BY c.id",
            self.line_columns(),
            self.dialect.uuid(1)
        ))
        .bind(match_id.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(line_from).collect()
    }

    /// Whose chat `identity` muted.
    pub async fn mutes(&self, identity: IdentityId) -> sqlx::Result<Vec<IdentityId>> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM mutes WHERE identity_id = {}",
            self.dialect.text("muted_id", "muted_id"),
            self.dialect.uuid(1)
        ))
        .bind(identity.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| parse_column("muted_id", &row.try_get::<String, _>("muted_id")?))
            .collect()
    }

    /// Mutes (or unmutes) `muted` for `identity`.
    pub async fn set_mute(
        &self,
        identity: IdentityId,
        muted: IdentityId,
        on: bool,
    ) -> sqlx::Result<()> {
        let d = self.dialect;
        let (who, whom) = (d.uuid(1), d.uuid(2));
        let sql = if on {
            format!(
                "INSERT INTO mutes (identity_id, muted_id, created_at) VALUES ({who}, {whom}, {}) \
                 ON CONFLICT (identity_id, muted_id) DO NOTHING",
                d.time(3)
            )
        } else {
            format!("DELETE FROM mutes WHERE identity_id = {who} AND muted_id = {whom}")
        };
        let query = sqlx::query(&sql)
            .bind(identity.to_string())
            .bind(muted.to_string());
        let query = if on { query.bind(now_ms()) } else { query };
        query.execute(&self.pool).await?;
        Ok(())
    }
}

fn line_from(row: &sqlx::any::AnyRow) -> sqlx::Result<ChatLine> {
    let channel: String = row.try_get("channel")?;
    Ok(ChatLine {
        id: u64::try_from(row.try_get::<i64, _>("id")?).unwrap_or(0),
        seq: u64::try_from(row.try_get::<i64, _>("seq")?).unwrap_or(0),
        channel: ChatChannel::parse(&channel).ok_or_else(|| sqlx::Error::ColumnDecode {
            index: "channel".into(),
            source: format!("unknown chat channel {channel:?}").into(),
        })?,
        from: identity_from(row, "speaker_id", "speaker_name")?,
        text: row.try_get("body")?,
        at: rfc3339(row.try_get("created_at")?),
    })
}
