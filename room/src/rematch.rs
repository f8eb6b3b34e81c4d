//! A finished room's rematch, sans-IO: the seated players' answers, when they agree (at least
//! two accept, and every other player has answered or is gone), and the new room's seating:
//! the accepting players rotated by one seat, so nobody always sits first. Computer seats always
//! accept (one person and the computer make a rematch), and in a room that had them, bots fill
//! the seats of the players who declined or left.

use std::collections::BTreeMap;

use warroom_engine::Seat;
use warroom_protocol::{Identity, Rematch, RoomId, RoomState, codes};

use crate::bots::{bot_identity, bot_level};
use crate::error::RoomError;
use crate::records::RoomRecord;
use crate::runner::Rules;

/// Fewest players a rematch needs.
pub const MIN_REMATCH_PLAYERS: usize = 2;

/// The answers so far, and the new room once agreed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RematchVotes {
    /// Each answering seat: `true` accepts.
    answers: BTreeMap<Seat, bool>,
    /// The new room, once opened.
    opened: Option<RoomId>,
}

impl RematchVotes {
    /// Votes of a room whose rematch room (if any) is already known.
    pub fn new(opened: Option<RoomId>) -> RematchVotes {
        RematchVotes {
            answers: BTreeMap::new(),
            opened,
        }
    }

    /// Records a seated player's answer once the match is over (`over`). An answer after the
    /// new room opened changes nothing there: the client just goes to that room.
    pub fn answer(&mut self, seat: Seat, accept: bool, over: bool) -> Result<(), RoomError> {
        if !over {
            return Err(RoomError::conflict(
                codes::MATCH_NOT_OVER,
                "a rematch is offered once the match is over",
            ));
        }
        if self.opened.is_none() {
            self.answers.insert(seat, accept);
        }
        Ok(())
    }

    /// The seating of the rematch when the players agree now: at least one person and
    /// [`MIN_REMATCH_PLAYERS`] in all accepted (a seat that `is_bot` always accepts), and each
    /// other person of `seat_count` seats declined or is not `present`. The accepting seats,
    /// rotated (see [`rotated`]).
    pub fn agreed(
        &self,
        seat_count: usize,
        present: impl Fn(Seat) -> bool,
        is_bot: impl Fn(Seat) -> bool,
    ) -> Option<Vec<Seat>> {
        if self.opened.is_some() {
            return None;
        }
        let seats = || (0..seat_count).filter_map(|seat| u8::try_from(seat).ok().map(Seat));
        let people_accepting = self
            .answers
            .iter()
            .filter(|(seat, accept)| **accept && !is_bot(**seat))
            .count();
        let accepting: Vec<Seat> = seats()
            .filter(|seat| is_bot(*seat) || self.answers.get(seat) == Some(&true))
            .collect();
        let everyone_answered =
            seats().all(|seat| is_bot(seat) || self.answers.contains_key(&seat) || !present(seat));
        (people_accepting >= 1 && accepting.len() >= MIN_REMATCH_PLAYERS && everyone_answered)
            .then(|| rotated(&accepting))
    }

    /// The new room is open.
    pub fn opened(&mut self, room: RoomId) {
        self.opened = Some(room);
    }

    /// True when nobody answered yet and no room was opened (nothing to show).
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty() && self.opened.is_none()
    }

    /// As the followers see it.
    pub fn state(&self) -> Rematch {
        let with = |wanted: bool| {
            self.answers
                .iter()
                .filter(|(_, accept)| **accept == wanted)
                .map(|(seat, _)| *seat)
                .collect()
        };
        Rematch {
            accepted: with(true),
            declined: with(false),
            room: self.opened,
        }
    }
}

/// The new seating: whoever sat at `seats[i + 1]` takes new seat `i`, and the first moves to
/// the last seat. Over a series of rematches every player gets every position.
pub fn rotated(seats: &[Seat]) -> Vec<Seat> {
    let mut order = seats.to_vec();
    if !order.is_empty() {
        order.rotate_left(1);
    }
    order
}

/// The rematch room of `old`: same ruleset, options and privacy, the accepting players seated
/// in `order` (old seats, see [`RematchVotes::agreed`]), as many seats as they are (at least the
/// ruleset's minimum, the rest left free; the old count if the options need it). A room that had
/// computer seats keeps its size: bots of its first bot's level fill the seats left over.
pub fn rematch_room(
    old: &RoomRecord,
    rules: &dyn Rules,
    order: &[Seat],
    id: RoomId,
    invite_code: String,
    now_ms: i64,
) -> Result<RoomRecord, RoomError> {
    let players: Vec<Identity> = order
        .iter()
        .filter_map(|seat| old.seats.get(seat.index()).cloned().flatten())
        .collect();
    let wanted = u8::try_from(players.len())
        .unwrap_or(u8::MAX)
        .max(rules.seat_range().min);
    let (seat_count, options) = match rules.check_options(Some(&old.options), wanted) {
        Ok(options) => (wanted, options),
        Err(_) => (
            old.seat_count,
            rules.check_options(Some(&old.options), old.seat_count)?,
        ),
    };
    let old_bot = old
        .seats
        .iter()
        .flatten()
        .find_map(|holder| bot_level(holder.id));
    let (seat_count, options) = match old_bot {
        Some(_) => (
            old.seat_count,
            rules.check_options(Some(&old.options), old.seat_count)?,
        ),
        None => (seat_count, options),
    };
    let creator = players
        .iter()
        .find(|player| bot_level(player.id).is_none())
        .map_or(old.creator, |player| player.id);
    let mut seats: Vec<Option<Identity>> = players.into_iter().map(Some).collect();
    seats.resize(usize::from(seat_count), old_bot.map(bot_identity));
    Ok(RoomRecord {
        id,
        ruleset: old.ruleset,
        options,
        settings: old.settings.clone(),
        seat_count,
        private: old.private,
        invite_code,
        creator,
        state: RoomState::Waiting,
        match_id: None,
        created_at: now_ms,
        seats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_of_three_accepting_agree_once_the_third_answers_or_leaves() {
        let mut votes = RematchVotes::default();
        let everyone = |_: Seat| true;
        let nobody = |_: Seat| false;
        votes.answer(Seat(0), true, true).unwrap();
        assert_eq!(
            votes.agreed(3, everyone, nobody),
            None,
            "one player is not a rematch"
        );
        votes.answer(Seat(2), true, true).unwrap();
        assert_eq!(
            votes.agreed(3, everyone, nobody),
            None,
            "seat 1 has not answered"
        );
        assert_eq!(
            votes.agreed(3, |seat| seat != Seat(1), nobody),
            Some(vec![Seat(2), Seat(0)]),
            "seat 1 left"
        );
        votes.answer(Seat(1), false, true).unwrap();
        assert_eq!(
            votes.agreed(3, everyone, nobody),
            Some(vec![Seat(2), Seat(0)])
        );
        assert_eq!(
            votes.state(),
            Rematch {
                accepted: vec![Seat(0), Seat(2)],
                declined: vec![Seat(1)],
                room: None
            }
        );
        let room = RoomId::random();
        votes.opened(room);
        assert_eq!(votes.agreed(3, everyone, nobody), None, "opened once");
        votes.answer(Seat(1), true, true).unwrap();
        assert_eq!(votes.state().room, Some(room));
        assert_eq!(votes.state().declined, vec![Seat(1)]);
    }

    #[test]
    fn computer_seats_accept_so_one_person_and_the_computer_make_a_rematch() {
        let mut votes = RematchVotes::default();
        let everyone = |_: Seat| true;
        let bots = |seat: Seat| seat != Seat(1);
        assert_eq!(
            votes.agreed(3, everyone, bots),
            None,
            "the person has not answered"
        );
        votes.answer(Seat(1), false, true).unwrap();
        assert_eq!(
            votes.agreed(3, everyone, bots),
            None,
            "bots alone are no rematch"
        );
        let mut votes = RematchVotes::default();
        votes.answer(Seat(1), true, true).unwrap();
        assert_eq!(
            votes.agreed(3, everyone, bots),
            Some(vec![Seat(1), Seat(2), Seat(0)])
        );
    }

    #[test]
    fn a_rematch_waits_for_the_end() {
        let mut votes = RematchVotes::default();
        let refused = votes.answer(Seat(0), true, false).unwrap_err();
        assert_eq!(refused.code, codes::MATCH_NOT_OVER);
        assert!(votes.is_empty());
    }

    #[test]
    fn seats_rotate_so_nobody_always_sits_first() {
        assert_eq!(rotated(&[Seat(0), Seat(1)]), [Seat(1), Seat(0)]);
        assert_eq!(
            rotated(&[Seat(0), Seat(1), Seat(2)]),
            [Seat(1), Seat(2), Seat(0)]
        );
        // Three rematches of the same three players: each sits first once.
        let mut players = vec!["Ada", "Bob", "Cyd"];
        let mut first = Vec::new();
        for _ in 0..3 {
            let old: Vec<Seat> = (0..3).map(Seat).collect();
            players = rotated(&old)
                .iter()
                .map(|seat| players[seat.index()])
                .collect();
            first.push(players[0]);
        }
        assert_eq!(first, ["Bob", "Cyd", "Ada"]);
        assert_eq!(rotated(&[]), Vec::<Seat>::new());
    }
}
