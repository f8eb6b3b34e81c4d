//! What a run plays: which ruleset and how many seats each room has, and a small seeded random
//! chooser (xorshift) for seat counts and actions, so a run can be repeated.

/// The rulesets a run may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesetChoice {
    /// Hexdice only (2 seats).
    Hexdice,
    /// Capitals only (2–4 seats).
    Capitals,
    /// Classic only (3–6 seats).
    Classic,
    /// Hexdice, capitals and classic in turn.
    Mixed,
}

/// One ruleset's id and seat range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruleset {
    /// Its id in the API.
    pub id: &'static str,
    /// Fewest seats.
    pub min: usize,
    /// Most seats.
    pub max: usize,
}

/// Hexdice: 2 seats.
pub const HEXDICE: Ruleset = Ruleset {
    id: "hexdice",
    min: 2,
    max: 2,
};
/// Capitals: 2–4 seats.
pub const CAPITALS: Ruleset = Ruleset {
    id: "capitals",
    min: 2,
    max: 4,
};
/// Classic: 3–6 seats.
pub const CLASSIC: Ruleset = Ruleset {
    id: "classic",
    min: 3,
    max: 6,
};

/// One room of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomPlan {
    /// Its ruleset.
    pub ruleset: Ruleset,
    /// Its seats (each a guest on its own socket).
    pub seats: usize,
    /// Spectators following it (anonymous sockets).
    pub spectators: usize,
}

/// The rooms of a run: room `n` plays the `n`-th ruleset of the choice; its seat count is
/// `seats` when given (clamped to the ruleset's range), else random in the ruleset's range.
pub fn rooms(
    choice: RulesetChoice,
    count: usize,
    seats: Option<usize>,
    spectators: usize,
    chooser: &mut Chooser,
) -> Vec<RoomPlan> {
    (0..count)
        .map(|n| {
            let ruleset = match choice {
                RulesetChoice::Hexdice => HEXDICE,
                RulesetChoice::Capitals => CAPITALS,
                RulesetChoice::Classic => CLASSIC,
                RulesetChoice::Mixed => [HEXDICE, CAPITALS, CLASSIC][n % 3],
            };
            let seats = match seats {
                Some(seats) => seats.clamp(ruleset.min, ruleset.max),
                None => ruleset.min + chooser.below(ruleset.max - ruleset.min + 1),
            };
            RoomPlan {
                ruleset,
                seats,
                spectators,
            }
        })
        .collect()
}

/// A small seeded chooser (xorshift64).
#[derive(Clone, Debug)]
pub struct Chooser(u64);

impl Chooser {
    /// A chooser from a seed (0 is replaced: xorshift never leaves 0).
    pub fn new(seed: u64) -> Chooser {
        Chooser(seed.max(1))
    }

    /// An index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_rooms_take_turns_and_stay_in_range() {
        let mut chooser = Chooser::new(7);
        let plans = rooms(RulesetChoice::Mixed, 300, None, 0, &mut chooser);
        assert_eq!(plans[0].ruleset, HEXDICE);
        assert_eq!(plans[1].ruleset, CAPITALS);
        assert_eq!(plans[2].ruleset, CLASSIC);
        for plan in &plans {
            assert!((plan.ruleset.min..=plan.ruleset.max).contains(&plan.seats));
        }
        let classic: std::collections::BTreeSet<usize> = plans
            .iter()
            .filter(|p| p.ruleset == CLASSIC)
            .map(|p| p.seats)
            .collect();
        assert_eq!(classic, (3..=6).collect());
        let fixed = rooms(RulesetChoice::Classic, 2, Some(2), 5, &mut chooser);
        assert_eq!((fixed[0].seats, fixed[0].spectators), (3, 5));
    }
}
