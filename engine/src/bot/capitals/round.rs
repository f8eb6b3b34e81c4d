//! The other seats' next round, sampled: how likely our capital is to fall before our next turn
//! when the other players pick uniformly among their listed orders (as the random players of the
//! bots bench do).
//!
//! Each sample plays a copy of the match from the end of our turn to the start of our next one:
//! every other seat produces, then gives orders drawn uniformly from its listed actions (ending
//! the turn included), with dice from a generator seeded by the bot's own [`BotRng`], never the
//! match's (G-RNG-1). An attack on our capital is not rolled: the sample goes on as if the
//! capital held (the attackers die, C-BATTLE-2), and the attack is kept, with every attack on our
//! capital that was listed at that step, so that the chance the capital falls can be computed
//! exactly afterwards for any number of units in it ([`Round::falls`]): the orders drawn do not
//! depend on how many units defend the capital (the list does not look at a target's units).
//! At each step where attacks on our capital were listed, every one of them adds its chance of
//! being drawn times its chance of taking the capital as it then stands; the attack actually
//! drawn then thins the capital for the later ones (a defence that wins keeps its strongest
//! units, one per 4 of margin, C-BATTLE-3).

use super::odds::{attack_sums, defence_below, defender_kept};
use crate::bot::BotRng;
use crate::capitals::map::AreaId;
use crate::capitals::{AREA_CAP, Action, Capitals, Selection, Units};
use crate::core::{Ruleset, Seat};
use crate::rng::MatchRng;

/// A step of a sampled turn at which attacks on our capital were listed.
struct Step {
    /// The chance of drawing any one listed order (1 / the number listed).
    chance: f64,
    /// The attacks on our capital listed, as indices into [`Round::kinds`].
    offered: std::ops::Range<usize>,
    /// The one drawn, if it was one of them.
    drawn: Option<usize>,
}

/// The sampled rounds, ready to tell how likely a capital of any strength falls.
pub(super) struct Round {
    /// Distinct attacks on our capital: what is sent and the hostile areas on its path.
    kinds: Vec<(Selection, u8)>,
    /// Per kind, the chance of each sum of its dice.
    sums: Vec<Vec<f64>>,
    /// Kind indices of the attacks listed at the steps (ranges of it).
    offered: Vec<usize>,
    steps: Vec<Step>,
    /// Per sample, its steps.
    samples: Vec<std::ops::Range<usize>>,
}

impl Round {
    /// Samples `count` rounds of the other seats from `state` (our turn, `me` holding
    /// `capital`: we end it now). A sample whose turn cannot be ended has no step.
    pub(super) fn sample(
        state: &Capitals,
        me: Seat,
        capital: AreaId,
        count: usize,
        rng: &mut BotRng,
    ) -> Round {
        let mut round = Round {
            kinds: Vec::new(),
            sums: Vec::new(),
            offered: Vec::new(),
            steps: Vec::new(),
            samples: Vec::with_capacity(count),
        };
        let mut events = Vec::new();
        let mut listed = Vec::new();
        for _ in 0..count {
            let first = round.steps.len();
            let mut s = state.clone();
            s.rng = MatchRng::new(rng.seed());
            if s.apply(me, &Action::EndTurn, &mut events).is_err() {
                round.samples.push(first..first);
                continue;
            }
            // Bounded: every seat's turn ends after 5 orders at most.
            while let Some(seat) = s.to_act() {
                if seat == me {
                    break;
                }
                events.clear();
                listed.clear();
                s.legal_actions(&mut listed);
                let start = round.offered.len();
                for action in &listed {
                    if let Some(kind) = round.on_capital(&s, seat, capital, action) {
                        round.offered.push(kind);
                    }
                }
                let pick = rng.below(listed.len());
                let action = listed[pick];
                let drawn = round.on_capital(&s, seat, capital, &action);
                if round.offered.len() > start {
                    round.steps.push(Step {
                        chance: 1.0 / listed.len() as f64,
                        offered: start..round.offered.len(),
                        drawn,
                    });
                }
                match (drawn, action) {
                    (Some(_), Action::Attack { path, units }) => {
                        // As if the capital held: the attackers are gone, the order is given.
                        s.orders += 1;
                        if let Some(&from) = path.areas().first() {
                            s.areas[usize::from(from)].units.take_unused(units);
                        }
                    }
                    _ => {
                        if s.apply(seat, &action, &mut events).is_err() {
                            break;
                        }
                    }
                }
            }
            round.samples.push(first..round.steps.len());
        }
        round.sums = round
            .kinds
            .iter()
            .map(|&(attack, hostile)| attack_sums(attack, hostile))
            .collect();
        round
    }

    /// The kind of `action` if it attacks `capital` (added to the kinds if new).
    fn on_capital(
        &mut self,
        state: &Capitals,
        seat: Seat,
        capital: AreaId,
        action: &Action,
    ) -> Option<usize> {
        let Action::Attack { path, units } = *action else {
            return None;
        };
        let areas = path.areas();
        if areas.last() != Some(&capital) {
            return None;
        }
        // C-DEEP-1: other players' areas after the source cap a deep attack's dice.
        let hostile = if areas.len() > 2 {
            areas[1..]
                .iter()
                .filter(|&&a| matches!(state.area(a).and_then(|s| s.owner), Some(o) if o != seat))
                .count() as u8
        } else {
            0
        };
        let kind = (units, hostile);
        Some(
            self.kinds
                .iter()
                .position(|&k| k == kind)
                .unwrap_or_else(|| {
                    self.kinds.push(kind);
                    self.kinds.len() - 1
                }),
        )
    }

    /// The chance, over the samples, that a capital holding `units` falls before our next turn.
    pub(super) fn falls(&self, units: Units) -> f64 {
        if self.samples.is_empty() || self.steps.is_empty() {
            return 0.0;
        }
        let n = usize::from(units.total().min(AREA_CAP));
        if n == 0 {
            return 1.0;
        }
        let below: Vec<Vec<f64>> = (0..=n)
            .map(|k| defence_below(units.strongest(k as u8)))
            .collect();
        // Per kind and units left: how the battle ends (`defender_kept`), computed when needed.
        let mut kept: Vec<Vec<Option<[f64; 11]>>> = vec![vec![None; n + 1]; self.kinds.len()];
        let mut outcome = |kind: usize, k: usize| -> [f64; 11] {
            *kept[kind][k]
                .get_or_insert_with(|| defender_kept(&self.sums[kind], &below[k], k as u8))
        };
        let mut fall = 0.0;
        for sample in &self.samples {
            let mut left = [0.0; 11];
            left[n] = 1.0;
            for step in &self.steps[sample.clone()] {
                for &kind in &self.offered[step.offered.clone()] {
                    for (k, &chance) in left.iter().enumerate().skip(1) {
                        if chance > 1e-12 {
                            fall += step.chance * chance * outcome(kind, k)[0];
                        }
                    }
                }
                if let Some(kind) = step.drawn {
                    let mut next = [0.0; 11];
                    for (k, &chance) in left.iter().enumerate().take(n + 1).skip(1) {
                        if chance > 1e-12 {
                            let o = outcome(kind, k);
                            for (slot, &p) in next.iter_mut().zip(o.iter()).take(k + 1).skip(1) {
                                *slot += chance * p;
                            }
                        }
                    }
                    left = next;
                }
            }
        }
        fall / self.samples.len() as f64
    }
}
