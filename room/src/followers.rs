//! The connections following a room: who each one is, and their grouping into classes that see
//! the same thing, so a message is built (and serialised) once per class instead of once per
//! connection.

use std::collections::BTreeMap;

use warroom_engine::Viewer;
use warroom_protocol::{Identity, IdentityId};

use super::ConnId;

/// A connection following the room.
#[derive(Clone, Debug)]
pub struct Follower {
    /// Who it is, if authenticated.
    pub identity: Option<Identity>,
    /// The presence version of the last `room` it was sent (`presence.rs`).
    pub room_seen: u64,
    /// The viewer class and seq of the last view of the match it was sent, when the room knows
    /// it holds that view (`patches.rs`).
    pub view_seen: Option<(Viewer, u64)>,
}

/// Every follower of one room, in connection order (so outputs are deterministic).
#[derive(Debug, Default)]
pub struct Followers {
    by_conn: BTreeMap<ConnId, Follower>,
}

impl Followers {
    /// True when no connection follows the room.
    pub fn is_empty(&self) -> bool {
        self.by_conn.is_empty()
    }

    /// How many connections follow the room.
    pub fn len(&self) -> usize {
        self.by_conn.len()
    }

    /// One follower.
    pub fn get(&self, conn: ConnId) -> Option<&Follower> {
        self.by_conn.get(&conn)
    }

    /// Adds (or replaces) a follower.
    pub fn insert(&mut self, conn: ConnId, follower: Follower) {
        self.by_conn.insert(conn, follower);
    }

    /// Removes a follower; `None` if it did not follow.
    pub fn remove(&mut self, conn: ConnId) -> Option<Follower> {
        self.by_conn.remove(&conn)
    }

    /// Records that `conn` was sent the room as of presence `version`.
    pub fn mark_seen(&mut self, conn: ConnId, version: u64) {
        if let Some(follower) = self.by_conn.get_mut(&conn) {
            follower.room_seen = version;
        }
    }

    /// Records that `conn` was sent the view of class `viewer` at `seq`.
    pub fn saw_view(&mut self, conn: ConnId, viewer: Viewer, seq: u64) {
        if let Some(follower) = self.by_conn.get_mut(&conn) {
            follower.view_seen = Some((viewer, seq));
        }
    }

    /// True when `conn` is known to hold the view of class `viewer` at `seq`.
    pub fn holds_view(&self, conn: ConnId, viewer: Viewer, seq: u64) -> bool {
        self.by_conn
            .get(&conn)
            .is_some_and(|follower| follower.view_seen == Some((viewer, seq)))
    }

    /// Records that every follower was sent the room as of presence `version`.
    pub fn mark_all_seen(&mut self, version: u64) {
        for follower in self.by_conn.values_mut() {
            follower.room_seen = version;
        }
    }

    /// Every follower.
    pub fn iter(&self) -> impl Iterator<Item = (ConnId, &Follower)> {
        self.by_conn
            .iter()
            .map(|(conn, follower)| (*conn, follower))
    }

    /// True when some connection of this identity follows the room (presence).
    pub fn is_connected(&self, identity: IdentityId) -> bool {
        self.by_conn
            .values()
            .any(|f| f.identity.as_ref().is_some_and(|i| i.id == identity))
    }

    /// The followers grouped by `class` (first-seen order): everyone in a group gets the same
    /// message.
    pub fn classes<K: PartialEq>(&self, class: impl Fn(&Follower) -> K) -> Vec<(K, Vec<ConnId>)> {
        let mut groups: Vec<(K, Vec<ConnId>)> = Vec::new();
        for (conn, follower) in &self.by_conn {
            let key = class(follower);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, conns)) => conns.push(*conn),
                None => groups.push((key, vec![*conn])),
            }
        }
        groups
    }
}
