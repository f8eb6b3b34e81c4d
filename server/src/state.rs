//! What every handler shares: the database, the rooms, the limits (per-address ones too) and the
//! shutdown signal.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use tokio_util::sync::CancellationToken;
use warroom_protocol::{Identity, IdentityId, Room, RoomId};

use crate::cluster::node::ClusterNode;
use crate::config::Limits;
use crate::database_health::DatabaseHealth;
use crate::error::ApiError;
use crate::identity::{bearer_token, token_hash};
use crate::metrics::Metrics;
use crate::per_ip::{CreationRate, SocketCount, TrustForwardedFor};
use crate::ratings::matchmaking::Window;
use crate::room::{ConnId, Rooms};
use crate::store::writer::WriterHealth;
use crate::store::{RoomRecord, Store};

/// Shared application state (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The running rooms.
    pub rooms: Arc<Rooms>,
    /// Limits on clients.
    pub limits: Limits,
    /// Cancelled when the server shuts down: sockets close with a reason.
    pub shutdown: CancellationToken,
    /// What `/metrics` reports.
    pub metrics: Arc<Metrics>,
    /// Guests created per client address.
    pub guests_per_ip: Arc<CreationRate>,
    /// Rooms opened per client address.
    pub rooms_per_ip: Arc<CreationRate>,
    /// WebSockets open per client address.
    pub sockets_per_ip: Arc<SocketCount>,
    /// How the batching writer is doing (`/readyz`).
    pub writer_health: Arc<WriterHealth>,
    /// The database as last seen, and what is kept for an outage (`/readyz`, `/metrics`,
    /// `hello` with a known token, the lobby).
    pub database: Arc<DatabaseHealth>,
    /// Source of connection ids.
    next_conn: Arc<AtomicU64>,
    /// Cluster mode: this node (rooms served elsewhere, placement).
    pub cluster: Option<Arc<ClusterNode>>,
    /// Rated quick play's window (`ratings/matchmaking.rs`).
    pub matchmaking: Window,
}

impl AppState {
    /// Application state over these parts.
    pub fn new(
        store: Store,
        rooms: Arc<Rooms>,
        limits: Limits,
        shutdown: CancellationToken,
        metrics: Arc<Metrics>,
        writer_health: Arc<WriterHealth>,
    ) -> Self {
        AppState {
            store,
            rooms,
            guests_per_ip: Arc::new(CreationRate::new("guests", limits.guests_per_ip_per_minute)),
            rooms_per_ip: Arc::new(CreationRate::new("rooms", limits.rooms_per_ip_per_minute)),
            sockets_per_ip: SocketCount::new(limits.max_sockets_per_ip),
            limits,
            shutdown,
            metrics,
            writer_health,
            database: Arc::new(DatabaseHealth::default()),
            next_conn: Arc::new(AtomicU64::new(1)),
            cluster: None,
            matchmaking: crate::config::RatingsConfig::default().window(),
        }
    }

    /// Rated quick play's window (`--matchmaking-start`, `-per-second`, `-max`).
    pub fn with_matchmaking(mut self, window: Window) -> Self {
        self.matchmaking = window;
        self
    }

    /// Cluster mode: this node; the creation allowances per address become the cluster's.
    pub fn with_cluster(mut self, cluster: Option<Arc<ClusterNode>>) -> Self {
        if cluster.is_some() {
            let shared = |what, per_minute| {
                Arc::new(CreationRate::shared(what, per_minute, self.store.clone()))
            };
            self.guests_per_ip = shared("guests", self.limits.guests_per_ip_per_minute);
            self.rooms_per_ip = shared("rooms", self.limits.rooms_per_ip_per_minute);
        }
        self.cluster = cluster;
        self
    }

    /// Opens a new room (stored already): here, or in cluster mode on the live node with the
    /// fewest leases. The room as it runs.
    pub async fn open_room(&self, record: crate::store::RoomRecord) -> Result<Room, ApiError> {
        match &self.cluster {
            Some(cluster) => cluster.place(record).await,
            None => Ok(self.rooms.open(record).await?.summary()),
        }
    }

    /// The room as the lobby shows it, from the node serving it.
    pub async fn room_summary(&self, id: RoomId) -> Result<Room, ApiError> {
        match &self.cluster {
            Some(cluster) => cluster.summary(id).await,
            None => self.rooms.summary(id).await,
        }
    }

    /// Stored rooms as the lobby shows them: a room running here with its live summary, a room
    /// served by another node (cluster mode) with the presence its node wrote
    /// (`cluster/presence.rs`), else with nobody connected.
    pub async fn lobby_summaries(&self, records: &[RoomRecord]) -> Vec<Room> {
        let mut rooms = Vec::with_capacity(records.len());
        let mut elsewhere = Vec::new();
        for record in records {
            if self.cluster.is_some() && self.rooms.running(record.id).is_none() {
                elsewhere.push(record.id);
            }
            rooms.push(self.rooms.lobby_summary(record));
        }
        if elsewhere.is_empty() {
            return rooms;
        }
        match self.store.presence_of(&elsewhere).await {
            Ok(presence) => {
                for room in &mut rooms {
                    if let Some(presence) = presence.get(&room.id) {
                        presence.apply(room);
                    }
                }
            }
            // The lobby is still shown, with nobody connected in those rooms.
            Err(error) => tracing::warn!("cannot read the rooms' presence: {error}"),
        }
        rooms
    }

    /// A fresh connection id.
    pub fn next_conn_id(&self) -> ConnId {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The identity holding `token`, or `unauthorized`. While the database is out of reach, an
    /// identity this process looked up before is known without it (at once once the outage
    /// was seen; else when the lookup fails); an unknown token is then `unavailable`.
    pub async fn identity_for_token(&self, token: &str) -> Result<Identity, ApiError> {
        let hash = token_hash(token);
        let known = || self.database.known_identity(&hash);
        if self.database.is_down()
            && let Some(identity) = known()
        {
            return Ok(identity);
        }
        match self.store.identity_by_token_hash(&hash).await {
            Ok(Some(identity)) => {
                self.database.remember_identity(&hash, &identity);
                Ok(identity)
            }
            Ok(None) => Err(ApiError::unauthorized()),
            Err(error) => known().ok_or_else(|| error.into()),
        }
    }

    /// The players `identity` mutes; while the database is out of reach, as last loaded.
    pub async fn mutes_of(&self, identity: IdentityId) -> Vec<IdentityId> {
        let known = || self.database.known_mutes(identity);
        if self.database.is_down()
            && let Some(mutes) = known()
        {
            return mutes;
        }
        match self.store.mutes(identity).await {
            Ok(mutes) => {
                self.database.remember_mutes(identity, &mutes);
                mutes
            }
            Err(error) => {
                tracing::error!("cannot load the mutes of {identity}: {error}");
                known().unwrap_or_default()
            }
        }
    }

    /// The identity of a request's bearer token: `None` without an `Authorization` header,
    /// `unauthorized` with a bad one.
    pub async fn optional_identity(
        &self,
        headers: &HeaderMap,
    ) -> Result<Option<Identity>, ApiError> {
        let Some(header) = headers.get(axum::http::header::AUTHORIZATION) else {
            return Ok(None);
        };
        let token = header
            .to_str()
            .ok()
            .and_then(bearer_token)
            .ok_or_else(ApiError::unauthorized)?;
        self.identity_for_token(token).await.map(Some)
    }

    /// The identity of a request's bearer token, required.
    pub async fn required_identity(&self, headers: &HeaderMap) -> Result<Identity, ApiError> {
        self.optional_identity(headers)
            .await?
            .ok_or_else(ApiError::unauthorized)
    }
}

/// The bearer's identity, for a route that requires one: a handler's argument, taken after its
/// path and query (`unauthorized` without a known bearer token).
pub struct Bearer(pub Identity);

/// The bearer's identity if the request names a token, for a route open to all: a handler's
/// argument, taken after its path and query (`unauthorized` for a token no identity holds).
pub struct MaybeBearer(pub Option<Identity>);

impl FromRequestParts<AppState> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        state.required_identity(&parts.headers).await.map(Bearer)
    }
}

impl FromRequestParts<AppState> for MaybeBearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        state
            .optional_identity(&parts.headers)
            .await
            .map(MaybeBearer)
    }
}

impl axum::extract::FromRef<AppState> for TrustForwardedFor {
    fn from_ref(state: &AppState) -> TrustForwardedFor {
        TrustForwardedFor(state.limits.trust_forwarded_for)
    }
}
