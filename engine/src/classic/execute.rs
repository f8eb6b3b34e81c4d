//! Carrying out a checked action: the only code that changes a classic match. It cannot fail;
//! `check` has already refused everything the rules forbid. Every die is rolled here, from the
//! match's own RNG, and reported in an event.

use super::action::Action;
use super::cards::{Card, set_value};
use super::event::{Dice, Event};
use super::map::{TERRITORY_COUNT, TerritoryId};
use super::state::{Classic, NOBODY, Phase};
use crate::core::Seat;

/// Extra units for a traded card showing a held territory (W-CARD-3).
const TERRITORY_BONUS: u32 = 2;

impl Classic {
    /// Applies an action that `check` accepted.
    pub(crate) fn execute(&mut self, seat: Seat, action: &Action, events: &mut Vec<Event>) {
        let me = seat.0;
        match *action {
            Action::Claim { territory } => self.claim(me, territory, events),
            Action::Place { territory, units } => self.place(me, territory, units, events),
            Action::Trade { cards, bonus } => self.trade(me, cards, bonus, events),
            Action::Attack { from, to, dice } => self.attack(me, from, to, dice, events),
            Action::MoveIn { units } => {
                if let Phase::MoveIn { from, to, min, .. } = self.phase {
                    self.move_in(me, from, to, units - min, events);
                }
            }
            Action::Fortify { from, to, units } => {
                self.shift(from, to, units);
                events.push(Event::Fortified { from, to, units });
                self.end_turn(me, events);
            }
            Action::EndTurn => self.end_turn(me, events),
        }
    }

    fn claim(&mut self, me: u8, territory: TerritoryId, events: &mut Vec<Event>) {
        let t = usize::from(territory);
        self.owner[t] = me;
        self.units[t] = 1;
        self.to_place[usize::from(me)] -= 1;
        events.push(Event::Claimed {
            seat: Seat(me),
            territory,
        });
        if self.owner.contains(&NOBODY) {
            self.current = self.next_seat(me, |_| true).unwrap_or(me);
        } else {
            // W-SETUP-2: placing continues the rotation after the last claim.
            self.phase = Phase::Deploy;
            self.next_deployer(me, events);
        }
    }

    fn place(&mut self, me: u8, territory: TerritoryId, units: u32, events: &mut Vec<Event>) {
        self.units[usize::from(territory)] += units;
        events.push(Event::Placed {
            seat: Seat(me),
            territory,
            units,
        });
        if self.phase == Phase::Deploy {
            self.to_place[usize::from(me)] -= units;
            self.next_deployer(me, events);
        } else {
            self.reserve -= units;
            if self.reserve == 0 {
                self.phase = Phase::Attack;
            }
        }
    }

    /// The next seat with starting units left, or the first turn once all are placed.
    fn next_deployer(&mut self, after: u8, events: &mut Vec<Event>) {
        let to_place = &self.to_place;
        match self.next_seat(after, |s| to_place[usize::from(s)] > 0) {
            Some(seat) => self.current = seat,
            None => self.start_turn(self.first, events),
        }
    }

    fn trade(
        &mut self,
        me: u8,
        cards: [Card; 3],
        bonus: Option<TerritoryId>,
        events: &mut Vec<Event>,
    ) {
        let hand = &mut self.hands[usize::from(me)];
        hand.retain(|card| !cards.contains(card));
        self.set_aside.extend_from_slice(&cards);
        let units = set_value(self.sets_traded);
        self.sets_traded += 1;
        self.reserve += units;
        // W-CARD-3: a trade in the attack step (before the first attack) reopens placing; the
        // traded units go on the board before any attack.
        if self.phase == Phase::Attack {
            self.phase = Phase::Reinforce;
        }
        events.push(Event::SetTraded {
            seat: Seat(me),
            cards: cards.map(Card::face),
            units,
        });
        if self.bonus_used {
            return;
        }
        let bonus = bonus.or_else(|| {
            cards
                .iter()
                .filter_map(|card| card.territory())
                .find(|&territory| self.holds(me, territory))
        });
        if let Some(territory) = bonus {
            self.units[usize::from(territory)] += TERRITORY_BONUS;
            self.bonus_used = true;
            events.push(Event::TerritoryBonus {
                seat: Seat(me),
                territory,
                units: TERRITORY_BONUS,
            });
        }
    }

    fn attack(
        &mut self,
        me: u8,
        from: TerritoryId,
        to: TerritoryId,
        dice: u8,
        events: &mut Vec<Event>,
    ) {
        let (f, t) = (usize::from(from), usize::from(to));
        self.attacked = true;
        let defender = self.owner[t];
        // W-ATK-2: the defender rolls 2 dice with 2 or more units, else 1.
        let defender_dice_count = if self.units[t] >= 2 { 2 } else { 1 };
        let mut attacker_faces = [0u8; 3];
        let mut defender_faces = [0u8; 3];
        for face in &mut attacker_faces[..usize::from(dice)] {
            *face = self.rng.die(6);
        }
        for face in &mut defender_faces[..defender_dice_count] {
            *face = self.rng.die(6);
        }
        let attacker_dice = Dice::new(&attacker_faces[..usize::from(dice)]);
        let defender_dice = Dice::new(&defender_faces[..defender_dice_count]);
        let (attacker_losses, defender_losses) = battle_losses(&attacker_dice, &defender_dice);
        self.units[f] -= attacker_losses;
        self.units[t] -= defender_losses;
        events.push(Event::Battle {
            from,
            to,
            attacker_dice,
            defender_dice,
            attacker_losses,
            defender_losses,
        });
        if self.units[t] > 0 {
            return;
        }
        // A conquering roll loses no attacker unit, so units - 1 >= dice; min() is a guard only.
        let max = self.units[f] - 1;
        let min = u32::from(dice).min(max);
        // The compulsory part of the move-in (W-ATK-4) goes at once, so a held territory never
        // stands empty while the player chooses the rest.
        self.owner[t] = me;
        self.shift(from, to, min);
        self.conquered = true;
        events.push(Event::Conquered {
            territory: to,
            seat: Seat(me),
            from: Seat(defender),
            units: min,
        });
        if !self.owner.contains(&defender) {
            self.eliminate(defender, me, events);
        }
        if self.holds_all(me) {
            self.move_in(me, from, to, max - min, events);
            self.phase = Phase::Over;
            self.winner = Some(me);
            events.push(Event::Won { seat: Seat(me) });
        } else if min == max {
            // Nothing left to choose: carry on without asking.
            self.move_in(me, from, to, 0, events);
        } else {
            self.phase = Phase::MoveIn { from, to, min, max };
        }
    }

    /// W-END-1 and W-CARD-5: the loser is out and the victor takes their cards.
    fn eliminate(&mut self, loser: u8, victor: u8, events: &mut Vec<Event>) {
        let l = usize::from(loser);
        self.out[l] = true;
        events.push(Event::Eliminated {
            seat: Seat(loser),
            by: Seat(victor),
        });
        let taken = std::mem::take(&mut self.hands[l]);
        if taken.is_empty() {
            return;
        }
        events.push(Event::CardsTaken {
            from: Seat(loser),
            to: Seat(victor),
            // A hand never holds more than the 44 cards.
            count: taken.len() as u8,
            cards: Some(taken.iter().map(|c| c.face()).collect()),
        });
        self.hands[usize::from(victor)].extend(taken);
    }

    fn move_in(
        &mut self,
        me: u8,
        from: TerritoryId,
        to: TerritoryId,
        extra: u32,
        events: &mut Vec<Event>,
    ) {
        if extra > 0 {
            self.shift(from, to, extra);
            events.push(Event::MovedIn {
                from,
                to,
                units: extra,
            });
        }
        // W-CARD-5: 6+ cards after taking a hand means trading down to 4 before attacking on.
        self.phase = if self.hands[usize::from(me)].len() >= 6 {
            Phase::EliminationTrade
        } else {
            Phase::Attack
        };
    }

    fn shift(&mut self, from: TerritoryId, to: TerritoryId, units: u32) {
        self.units[usize::from(from)] -= units;
        self.units[usize::from(to)] += units;
    }

    fn end_turn(&mut self, me: u8, events: &mut Vec<Event>) {
        if self.conquered {
            self.draw_card(me, events);
        }
        events.push(Event::TurnEnded { seat: Seat(me) });
        let next = self.next_seat(me, |_| true).unwrap_or(me);
        self.start_turn(next, events);
    }

    /// W-CARD-2 and W-CARD-4: draw one card, reshuffling the set-aside cards into a new deck
    /// when the deck is empty. With every card in hands, nothing is drawn.
    fn draw_card(&mut self, me: u8, events: &mut Vec<Event>) {
        if self.deck.is_empty() && !self.set_aside.is_empty() {
            self.deck = std::mem::take(&mut self.set_aside);
            self.rng.shuffle(&mut self.deck);
            events.push(Event::DeckShuffled {
                // At most 44 cards.
                cards: self.deck.len() as u8,
            });
        }
        if let Some(card) = self.deck.pop() {
            self.hands[usize::from(me)].push(card);
            events.push(Event::CardDrawn {
                seat: Seat(me),
                card: Some(card.face()),
            });
        }
    }

    /// Starts `seat`'s turn with its reinforcements (W-REINF-1).
    pub(crate) fn start_turn(&mut self, seat: u8, events: &mut Vec<Event>) {
        self.current = seat;
        self.turn += 1;
        self.conquered = false;
        self.bonus_used = false;
        self.attacked = false;
        self.reserve = self.reinforcements(seat);
        self.phase = Phase::Reinforce;
        events.push(Event::TurnStarted {
            seat: Seat(seat),
            turn: self.turn,
            reinforcements: self.reserve,
        });
    }
}

/// W-ATK-3: highest meets highest, second meets second; the higher die kills a unit of the other
/// side and a tie kills the attacker's. Returns (attacker losses, defender losses).
pub fn battle_losses(attacker: &Dice, defender: &Dice) -> (u32, u32) {
    let mut a = [0u8; 3];
    let mut d = [0u8; 3];
    a[..attacker.faces().len()].copy_from_slice(attacker.faces());
    d[..defender.faces().len()].copy_from_slice(defender.faces());
    a.sort_unstable_by(|x, y| y.cmp(x));
    d.sort_unstable_by(|x, y| y.cmp(x));
    let pairs = attacker.faces().len().min(defender.faces().len());
    let mut losses = (0, 0);
    for (x, y) in a.iter().zip(&d).take(pairs) {
        if x > y {
            losses.1 += 1;
        } else {
            losses.0 += 1;
        }
    }
    losses
}

/// Guards the fixed-size tables against a map change.
const _: () = assert!(TERRITORY_COUNT <= 64, "territory masks are u64");
