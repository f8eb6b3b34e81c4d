//! Hidden cards never leak (W-CARD-6): over whole games, no view for a seat or a spectator and
//! no redacted event names a card another seat holds, and views show no card but the viewer's.

use super::support::*;
use crate::classic::{Classic, ClassicOptions, Event};
use crate::core::{Ruleset, Seat, Viewer};

fn pattern(card: u8) -> String {
    // A card always travels as a face, `{"card":N,"territory":...}`; the key appears nowhere else.
    format!("\"card\":{card},")
}

fn check_step(after: &Classic, events: &[Event]) {
    let seats = after.seats;
    let viewers = (0..seats)
        .map(|s| Viewer::Seat(Seat(s)))
        .chain([Viewer::Spectator]);
    for viewer in viewers {
        let view = serde_json::to_string(&after.view(viewer)).unwrap();
        let redacted: Vec<Event> = events
            .iter()
            .map(|e| Classic::redact_event(e, viewer))
            .collect();
        let events_json = serde_json::to_string(&redacted).unwrap();
        let own = match viewer {
            Viewer::Seat(seat) => after.hand(seat).len(),
            Viewer::Spectator => 0,
        };
        assert_eq!(
            view.matches("\"card\":").count(),
            own,
            "a view shows only the viewer's cards"
        );
        for other in 0..seats {
            if viewer.sees_private_of(Seat(other)) {
                continue;
            }
            for card in after.hand(Seat(other)) {
                let p = pattern(card.0);
                assert!(
                    !view.contains(&p),
                    "{viewer:?} sees seat {other}'s card {card:?} in {view}"
                );
                assert!(
                    !events_json.contains(&p),
                    "{viewer:?} sees seat {other}'s card {card:?} in {events_json}"
                );
            }
        }
    }
}

#[test]
fn w_card_6_no_view_or_redacted_event_shows_another_seats_cards() {
    for (seats, options) in [
        (3, quick()),
        (4, ClassicOptions::default()),
        (5, quick()),
        (6, quick()),
    ] {
        let mut drawn = 0;
        let (end, _) = play_game(
            &options,
            seats,
            100 + u64::from(seats),
            100_000,
            |_, _, _, after, events| {
                drawn += events
                    .iter()
                    .filter(|e| matches!(e, Event::CardDrawn { .. }))
                    .count();
                check_step(after, events);
            },
        );
        assert!(end.outcome().is_some());
        assert!(
            drawn > 5,
            "the games draw cards, so the check means something"
        );
    }
}
