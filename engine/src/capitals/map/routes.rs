//! Deep-attack routes, precomputed once per map so that listing legal actions does not search
//! the graph on every call: for each source, every area 2 or 3 steps away along a simple path
//! that does not border the source, with every such path (2-step paths first). Stored flat (three
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
        let mut slot: Vec<Option<usize>> = vec![None; areas.len()];
        let mut found: Vec<AreaId> = Vec::new();
        let mut ends: Vec<u32> = Vec::new();
        for source in 0..areas.len() as AreaId {
            near[usize::from(source)] = true;
            for &a in &areas[usize::from(source)].borders {
                near[usize::from(a)] = true;
            }
            // Pass 1 counts the paths to each target, pass 2 writes them in the same order
            // (2-step paths first), grouped by target: a counting sort.
            let first_target = routes.targets.len();
            let base = routes.vias.len();
            let mut counts: Vec<u32> = Vec::new();
            each_deep_path(areas, source, &near, |target, _| {
                let index = *slot[usize::from(target)].get_or_insert_with(|| {
                    found.push(target);
                    counts.push(0);
                    found.len() - 1
                });
                counts[index] += 1;
            });
            ends.clear();
            let mut end = base as u32;
            for (&target, &count) in found.iter().zip(&counts) {
                routes.targets.push(DeepTarget {
                    target,
                    vias: (end, end + count),
                });
                ends.push(end);
                end += count;
            }
            routes.vias.resize(end as usize, [NO_AREA; 2]);
            each_deep_path(areas, source, &near, |target, via| {
                if let Some(index) = slot[usize::from(target)] {
                    routes.vias[ends[index] as usize] = via;
                    ends[index] += 1;
                }
            });
            routes
                .sources
                .push((first_target as u32, routes.targets.len() as u32));
            for &target in &found {
                slot[usize::from(target)] = None;
            }
            found.clear();
            near[usize::from(source)] = false;
            for &a in &areas[usize::from(source)].borders {
                near[usize::from(a)] = false;
            }
        }
        routes
    }
}

/// Calls `visit(target, via)` for every simple path of 2 then 3 steps from `source` whose target
/// is not `near` it (the source and its neighbours are near).
fn each_deep_path(
    areas: &[Area],
    source: AreaId,
    near: &[bool],
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
        for &b in borders(a).iter().filter(|&&b| b != source) {
            for &c in borders(b) {
                if c != a && !near[usize::from(c)] {
                    visit(c, [a, b]);
                }
            }
        }
    }
}
