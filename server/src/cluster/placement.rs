//! Where a new room is served: on the node its creator came to, unless that node serves
//! clearly more rooms than the live node with the fewest ([`placement`]), from the live nodes'
//! lease counts read fresh for each new room (counts kept for a second sent the new rooms of
//! both nodes of a benchmark to one node and back, 46 rooms against 8: bench/RESULTS.md).

/// Where a new room goes, given the live nodes' lease counts (fewest first, draining nodes left
/// out) and this node: `None` for here, or the node with the fewest leases when this one is
/// draining (not counted) or serves more than [`placement_slack`] rooms beyond it. Rooms stay
/// where their creators are (their players are most likely there too, so their actions and
/// messages need not cross NATS), while no node runs far ahead of the others.
pub fn placement<'a>(counts: &'a [(String, i64)], here: &str) -> Option<&'a str> {
    let (fewest, least) = counts.first()?;
    let mine = counts
        .iter()
        .find(|(node, _)| node == here)
        .map(|(_, n)| *n);
    match mine {
        Some(mine) if mine <= least + placement_slack(*least) => None,
        _ => Some(fewest.as_str()),
    }
}

/// How many more rooms than the least loaded live node a node may serve and still open new
/// rooms itself: a quarter more, and at least 8.
fn placement_slack(least: i64) -> i64 {
    (least / 4).max(8)
}

#[cfg(test)]
mod tests {
    use super::placement;

    fn counts(nodes: &[(&str, i64)]) -> Vec<(String, i64)> {
        nodes.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect()
    }

    #[test]
    fn a_new_room_stays_on_the_node_its_creator_came_to_while_that_node_is_not_far_ahead() {
        let live = counts(&[("a", 0), ("b", 8)]);
        assert_eq!(
            placement(&live, "b"),
            None,
            "8 more than the fewest is still here"
        );
        assert_eq!(placement(&live, "a"), None, "the fewest itself");
        let live = counts(&[("a", 40), ("b", 50)]);
        assert_eq!(placement(&live, "b"), None, "a quarter more than 40 is 10");
    }

    #[test]
    fn a_new_room_goes_to_the_node_with_the_fewest_leases_when_this_one_is_far_ahead() {
        assert_eq!(placement(&counts(&[("a", 0), ("b", 9)]), "b"), Some("a"));
        assert_eq!(
            placement(&counts(&[("a", 40), ("c", 45), ("b", 51)]), "b"),
            Some("a")
        );
    }

    #[test]
    fn a_draining_node_or_one_the_counts_miss_places_every_new_room_elsewhere() {
        let live = counts(&[("a", 3), ("b", 4)]);
        assert_eq!(
            placement(&live, "d"),
            Some("a"),
            "d is draining: not counted"
        );
        assert_eq!(placement(&[], "d"), None, "no count at all: here");
    }
}
