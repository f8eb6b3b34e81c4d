//! The classic bot. It scores every listed action and plays the best (ties broken by its own
//! [`BotRng`]). Battles are weighed by exact conquest chances ([`odds`]), never rolled. It sees
//! only what its seat may see: the board, its own hand and the other seats' card counts.
//!
//! - Claim: territories of the continent where it is strongest and its rivals weakest, small
//!   continents first, next to what it already holds.
//! - Cards: trades as soon as a set is listed (a set traded now is units on the board now; the
//!   engine gives the +2 to a held territory shown), also in the attack step before the first
//!   attack (W-CARD-3).
//! - Placing: the whole reserve on the border territory with the best attack ahead of it, or on
//!   the weakest border of a continent it holds when that is in more danger.
//! - Attack: the most dice, while the chance of taking the territory (rolling on to the end) is
//!   good enough for what it is worth: completing a continent, breaking a rival's, eliminating a
//!   player (and taking their cards), the turn's first conquest (a card).
//! - Move-in and fortify: units go where the enemies are.
//! - `hard` also keeps its held continents' borders covered before attacking on, and attacks
//!   only from territories whose emptying does not open one of its continents.
//! - `easy` plays a uniformly random listed action one time in three, never one that ends the
//!   turn (end turn, fortify) while anything else is listed.

mod odds;

use crate::bot::{BotLevel, BotRng, best_scored, think_or_take};
use crate::classic::map::{self, ADJACENCY, Continent, TERRITORIES, TerritoryId};
use crate::classic::{Action, Classic, Phase, max_attack_dice};

use self::odds::conquest_chance;

/// Below this chance of taking a territory an attack is not worth its losses (`normal`).
const ATTACK_THRESHOLD: f64 = 0.55;
/// The lowest chance the threshold falls to in a long match (see [`Planner::threshold`]).
const LATE_THRESHOLD: f64 = 0.2;
/// Rounds after which the threshold starts falling, and by how much per round.
const PATIENT_ROUNDS: u32 = 15;
const THRESHOLD_STEP: f64 = 0.01;

/// The action the bot of `level` takes for the seat to act.
pub(crate) fn choose(state: &Classic, level: BotLevel, rng: &mut BotRng) -> Option<Action> {
    // An easy bot's random move never ends the turn: easy bots ending turns at random in the
    // middle of an assault never finish off the stacks that card trades grow in a long match, so
    // a match of easy bots only went on for ever.
    let going_on = |a: &Action| !matches!(a, Action::EndTurn | Action::Fortify { .. });
    let legal = match think_or_take(state, level, rng, going_on) {
        Ok(legal) => legal,
        Err(taken) => return taken,
    };
    let planner = Planner::new(state, level);
    let scores: Vec<i64> = legal
        .iter()
        .map(|action| (planner.score(action) * 1e6).round() as i64)
        .collect();
    best_scored(&legal, &scores, rng)
}

/// Per continent: what the bot's seat and its rivals hold of it.
#[derive(Clone, Copy, Default)]
struct Standing {
    /// Territories the bot holds.
    mine: u32,
    /// Territories of the continent.
    size: u32,
    /// The most any single rival holds.
    rival: u32,
    /// Whether a single rival holds it whole.
    rival_whole: bool,
}

/// What the bot knows about the board, computed once per decision.
struct Planner<'a> {
    state: &'a Classic,
    level: BotLevel,
    /// The territories the bot holds.
    held: u64,
    /// Per continent (in [`Continent::ALL`] order).
    standing: [Standing; 6],
}

impl<'a> Planner<'a> {
    fn new(state: &'a Classic, level: BotLevel) -> Planner<'a> {
        let me = state.current;
        let held = state.held_mask(me);
        let mut standing = [Standing::default(); 6];
        for (c, continent) in Continent::ALL.into_iter().enumerate() {
            let mask = continent.mask();
            let mut per_seat = vec![0u32; usize::from(state.seats)];
            for t in map::ids(mask) {
                if let Some(owner) = state.owner(t)
                    && let Some(count) = per_seat.get_mut(owner.index())
                {
                    *count += 1;
                }
            }
            let size = mask.count_ones();
            let rival = per_seat
                .iter()
                .enumerate()
                .filter(|&(s, _)| s != usize::from(me))
                .map(|(_, &n)| n)
                .max()
                .unwrap_or(0);
            standing[c] = Standing {
                mine: (held & mask).count_ones(),
                size,
                rival,
                rival_whole: rival == size,
            };
        }
        Planner {
            state,
            level,
            held,
            standing,
        }
    }

    fn score(&self, action: &Action) -> f64 {
        match (*action, self.state.phase()) {
            (Action::Claim { territory }, _) => self.claim(territory),
            (Action::Place { territory, units }, _) => self.place(territory, units),
            // Units now beat units later: trade whenever a set is listed.
            (Action::Trade { cards, .. }, _) => {
                let shows_held = cards
                    .iter()
                    .filter_map(|c| c.territory())
                    .any(|t| self.held & (1 << t) != 0);
                1000.0 + f64::from(u8::from(shows_held))
            }
            (Action::Attack { from, to, dice }, _) => self.attack(from, to, dice),
            (Action::MoveIn { units }, Phase::MoveIn { from, to, min, max }) => {
                self.move_in(from, to, units, min, max)
            }
            (Action::Fortify { from, to, units }, _) => self.fortify(from, to, units),
            (Action::EndTurn, _) => 0.0,
            _ => f64::MIN,
        }
    }

    /// W-SETUP-3: where to claim.
    fn claim(&self, t: TerritoryId) -> f64 {
        let c = continent_of(t);
        let s = self.standing[c];
        let bonus = f64::from(Continent::ALL[c].bonus());
        let size = f64::from(s.size);
        let own_neighbours = f64::from((ADJACENCY[usize::from(t)] & self.held).count_ones());
        // Small continents with a good bonus per territory, where we lead.
        10.0 * f64::from(s.mine + 1) / size - 8.0 * f64::from(s.rival) / size
            + 4.0 * bonus / size
            + own_neighbours
    }

    /// Where to put units (setup and reinforcements): a whole reserve on one territory.
    fn place(&self, t: TerritoryId, units: u32) -> f64 {
        let enemies = ADJACENCY[usize::from(t)] & !self.held;
        if enemies == 0 {
            return -100.0;
        }
        let reserve = self.state.reserve().max(1);
        let ours = self.state.units(t) + reserve;
        // The best attack this territory would then open.
        let attack = map::ids(enemies)
            .map(|n| {
                conquest_chance(ours, self.state.units(n)) * self.target_worth(n)
                    - 0.2 * f64::from(self.state.units(n))
            })
            .fold(f64::MIN, f64::max);
        // The danger to a continent we hold (or nearly hold) through this territory.
        let c = continent_of(t);
        let s = self.standing[c];
        let pressure: u32 = map::ids(enemies).map(|n| self.state.units(n)).sum();
        let holding = f64::from(s.mine) / f64::from(s.size);
        let defence = holding
            * holding
            * f64::from(Continent::ALL[c].bonus())
            * (f64::from(pressure) - f64::from(self.state.units(t))).max(0.0)
            / 2.0;
        let whole = if units == reserve { 0.01 } else { 0.0 };
        attack.max(defence) + whole
    }

    /// What taking `to` is worth.
    fn target_worth(&self, to: TerritoryId) -> f64 {
        let c = continent_of(to);
        let s = self.standing[c];
        let bonus = f64::from(Continent::ALL[c].bonus());
        let mut worth = 2.0 + bonus * f64::from(s.mine + 1) / f64::from(s.size);
        if s.mine + 1 == s.size {
            worth += 4.0 * bonus;
        }
        if s.rival_whole {
            worth += 2.0 * bonus;
        }
        if let Some(owner) = self.state.owner(to) {
            let theirs = self.state.held_mask(owner.0).count_ones();
            if theirs == 1 {
                // Their cards come with them (W-CARD-5), and one rival fewer.
                worth += 10.0 + 3.0 * self.state.hand(owner).len() as f64;
            }
        }
        if !self.state.conquered {
            // The turn's first conquest earns a card (W-CARD-2).
            worth += 5.0;
        }
        worth
    }

    fn attack(&self, from: TerritoryId, to: TerritoryId, dice: u8) -> f64 {
        let ours = self.state.units(from);
        if dice != max_attack_dice(ours) {
            return f64::MIN / 2.0;
        }
        let chance = conquest_chance(ours, self.state.units(to));
        let mut score = self.target_worth(to) * (chance - self.threshold());
        if self.level == BotLevel::Hard && self.opens_a_held_continent(from, to) {
            score -= 10.0;
        }
        score
    }

    /// The chance of taking a territory above which an attack is worth it. It falls slowly in a
    /// long match: bots that all wait for good odds would otherwise face each other's growing
    /// stacks for ever (no conquest, no cards, no end), so late in a match they accept worse odds.
    fn threshold(&self) -> f64 {
        let players = self.state.out.iter().filter(|&&out| !out).count().max(1);
        let rounds = self.state.turn / u32::try_from(players).unwrap_or(1);
        let late = f64::from(rounds.saturating_sub(PATIENT_ROUNDS)) * THRESHOLD_STEP;
        (ATTACK_THRESHOLD - late).max(LATE_THRESHOLD)
    }

    /// `hard`: whether attacking out of `from` (into `to`) thins a guard of a continent we hold
    /// whole while other enemies next to it are strong enough to break in.
    fn opens_a_held_continent(&self, from: TerritoryId, to: TerritoryId) -> bool {
        let c = continent_of(from);
        let s = self.standing[c];
        let others = ADJACENCY[usize::from(from)] & !self.held & !(1 << to);
        let pressure: u32 = map::ids(others).map(|n| self.state.units(n)).sum();
        s.mine == s.size && 2 * pressure >= self.state.units(from)
    }

    /// W-ATK-4: how many units follow a conquest.
    fn move_in(&self, from: TerritoryId, to: TerritoryId, units: u32, min: u32, max: u32) -> f64 {
        let held_after = self.held | (1 << to);
        let from_exposed = ADJACENCY[usize::from(from)] & !held_after != 0;
        let to_exposed = ADJACENCY[usize::from(to)] & !held_after != 0;
        let share = if max > min {
            f64::from(units - min) / f64::from(max - min)
        } else {
            1.0
        };
        match (from_exposed, to_exposed) {
            // Everything goes where the enemies are.
            (false, _) => share,
            (true, false) => -share,
            // Both fronts: split.
            (true, true) => -(share - 0.5).abs(),
        }
    }

    /// W-FORT-1: units from a quiet territory to a front. Fortifying ends the turn, so it only
    /// beats ending the turn (score 0), never an attack worth making: its score stays below 0.01.
    fn fortify(&self, from: TerritoryId, to: TerritoryId, units: u32) -> f64 {
        let quiet = ADJACENCY[usize::from(from)] & !self.held == 0;
        let front = ADJACENCY[usize::from(to)] & !self.held != 0;
        if quiet && front {
            let units = f64::from(units);
            0.01 * units / (units + 5.0)
        } else {
            -1.0
        }
    }
}

/// The index in [`Continent::ALL`] of the continent holding `t`.
fn continent_of(t: TerritoryId) -> usize {
    let continent = TERRITORIES[usize::from(t).min(TERRITORIES.len() - 1)].continent;
    Continent::ALL
        .iter()
        .position(|&c| c == continent)
        .unwrap_or(0)
}
