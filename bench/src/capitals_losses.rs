//! Why a capitals bot lost a match: fed every action of a replayed match, [`LossTrace`] notes
//! the seat's position at the end of each of its turns and the attack that took its capital, and
//! prints one line for the lost match (the bots bench's `BOTS_BENCH_LOSSES=1`).

use warroom_engine::Seat;
use warroom_engine::capitals::{Capitals, Event, Units};

/// The watched seat's position when it ended a turn.
#[derive(Clone, Copy, Debug, Default)]
struct AtTurnEnd {
    round: u32,
    /// Areas it held.
    areas: usize,
    /// How many of its capital's three factories it held (C-MAP-2).
    factories: usize,
    /// Units in its capital.
    capital: u8,
    /// Areas of the largest other player.
    largest_enemy: usize,
}

/// Follows one seat through a match.
pub struct LossTrace {
    seat: Seat,
    last_turn: AtTurnEnd,
    most_areas: usize,
    /// Turns it ended holding nothing but its capital.
    capital_only_turns: u32,
    /// Units in its capital after the latest action.
    capital_units: Units,
    /// The latest attack on its capital: how it went.
    last_attack_on_capital: Option<String>,
    /// Attacks on its capital in the current round.
    attacks_this_round: u32,
    /// The line for its elimination, once it happened.
    fall: Option<String>,
}

impl LossTrace {
    /// Watches `seat` from the start of `state`.
    pub fn new(state: &Capitals, seat: Seat) -> LossTrace {
        LossTrace {
            seat,
            last_turn: AtTurnEnd::default(),
            most_areas: 1,
            capital_only_turns: 0,
            capital_units: capital_units(state, seat),
            last_attack_on_capital: None,
            attacks_this_round: 0,
            fall: None,
        }
    }

    /// Notes what the action that `state` has just applied did (its `events`).
    pub fn observe(&mut self, state: &Capitals, events: &[Event]) {
        let capital = state.map().capitals[self.seat.index()];
        for event in events {
            match event {
                Event::RoundStarted { .. } => self.attacks_this_round = 0,
                Event::AttackLaunched {
                    path,
                    units,
                    d6_cap,
                    d8_cap,
                } if path.areas().last() == Some(&capital) => {
                    self.attacks_this_round += 1;
                    let defence = self.capital_units;
                    self.last_attack_on_capital = Some(format!(
                        "{} attack of {} d6 + {} d8 (caps {d6_cap}/{d8_cap}) from area {} on \
                         {} d6 + {} d8",
                        if path.areas().len() > 2 {
                            format!("{}-step deep", path.areas().len() - 1)
                        } else {
                            "1-step".to_owned()
                        },
                        units.d6,
                        units.d8,
                        path.areas()[0],
                        defence.d6 + defence.d6_used,
                        defence.d8 + defence.d8_used,
                    ));
                }
                Event::TurnEnded { seat } if *seat == self.seat => {
                    self.last_turn = at_turn_end(state, self.seat);
                    self.most_areas = self.most_areas.max(self.last_turn.areas);
                    if self.last_turn.areas == 1 {
                        self.capital_only_turns += 1;
                    }
                }
                Event::PlayerEliminated { seat, by, .. } if *seat == self.seat => {
                    let t = self.last_turn;
                    self.fall = Some(format!(
                        "capital taken in round {} by seat {} ({} that round; {}); after its last \
                         turn (round {}): {} areas, {}/3 factories, {} units in the capital, \
                         largest enemy {} areas; most areas {}, {} turns with the capital only",
                        state.round(),
                        by.index(),
                        plural(self.attacks_this_round, "attack"),
                        self.last_attack_on_capital.as_deref().unwrap_or("?"),
                        t.round,
                        t.areas,
                        t.factories,
                        t.capital,
                        t.largest_enemy,
                        self.most_areas,
                        self.capital_only_turns,
                    ));
                }
                _ => {}
            }
        }
        self.capital_units = capital_units(state, self.seat);
    }

    /// One line on how the match ended for the seat.
    pub fn report(&self) -> String {
        self.fall.clone().unwrap_or_else(|| {
            let t = self.last_turn;
            format!(
                "not eliminated (match unfinished): round {}, {} areas, largest enemy {}",
                t.round, t.areas, t.largest_enemy
            )
        })
    }
}

fn plural(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn capital_units(state: &Capitals, seat: Seat) -> Units {
    let capital = state.map().capitals[seat.index()];
    state.areas()[usize::from(capital)].units
}

fn at_turn_end(state: &Capitals, seat: Seat) -> AtTurnEnd {
    let map = state.map();
    let mut held = vec![0usize; usize::from(state.seats())];
    for area in state.areas() {
        if let Some(owner) = area.owner {
            held[owner.index()] += 1;
        }
    }
    let capital = map.capitals[seat.index()];
    AtTurnEnd {
        round: state.round(),
        areas: held[seat.index()],
        factories: map.areas[usize::from(capital)]
            .borders
            .iter()
            .filter(|&&f| state.areas()[usize::from(f)].owner == Some(seat))
            .count(),
        capital: state.areas()[usize::from(capital)].units.total(),
        largest_enemy: held
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat.index())
            .map(|(_, &n)| n)
            .max()
            .unwrap_or(0),
    }
}
