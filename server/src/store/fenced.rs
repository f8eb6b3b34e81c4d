//! A room's writes fenced by its lease (cluster mode, docs/SCALING.md "The fenced writes"): a
//! seat taken or given back, the match start, a chat line, the rematch room, the expiry. In
//! cluster mode each first locks the room's lease row (`FOR SHARE`, as the writer's fenced
//! append does) and checks that it is still held by this node at the epoch the room was
//! acquired at, unexpired; otherwise nothing is written ([`FencedError::Moved`]) and the room
//! stops (`room_moved`). The lock holds the lease until the write commits, so a node acquiring
//! the room waits for it and then loads the room with it, or took the lease first and the
//! write is refused.
//!
//! The writes every match makes (a seat, the start) are one PostgreSQL statement, the lock and
//! check its first part ([`held_part`], [`held`]; `SELECT 1` without a fence). The others run
//! in a transaction that begins with the check ([`Store::begin_fenced`]); without a fence (a
//! single server, SQLite or PostgreSQL) a single-statement write runs on a connection of the
//! pool, and a write of several statements in a plain transaction: [`RoomWrite`] chooses.

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, Transaction};
use warroom_protocol::RoomId;

use super::Store;
use super::leases::Fence;
use crate::error::ApiError;

/// Why a room's write was not done.
#[derive(Debug, thiserror::Error)]
pub enum FencedError {
    /// The room's lease is no longer this node's at the room's epoch (it expired, or another
    /// node took it): nothing was written, the room stops here.
    #[error("the room's lease moved on")]
    Moved,
    /// The database refused or failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl From<FencedError> for ApiError {
    fn from(error: FencedError) -> Self {
        match error {
            FencedError::Moved => ApiError::room_moved(),
            FencedError::Database(error) => error.into(),
        }
    }
}

/// How many statements a write has: one commits on its own without a fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Statements {
    /// One statement.
    One,
    /// Several, committed together.
    Many,
}

/// A room's write in progress: a plain connection, or a transaction (fenced or not).
pub(crate) enum RoomWrite {
    /// A single statement without a fence.
    Plain(PoolConnection<Any>),
    /// A transaction; fenced ones hold their lease row locked until they end.
    Transaction(Transaction<'static, Any>),
}

impl RoomWrite {
    /// The connection to run the write's statements on.
    pub(crate) fn conn(&mut self) -> &mut AnyConnection {
        match self {
            RoomWrite::Plain(conn) => conn,
            RoomWrite::Transaction(tx) => tx,
        }
    }

    /// Commits the write (a plain statement is committed already).
    pub(crate) async fn commit(self) -> sqlx::Result<()> {
        match self {
            RoomWrite::Plain(_) => Ok(()),
            RoomWrite::Transaction(tx) => tx.commit().await,
        }
    }
}

/// The `held` part of a room's write made one PostgreSQL statement (`WITH held AS (…), …
/// SELECT COUNT(*) AS held FROM held`): one row when the room's lease (id `$room`) is locked
/// (`FOR SHARE`, as [`Store::begin_fenced`] does) and still this node's (owner `$owner`, epoch
/// `$owner + 1`) and unexpired, none when it moved on; without a fence, always one row. Each
/// data-modifying part writes only `FROM held` or `WHERE EXISTS (SELECT 1 FROM held)`, so the
/// statement writes everything or nothing, and [`held`] reads which.
pub(crate) fn held_part(fenced: bool, room: u8, owner: u8) -> String {
    if fenced {
        format!(
            "held AS (SELECT 1 FROM room_leases WHERE room_id = ${room}::uuid AND owner = ${owner} \
             AND epoch = ${} AND expires_at > clock_timestamp() FOR SHARE)",
            owner + 1
        )
    } else {
        "held AS (SELECT 1)".to_owned()
    }
}

/// Runs a statement built around [`held_part`] (its fence, if any, bound last): `Moved` when
/// the lease did not hold and nothing was written.
pub(crate) async fn held<'q>(
    store: &Store,
    query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    fence: Option<&'q Fence>,
) -> Result<(), FencedError> {
    let query = match fence {
        Some(fence) => query.bind(fence.node.as_ref()).bind(fence.epoch),
        None => query,
    };
    let held: i64 = sqlx::Row::try_get(&query.fetch_one(store.pool()).await?, "held")?;
    if held == 0 {
        Err(FencedError::Moved)
    } else {
        Ok(())
    }
}

impl Store {
    /// A transaction in which `room`'s lease is locked (`FOR SHARE`) and checked to be
    /// `fence`'s (owner and epoch) and unexpired, on the database's clock; `Moved` when it is
    /// not. PostgreSQL only (leases exist in cluster mode only).
    pub async fn begin_fenced(
        &self,
        room: RoomId,
        fence: &Fence,
    ) -> Result<Transaction<'static, Any>, FencedError> {
        let mut tx = self.pool().begin().await?;
        let held = sqlx::query(
            "SELECT 1 FROM room_leases WHERE room_id = $1::uuid AND owner = $2 AND epoch = $3 \
             AND expires_at > clock_timestamp() FOR SHARE",
        )
        .bind(room.to_string())
        .bind(fence.node.as_ref())
        .bind(fence.epoch)
        .fetch_optional(&mut *tx)
        .await?;
        if held.is_none() {
            tx.rollback().await?;
            return Err(FencedError::Moved);
        }
        Ok(tx)
    }

    /// Begins a write of `room`: fenced by `fence` in cluster mode, else plain.
    pub(crate) async fn begin_room_write(
        &self,
        room: RoomId,
        fence: Option<&Fence>,
        statements: Statements,
    ) -> Result<RoomWrite, FencedError> {
        Ok(match (fence, statements) {
            (Some(fence), _) => RoomWrite::Transaction(self.begin_fenced(room, fence).await?),
            (None, Statements::One) => RoomWrite::Plain(self.pool().acquire().await?),
            (None, Statements::Many) => RoomWrite::Transaction(self.pool().begin().await?),
        })
    }
}
