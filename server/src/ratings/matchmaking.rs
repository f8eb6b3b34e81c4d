//! Matchmaking by strength for rated quick play (docs/RATINGS.md "Matchmaking"). A rated
//! quick play looks at the waiting rated rooms of its ruleset: a room fits when the gap between
//! the newcomer's displayed rating and the average of the players seated there is within the
//! room's window, which starts at `--matchmaking-start` points, widens by
//! `--matchmaking-per-second` points for every second the room has waited, up to
//! `--matchmaking-max`; once a room has waited long enough to reach the maximum, it takes
//! anyone, so a lone player far from everyone is still matched. Among the rooms that fit, the
//! closest in rating is chosen (then the oldest). Nothing fits: the newcomer gets a new rated
//! room and waits in it. Quick play reads the waiting rooms from the database in cluster mode,
//! so this is cluster-wide.

use std::time::Duration;

/// The window's settings, in display points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The widest gap at first.
    pub start: u32,
    /// Points added per second of waiting.
    pub per_second: u32,
    /// The widest window; reaching it opens the room to anyone.
    pub max: u32,
}

impl Window {
    /// The window of a room that has waited `waited`; `None` once it has reached the maximum
    /// (anyone fits).
    pub fn width(&self, waited: Duration) -> Option<u64> {
        let grown = u64::from(self.start)
            .saturating_add((u128::from(self.per_second) * waited.as_millis() / 1000) as u64);
        (grown < u64::from(self.max)).then_some(grown)
    }

    /// Whether a newcomer `gap` points from a room's players fits a room that has waited
    /// `waited`.
    pub fn fits(&self, gap: u64, waited: Duration) -> bool {
        self.width(waited).is_none_or(|width| gap <= width)
    }
}

/// A waiting rated room as matchmaking sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The gap between the newcomer's rating and the average of the room's seated players.
    pub gap: u64,
    /// How long the room has waited.
    pub waited: Duration,
}

/// The index of the candidate to send the newcomer to: the closest in rating among those whose
/// window fits, the one that has waited longest on a tie.
pub fn choose(window: &Window, candidates: &[Candidate]) -> Option<usize> {
    candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| window.fits(c.gap, c.waited))
        .min_by_key(|(_, c)| (c.gap, std::cmp::Reverse(c.waited)))
        .map(|(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Window = Window {
        start: 100,
        per_second: 10,
        max: 500,
    };

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn the_window_widens_with_the_wait_then_opens() {
        assert_eq!(WINDOW.width(secs(0)), Some(100));
        assert_eq!(WINDOW.width(Duration::from_millis(2_500)), Some(125));
        assert_eq!(WINDOW.width(secs(39)), Some(490));
        assert_eq!(WINDOW.width(secs(40)), None, "the maximum is reached");
        assert!(!WINDOW.fits(101, secs(0)));
        assert!(WINDOW.fits(100, secs(0)));
        assert!(WINDOW.fits(300, secs(20)));
        assert!(
            WINDOW.fits(2_000, secs(40)),
            "anyone, after the maximum wait"
        );
    }

    #[test]
    fn the_closest_fitting_room_is_chosen() {
        let far = Candidate {
            gap: 400,
            waited: secs(5),
        };
        let close = Candidate {
            gap: 20,
            waited: secs(1),
        };
        let closer_but_new = Candidate {
            gap: 10,
            waited: secs(0),
        };
        assert_eq!(choose(&WINDOW, &[far, close]), Some(1));
        assert_eq!(choose(&WINDOW, &[far, close, closer_but_new]), Some(2));
        assert_eq!(choose(&WINDOW, &[far]), None, "too far, not waited enough");
        let waited_out = Candidate {
            gap: 900,
            waited: secs(60),
        };
        assert_eq!(choose(&WINDOW, &[far, waited_out]), Some(1));
    }
}
