//! The identities one identity does not want to read in chat, shared by its connection (which
//! changes it on `mute`) and, in cluster mode, the node's delivery of rooms served elsewhere
//! (`cluster/streams.rs`, which drops the lines of muted speakers). Rooms served here get the
//! list as data with each change (`Command::Mutes`), never this shared set.

use std::collections::HashSet;
use std::sync::{Arc, RwLock};

use warroom_protocol::IdentityId;

/// The identities one identity does not want to read, shared by its connection and the node's
/// delivery of rooms served elsewhere.
#[derive(Clone, Debug, Default)]
pub struct Mutes(Arc<RwLock<HashSet<IdentityId>>>);

impl Mutes {
    /// A list holding these identities.
    pub fn new(muted: impl IntoIterator<Item = IdentityId>) -> Mutes {
        Mutes(Arc::new(RwLock::new(muted.into_iter().collect())))
    }

    /// The muted identities, sorted.
    pub fn list(&self) -> Vec<IdentityId> {
        sorted(
            &self
                .0
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// True when `speaker` is muted.
    pub fn mutes(&self, speaker: IdentityId) -> bool {
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&speaker)
    }

    /// Replaces the whole list (a connection said `hello` as another identity); returns it,
    /// sorted.
    pub fn replace(&self, muted: Vec<IdentityId>) -> Vec<IdentityId> {
        let mut set = self
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *set = muted.into_iter().collect();
        sorted(&set)
    }

    /// Mutes or unmutes `speaker`; returns the list as it is now, sorted.
    pub fn set(&self, speaker: IdentityId, muted: bool) -> Vec<IdentityId> {
        let mut set = self
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if muted {
            set.insert(speaker);
        } else {
            set.remove(&speaker);
        }
        sorted(&set)
    }
}

fn sorted(set: &HashSet<IdentityId>) -> Vec<IdentityId> {
    let mut list: Vec<IdentityId> = set.iter().copied().collect();
    list.sort_by_key(|id| id.0);
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn muting_and_unmuting_gives_the_sorted_list_and_is_seen_through_every_copy() {
        let (a, b) = (
            IdentityId(uuid::Uuid::from_u128(2)),
            IdentityId(uuid::Uuid::from_u128(1)),
        );
        let mutes = Mutes::default();
        let shared = mutes.clone();
        assert_eq!(mutes.set(a, true), vec![a]);
        assert_eq!(mutes.set(b, true), vec![b, a], "sorted");
        assert!(shared.mutes(a), "a copy sees the change");
        assert_eq!(mutes.set(a, false), vec![b]);
        assert_eq!(mutes.replace(vec![a]), vec![a]);
        assert_eq!(shared.list(), vec![a]);
    }
}
