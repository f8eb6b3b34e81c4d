//! Carrying out an action that [`super::check`] accepted. Nothing here can fail: every index
//! was validated, and every die rolled is reported as an event.

use super::action::Action;
use super::board::single;
use super::event::{AttackResult, Decider, EndCause, Event};
use super::options::{Conquest, LastTiebreak};
use super::state::{Hexdice, Phase, opponent};
use crate::core::Seat;

/// Carries out a checked action of `seat`.
pub(crate) fn execute(state: &mut Hexdice, seat: Seat, action: &Action, events: &mut Vec<Event>) {
    match (state.phase, *action) {
        (_, Action::Place { cell, value }) => place(state, seat, cell, value, events),
        (_, Action::Attack { from, target }) => {
            let roll = state.rng.die(6);
            events.push(Event::AttackRolled {
                seat,
                from,
                target,
                roll,
            });
            // A single attack rolls reserve slot 0 (the two reserve dice are interchangeable).
            resolve(state, seat, from, target, roll, 0, events);
        }
        (_, Action::CombinedAttack { attackers, target }) => {
            let rolls = [state.rng.die(6), state.rng.die(6)];
            events.push(Event::CombinedAttackRolled {
                seat,
                attackers,
                target,
                rolls,
            });
            state.phase = Phase::ChooseAttack {
                seat,
                attackers,
                target,
                rolls,
            };
        }
        (Phase::ChooseAttack { target, rolls, .. }, Action::ChooseAttack { attacker, roll }) => {
            let slot = usize::from(rolls[0] != roll);
            // H-ATK-7: the unused roll stays in the reserve, showing what it rolled.
            set_reserve(state, seat, 1 - slot, rolls[1 - slot]);
            resolve(state, seat, attacker, target, roll, slot, events);
        }
        (Phase::Conquest { from, target, .. }, Action::Conquer { move_in }) => {
            if move_in {
                move_in_to(state, seat, from, target, events);
            } else {
                events.push(Event::StayedPut { seat, cell: from });
                state.phase = Phase::Move {
                    seat,
                    conqueror: None,
                };
            }
        }
        (_, Action::Move { from, to }) => {
            relocate(state, seat, from, to);
            events.push(Event::Moved { seat, from, to });
            end_turn(state, seat, events);
        }
        (_, Action::EndTurn) => {
            events.push(Event::MoveSkipped { seat });
            end_turn(state, seat, events);
        }
        // check() lets no other pairing through.
        (_, Action::ChooseAttack { .. } | Action::Conquer { .. }) => {}
    }
}

/// H-SETUP-4/5: one die onto an empty cell; when the board is full, the reserves and the first
/// turn follow.
fn place(state: &mut Hexdice, seat: Seat, cell: u8, value: u8, events: &mut Vec<Event>) {
    let p = seat.index() & 1;
    let face = usize::from(value.clamp(1, 6) - 1);
    state.unplaced[p][face] = state.unplaced[p][face].saturating_sub(1);
    put(state, seat, cell, value);
    events.push(Event::Placed { seat, cell, value });
    if state.empty_cells() != 0 {
        state.phase = Phase::Occupation {
            seat: opponent(seat),
        };
        return;
    }
    let reserves = [
        reserve_of(&state.unplaced[0]),
        reserve_of(&state.unplaced[1]),
    ];
    state.unplaced = [[0; 6]; 2];
    state.reserve = reserves;
    let sums = reserves.map(|[a, b]| a + b);
    let first = match sums[0].cmp(&sums[1]) {
        std::cmp::Ordering::Greater => Seat(0),
        std::cmp::Ordering::Less => Seat(1),
        std::cmp::Ordering::Equal => state.occupation_starter,
    };
    state.first_turn = Some(first);
    events.push(Event::OccupationEnded {
        reserves,
        first_turn: first,
    });
    begin_turn(state, first, events);
}

/// The two dice left after the occupation, highest first.
fn reserve_of(unplaced: &[u8; 6]) -> [u8; 2] {
    let mut reserve = [0; 2];
    let mut slots = reserve.iter_mut();
    for face in (1..=6u8).rev() {
        for _ in 0..unplaced[usize::from(face - 1)] {
            if let Some(slot) = slots.next() {
                *slot = face;
            }
        }
    }
    reserve
}

/// H-ATK-2..6: the attacker on `from` used `roll`, rolled with reserve slot `slot`, against the
/// die on `target`.
fn resolve(
    state: &mut Hexdice,
    seat: Seat,
    from: u8,
    target: u8,
    roll: u8,
    slot: usize,
    events: &mut Vec<Event>,
) {
    let attacker = state.face_at(from);
    let defender = state.face_at(target);
    let (result, attacker_after, defender_after) = match roll.cmp(&attacker) {
        // H-ATK-2: the rolled die takes the attacker's place; the old one returns to the reserve.
        std::cmp::Ordering::Less => {
            set_reserve(state, seat, slot, attacker);
            (AttackResult::Valid, roll, defender.saturating_sub(roll))
        }
        // H-ATK-3: the attacker stays as it is; the rolled die stays in the reserve.
        std::cmp::Ordering::Equal => {
            set_reserve(state, seat, slot, roll);
            (
                AttackResult::Perfect,
                attacker,
                defender.saturating_sub(roll),
            )
        }
        // H-ATK-4: the defender is untouched; the attacker loses a point.
        std::cmp::Ordering::Greater => {
            set_reserve(state, seat, slot, roll);
            (AttackResult::Failed, attacker - 1, defender)
        }
    };
    state.face[usize::from(from)] = attacker_after;
    state.face[usize::from(target)] = defender_after;
    events.push(Event::AttackResolved {
        seat,
        from,
        target,
        roll,
        result,
        attacker_value: attacker_after,
        defender_value: defender_after,
    });
    if attacker_after == 0 {
        // H-ATK-6: the failed attacker leaves; nobody moves into its cell.
        remove(state, seat, from, events);
        after_attack(state, seat, None, events);
    } else if defender_after == 0 {
        remove(state, opponent(seat), target, events);
        let conquest_decision =
            state.options.conquest == Conquest::Optional && state.dice_count(opponent(seat)) > 0;
        if conquest_decision {
            state.phase = Phase::Conquest { seat, from, target };
        } else {
            // H-ATK-5: the attacking die, as it now stands, moves in.
            move_in_to(state, seat, from, target, events);
        }
    } else {
        after_attack(state, seat, None, events);
    }
}

/// H-ATK-5: the attacking die moves from `from` into the conquered `target`.
fn move_in_to(state: &mut Hexdice, seat: Seat, from: u8, target: u8, events: &mut Vec<Event>) {
    relocate(state, seat, from, target);
    events.push(Event::Conquered {
        seat,
        from,
        to: target,
    });
    after_attack(state, seat, Some(target), events);
}

/// After an attack: the game ends if a player has no die left (H-END-1), otherwise the move
/// phase begins.
fn after_attack(state: &mut Hexdice, seat: Seat, conqueror: Option<u8>, events: &mut Vec<Event>) {
    if state.dice_count(Seat(0)) == 0 || state.dice_count(Seat(1)) == 0 {
        finish(state, EndCause::NoDiceLeft, events);
    } else {
        state.phase = Phase::Move { seat, conqueror };
    }
}

/// Ends `seat`'s turn and begins the opponent's.
fn end_turn(state: &mut Hexdice, seat: Seat, events: &mut Vec<Event>) {
    begin_turn(state, opponent(seat), events);
}

/// Begins `seat`'s turn: the mandatory attack, or "could not attack" (H-TURN-2), which ends the
/// game if the previous turn could not attack either (H-END-1).
fn begin_turn(state: &mut Hexdice, seat: Seat, events: &mut Vec<Event>) {
    state.turn += 1;
    events.push(Event::TurnStarted {
        seat,
        turn: state.turn,
    });
    if state.can_attack(seat) {
        state.previous_could_not_attack = false;
        state.phase = Phase::Attack { seat };
        return;
    }
    events.push(Event::CouldNotAttack { seat });
    if state.previous_could_not_attack {
        finish(state, EndCause::NoAttacksLeft, events);
    } else {
        state.previous_could_not_attack = true;
        state.phase = Phase::Move {
            seat,
            conqueror: None,
        };
    }
}

/// H-END-2: more dice, then more pips, then the room's last tie-break.
fn finish(state: &mut Hexdice, cause: EndCause, events: &mut Vec<Event>) {
    let dice = [state.dice_count(Seat(0)), state.dice_count(Seat(1))];
    let pips = [state.pips(Seat(0)), state.pips(Seat(1))];
    let by_dice = dice[0].cmp(&dice[1]);
    let by_pips = pips[0].cmp(&pips[1]);
    let (winner, decided_by) = if by_dice.is_ne() {
        (leader(by_dice), Decider::MoreDice)
    } else if by_pips.is_ne() {
        (leader(by_pips), Decider::HigherPipSum)
    } else {
        match state.options.last_tiebreak {
            LastTiebreak::FirstTurn => (
                state.first_turn.unwrap_or(state.occupation_starter),
                Decider::FirstTurn,
            ),
            LastTiebreak::OccupationStarter => {
                (state.occupation_starter, Decider::OccupationStarter)
            }
        }
    };
    events.push(Event::GameOver {
        winner,
        cause,
        decided_by,
        dice,
        pips,
    });
    state.phase = Phase::Over {
        winner,
        cause,
        decided_by,
    };
}

/// Seat 0 when the comparison of seat 0 against seat 1 is `Greater`, else seat 1.
fn leader(order: std::cmp::Ordering) -> Seat {
    if order.is_gt() { Seat(0) } else { Seat(1) }
}

fn set_reserve(state: &mut Hexdice, seat: Seat, slot: usize, value: u8) {
    state.reserve[seat.index() & 1][slot & 1] = value;
}

fn put(state: &mut Hexdice, seat: Seat, cell: u8, value: u8) {
    state.owned[seat.index() & 1] |= single(cell);
    state.face[usize::from(cell)] = value;
}

fn remove(state: &mut Hexdice, seat: Seat, cell: u8, events: &mut Vec<Event>) {
    state.owned[seat.index() & 1] &= !single(cell);
    state.face[usize::from(cell)] = 0;
    events.push(Event::DieRemoved { seat, cell });
}

fn relocate(state: &mut Hexdice, seat: Seat, from: u8, to: u8) {
    let value = state.face_at(from);
    state.owned[seat.index() & 1] &= !single(from);
    state.face[usize::from(from)] = 0;
    put(state, seat, to, value);
}
