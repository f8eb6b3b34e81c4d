//! The registry of running rooms: spawns room tasks, finds them by id (loading a stored room on
//! first use, or again after it left memory idle: `eviction.rs`), rebuilds the running matches at
//! start-up (waiting rooms are loaded when first joined, and those nobody joined are expired
//! once the waiting-room expiry has passed), shows rooms not in memory from the database
//! (`stored_summary.rs`), and stops them all at shutdown.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;
use warroom_engine::Seed;
use warroom_protocol::{Room, RoomId, RoomState};

use super::RoomHandle;
use super::eviction::{self, Eviction, Running};
use super::leasing::{Ending, Leasing, RoomLease};
use super::remote::Remotes;
use super::stored_summary::{STORED_SUMMARIES, StoredSummaries};
use super::task::RoomTask;
use crate::config::Limits;
use crate::error::ApiError;
use crate::identity::random_bytes;
use crate::runner::MatchRunner;
use crate::runner::rules;
use crate::store::presence::RoomPresence;
use crate::store::writer::Writer;
use crate::store::{ActionRecord, RoomRecord, Store, now_ms};
use warroom_room::clock::{Clock, StoredClock};
use warroom_room::game::Game;
use warroom_room::timed_out_in_log;
use warroom_room::{Limits as CoreLimits, RoomCore};

/// Commands a room queues before answering `busy`.
const ROOM_QUEUE: usize = 256;

/// Every room task of this server.
pub struct Rooms {
    /// Running rooms. The lock guards only the map (never held across an await), no game state;
    /// an idle room takes itself out (`eviction.rs`).
    running: Running,
    /// Rooms that left memory idle since the start.
    evictions: Arc<AtomicU64>,
    store: Store,
    writer: Writer,
    limits: Limits,
    /// Cancelled at shutdown: each room finishes the command in hand and stops.
    stop: CancellationToken,
    /// The room tasks, awaited at shutdown.
    tasks: TaskTracker,
    /// Cluster mode: this node's leases; a room is served here only under one.
    leasing: Option<Arc<Leasing>>,
    /// Cluster mode: where rooms served here publish for their followers on other nodes.
    relays: Option<Arc<dyn Remotes>>,
    /// Finished and expired rooms' summaries, shown without loading them.
    summaries: StoredSummaries,
    /// Held (shared) while a stored room is read and loaded, and (alone) while the waiting rooms
    /// nobody loaded since the start are expired, so none is expired as it is being loaded.
    loading: tokio::sync::RwLock<()>,
}

/// Where a room is served.
#[derive(Clone, Debug)]
pub enum Located {
    /// By this process.
    Here(RoomHandle),
    /// By another node of the cluster (its id), which holds the room's lease.
    There(String),
}

impl Rooms {
    /// An empty registry.
    pub fn new(store: Store, writer: Writer, limits: Limits) -> Rooms {
        Rooms {
            running: Arc::new(Mutex::new(HashMap::new())),
            evictions: Arc::new(AtomicU64::new(0)),
            store,
            writer,
            limits,
            stop: CancellationToken::new(),
            tasks: TaskTracker::new(),
            leasing: None,
            relays: None,
            summaries: StoredSummaries::new(STORED_SUMMARIES),
            loading: tokio::sync::RwLock::new(()),
        }
    }

    /// Cluster mode: rooms served here relay their messages to other nodes through `relays`.
    pub fn with_relays(mut self, relays: Arc<dyn Remotes>) -> Rooms {
        self.relays = Some(relays);
        self
    }

    /// Cluster mode: rooms are served under this node's leases.
    pub fn with_leasing(mut self, leasing: Arc<Leasing>) -> Rooms {
        self.leasing = Some(leasing);
        self
    }

    /// This node's leases, in cluster mode.
    pub fn leasing(&self) -> Option<&Arc<Leasing>> {
        self.leasing.as_ref()
    }

    /// Rebuilds and starts every room whose match is running; waiting rooms older than the
    /// waiting-room expiry are expired, the others stay in the database until someone joins
    /// them (nobody is connected to a room after a restart), and those still not loaded when the
    /// expiry has passed again are expired then (`expire_unloaded_waiting_rooms`). So a restart
    /// costs memory for the running matches only. Returns how many were rebuilt.
    /// In cluster mode nothing is rebuilt here: the nodes take the running matches over
    /// (`cluster/takeover.rs`), and waiting rooms are loaded when someone joins.
    pub async fn load_unfinished(self: &Arc<Self>) -> anyhow::Result<usize> {
        if self.leasing.is_some() {
            return Ok(0);
        }
        let expiry_ms = i64::try_from(self.expiry().as_millis()).unwrap_or(i64::MAX);
        let started_ms = now_ms();
        let expired = self
            .store
            .expire_waiting_rooms_before(started_ms.saturating_sub(expiry_ms))
            .await?;
        if expired > 0 {
            tracing::info!("{expired} waiting rooms older than the expiry were expired");
        }
        let records = self.store.playing_rooms().await?;
        let count = records.len();
        for record in records {
            let id = record.id;
            let core = self.core_for(record).await?;
            self.insert(id, core);
        }
        let rooms = self.clone();
        self.tasks.spawn(async move {
            tokio::select! {
                () = rooms.stop.cancelled() => {}
                () = tokio::time::sleep(rooms.expiry()) => {
                    if let Err(error) = rooms.expire_unloaded_waiting_rooms(started_ms).await {
                        tracing::warn!("cannot expire the waiting rooms nobody joined: {error}");
                    }
                }
            }
        });
        Ok(count)
    }

    /// Expires the waiting rooms created before `started_ms` (this process's start) that are
    /// not in memory: nobody joined them for a whole waiting-room expiry since the start, as a
    /// room in memory expires after that long with nobody in it.
    async fn expire_unloaded_waiting_rooms(&self, started_ms: i64) -> anyhow::Result<()> {
        let candidates = self.store.waiting_rooms_before(started_ms).await?;
        let _alone = self.loading.write().await;
        let unloaded: Vec<RoomId> = {
            let running = self.lock();
            candidates
                .into_iter()
                .filter(|id| !running.contains_key(id))
                .collect()
        };
        let expired = self.store.expire_waiting_rooms(&unloaded).await?;
        if expired > 0 {
            tracing::info!("{expired} waiting rooms nobody joined since the start were expired");
        }
        Ok(())
    }

    /// The room with this id as anyone may see it (no invite code): a room in memory from its
    /// task; a finished, expired or waiting room not in memory from the database (and a bounded
    /// cache), without loading it; a running match not in memory is loaded (its task shows its
    /// clock and presence).
    pub async fn summary(&self, id: RoomId) -> Result<Room, ApiError> {
        if let Some(handle) = self.running_handle(id) {
            return Ok(handle.summary());
        }
        if let Some(room) = self.summaries.cached(id) {
            return Ok(room);
        }
        let record = self
            .store
            .room(id)
            .await?
            .ok_or_else(ApiError::room_not_found)?;
        if record.state == RoomState::Playing {
            return Ok(self.get(id).await?.summary());
        }
        self.summaries.summary(&self.store, &record).await
    }

    /// A finished or expired room not running here, as the database keeps it (cached, never
    /// loaded into a room task): `None` for a room that is waiting or playing.
    pub async fn finished_summary(&self, id: RoomId) -> Result<Option<Room>, ApiError> {
        if let Some(room) = self.summaries.cached(id) {
            return Ok(Some(room));
        }
        let record = self
            .store
            .room(id)
            .await?
            .ok_or_else(ApiError::room_not_found)?;
        if !matches!(record.state, RoomState::Finished | RoomState::Expired) {
            return Ok(None);
        }
        self.summaries.summary(&self.store, &record).await.map(Some)
    }

    /// Starts the task of a new room (in cluster mode under a new lease).
    pub async fn open(&self, record: RoomRecord) -> Result<RoomHandle, ApiError> {
        let rules =
            rules(record.ruleset).ok_or_else(|| ApiError::internal("ruleset not built in"))?;
        let id = record.id;
        let core = RoomCore::new(
            record,
            rules,
            None,
            &self.core_limits(),
            random_bytes()?,
            wall(),
        );
        let Some(leasing) = &self.leasing else {
            return Ok(self.spawn(id, self.task(core, None)));
        };
        let _one = leasing.acquiring.lock().await;
        let lease = leasing
            .acquire_new(id)
            .await?
            .ok_or_else(ApiError::room_moved)?;
        Ok(self.spawn(id, self.task(core, Some(lease))))
    }

    /// The room with this id, served here: loading a stored one (e.g. finished before a
    /// restart) on first use; in cluster mode `room_moved` when another node serves it.
    pub async fn get(&self, id: RoomId) -> Result<RoomHandle, ApiError> {
        match self.locate(id).await? {
            Located::Here(handle) => Ok(handle),
            Located::There(_) => Err(ApiError::room_moved()),
        }
    }

    /// Where the room with this id is served: here (loading it on first use; in cluster mode
    /// after acquiring its lease) or by the node holding its lease.
    pub async fn locate(&self, id: RoomId) -> Result<Located, ApiError> {
        if let Some(handle) = self.running_handle(id) {
            return Ok(Located::Here(handle));
        }
        let Some(leasing) = &self.leasing else {
            let _loading = self.loading.read().await;
            let record = self
                .store
                .room(id)
                .await?
                .ok_or_else(ApiError::room_not_found)?;
            let core = self.core_for(record).await.map_err(ApiError::internal)?;
            return Ok(Located::Here(self.insert(id, core)));
        };
        // A room another node serves needs no acquisition: answered without waiting for this
        // node's acquisitions in hand (a takeover of many rooms rebuilds them one at a time).
        if let Some(holder) = self.store.lease_holder(id).await?
            && holder.live
            && *holder.owner != *leasing.node
        {
            return Ok(Located::There(holder.owner));
        }
        let _one = leasing.acquiring.lock().await;
        if let Some(handle) = self.running_handle(id) {
            return Ok(Located::Here(handle));
        }
        if leasing.draining.is_cancelled() {
            // Stopping: the room is for another node to serve.
            return Err(ApiError::room_moved());
        }
        let record = self
            .store
            .room(id)
            .await?
            .ok_or_else(ApiError::room_not_found)?;
        // Twice: a lease that expires between the attempt and the look is free the second time.
        for _ in 0..2 {
            if let Some(lease) = leasing.acquire(id).await? {
                let epoch = lease.fence.epoch;
                return match self.core_for(record).await {
                    Ok(core) => Ok(Located::Here(self.spawn(id, self.task(core, Some(lease))))),
                    Err(error) => {
                        leasing.ended(id, epoch, Ending::Idle).await;
                        Err(ApiError::internal(error))
                    }
                };
            }
            match self.store.lease_holder(id).await? {
                Some(holder) if holder.live => return Ok(Located::There(holder.owner)),
                _ => {}
            }
        }
        Err(ApiError::unavailable(format!(
            "the lease of room {id} is changing hands"
        )))
    }

    /// The public rooms that are waiting or playing, newest first (what can be joined or
    /// watched: not finished or expired ones, nor matches no person plays any more, which bots
    /// finish on their own).
    pub fn public_rooms(&self) -> Vec<Room> {
        let mut rooms: Vec<Room> = self
            .lock()
            .values()
            .map(RoomHandle::summary)
            .filter(|room| {
                !room.private
                    && matches!(room.state, RoomState::Waiting | RoomState::Playing)
                    && warroom_room::summary::played_by_a_person(room)
            })
            .collect();
        // RFC 3339 times of one format sort as text.
        rooms.sort_by(|a, b| b.created_at.cmp(&a.created_at));
        rooms
    }

    /// Cluster mode: the presence of the public waiting or playing rooms served here, each with
    /// the epoch of this node's lease on it (what `cluster/presence.rs` writes).
    pub fn served_presence(&self) -> Vec<(RoomId, i64, RoomPresence)> {
        let Some(leasing) = &self.leasing else {
            return Vec::new();
        };
        let listed: Vec<(RoomId, RoomPresence)> = self
            .lock()
            .values()
            .filter(|handle| !handle.is_closed())
            .filter_map(|handle| {
                let room = handle.summary.borrow();
                let shown =
                    !room.private && matches!(room.state, RoomState::Waiting | RoomState::Playing);
                shown.then(|| (handle.id, RoomPresence::of(&room)))
            })
            .collect();
        listed
            .into_iter()
            .filter_map(|(room, presence)| Some((room, leasing.epoch(room)?, presence)))
            .collect()
    }

    /// The room as the lobby shows it: the running room's summary (with presence), or, for a
    /// room not in memory, its stored record with nobody connected.
    pub fn lobby_summary(&self, record: &RoomRecord) -> Room {
        match self.lock().get(&record.id) {
            Some(handle) => handle.summary(),
            None => warroom_room::summary::room_for(
                record,
                &warroom_room::Followers::default(),
                &warroom_room::summary::SeatsNow::default(),
                None,
            ),
        }
    }

    /// How many rooms are held in memory.
    pub fn in_memory(&self) -> usize {
        self.lock().len()
    }

    /// How many rooms left memory idle since the start.
    pub fn evictions(&self) -> u64 {
        self.evictions.load(Ordering::Relaxed)
    }

    /// The room with this id if it runs here now (never loads it).
    pub fn running(&self, id: RoomId) -> Option<RoomHandle> {
        self.running_handle(id)
    }

    /// The handle of a running room; a room whose task stopped is forgotten.
    fn running_handle(&self, id: RoomId) -> Option<RoomHandle> {
        let mut running = self.lock();
        match running.get(&id) {
            Some(handle) if handle.is_closed() => {
                running.remove(&id);
                None
            }
            other => other.cloned(),
        }
    }

    /// Stops every room after the command in hand, and waits for them.
    pub async fn stop_all(&self) {
        self.stop.cancel();
        self.tasks.close();
        self.tasks.wait().await;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RoomId, RoomHandle>> {
        eviction::lock(&self.running)
    }

    /// Builds the state of a stored room, replaying its match if it has one.
    async fn core_for(&self, record: RoomRecord) -> anyhow::Result<RoomCore> {
        let rules = rules(record.ruleset).ok_or_else(|| {
            anyhow::anyhow!(
                "room {} uses ruleset {}, not built in",
                record.id,
                record.ruleset
            )
        })?;
        let mut timed_out = Vec::new();
        let game = match record.match_id {
            None => None,
            Some(match_id) => {
                let stored =
                    self.store.match_record(match_id).await?.ok_or_else(|| {
                        anyhow::anyhow!("room {} names a missing match", record.id)
                    })?;
                let actions = self.store.actions(match_id).await?;
                let seed: Seed = stored.seed.parse()?;
                let seats = u8::try_from(stored.seats.len())?;
                let runner = rules
                    .rebuild(&stored.options, seats, seed, &actions)
                    .map_err(|error| {
                        anyhow::anyhow!("match {match_id} cannot be rebuilt: {error}")
                    })?;
                let clock = resumed_clock(&record, &*runner, &actions, stored.started_at);
                timed_out = timed_out_in_log(
                    actions.iter().map(|action| (action.seat, action.by)),
                    runner.to_act(),
                    stored.seats.len(),
                );
                let client_ids = actions
                    .into_iter()
                    .map(|action| ((action.seat, action.client_id), action.seq))
                    .collect();
                let mut game = Game::new(match_id, seed, runner);
                game.client_ids = client_ids;
                game.clock = clock;
                Some(game)
            }
        };
        let id = record.id;
        let chat = self.store.room_chat(id).await?;
        let rematch = self.store.rematch_room(id).await?;
        let entropy = random_bytes().map_err(|error| anyhow::anyhow!("{error}"))?;
        Ok(
            RoomCore::new(record, rules, game, &self.core_limits(), entropy, wall())
                .with_history(chat, rematch)
                .with_timed_out(&timed_out),
        )
    }

    /// What every room core of this server is given.
    fn core_limits(&self) -> CoreLimits {
        CoreLimits {
            max_spectators: self.limits.max_spectators_per_room,
            outgoing_queue: self.limits.outgoing_queue,
            answer_timeout: self.writer.answer_timeout(),
            waiting_expiry: self.expiry(),
            idle_eviction: Some(self.limits.room_idle_eviction),
        }
    }

    /// How long a waiting room may stay empty.
    fn expiry(&self) -> Duration {
        self.limits.waiting_room_expiry
    }

    /// The task around a room core, leaving memory once idle; in cluster mode under `lease`.
    fn task(&self, core: RoomCore, lease: Option<RoomLease>) -> (RoomTask, watch::Receiver<Room>) {
        let core_id = core.id();
        let (task, summary) = RoomTask::new(core, self.store.clone(), self.writer.clone());
        let eviction = Eviction {
            running: self.running.clone(),
            evictions: self.evictions.clone(),
        };
        let task = task.with_eviction(eviction);
        let task = match lease {
            Some(lease) => {
                let relay = self
                    .relays
                    .as_ref()
                    .map(|relays| relays.clone().relay(core_id, lease.fence.epoch));
                let task = task.with_lease(lease);
                match relay {
                    Some(relay) => task.with_relay(relay),
                    None => task,
                }
            }
            None => task,
        };
        (task, summary)
    }

    /// Registers a built room unless another task registered it meanwhile.
    fn insert(&self, id: RoomId, core: RoomCore) -> RoomHandle {
        if let Some(handle) = self.running_handle(id) {
            return handle;
        }
        self.spawn(id, self.task(core, None))
    }

    fn spawn(&self, id: RoomId, (task, summary): (RoomTask, watch::Receiver<Room>)) -> RoomHandle {
        let mut running = self.lock();
        if let Some(handle) = running.get(&id)
            && !handle.is_closed()
        {
            return handle.clone();
        }
        let (commands, inbox) = mpsc::channel(ROOM_QUEUE);
        let handle = RoomHandle {
            id,
            commands,
            summary,
        };
        let span = tracing::info_span!("room", room = %id);
        self.tasks
            .spawn(task.run(inbox, self.stop.child_token()).instrument(span));
        running.insert(id, handle.clone());
        handle
    }
}

/// Now, as a room core counts time (tokio's clock, so tests can pause it) and as Unix
/// milliseconds.
fn wall() -> (std::time::Instant, i64) {
    (Instant::now().into_std(), now_ms())
}

/// The clock of a rebuilt match, running again from now with the wall-clock deadline it had:
/// as the last action stored it, or as the match started (`started_ms`) when nothing was played.
fn resumed_clock(
    record: &RoomRecord,
    runner: &dyn MatchRunner,
    actions: &[ActionRecord],
    started_ms: i64,
) -> Option<Clock> {
    let settings = record.settings.clock?;
    if runner.outcome().is_some() {
        return None;
    }
    let (now, now_ms) = wall();
    let seats = record.seats.len();
    let stored = match actions.last() {
        None => StoredClock::at_start(settings, seats, runner.to_act(), started_ms),
        Some(action) => {
            match action
                .clock
                .clone()
                .and_then(|json| serde_json::from_value::<StoredClock>(json).ok())
            {
                Some(stored) => stored,
                // No clock stored with it (cannot happen to a clocked room): a fresh one.
                None => StoredClock::at_start(settings, seats, runner.to_act(), now_ms),
            }
        }
    };
    Some(Clock::resume(settings, &stored, now, now_ms))
}
