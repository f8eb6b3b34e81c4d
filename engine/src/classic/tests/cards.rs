//! Cards: the deck, drawing, sets and their worth, forced trades, taking a defeated player's
//! cards, and hiding hands (W-CARD-*).

use super::support::*;
use super::turn::conquer;
use crate::classic::map::Symbol;
use crate::classic::{Action, CARD_COUNT, Card, Classic, Event, Phase, is_set, set_value};
use crate::core::{Ruleset, Seat, Viewer};
use crate::rng::Seed;

const ALASKA: u8 = 0;
const NW_TERRITORY: u8 = 1;
const ALBERTA: u8 = 3;
const WESTERN_US: u8 = 6;

fn cards(ids: &[u8]) -> Vec<Card> {
    ids.iter().map(|&i| Card(i)).collect()
}

/// Seat 0 at the start of its reinforcement step holding `hand`.
fn reinforcing(hand: &[u8]) -> Classic {
    let mut s = staged(3);
    s.phase = Phase::Reinforce;
    s.reserve = 3;
    s.hands[0] = cards(hand);
    s.deck.retain(|c| !hand.contains(&c.0));
    s
}

#[test]
fn w_card_1_deck_of_42_territory_cards_14_of_each_symbol_and_2_wilds() {
    let (s, events) = Classic::new(&Default::default(), 3, Seed::from_u64(4)).unwrap();
    assert!(events.contains(&Event::DeckShuffled { cards: 44 }));
    assert_eq!(s.deck.len(), 44);
    let mut sorted = s.deck.clone();
    sorted.sort();
    assert_eq!(sorted, (0..CARD_COUNT).map(Card).collect::<Vec<_>>());
    assert_ne!(s.deck, sorted, "the deck is shuffled");
    for (symbol, count) in [
        (Symbol::Infantry, 14),
        (Symbol::Cavalry, 14),
        (Symbol::Artillery, 14),
        (Symbol::Wild, 2),
    ] {
        assert_eq!(
            s.deck.iter().filter(|c| c.symbol() == symbol).count(),
            count,
            "{symbol:?}"
        );
    }
    for id in 0..42 {
        assert_eq!(Card(id).territory(), Some(id));
    }
    assert_eq!(Card(42).territory(), None);
    assert!(!Card(44).exists());
}

#[test]
fn w_card_2_a_turn_with_a_conquest_draws_one_card() {
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA], 30);
    give(&mut s, 1, &[NW_TERRITORY], 1);
    let deck = s.deck.len();
    conquer(&mut s, ALASKA, NW_TERRITORY);
    if let Phase::MoveIn { min, .. } = s.phase {
        ok(&mut s, 0, Action::MoveIn { units: min });
    }
    let top = *s.deck.last().unwrap();
    let events = ok(&mut s, 0, Action::EndTurn);
    assert_eq!(
        events[0],
        Event::CardDrawn {
            seat: Seat(0),
            card: Some(top.face())
        }
    );
    assert_eq!(s.hands[0], vec![top]);
    assert_eq!(s.deck.len(), deck - 1);
    // Seat 1 conquers nothing and draws nothing.
    let r = s.reserve;
    ok(&mut s, 1, place(4, r));
    let events = ok(&mut s, 1, Action::EndTurn);
    assert!(!events.iter().any(|e| matches!(e, Event::CardDrawn { .. })));
    assert!(s.hands[1].is_empty());
}

#[test]
fn w_card_3_sets_and_their_escalating_worth() {
    assert!(is_set([Card(0), Card(3), Card(6)]), "three infantry");
    assert!(is_set([Card(0), Card(1), Card(2)]), "one of each");
    assert!(is_set([Card(0), Card(3), Card(42)]), "any two with a wild");
    assert!(is_set([Card(42), Card(43), Card(5)]));
    assert!(!is_set([Card(0), Card(3), Card(1)]));
    let worth: Vec<u32> = (0..9).map(set_value).collect();
    assert_eq!(worth, [4, 6, 8, 10, 12, 15, 20, 25, 30]);

    let mut s = reinforcing(&[0, 3, 6, 1, 2, 9]);
    s.sets_traded = 6;
    // Seat 0 holds Alaska and Alberta (ids divisible by 3), Western US too: give it away so
    // only the first two qualify.
    give(&mut s, 1, &[WESTERN_US], 3);
    refused(&mut s, 0, trade([0, 3, 1], None), "not_a_set");
    refused(&mut s, 0, trade([0, 0, 3], None), "duplicate_card");
    refused(&mut s, 0, trade([0, 3, 12], None), "card_not_held");
    refused(&mut s, 0, trade([0, 3, 99], None), "unknown_card");
    refused(
        &mut s,
        0,
        trade([0, 3, 6], Some(WESTERN_US)),
        "invalid_bonus",
    );
    refused(&mut s, 0, trade([0, 3, 6], Some(9)), "invalid_bonus");
    let events = ok(&mut s, 0, trade([0, 3, 6], Some(ALBERTA)));
    assert_eq!(
        events,
        vec![
            Event::SetTraded {
                seat: Seat(0),
                cards: [Card(0).face(), Card(3).face(), Card(6).face()],
                units: 20
            },
            Event::TerritoryBonus {
                seat: Seat(0),
                territory: ALBERTA,
                units: 2
            },
        ]
    );
    assert_eq!(
        (s.reserve, s.units[3], s.units[0], s.sets_traded),
        (23, 5, 3, 7)
    );
    assert_eq!(s.hands[0], cards(&[1, 2, 9]));
    assert_eq!(s.set_aside, cards(&[0, 3, 6]));
    // At most 2 extra units a turn.
    refused(
        &mut s,
        0,
        trade([1, 2, 9], Some(ALBERTA)),
        "bonus_already_used",
    );
    let events = ok(&mut s, 0, trade([1, 2, 9], None));
    assert_eq!(events.len(), 1);
    assert_eq!(s.reserve, 48);
    // Without a named territory, the first traded card showing a held one gets the bonus.
    let mut s = reinforcing(&[1, 0, 2]);
    let events = ok(&mut s, 0, trade([1, 0, 2], None));
    assert_eq!(
        events[1],
        Event::TerritoryBonus {
            seat: Seat(0),
            territory: ALASKA,
            units: 2
        }
    );
    assert_eq!(
        events[0],
        Event::SetTraded {
            seat: Seat(0),
            cards: [Card(1).face(), Card(0).face(), Card(2).face()],
            units: 4
        }
    );
}

#[test]
fn w_card_3_a_set_may_be_traded_after_the_reserve_is_placed_until_the_first_attack() {
    let set = trade([1, 0, 2], None);
    // The whole reserve is placed: the attack step has begun, and no attack was made yet.
    let mut s = reinforcing(&[1, 0, 2]);
    ok(&mut s, 0, place(ALASKA, 3));
    assert_eq!(s.phase, Phase::Attack);
    assert!(s.view(Viewer::Seat(Seat(0))).can_trade);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert!(legal.contains(&set), "the trade is listed: {legal:?}");
    let events = ok(&mut s, 0, set);
    assert!(matches!(events[0], Event::SetTraded { units: 4, .. }));
    // The traded units are placed before attacking: the step goes back to placing.
    assert_eq!((s.phase, s.reserve), (Phase::Reinforce, 4));
    refused(
        &mut s,
        0,
        attack(ALASKA, NW_TERRITORY, 1),
        "reinforcements_pending",
    );
    refused(&mut s, 0, Action::EndTurn, "reinforcements_pending");
    ok(&mut s, 0, place(ALASKA, 4));
    assert_eq!(s.phase, Phase::Attack);
    ok(&mut s, 0, attack(ALASKA, NW_TERRITORY, 3));

    // After the turn's first attack, trading is closed until the next turn.
    let mut s = staged(3);
    give(&mut s, 0, &[ALASKA], 10);
    s.hands[0] = cards(&[1, 0, 2]);
    ok(&mut s, 0, attack(ALASKA, NW_TERRITORY, 1));
    if let Phase::MoveIn { min, .. } = s.phase {
        ok(&mut s, 0, Action::MoveIn { units: min });
    }
    refused(&mut s, 0, set, "trade_not_allowed");
    assert!(!s.view(Viewer::Seat(Seat(0))).can_trade);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert!(!legal.iter().any(|a| matches!(a, Action::Trade { .. })));
    ok(&mut s, 0, Action::EndTurn);
    // The next turn of seat 0 opens trading again.
    while s.current != 0 {
        let seat = s.current;
        let r = s.reserve;
        let own = (0..42u8)
            .find(|&t| s.owner[usize::from(t)] == seat)
            .unwrap();
        ok(&mut s, seat, place(own, r));
        ok(&mut s, seat, Action::EndTurn);
    }
    assert!(s.view(Viewer::Seat(Seat(0))).can_trade);
    ok(&mut s, 0, set);
}

#[test]
fn w_card_4_five_cards_force_a_trade_and_set_aside_cards_are_reshuffled() {
    let mut s = reinforcing(&[0, 1, 5, 8, 11]);
    refused(&mut s, 0, place(ALASKA, 1), "must_trade");
    refused(&mut s, 0, Action::EndTurn, "must_trade");
    assert!(s.view(Viewer::Spectator).must_trade);
    assert!(!format!("{s:?}").contains("Card("), "Debug hides the cards");
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert!(!legal.is_empty());
    assert!(
        legal.iter().all(|a| matches!(a, Action::Trade { .. })),
        "{legal:?}"
    );
    let timeout = s.timeout_action().unwrap();
    assert!(matches!(timeout, Action::Trade { .. }));
    ok(&mut s, 0, timeout);
    assert_eq!(s.hands[0].len(), 2);
    ok(&mut s, 0, place(ALASKA, 1));

    // Five cards always hold a set.
    let symbols = [0u8, 1, 2, 42];
    for a in symbols {
        for b in symbols {
            for c in symbols {
                for d in symbols {
                    for e in symbols {
                        let hand = [a, b, c, d, e].map(Card);
                        let mut found = false;
                        crate::classic::cards::sets_in(&hand, |_| found = true);
                        assert!(found, "{hand:?}");
                    }
                }
            }
        }
    }

    // An empty deck is rebuilt from the set-aside cards, shuffled with the match RNG.
    let mut s = staged(3);
    s.hands[0].clear();
    s.set_aside = s.deck.drain(..).collect();
    s.conquered = true;
    let events = ok(&mut s, 0, Action::EndTurn);
    assert_eq!(events[0], Event::DeckShuffled { cards: 44 });
    assert!(matches!(
        events[1],
        Event::CardDrawn {
            seat: Seat(0),
            card: Some(_)
        }
    ));
    assert_eq!(
        (s.deck.len(), s.set_aside.len(), s.hands[0].len()),
        (43, 0, 1)
    );
}

#[test]
fn w_card_5_defeating_a_player_takes_their_cards_and_forces_trades_at_six() {
    let mut s = staged(3);
    for t in 0..42 {
        if s.owner[t] == 2 {
            s.owner[t] = 1;
        }
    }
    give(&mut s, 0, &[ALASKA], 30);
    give(&mut s, 2, &[NW_TERRITORY], 1);
    s.hands[0] = cards(&[0, 1, 2]);
    s.hands[2] = cards(&[3, 4, 5, 42]);
    let events = conquer(&mut s, ALASKA, NW_TERRITORY);
    assert!(events.contains(&Event::Eliminated {
        seat: Seat(2),
        by: Seat(0)
    }));
    let taken = Event::CardsTaken {
        from: Seat(2),
        to: Seat(0),
        count: 4,
        cards: Some(cards(&[3, 4, 5, 42]).iter().map(|c| c.face()).collect()),
    };
    assert!(events.contains(&taken));
    assert!(s.hands[2].is_empty());
    assert_eq!(s.hands[0].len(), 7);
    ok(&mut s, 0, Action::MoveIn { units: 3 });
    assert_eq!(s.phase, Phase::EliminationTrade);
    refused(&mut s, 0, attack(ALASKA, 4, 1), "must_trade");
    refused(&mut s, 0, place(ALASKA, 1), "must_trade");
    let events = ok(&mut s, 0, trade([0, 1, 2], None));
    assert_eq!(s.hands[0].len(), 4);
    let Event::SetTraded { units, .. } = events[0] else {
        panic!()
    };
    assert_eq!(s.reserve, units);
    // Down to 4: no more trading, the units are placed before attacking on.
    refused(&mut s, 0, trade([3, 4, 5], None), "trade_not_allowed");
    refused(
        &mut s,
        0,
        attack(NW_TERRITORY, 4, 1),
        "reinforcements_pending",
    );
    ok(&mut s, 0, place(ALASKA, units));
    assert_eq!(s.phase, Phase::Attack);
    // The defeated seat is skipped from now on.
    ok(&mut s, 0, Action::EndTurn);
    assert_eq!(s.current, 1);
    let r = s.reserve;
    ok(&mut s, 1, place(4, r));
    ok(&mut s, 1, Action::EndTurn);
    assert_eq!(s.current, 0);
}

#[test]
fn w_card_6_hands_are_hidden_from_everyone_else() {
    let mut s = reinforcing(&[0, 1, 2]);
    s.hands[1] = cards(&[7, 8]);
    let mine = s.view(Viewer::Seat(Seat(0)));
    assert_eq!(
        mine.hand,
        Some(cards(&[0, 1, 2]).iter().map(|c| c.face()).collect())
    );
    assert_eq!(mine.players[1].cards, 2);
    let theirs = s.view(Viewer::Seat(Seat(1)));
    assert_eq!(theirs.players[0].cards, 3);
    assert_eq!(theirs.hand.as_ref().map(Vec::len), Some(2));
    let spectator = s.view(Viewer::Spectator);
    assert!(spectator.hand.is_none());
    for (view, shown) in [(&mine, 3), (&theirs, 2), (&spectator, 0)] {
        let json = serde_json::to_string(view).unwrap();
        assert_eq!(json.matches("\"card\":").count(), shown, "{json}");
        assert!(!json.contains("deck\":["), "the deck order is never shown");
    }
    let drawn = Event::CardDrawn {
        seat: Seat(0),
        card: Some(Card(5).face()),
    };
    assert_eq!(Classic::redact_event(&drawn, Viewer::Seat(Seat(0))), drawn);
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        assert_eq!(
            Classic::redact_event(&drawn, viewer),
            Event::CardDrawn {
                seat: Seat(0),
                card: None
            }
        );
    }
    let taken = Event::CardsTaken {
        from: Seat(2),
        to: Seat(0),
        count: 1,
        cards: Some(vec![Card(5).face()]),
    };
    assert_eq!(Classic::redact_event(&taken, Viewer::Seat(Seat(0))), taken);
    for viewer in [
        Viewer::Seat(Seat(1)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            Classic::redact_event(&taken, viewer),
            Event::CardsTaken {
                from: Seat(2),
                to: Seat(0),
                count: 1,
                cards: None
            }
        );
    }
}

#[test]
fn w_end_1_the_last_player_left_holding_every_territory_wins() {
    let mut s = staged(3);
    for t in 0..42 {
        s.owner[t] = 0;
    }
    give(&mut s, 1, &[NW_TERRITORY], 1);
    give(&mut s, 0, &[ALASKA], 30);
    s.out[2] = true;
    assert_eq!(s.outcome(), None);
    let events = conquer(&mut s, ALASKA, NW_TERRITORY);
    assert!(events.contains(&Event::Eliminated {
        seat: Seat(1),
        by: Seat(0)
    }));
    assert_eq!(events.last(), Some(&Event::Won { seat: Seat(0) }));
    assert_eq!(s.phase, Phase::Over);
    let outcome = s.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason.as_str()),
        (Seat(0), "world_conquered")
    );
    assert_eq!(s.to_act(), None);
    assert_eq!(s.timeout_action(), None);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert!(legal.is_empty());
    refused(&mut s, 0, Action::EndTurn, "match_over");
    assert_eq!(s.view(Viewer::Spectator).outcome, Some(outcome));
    assert!(s.out[1] && s.is_out(Seat(1)));
}
