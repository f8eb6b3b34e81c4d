//! Quick play's turn in cluster mode (PostgreSQL only): one quick play of a ruleset at a time
//! in the whole cluster, so that two players pressing "Play now" at once on two nodes are sent
//! to one room. The turn is a transaction holding an advisory lock of the ruleset
//! (`pg_advisory_xact_lock`) while the room is picked or opened (stored); the next quick play
//! then finds that room in the database. Ending the transaction (commit, or rollback when the
//! request is dropped) frees the lock; a node frozen while holding it has its session ended by
//! the database after `idle_in_transaction_session_timeout` (the lease).

use sqlx::{Any, Transaction};
use warroom_engine::RulesetId;

use super::Store;

/// The first key of quick play's advisory locks ("wrrm"); the second is the ruleset's hash.
const QUICK_PLAY_LOCKS: i32 = 0x7772_726d;

/// Quick play's turn for one ruleset, held until ended or dropped.
pub struct QuickPlayTurn {
    tx: Transaction<'static, Any>,
}

impl QuickPlayTurn {
    /// Gives the turn to the next quick play.
    pub async fn end(self) {
        if let Err(error) = self.tx.commit().await {
            // The lock went with the session anyway.
            tracing::warn!("quick play's turn did not end cleanly: {error}");
        }
    }
}

impl Store {
    /// Waits for quick play's turn for `ruleset`, cluster-wide.
    pub async fn quick_play_turn(&self, ruleset: RulesetId) -> sqlx::Result<QuickPlayTurn> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1, hashtext($2))) AS locked")
            .bind(QUICK_PLAY_LOCKS)
            .bind(ruleset.as_str())
            .execute(&mut *tx)
            .await?;
        Ok(QuickPlayTurn { tx })
    }
}
