//! Property tests over many seeded whole matches of every ruleset and seat count: every action a
//! bot picks is accepted by the engine, a bot always has an action while its seat is to act,
//! bots-only matches (every level, and bots among random players) end within a bound, and a bot
//! is deterministic for a given [`BotRng`] seed.

use crate::bot::{Bot, BotLevel, BotRng, random_legal};
use crate::capitals::Capitals;
use crate::classic::{Classic, ClassicOptions, SetupMode};
use crate::core::Ruleset;
use crate::hexdice::{BoardChoice, Hexdice, Layout, Options as HexdiceOptions};
use crate::rng::Seed;

/// Who plays a seat: a bot of a level, or a uniformly random legal player (`None`).
type Player = Option<BotLevel>;

const LEVELS: [BotLevel; 3] = [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];

/// Plays a match to its end and returns it with every action taken. Panics when a bot has no
/// action for a seat to act, when the engine refuses a bot's action, or when a bots-only match
/// runs past `max_actions` (a match with random players stops there).
fn play_out<R: Bot>(
    options: &R::Options,
    players: &[Player],
    seed: u64,
    max_actions: usize,
) -> (R, Vec<R::Action>) {
    let seats = u8::try_from(players.len()).expect("few seats");
    let (mut state, _) = R::new(options, seats, Seed::from_u64(seed)).expect("valid setup");
    let mut rngs: Vec<BotRng> = (0..players.len())
        .map(|i| BotRng::new(seed ^ (i as u64) << 32))
        .collect();
    let mut actions = Vec::new();
    while let Some(seat) = state.to_act() {
        let rng = &mut rngs[seat.index()];
        let action = match players[seat.index()] {
            Some(level) => state.bot_action(level, rng),
            None => random_legal(&state, rng),
        }
        .unwrap_or_else(|| panic!("no action for seat {seat} (seed {seed})"));
        if let Err(e) = state.play(seat, &action) {
            panic!("{action:?} by seat {seat} ({players:?}, seed {seed}) refused: {e}");
        }
        actions.push(action);
        if actions.len() > max_actions && players.contains(&None) {
            // Random players need not finish (classic's can hoard for ever): stop there.
            return (state, actions);
        }
        assert!(
            actions.len() <= max_actions,
            "{} match {players:?} seed {seed} did not end within {max_actions} actions",
            R::ID.as_str()
        );
    }
    assert!(
        state.outcome().is_some(),
        "a match with nobody to act is over"
    );
    let mut rng = BotRng::new(seed);
    assert_eq!(
        state.bot_action(BotLevel::Normal, &mut rng),
        None,
        "no action once over"
    );
    (state, actions)
}

/// The line-ups tried for `seats` seats in match `game`: bots of every level against each other
/// (rotating seats), bots of one level only (easy, normal, hard in turn: easy's random moves
/// once kept classic matches of easy bots going for ever), and one bot among random players.
fn line_ups(seats: usize, game: usize) -> Vec<Vec<Player>> {
    let bots: Vec<Player> = (0..seats).map(|s| Some(LEVELS[(s + game) % 3])).collect();
    let one_level = vec![Some(LEVELS[game % 3]); seats];
    let mut among_random = vec![None; seats];
    among_random[game % seats] = Some(LEVELS[game % 3]);
    vec![bots, one_level, among_random]
}

fn every_line_up<R: Bot>(options: &R::Options, games: usize, max_actions: usize) {
    for seats in R::seat_counts() {
        for game in 0..games {
            for players in line_ups(usize::from(seats), game) {
                play_out::<R>(
                    options,
                    &players,
                    game as u64 * 7919 + u64::from(seats),
                    max_actions,
                );
            }
        }
    }
}

#[test]
fn hexdice_bots_play_only_accepted_actions_and_every_match_ends() {
    // H-ATK-8 bounds a match; 36 cells of 6 pips and the moves between attacks stay far below.
    for layout in [Layout::Small, Layout::Medium, Layout::Full] {
        let options = HexdiceOptions {
            board: BoardChoice::Layout(layout),
            ..HexdiceOptions::default()
        };
        every_line_up::<Hexdice>(&options, 12, 2_000);
    }
}

#[test]
fn capitals_bots_play_only_accepted_actions_and_every_match_ends() {
    every_line_up::<Capitals>(&Default::default(), 8, 30_000);
}

#[test]
fn classic_bots_play_only_accepted_actions_and_every_match_ends() {
    let quick = ClassicOptions {
        setup: SetupMode::Random,
        ..ClassicOptions::default()
    };
    every_line_up::<Classic>(&quick, 6, 30_000);
    // The claim setup once per seat count.
    for seats in Classic::seat_counts() {
        let players: Vec<Player> = (0..seats)
            .map(|s| Some(LEVELS[usize::from(s) % 3]))
            .collect();
        play_out::<Classic>(
            &ClassicOptions::default(),
            &players,
            u64::from(seats),
            30_000,
        );
    }
}

#[test]
fn classic_matches_of_easy_bots_only_end() {
    // Easy plays a random listed action one time in three. When those random moves could end
    // the turn, no assault on the stacks that card trades grow finished, and every match of
    // easy bots only ran past 30,000 actions (the longest of 2,400 seen since: 13,990).
    for seats in Classic::seat_counts() {
        for game in 0..4u64 {
            for setup in [SetupMode::Claim, SetupMode::Random] {
                let options = ClassicOptions {
                    setup,
                    ..ClassicOptions::default()
                };
                let players = vec![Some(BotLevel::Easy); usize::from(seats)];
                play_out::<Classic>(&options, &players, game * 7919 + u64::from(seats), 30_000);
            }
        }
    }
}

#[test]
fn a_bot_is_deterministic_for_a_given_bot_rng_seed() {
    fn twice<R: Bot>(options: &R::Options, players: &[Player], seed: u64) {
        let (first, a) = play_out::<R>(options, players, seed, 100_000);
        let (second, b) = play_out::<R>(options, players, seed, 100_000);
        assert_eq!(a, b, "the same seeds gave different actions");
        assert_eq!(first.outcome(), second.outcome());
    }
    for level in LEVELS {
        twice::<Hexdice>(&Default::default(), &[Some(level), Some(level)], 5);
        twice::<Capitals>(
            &Default::default(),
            &[Some(level), Some(BotLevel::Normal), None],
            5,
        );
        let quick = ClassicOptions {
            setup: SetupMode::Random,
            ..ClassicOptions::default()
        };
        twice::<Classic>(&quick, &[Some(level), Some(BotLevel::Normal), None], 5);
    }
}
