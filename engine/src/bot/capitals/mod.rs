//! The capitals bot. Each call gives one order (or ends the turn): every listed order is scored
//! in "strength points" (a d6 unit is worth 3.5, a d8 4.5, the expected value of its die) and
//! the best one is played while it is worth more than ending the turn. Battle outcomes are
//! weighed by their exact odds ([`odds`]), never rolled.
//!
//! - An attack the bot is more likely to lose than to win is not launched ([`MIN_WIN`]): waiting
//!   for more units costs little.
//! - An attack wins the target's worth (its production over a few turns, more if it is taken
//!   from a player, far more for a capital, which eliminates its owner, C-END-1), plus the
//!   enemy units it is expected to kill, minus the units it is expected to lose, minus the
//!   danger it brings on our own capital: by thinning it out, and by the land it takes (an
//!   enemy area next to it may then attack deep, C-DEEP-1: the source must border another
//!   player's area; most capitals the bot lost early fell that way, bench/RESULTS.md). The
//!   danger after a won attack is weighed with the target ours, after a lost one without.
//! - A transport is worth the units it brings nearer the front (areas next to land that is not
//!   ours) and nearer the live enemy capitals, and whatever danger it takes off our capital.
//! - `normal` weighs the danger on our capital over the other seats' whole next round, sampled
//!   ([`round`]): 16 copies of the match played from the end of our turn to the start of our
//!   next one, every other seat producing and then giving orders drawn uniformly from its listed
//!   actions (as the random players of the bots bench do), with dice from the bot's own
//!   [`BotRng`], never the match's. Attacks on our capital are not rolled: at every step where
//!   some are listed, each adds its chance of being drawn times its exact chance of taking the
//!   capital as it then stands, and the one drawn thins the capital for the later ones
//!   (C-BATTLE-3), so one set of samples answers for any number of units left in it. So it sees
//!   a deep path that a third player's capture opens during the round (C-DEEP-1), several attacks
//!   in one round, and how rarely an enemy with many orders to give picks the one on our capital.
//!   An order that takes an area within four steps of the capital is weighed with rounds sampled
//!   with that area ours (same seed). The chance is weighed as it is (no accepted danger) until
//!   [`PATIENT_ROUNDS`]. Among random players it lost a fifth fewer matches than with
//!   `hard`'s threats below (bench/RESULTS.md); decisions take about ten times longer (p99 a
//!   few ms).
//! - `hard` weighs the danger on our capital as the chance that some enemy area within three
//!   steps takes it with everything it has (after its production), each attack weighed by the
//!   exact odds with the dice caps of its best path (C-DEEP-1: a deep attack enters the capital
//!   through one of its factories, capped once more when we hold it). An area that borders no other player's
//!   area and none of our capital's factories cannot attack deep and is no threat: counting it
//!   kept the bot sitting in its capital while random players grew (bench/RESULTS.md). Only
//!   the danger above a small accepted chance is weighed, and that chance rises slowly after
//!   [`PATIENT_ROUNDS`] so that bots facing bots reach an end. The danger is remembered per
//!   number of units left (and area taken), which bounds the cost.
//! - Once two of the capital's three factories are ours, they feed the expansion and the
//!   capital keeps a garrison: each unit short of [`GARRISON`] weighs as some danger. It keeps
//!   its d8 too ([`D8_HOME`]): each d8 sent out of the capital (except to attack an enemy
//!   capital) costs 10 points and each d8 brought into it earns 10, so d6 go out first and the
//!   garrison holds the stronger dice. Among random players `normal` lost 286 matches of 30,000
//!   instead of 337 (bench/RESULTS.md, issue 9).
//! - An attack also pays for what it risks next to it: the chance that the strongest enemy
//!   beside its source takes that area once the attack has thinned it, and the chance that the
//!   won area is taken back on the next turn (C-ATK-1). In the lost matches replayed, the bot's
//!   own attacks had left its factories with one unit and random players took them
//!   (bench/RESULTS.md).
//! - Held to its capital and at most one more area from round 4 on, `hard` accepts more danger
//!   ([`STUCK_DANGER`]): waiting there while the enemies grow loses the match in the end.
//! - `hard`'s threats attack our capital one after another (each battle the capital wins still
//!   thins it, C-BATTLE-3). `hard` assumes every threat attacks; `normal`'s samples assume
//!   players who draw their orders at random, which a player who picks the attack on our
//!   capital is not: against `hard` it still wins 40 % of two-seat matches (37 % before both
//!   kept their d8 home, [`D8_HOME`]; bench/RESULTS.md).
//! - Out of our capital the bot also weighs sending every other number of units, strongest dice
//!   first and d6 first (checked by the rules), so it can attack or transport with part of the
//!   capital and keep the rest home.
//! - `easy` plays a uniformly random listed action one time in three, otherwise as `normal`.

#[cfg(all(test, feature = "studies"))]
mod bench_match;
#[cfg(all(test, feature = "studies"))]
mod floor;
#[cfg(all(test, feature = "studies"))]
mod hazard;
mod odds;
mod round;

use std::cell::RefCell;

use crate::bot::{BotLevel, BotRng, best_scored, think_or_take};
use crate::capitals::AreaState;
use crate::capitals::map::AreaId;
use crate::capitals::{Action, AreaKind, Capitals, Selection, Units, production};
use crate::core::{Ruleset, Seat};

use self::odds::{attack_sums, defence_below, defender_kept, odds};
use self::round::Round;

/// Turns of production an area's worth counts.
const HORIZON: f64 = 4.0;
/// The worth of eliminating a player who is not the last one (their land turns neutral).
const ELIMINATION: f64 = 400.0;
/// The worth of winning the match.
const VICTORY: f64 = 100_000.0;
/// The worth of our own capital: losing it loses the match for us.
const OWN_CAPITAL: f64 = 3_000.0;
/// What giving an order costs (one of five a turn).
const ORDER_COST: f64 = 0.5;
/// Killed neutral units count this much of their worth (they never attack).
const NEUTRAL_KILL: f64 = 0.3;
/// The bot launches no attack it is more likely to lose than to win (a tie goes to the defender,
/// C-BATTLE-2), but on the last enemy capital (taking it wins the match). Neutral land grows to
/// 3 units at most (C-NEUTRAL-1) and our areas produce every turn, so waiting a turn for better
/// odds costs little, while a lost attack throws its units away: capitals that spent their units
/// on such attacks early often never took their factories and sat at home while random players
/// grew (bench/RESULTS.md). After [`PATIENT_ROUNDS`] the bar falls by [`MIN_WIN_STEP`] a round, so
/// that bots facing each other's full stacks (10 against 10 wins less than half) reach an end.
const MIN_WIN: f64 = 0.5;
const MIN_WIN_STEP: f64 = 0.025;
/// By how much the weight of an attack's exposure falls a round after [`PATIENT_ROUNDS`].
const EXPOSURE_STEP: f64 = 0.05;
/// Steps within which enemy areas threaten our capital (deep attacks reach 3).
const THREAT_RANGE: u16 = 3;
/// The other seats' next rounds `normal` samples per case it weighs ([`Round`]).
const ROUND_SAMPLES: usize = 16;
/// The chance of losing our capital next turn that the bot accepts in order to expand: only the
/// danger above it is weighed. Among random players 0 to 0.25 do equally well (bench/RESULTS.md);
/// above it the bot loses its capital more often.
const ACCEPTED_DANGER: f64 = 0.1;
/// Rounds after which the accepted danger starts rising, by how much per round, and up to what.
const PATIENT_ROUNDS: u32 = 20;
const DANGER_STEP: f64 = 0.02;
const LATE_DANGER: f64 = 0.9;
/// A bot that holds no more than [`STUCK_AREAS`] areas from round [`STUCK_FROM_ROUND`] on accepts
/// [`STUCK_DANGER`] more danger on its capital (`hard`; `normal` weighs sampled rounds). Held to its capital (its
/// factories neutral at 3 units or taken by an enemy), the bot used to sit at home for dozens of
/// rounds, every attack out weighing as too much danger against the enemy stacks around it, while
/// a random player grew to 20-40 areas and finally took the capital; its factories, thin enough
/// to retake, were left alone: 25 of the 53 matches lost among random players on seeds 4000..8000
/// (bench/RESULTS.md).
const STUCK_AREAS: usize = 2;
const STUCK_FROM_ROUND: u32 = 4;
const STUCK_DANGER: f64 = 0.3;
/// Once we hold this many of our capital's three factories, they (4 units a turn between them)
/// feed the expansion and the capital keeps a garrison of [`GARRISON`] units: each unit short of
/// it counts as [`GARRISON_DANGER`] of danger (60 points). Kept from the start, the garrison
/// left the bot too weak to take its factories and it sat at home (bench/RESULTS.md).
const GARRISON_FROM_FACTORIES: usize = 2;
const GARRISON: u8 = 5;
const GARRISON_DANGER: f64 = 0.02;
/// Once the garrison applies ([`GARRISON_FROM_FACTORIES`]), each d8 sent out of the capital
/// (except to attack an enemy capital) costs this many points and each d8 brought into it earns
/// as many, so the capital sends its d6 first ([`add_capital_shares`] lists those shares) and
/// keeps its strongest dice home. A d8 rolls 4.5 on average against a d6's 3.5 (C-BATTLE-1):
/// the same garrison holds better against the large stacks that take capitals after the first
/// rounds. Before, the d8 that the strong factories produce went out first and the capital
/// held 0.07 d8 of 4.5 units at the bot's ends of turn; with this, 3.1 of 5.2. Among random
/// players `normal` lost 286 of 30,000 matches (fresh seeds, a pre-registered test) instead of
/// 337; in the earlier runs the falls after round 5 were the ones that dropped, and 25 points
/// did no better than 10 (bench/RESULTS.md, issue 9).
const D8_HOME: f64 = 10.0;

/// The order (or end of turn) the bot of `level` gives for the seat to act.
pub(crate) fn choose(state: &Capitals, level: BotLevel, rng: &mut BotRng) -> Option<Action> {
    let mut legal = match think_or_take(state, level, rng, |_| true) {
        Ok(legal) => legal,
        Err(taken) => return taken,
    };
    let seat = state.to_act()?;
    let planner = Planner::new(state, seat, level, rng);
    if let Some(capital) = planner.capital {
        add_capital_shares(state, seat, capital, &mut legal);
    }
    let scores: Vec<i64> = legal
        .iter()
        .map(|action| (planner.score(action) * 1000.0).round() as i64)
        .collect();
    best_scored(&legal, &scores, rng)
}

/// The listed orders send everything, all but one, or one unit. Out of our capital the bot also
/// weighs every other count, strongest dice first and d6 first, so it can attack or send some
/// units and keep the rest home against the threats, the d8 among them ([`D8_HOME`]). Each one
/// is checked by the rules before it is considered.
fn add_capital_shares(state: &Capitals, seat: Seat, capital: AreaId, legal: &mut Vec<Action>) {
    let unused = state
        .area(capital)
        .map(|a| a.units.unused())
        .unwrap_or_default();
    let mut extra = Vec::new();
    for action in legal.iter() {
        let sized = |units: Selection| match *action {
            Action::Transport { from, to, .. } if from == capital => {
                Some(Action::Transport { from, to, units })
            }
            Action::Attack { path, .. } if path.areas().first() == Some(&capital) => {
                Some(Action::Attack { path, units })
            }
            _ => None,
        };
        for n in 1..unused.d6 + unused.d8 {
            let d8 = n.min(unused.d8);
            let Some(candidate) = sized(Selection::new(n - d8, d8)) else {
                break;
            };
            if !legal.contains(&candidate)
                && !extra.contains(&candidate)
                && state.check(seat, &candidate).is_ok()
            {
                extra.push(candidate);
            }
            let d6 = n.min(unused.d6);
            if let Some(candidate) = sized(Selection::new(d6, n - d6))
                && !legal.contains(&candidate)
                && !extra.contains(&candidate)
                && state.check(seat, &candidate).is_ok()
            {
                extra.push(candidate);
            }
        }
    }
    legal.extend(extra);
}

/// An enemy area that could attack our capital before our next turn.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Threat {
    /// Everything it could attack with.
    attack: Selection,
    /// Areas of other players than its owner on its best path (C-DEEP-1 caps).
    hostile: u8,
}

/// What the bot knows about the position, computed once per decision.
struct Planner<'a> {
    state: &'a Capitals,
    me: Seat,
    level: BotLevel,
    /// Per area: steps to the nearest area that is not ours (0 for those).
    to_front: Vec<u16>,
    /// Per area: steps to the nearest live enemy capital.
    to_enemy_capital: Vec<u16>,
    /// Our capital, while we hold it.
    capital: Option<AreaId>,
    /// Per area: steps from our capital (empty without one).
    to_capital: Vec<u16>,
    /// The enemy forces that could attack our capital before our next turn: (units, hostile
    /// areas on the way), weakest first.
    threats: Vec<Threat>,
    /// The same if we took one more area, per area weighed so far.
    threats_if_taken: RefCell<Vec<(AreaId, Vec<Threat>)>>,
    /// The danger on our capital as it stands.
    danger_now: f64,
    /// The danger for each number of units in our capital (and area taken) weighed so far.
    danger_seen: RefCell<Vec<(Units, Option<AreaId>, f64)>>,
    /// Enemy seats still playing.
    live_enemies: usize,
    /// `normal` (and `easy`): the other seats' next round, sampled from the position as it
    /// stands ([`Round`]), and the same with one more area of ours, per area weighed so far.
    round: Option<Round>,
    rounds_if_taken: RefCell<Vec<(AreaId, Round)>>,
    /// The seed of every sampled round of this decision: the same draws for every case weighed.
    round_seed: u64,
    /// The danger on our capital the bot accepts to expand ([`accepted_danger`]).
    accepted_danger: f64,
    /// Whether our capital keeps a garrison ([`GARRISON_FROM_FACTORIES`]).
    garrison: bool,
}

impl<'a> Planner<'a> {
    fn new(state: &'a Capitals, me: Seat, level: BotLevel, rng: &mut BotRng) -> Planner<'a> {
        let map = state.map();
        let owner = |a: usize| state.areas()[a].owner;
        let is_mine = |a: usize| owner(a) == Some(me);
        let to_front = distances(state, |a| !is_mine(a));
        let enemy_capitals: Vec<AreaId> = map
            .capitals
            .iter()
            .enumerate()
            .filter(|&(seat, _)| seat != me.index() && !state.is_eliminated(Seat(seat as u8)))
            .map(|(_, &c)| c)
            .collect();
        let to_enemy_capital = distances(state, |a| enemy_capitals.contains(&(a as AreaId)));
        let capital = map
            .capitals
            .get(me.index())
            .copied()
            .filter(|&c| is_mine(usize::from(c)));
        let mut planner = Planner {
            state,
            me,
            level,
            to_front,
            to_enemy_capital,
            capital,
            to_capital: capital.map(|c| map.distances_from(c)).unwrap_or_default(),
            threats: Vec::new(),
            threats_if_taken: RefCell::new(Vec::new()),
            danger_now: 0.0,
            danger_seen: RefCell::new(Vec::new()),
            live_enemies: enemy_capitals.len(),
            round: None,
            rounds_if_taken: RefCell::new(Vec::new()),
            round_seed: 0,
            accepted_danger: accepted_danger(state.round()),
            garrison: false,
        };
        let held = state.areas().iter().filter(|a| a.owner == Some(me)).count();
        if level == BotLevel::Hard && held <= STUCK_AREAS && state.round() >= STUCK_FROM_ROUND {
            planner.accepted_danger = (planner.accepted_danger + STUCK_DANGER).min(LATE_DANGER);
        }
        if let Some(capital) = capital {
            let factories_held = map.areas[usize::from(capital)]
                .borders
                .iter()
                .filter(|&&factory| is_mine(usize::from(factory)))
                .count();
            planner.garrison = factories_held >= GARRISON_FROM_FACTORIES;
            if level == BotLevel::Hard {
                planner.threats = planner.threats_on(capital, None);
            } else {
                planner.round_seed = rng.below(u32::MAX as usize) as u64;
                planner.round = Some(Round::sample(
                    state,
                    me,
                    capital,
                    ROUND_SAMPLES,
                    &mut BotRng::new(planner.round_seed),
                ));
                planner.accepted_danger = late_danger(state.round());
            }
            planner.danger_now = planner.danger(planner.units(capital), None);
        }
        planner
    }

    /// The score of one listed action; ending the turn scores 0.
    fn score(&self, action: &Action) -> f64 {
        match *action {
            Action::EndTurn => 0.0,
            Action::Transport { from, to, units } => self.transport(from, to, units),
            Action::Attack { path, units } => {
                let areas = path.areas();
                let (Some(&from), Some(&to)) = (areas.first(), areas.last()) else {
                    return f64::MIN;
                };
                let hostile = if areas.len() > 2 {
                    areas[1..].iter().filter(|&&a| self.is_enemy(a)).count() as u8
                } else {
                    0
                };
                self.attack(from, to, units, hostile)
            }
        }
    }

    fn attack(&self, from: AreaId, to: AreaId, sent: Selection, hostile: u8) -> f64 {
        let defence = self.units(to);
        let o = odds(sent, hostile, defence);
        let sent_worth = selection_worth(sent);
        let sent_count = f64::from(sent.d6 + sent.d8);
        let defence_count = f64::from(defence.total());
        let defence_worth = units_worth(defence);
        // Kept units are the strongest; the average worth is close enough.
        let lost = sent_worth - o.attackers_kept * sent_worth / sent_count.max(1.0);
        let killed = defence_worth - o.defenders_kept * defence_worth / defence_count.max(1.0);
        let last_capital = self.live_enemies <= 1 && self.state.map().capitals.contains(&to);
        if o.win < min_win(self.state.round()) && !last_capital {
            return f64::MIN;
        }
        let kill_weight = if self.is_enemy(to) { 1.0 } else { NEUTRAL_KILL };
        let mut score = o.win * self.target_worth(to) + kill_weight * killed - lost - ORDER_COST;
        if let Some(capital) = self.capital {
            // Thinning the capital, and taking land that lets enemies next to it attack deep
            // (C-DEEP-1: the source must border another player's area), both bring danger.
            let mut left = self.units(capital);
            if from == capital {
                left.take_unused(sent);
            }
            let held = self.danger(left, None);
            let taken = if self.to_capital[usize::from(to)] <= THREAT_RANGE + 1 {
                self.danger(left, Some(to))
            } else {
                held
            };
            score -= OWN_CAPITAL * (o.win * taken + (1.0 - o.win) * held - self.danger_now);
            // The garrison keeps its d8 (D8_HOME), but for taking an enemy capital.
            if self.garrison && from == capital && !self.state.map().capitals.contains(&to) {
                score -= D8_HOME * f64::from(sent.d8);
            }
        }
        score -= exposure_weight(self.state.round())
            * self.exposure_after_attack(from, to, sent, o.win, o.attackers_kept);
        score
    }

    fn transport(&self, from: AreaId, to: AreaId, sent: Selection) -> f64 {
        let worth = selection_worth(sent);
        let step = |d: &[u16]| f64::from(d[usize::from(from)]) - f64::from(d[usize::from(to)]);
        let mut score = worth * (step(&self.to_front) + 0.5 * step(&self.to_enemy_capital));
        // Production lost to the cap of 10 is wasted: making room in a producer is worth it.
        let source = self.units(from);
        if source.total() + self.production_of(from) > crate::capitals::AREA_CAP {
            score += 0.5 * worth;
        }
        score -= ORDER_COST;
        if self.capital.is_some() {
            let capital = self.capital;
            if Some(from) == capital || Some(to) == capital {
                let mut units = self.units(capital.unwrap_or(from));
                if Some(from) == capital {
                    units.take_unused(sent);
                } else {
                    units.add_used(sent);
                }
                score -= OWN_CAPITAL * (self.danger(units, None) - self.danger_now);
                // The garrison keeps its d8 and gathers more (D8_HOME).
                if self.garrison {
                    if Some(to) == capital {
                        score += D8_HOME * f64::from(sent.d8);
                    } else {
                        score -= D8_HOME * f64::from(sent.d8);
                    }
                }
            }
        }
        score
    }

    /// What winning area `to` is worth.
    fn target_worth(&self, to: AreaId) -> f64 {
        let map = self.state.map();
        let kind = map.areas[usize::from(to)].kind;
        let produced = selection_worth(production(kind)) * HORIZON;
        let closer = f64::from(6u16.saturating_sub(self.to_enemy_capital[usize::from(to)]));
        let owner = self.state.areas()[usize::from(to)].owner;
        match owner {
            Some(enemy) if map.capitals.get(enemy.index()) == Some(&to) => {
                if self.live_enemies <= 1 {
                    VICTORY
                } else {
                    ELIMINATION
                }
            }
            // Taking an area from a player also takes its production from them.
            Some(_) => 2.0 * produced + closer,
            None => produced + closer,
        }
    }

    /// What the source area and the won area risk from the enemies next to them: an attack that
    /// strips a factory bare next to an enemy stack hands the factory (and a neighbour of our
    /// capital, C-MAP-2) to that enemy. It was `hard`'s alone; weighed by `normal` too, `normal`
    /// won 9,857 and 9,853 of 10,000 matches among random players instead of 9,843 and 9,827
    /// (bench/RESULTS.md).
    fn exposure_after_attack(
        &self,
        from: AreaId,
        to: AreaId,
        sent: Selection,
        win: f64,
        kept: f64,
    ) -> f64 {
        let map = self.state.map();
        let mut source_left = self.units(from);
        source_left.take_unused(sent);
        let area_worth =
            |a: AreaId| selection_worth(production(map.areas[usize::from(a)].kind)) * HORIZON;
        let strongest_enemy = |a: AreaId| -> Option<Selection> {
            map.areas[usize::from(a)]
                .borders
                .iter()
                .filter(|&&b| self.is_enemy(b) && b != to)
                .map(|&b| attackers_of(self.units(b)))
                .max_by(|x, y| selection_worth(*x).total_cmp(&selection_worth(*y)))
        };
        let mut risk = 0.0;
        if Some(from) != self.capital
            && let Some(enemy) = strongest_enemy(from)
        {
            let before = odds(enemy, 0, self.units(from)).win;
            let after = odds(enemy, 0, source_left).win;
            risk += (after - before) * area_worth(from);
        }
        if let Some(enemy) = strongest_enemy(to) {
            let held = Units::d6(kept.round().max(1.0) as u8);
            risk += win * odds(enemy, 0, held).win * area_worth(to);
        }
        risk
    }

    /// The chance our capital falls before our next turn if it holds `units` (and, with
    /// `taken`, if that area were ours too), less the accepted danger; remembered per case, as
    /// many orders leave the same.
    fn danger(&self, units: Units, taken: Option<AreaId>) -> f64 {
        if let Some(&(_, _, d)) = self
            .danger_seen
            .borrow()
            .iter()
            .find(|(u, t, _)| *u == units && *t == taken)
        {
            return d;
        }
        let fall = match (taken, self.capital, &self.round) {
            (_, _, Some(round)) => self.sampled_fall(round, units, taken),
            (Some(area), Some(capital), None) => {
                let index = cached(&self.threats_if_taken, area, || {
                    self.threats_on(capital, Some(area))
                });
                capital_falls(units, &self.threats_if_taken.borrow()[index].1, self.level)
            }
            _ => capital_falls(units, &self.threats, self.level),
        };
        let hold = (1.0 - fall + self.accepted_danger).min(1.0);
        let mut d = 1.0 - hold;
        if self.garrison {
            d += GARRISON_DANGER * f64::from(GARRISON.saturating_sub(units.total()));
        }
        self.danger_seen.borrow_mut().push((units, taken, d));
        d
    }

    /// The chance our capital holding `units` falls in the other seats' sampled next round
    /// (`round`), or, with `taken`, in rounds sampled with that area ours too (units we would
    /// have left there after the battle: 2 used d6). Every case is sampled from the same seed.
    fn sampled_fall(&self, round: &Round, units: Units, taken: Option<AreaId>) -> f64 {
        let (Some(area), Some(capital)) = (taken, self.capital) else {
            return round.falls(units);
        };
        let index = cached(&self.rounds_if_taken, area, || {
            let mut state = self.state.clone();
            state.areas[usize::from(area)] = AreaState {
                owner: Some(self.me),
                units: Units {
                    d6: 0,
                    d8: 0,
                    d6_used: 2,
                    d8_used: 0,
                },
            };
            Round::sample(
                &state,
                self.me,
                capital,
                ROUND_SAMPLES,
                &mut BotRng::new(self.round_seed),
            )
        });
        self.rounds_if_taken.borrow()[index].1.falls(units)
    }

    /// The enemy areas within reach of `capital` (with `taken` ours too) and what each could
    /// attack it with, weakest first.
    fn threats_on(&self, capital: AreaId, taken: Option<AreaId>) -> Vec<Threat> {
        let map = self.state.map();
        let mut threats = Vec::new();
        for (area, state) in self.state.areas().iter().enumerate() {
            let Some(owner) = state.owner else { continue };
            let d = self.to_capital[area];
            if owner == self.me || d == 0 || d > THREAT_RANGE || taken == Some(area as AreaId) {
                continue;
            }
            let mut units = state.units;
            units.clear_used();
            units.produce(production(map.areas[area].kind));
            let attack = attackers_of(units);
            if attack.total() == 0 {
                continue;
            }
            let hostile = if d == 1 {
                Some((0, true))
            } else {
                self.deep_hostile(area as AreaId, owner, capital, taken)
            };
            if let Some((hostile, true)) = hostile {
                threats.push(Threat { attack, hostile });
            }
        }
        threats.sort_by(|a, b| capped_mean(a).total_cmp(&capped_mean(b)));
        threats
    }

    /// The fewest areas of players other than `owner` (the target included) on a deep attack
    /// from `source` on `capital` (C-DEEP-1): every path of 2 or 3 steps enters the capital
    /// through one of its factories (C-MAP-2), which counts when we (or a third player) hold it.
    /// `None` when no such path exists, or when `source` cannot attack deep: it borders no area
    /// of another player and none of our capital's factories (whose taking would make it border
    /// ours).
    fn deep_hostile(
        &self,
        source: AreaId,
        owner: Seat,
        capital: AreaId,
        taken: Option<AreaId>,
    ) -> Option<(u8, bool)> {
        let map = self.state.map();
        let owner_of = |a: AreaId| {
            if taken == Some(a) {
                Some(self.me)
            } else {
                self.state.area(a).and_then(|s| s.owner)
            }
        };
        let hostile = |a: AreaId| u8::from(matches!(owner_of(a), Some(o) if o != owner));
        let borders = &map.areas[usize::from(source)].borders;
        let gates = &map.areas[usize::from(capital)].borders;
        let can_now = borders
            .iter()
            .any(|&b| hostile(b) == 1 || gates.contains(&b));
        let mut fewest: Option<u8> = None;
        let mut path = |h: u8| fewest = Some(fewest.map_or(h, |f| f.min(h)));
        for &gate in gates.iter().filter(|&&gate| gate != source) {
            let through_gate = 1 + hostile(gate);
            if borders.contains(&gate) {
                path(through_gate);
                continue;
            }
            for &step in borders {
                if step != capital && step != gate && map.borders(step, gate) {
                    path(through_gate + hostile(step));
                }
            }
        }
        fewest.map(|f| (f, can_now))
    }

    fn units(&self, area: AreaId) -> Units {
        self.state.area(area).map(|a| a.units).unwrap_or_default()
    }

    fn production_of(&self, area: AreaId) -> u8 {
        let kind = self
            .state
            .map()
            .areas
            .get(usize::from(area))
            .map_or(AreaKind::Plain, |a| a.kind);
        let p = production(kind);
        p.d6 + p.d8
    }

    fn is_enemy(&self, area: AreaId) -> bool {
        matches!(self.state.area(area).and_then(|a| a.owner), Some(o) if o != self.me)
    }
}

/// The chance of losing our capital next turn that the bot accepts in order to expand in round
/// `round`: only the danger above it is weighed. It rises slowly in a long match, so that bots
/// facing each other's growing stacks do not both sit at home for ever.
fn accepted_danger(round: u32) -> f64 {
    (ACCEPTED_DANGER + late_danger(round)).min(LATE_DANGER)
}

/// The index in `cache` of what was worked out for `area` taken, worked out by `make` the
/// first time it is asked for.
fn cached<T>(cache: &RefCell<Vec<(AreaId, T)>>, area: AreaId, make: impl FnOnce() -> T) -> usize {
    let known = cache.borrow().iter().position(|(a, _)| *a == area);
    known.unwrap_or_else(|| {
        let made = make();
        let mut cache = cache.borrow_mut();
        cache.push((area, made));
        cache.len() - 1
    })
}

/// The danger accepted in round `round` on top of a chance weighed as it is (the sampled rounds
/// of `normal`): none until [`PATIENT_ROUNDS`], then [`DANGER_STEP`] more each round.
fn late_danger(round: u32) -> f64 {
    (f64::from(round.saturating_sub(PATIENT_ROUNDS)) * DANGER_STEP).min(LATE_DANGER)
}

/// How much of an attack's exposure ([`Planner::exposure_after_attack`]) the bot weighs in round
/// `round`: all of it until [`PATIENT_ROUNDS`], then a twentieth less each round. Weighed in
/// full by both bots, hard vs normal left 10 of 1000 matches unfinished after 50,000 actions
/// (bench/RESULTS.md): neither would strip an area facing the other's stacks.
fn exposure_weight(round: u32) -> f64 {
    let late = f64::from(round.saturating_sub(PATIENT_ROUNDS)) * EXPOSURE_STEP;
    (1.0 - late).max(0.0)
}

/// The lowest chance of winning at which the bot attacks in round `round` ([`MIN_WIN`]).
fn min_win(round: u32) -> f64 {
    let late = f64::from(round.saturating_sub(PATIENT_ROUNDS)) * MIN_WIN_STEP;
    (MIN_WIN - late).max(0.0)
}

/// The chance that `threats`, each attacking once with everything, take a capital holding
/// `units`: for `normal` each attack alone against the whole capital; for `hard` one after
/// another, weakest first ([`capital_falls_in_turn`]).
fn capital_falls(units: Units, threats: &[Threat], level: BotLevel) -> f64 {
    if level == BotLevel::Hard {
        return capital_falls_in_turn(units, threats);
    }
    let mut holds = 1.0;
    for threat in threats {
        holds *= 1.0 - odds(threat.attack, threat.hostile, units).win;
    }
    1.0 - holds
}

/// The chance that `threats` (weakest first), attacking one after another with everything, take
/// a capital holding `units`. A defence that wins keeps only some of its units (C-BATTLE-3: its
/// strongest, one per 4 of margin), so every attack thins it for the next: the chance is carried
/// over the number of units left. Costlier than weighing each attack alone, and among random
/// players no stronger; against `normal` it makes `hard` win more (bench/RESULTS.md).
fn capital_falls_in_turn(units: Units, threats: &[Threat]) -> f64 {
    let n = usize::from(units.total().min(crate::capitals::AREA_CAP));
    if threats.is_empty() {
        return 0.0;
    }
    if n == 0 {
        return 1.0;
    }
    let below: Vec<Vec<f64>> = (0..=n)
        .map(|k| defence_below(units.strongest(k as u8)))
        .collect();
    let mut left = [0.0; 11];
    left[n] = 1.0;
    let mut fall = 0.0;
    for threat in threats {
        let sums = attack_sums(threat.attack, threat.hostile);
        let mut next = [0.0; 11];
        for k in 1..=n {
            let chance = left[k];
            if chance < 1e-9 {
                continue;
            }
            let kept = defender_kept(&sums, &below[k], k as u8);
            fall += chance * kept[0];
            for j in 1..=k {
                next[j] += chance * kept[j];
            }
        }
        left = next;
    }
    fall
}

/// The mean sum a selection rolls with the caps of `hostile` hostile areas (C-DEEP-1).
fn capped_mean(
    &Threat {
        attack, hostile, ..
    }: &Threat,
) -> f64 {
    const D6: [f64; 4] = [3.5, 20.0 / 6.0, 3.0, 2.5];
    const D8: [f64; 4] = [4.5, 35.0 / 8.0, 33.0 / 8.0, 30.0 / 8.0];
    let h = usize::from(hostile.min(3));
    D6[h] * f64::from(attack.d6) + D8[h] * f64::from(attack.d8)
}

/// Everything an area could attack with: all its units but one (a d6 stays if there is one).
fn attackers_of(units: Units) -> Selection {
    let d6 = units.d6 + units.d6_used;
    let d8 = units.d8 + units.d8_used;
    if d6 > 0 {
        Selection::new(d6 - 1, d8)
    } else {
        Selection::new(0, d8.saturating_sub(1))
    }
}

/// The worth of a selection: 3.5 per d6, 4.5 per d8 (their expected rolls).
fn selection_worth(s: Selection) -> f64 {
    3.5 * f64::from(s.d6) + 4.5 * f64::from(s.d8)
}

/// The worth of every unit of an area, used or not.
fn units_worth(u: Units) -> f64 {
    3.5 * f64::from(u.d6 + u.d6_used) + 4.5 * f64::from(u.d8 + u.d8_used)
}

/// Steps from every area to the nearest area for which `goal` holds (breadth first over the
/// borders); `u16::MAX` when none can be reached.
fn distances(state: &Capitals, goal: impl Fn(usize) -> bool) -> Vec<u16> {
    let map = state.map();
    let mut dist = vec![u16::MAX; map.areas.len()];
    let mut queue = std::collections::VecDeque::new();
    for (a, d) in dist.iter_mut().enumerate() {
        if goal(a) {
            *d = 0;
            queue.push_back(a);
        }
    }
    while let Some(a) = queue.pop_front() {
        let next = dist[a] + 1;
        for &b in &map.areas[a].borders {
            if dist[usize::from(b)] == u16::MAX {
                dist[usize::from(b)] = next;
                queue.push_back(usize::from(b));
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capitals::Options;
    use crate::rng::Seed;

    /// A match of `seats` seats (seed 3) whose every area is neutral with 1 d6: the tests place
    /// what they need on it.
    fn neutral_board(seats: u8) -> Capitals {
        let (mut game, _) = Capitals::new(&Options::default(), seats, Seed::from_u64(3)).unwrap();
        for area in &mut game.areas {
            area.owner = None;
            area.units = Units::d6(1);
        }
        game
    }

    #[test]
    fn c_deep_1_a_deep_threat_through_a_factory_we_hold_is_capped_twice() {
        // Seat 0 holds its capital and every factory of it; a seat 1 area of 6 d6 borders one
        // of those factories. Its deep attack on the capital crosses our factory and the
        // capital: each attacking die is capped twice (a d6 counts at most 4).
        let mut game = neutral_board(2);
        let capital = game.map.capitals[0];
        let gates = game.map.areas[usize::from(capital)].borders.clone();
        game.areas[usize::from(capital)].owner = Some(Seat(0));
        for &gate in &gates {
            game.areas[usize::from(gate)].owner = Some(Seat(0));
        }
        let distance = game.map.distances_from(capital);
        let enemy = (0..game.map.len())
            .find(|&a| distance[a] == 2)
            .expect("an area two steps away");
        game.areas[enemy] = AreaState {
            owner: Some(Seat(1)),
            units: Units::d6(6),
        };
        game.current = Seat(0);
        let planner = Planner::new(&game, Seat(0), BotLevel::Hard, &mut BotRng::new(1));
        assert_eq!(
            planner.threats,
            vec![Threat {
                attack: Selection::new(6, 0),
                hostile: 2,
            }]
        );
    }

    #[test]
    fn c_deep_1_the_sampled_round_sees_a_deep_path_that_a_third_player_opens() {
        // Three seats; seat 0 (to act, then seats 1 and 2) holds its capital with 1 d6. Seat 2
        // holds a stack of 8 d6 three steps away that borders only neutral land: it cannot
        // attack deep (C-DEEP-1), and the threats as `normal` weighed them before (still
        // `hard`'s) leave it out. Seat 1 holds 10 d6 beside a neutral area next to that stack
        // (and its capital's factories may border it too): if seat 1 takes such an area first
        // (C-ROUND-1: seat 1 plays before seat 2), the stack borders another player's area and
        // can attack our capital deep. The sampled next round sees it.
        let mut game = neutral_board(3);
        let capitals = game.map.capitals.clone();
        for (seat, &capital) in capitals.iter().enumerate() {
            game.areas[usize::from(capital)].owner = Some(Seat(seat as u8));
            game.areas[usize::from(capital)].units = Units::d6(4);
        }
        let capital = capitals[0];
        game.areas[usize::from(capital)].units = Units::d6(1);
        let map = game.map.clone();
        let distance = map.distances_from(capital);
        let borders = |a: AreaId| &map.areas[usize::from(a)].borders;
        let near_capital = |a: AreaId, except: AreaId| {
            capitals
                .iter()
                .any(|&c| c != except && borders(a).contains(&c))
        };
        let found = (0..map.len() as AreaId)
            .filter(|&y| distance[usize::from(y)] == 3 && !capitals.contains(&y))
            .filter(|&y| !near_capital(y, capitals[2]))
            .find_map(|y| {
                borders(y)
                    .iter()
                    .copied()
                    .filter(|&n| distance[usize::from(n)] >= 3 && !capitals.contains(&n))
                    .find_map(|n| {
                        borders(n)
                            .iter()
                            .copied()
                            .find(|&z| {
                                z != y
                                    && distance[usize::from(z)] >= 3
                                    && !capitals.contains(&z)
                                    && !borders(z).contains(&y)
                                    && !near_capital(z, capitals[1])
                            })
                            .map(|z| (y, z))
                    })
            });
        let (stack, opener) = found.expect("a stack, a neutral area beside it and an opener");
        game.areas[usize::from(stack)] = AreaState {
            owner: Some(Seat(2)),
            units: Units::d6(8),
        };
        game.areas[usize::from(opener)] = AreaState {
            owner: Some(Seat(1)),
            units: Units::d6(10),
        };
        game.first = Seat(0);
        game.current = Seat(0);
        let hard = Planner::new(&game, Seat(0), BotLevel::Hard, &mut BotRng::new(1));
        assert!(hard.threats.is_empty(), "{:?}", hard.threats);
        let round = Round::sample(&game, Seat(0), capital, 400, &mut BotRng::new(1));
        let fall = round.falls(Units::d6(1));
        assert!(fall > 0.001, "{fall}");
        // A capital of 10 d6 holds against 7 d6 capped at 5 far more often.
        assert!(round.falls(Units::d6(10)) < fall / 4.0);
    }
}
