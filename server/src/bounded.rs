//! A map of at most a fixed number of entries, the oldest inserted leaving first: the caches
//! that let the server answer reads without the database or without loading a room (finished
//! rooms' summaries, identities and mutes known to this process) can never grow memory.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Mutex;

/// At most `capacity` entries; inserting past it drops the oldest key.
pub struct BoundedMap<K, V> {
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    entries: HashMap<K, V>,
    order: VecDeque<K>,
    capacity: usize,
}

impl<K: Eq + Hash + Clone, V: Clone> BoundedMap<K, V> {
    /// An empty map of at most `capacity` entries.
    pub fn new(capacity: usize) -> BoundedMap<K, V> {
        BoundedMap {
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                order: VecDeque::new(),
                capacity,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<K, V>> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A copy of the value of `key`.
    pub fn get(&self, key: &K) -> Option<V> {
        self.lock().entries.get(key).cloned()
    }

    /// Sets `key` (a key already there keeps its place in the order).
    pub fn insert(&self, key: K, value: V) {
        let mut inner = self.lock();
        if inner.capacity == 0 {
            return;
        }
        if let Some(held) = inner.entries.get_mut(&key) {
            *held = value;
            return;
        }
        while inner.entries.len() >= inner.capacity {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            inner.entries.remove(&oldest);
        }
        inner.order.push_back(key.clone());
        inner.entries.insert(key, value);
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_never_holds_more_than_its_capacity_and_drops_the_oldest_first() {
        let map = BoundedMap::new(2);
        map.insert(1, "a");
        map.insert(2, "b");
        map.insert(1, "a again");
        map.insert(3, "c");
        assert_eq!(map.len(), 2);
        assert_eq!(map.get(&1), None, "the oldest key left, though set again");
        assert_eq!((map.get(&2), map.get(&3)), (Some("b"), Some("c")));
        let none = BoundedMap::new(0);
        none.insert(1, 1);
        assert!(none.is_empty());
    }
}
