//! The database as last seen, so that an outage does not stop what needs no new write: a task
//! pings the database every second (and counts the stored rooms every few seconds while it
//! answers); `/readyz` and `/metrics` read what it saw and answer at once; and the identities
//! (with their mutes) this process looked up, kept in bounded maps, let a known token say
//! `hello` while the database does not answer (a `hello` needs no write). docs/OPERATIONS.md
//! "A database outage".

use std::sync::Mutex;
use std::time::Duration;

use sqlx::Row;
use tokio_util::sync::CancellationToken;
use warroom_protocol::{Identity, IdentityId};

use crate::bounded::BoundedMap;
use crate::store::Store;

/// How often the database is pinged.
const PING_EVERY: Duration = Duration::from_secs(1);
/// Every how many pings that answered the stored rooms are counted again (for `/metrics`).
const COUNT_EVERY: u32 = 5;
/// How many identities (by token hash) and mutes are kept for an outage.
const KNOWN_IDENTITIES: usize = 50_000;

/// What the last look at the database saw.
pub struct DatabaseHealth {
    /// Why the database is out of reach (`None` while it answers).
    problem: Mutex<Option<String>>,
    /// The stored rooms per state, as last counted.
    rooms_by_state: Mutex<Vec<(String, u64)>>,
    /// Identities by token hash, as last looked up.
    identities: BoundedMap<String, Identity>,
    /// Each identity's muted players, as last loaded.
    mutes: BoundedMap<IdentityId, Vec<IdentityId>>,
}

impl Default for DatabaseHealth {
    fn default() -> Self {
        DatabaseHealth {
            problem: Mutex::new(None),
            rooms_by_state: Mutex::new(Vec::new()),
            identities: BoundedMap::new(KNOWN_IDENTITIES),
            mutes: BoundedMap::new(KNOWN_IDENTITIES),
        }
    }
}

impl DatabaseHealth {
    /// Why the database is out of reach, if it was at the last look.
    pub fn problem(&self) -> Option<String> {
        lock(&self.problem).clone()
    }

    /// True when the last look found the database out of reach.
    pub fn is_down(&self) -> bool {
        lock(&self.problem).is_some()
    }

    /// The stored rooms per state, as last counted.
    pub fn rooms_by_state(&self) -> Vec<(String, u64)> {
        lock(&self.rooms_by_state).clone()
    }

    /// Notes the identity holding the token with this hash.
    pub fn remember_identity(&self, token_hash: &str, identity: &Identity) {
        self.identities
            .insert(token_hash.to_owned(), identity.clone());
    }

    /// The identity last seen holding the token with this hash.
    pub fn known_identity(&self, token_hash: &str) -> Option<Identity> {
        self.identities.get(&token_hash.to_owned())
    }

    /// Notes an identity's mutes.
    pub fn remember_mutes(&self, identity: IdentityId, mutes: &[IdentityId]) {
        self.mutes.insert(identity, mutes.to_vec());
    }

    /// An identity's mutes as last loaded.
    pub fn known_mutes(&self, identity: IdentityId) -> Option<Vec<IdentityId>> {
        self.mutes.get(&identity)
    }

    /// Looks at the database now: a ping within `timeout`, and the rooms counted when `count`.
    async fn look(&self, store: &Store, timeout: Duration, count: bool) {
        let problem = store.ping(timeout).await.err();
        if problem.is_none() && count {
            match tokio::time::timeout(timeout, count_rooms(store)).await {
                Ok(Ok(rooms)) => *lock(&self.rooms_by_state) = rooms,
                Ok(Err(error)) => tracing::warn!("cannot count the stored rooms: {error}"),
                Err(_) => tracing::warn!("cannot count the stored rooms within {timeout:?}"),
            }
        }
        let mut held = lock(&self.problem);
        match (&*held, &problem) {
            (None, Some(problem)) => tracing::warn!("the database is out of reach: {problem}"),
            (Some(_), None) => tracing::info!("the database answers again"),
            _ => {}
        }
        *held = problem;
    }

    /// Looks at the database every second until `stop`, each ping given `timeout`.
    pub async fn watch(&self, store: Store, timeout: Duration, stop: CancellationToken) {
        let mut looks = 0u32;
        loop {
            self.look(&store, timeout, looks.is_multiple_of(COUNT_EVERY))
                .await;
            looks = looks.wrapping_add(1);
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(PING_EVERY) => {}
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Stored rooms per state.
async fn count_rooms(store: &Store) -> sqlx::Result<Vec<(String, u64)>> {
    let rows = sqlx::query("SELECT state, COUNT(*) AS rooms FROM rooms GROUP BY state")
        .fetch_all(store.pool())
        .await?;
    Ok(rows
        .iter()
        .filter_map(|row| {
            let state: String = row.try_get("state").ok()?;
            let count: i64 = row.try_get("rooms").ok()?;
            Some((state, u64::try_from(count).unwrap_or(0)))
        })
        .collect())
}
