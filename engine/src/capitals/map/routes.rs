//! Deep-attack routes, precomputed once per map so that listing legal actions does not search
//! the graph on every call: for each source, every area 2 or 3 steps away along a simple path
//! that does not border the source, with every such path (2-step paths first) except those that
//! can never be the one listed (see `each_deep_path`). Stored flat (three
//! vectors) so a map costs a handful of allocations.

use std::ops::Range;

use super::{Area, AreaId};

/// No second intermediate area: the path has 2 steps.
pub const NO_AREA: AreaId = AreaId::MAX;

/// One source's way to one deep target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepTarget {
    /// The target area.
    pub target: AreaId,
    /// Its paths, as a range of [`DeepRoutes::vias`].
    vias: (u32, u32),
}

/// Every source's deep targets and paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeepRoutes {
    /// Per source, its range of `targets`.
    sources: Vec<(u32, u32)>,
    /// Deep targets, grouped by source.
    targets: Vec<DeepTarget>,
    /// The areas between source and target: `[a, NO_AREA]` for a 2-step path, `[a, b]` for a
    /// 3-step one; grouped by target, 2-step paths first.
    vias: Vec<[AreaId; 2]>,
}

fn range((start, end): (u32, u32)) -> Range<usize> {
    start as usize..end as usize
}

impl DeepRoutes {
    /// The deep targets of `source` (empty for an unknown area).
    pub fn targets(&self, source: AreaId) -> &[DeepTarget] {
        self.sources
            .get(usize::from(source))
            .and_then(|&r| self.targets.get(range(r)))
            .unwrap_or(&[])
    }

    /// The paths to one target, as intermediate areas.
    pub fn vias(&self, target: &DeepTarget) -> &[[AreaId; 2]] {
        self.vias.get(range(target.vias)).unwrap_or(&[])
    }

    /// Computes the routes of a map from its borders.
    pub fn new(areas: &[Area]) -> DeepRoutes {
        let mut routes = DeepRoutes::default();
        // Per area, while one source is processed: bordering the source (or being it), and
        // its index among the source's targets.
        let mut near = vec![false; areas.len()];
        let mut next_to_a = vec![false; areas.len()];
        let mut slot: Vec<u32> = vec![u32::MAX; areas.len()];
        let mut found: Vec<AreaId> = Vec::new();
        let mut counts: Vec<u32> = Vec::new();
        // One source's paths in the order found, with their target's index in `found`.
        let mut paths: Vec<(u32, [AreaId; 2])> = Vec::new();
        for source in 0..areas.len() as AreaId {
            near[usize::from(source)] = true;
            for &a in &areas[usize::from(source)].borders {
                near[usize::from(a)] = true;
            }
            // One walk collects the paths (2-step paths first); a stable counting sort then
            // groups them by target, keeping that order within each target.
            each_deep_path(areas, source, &near, &mut next_to_a, |target, via| {
                let index = &mut slot[usize::from(target)];
                if *index == u32::MAX {
                    *index = found.len() as u32;
                    found.push(target);
                    counts.push(0);
                }
                counts[*index as usize] += 1;
                paths.push((*index, via));
            });
            let first_target = routes.targets.len();
            let mut end = routes.vias.len() as u32;
            for (&target, count) in found.iter().zip(counts.iter_mut()) {
                routes.targets.push(DeepTarget {
                    target,
                    vias: (end, end + *count),
                });
                // From here on `counts` holds each target's next free position.
                let start = end;
                end += *count;
                *count = start;
            }
            routes.vias.resize(end as usize, [NO_AREA; 2]);
            for &(index, via) in &paths {
                let next = &mut counts[index as usize];
                routes.vias[*next as usize] = via;
                *next += 1;
            }
            routes
                .sources
                .push((first_target as u32, routes.targets.len() as u32));
            for &target in &found {
                slot[usize::from(target)] = u32::MAX;
            }
            found.clear();
            counts.clear();
            paths.clear();
            near[usize::from(source)] = false;
            for &a in &areas[usize::from(source)].borders {
                near[usize::from(a)] = false;
            }
        }
        routes
    }
}

/// Calls `visit(target, via)` for every simple path of 2 then 3 steps from `source` whose target
/// is not `near` it (the source and its neighbours are near), leaving out the 3-step paths that
/// can never be the one listed: a path through `a` then `b` crosses at least as many other
/// players' areas as the 2-step path through `a` (when `a` borders the target) or through `b`
/// (when `b` borders the source), and that one comes first, so the 3-step path never has the
/// strictly fewest.
/// `next_to_a` is scratch space, one `false` per area, left as it was found.
fn each_deep_path(
    areas: &[Area],
    source: AreaId,
    near: &[bool],
    next_to_a: &mut [bool],
    mut visit: impl FnMut(AreaId, [AreaId; 2]),
) {
    let borders = |a: AreaId| areas[usize::from(a)].borders.as_slice();
    for &a in borders(source) {
        for &b in borders(a) {
            if !near[usize::from(b)] {
                visit(b, [a, NO_AREA]);
            }
        }
    }
    for &a in borders(source) {
        for &x in borders(a) {
            next_to_a[usize::from(x)] = true;
        }
        for &b in borders(a).iter().filter(|&&b| !near[usize::from(b)]) {
            for &c in borders(b) {
                // `b` is not near, so `c` is never `a`; a `c` bordering `a` has the 2-step
                // path through `a`.
                if !near[usize::from(c)] && !next_to_a[usize::from(c)] {
                    visit(c, [a, b]);
                }
            }
        }
        for &x in borders(a) {
            next_to_a[usize::from(x)] = false;
        }
    }
}
