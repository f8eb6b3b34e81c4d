//! The bots bench's capitals match-ups, engine only (no server build): one `normal` among three
//! random players (4 seats) and `hard` vs `normal` (2 seats), default (medium) map, the measured
//! seat rotating with the seed, `BotRng` seeds `seed * 31 + seat`, exactly as
//! `bench/src/bin/bots.rs` plays them, so it reproduces the bench's win counts.
//!
//! ```sh
//! cargo run --release -p warroom-engine --example capitals_duel -- random 4000 1000 [threads] [losses]
//! cargo run --release -p warroom-engine --example capitals_duel -- hard 1000 1000
//! cargo run --release -p warroom-engine --example capitals_duel -- hardrandom 4000 1000 1
//! ```
//!
//! `hardrandom` plays `hard` among three random players (4 seats), as `random` plays `normal`.
//!
//! Prints the wins, unfinished matches, actions per match and the wall-clock decision times of
//! the measured bot (p50, p99, max; meaningful with one thread); with `losses`, one line per
//! match not won: the round of the fall and the attack that took the capital, its chance of
//! winning as it was launched and against the strongest capital the bot could have left at its
//! last turn's end (Monte Carlo), and the bot's land, factories and capital then against the
//! largest enemy's land. `DUEL_VERBOSE=1` prints every action with the owned areas within three
//! steps of the measured seat's capital (`area@steps:seat:units`). With `losses` it also prints
//! how many matches the measured seat was held to its capital in (at most 2 areas at an end of
//! turn from round 4 on) and how many of those it did not win, and the d8 and all units its
//! capital held at its ends of turn, on average.

use std::time::Instant;

use warroom_engine::capitals::{Capitals, Event, Selection, Units};
use warroom_engine::{Bot, BotLevel, BotRng, Ruleset, Seat, Seed, random_legal};

mod duel;
use duel::{Player, arguments, on_threads, percentile_ms, seating};

struct Played {
    won: bool,
    unfinished: bool,
    actions: u64,
    times: Vec<u64>,
    loss: Option<String>,
    rounds: u32,
    /// d8 and all units in the capital, and turns, summed over the measured seat's ends of turn.
    home: (u64, u64, u64),
    /// Whether the measured seat ended a turn from round 4 on holding at most 2 areas (held to
    /// its capital).
    stuck: bool,
}

fn play(seed: u64, seats: usize, measured: Player, others: Player, trace: bool) -> Played {
    let (me, players, mut rngs) = seating(seed, seats, measured, others);
    let (mut state, _) =
        Capitals::new(&Default::default(), seats as u8, Seed::from_u64(seed)).expect("options");
    let mut times = Vec::new();
    let mut actions = 0;
    let seat = Seat(me as u8);
    let capital = state.map().capitals[me];
    let mut fall = None;
    let mut last_end = String::new();
    let mut most = 1;
    let mut alone_turns = 0;
    // The strongest capital the bot could have left at its last turn's end: its capital and
    // every unit of its areas next to it but one each, strongest first, up to 10 (orders and
    // used marks ignored).
    let mut best_home = Units::default();
    let mut caps = (6u8, 8u8);
    let mut sim = BotRng::new(seed ^ 0x5eed);
    let mut home_dice = (0u64, 0u64, 0u64);
    let mut stuck = false;
    while let Some(s) = state.to_act() {
        if actions >= 50_000 {
            return Played {
                won: false,
                unfinished: true,
                actions,
                times,
                loss: Some(format!("unfinished; {last_end}")),
                rounds: state.round(),
                home: home_dice,
                stuck,
            };
        }
        let rng = &mut rngs[s.index()];
        let action = match players[s.index()] {
            Player::Random => random_legal(&state, rng),
            Player::Bot(level) => {
                let start = Instant::now();
                let a = state.bot_action(level, rng);
                if s.index() == me {
                    times.push(start.elapsed().as_nanos() as u64);
                }
                a
            }
        }
        .expect("an action");
        let before = state.areas()[usize::from(capital)].units;
        // The round of the action (ending the round's last turn starts the next one).
        let round = state.round();
        if verbose() {
            let dist = state.map().distances_from(capital);
            let near: Vec<String> = (0..state.map().areas.len())
                .filter(|&a| dist[a] <= 3 && state.areas()[a].owner.is_some())
                .map(|a| {
                    let st = &state.areas()[a];
                    format!(
                        "{a}@{}:s{}:{}",
                        dist[a],
                        st.owner.unwrap().index(),
                        st.units.total()
                    )
                })
                .collect();
            println!(
                "r{} seat {} {:?}   near: {}",
                state.round(),
                s.index(),
                action,
                near.join(" ")
            );
        }
        let events = state.play(s, &action).expect("legal");
        actions += 1;
        if !trace {
            continue;
        }
        for e in &events {
            if let Event::AttackLaunched {
                path,
                d6_cap,
                d8_cap,
                ..
            } = e
                && path.areas().last() == Some(&capital)
            {
                caps = (*d6_cap, *d8_cap);
            }
            match e {
                Event::TurnEnded { seat: t } if t.index() == me => {
                    let (mine, largest, live) = census(&state, seat);
                    most = most.max(mine);
                    stuck |= mine <= 2 && round >= 4;
                    if mine == 1 {
                        alone_turns += 1;
                    }
                    let factories = state.map().areas[usize::from(capital)]
                        .borders
                        .iter()
                        .filter(|&&f| state.areas()[usize::from(f)].owner == Some(seat))
                        .count();
                    let mut home = state.areas()[usize::from(capital)].units;
                    home.clear_used();
                    for &f in &state.map().areas[usize::from(capital)].borders {
                        let a = state.areas()[usize::from(f)];
                        if a.owner == Some(seat) {
                            let mut u = a.units;
                            u.clear_used();
                            let give = u.strongest(u.total().saturating_sub(1));
                            home.d6 += give.d6;
                            home.d8 += give.d8;
                        }
                    }
                    best_home = home.strongest(10);
                    let at_home = state.areas()[usize::from(capital)].units;
                    if state.areas()[usize::from(capital)].owner == Some(seat) {
                        home_dice.0 += u64::from(at_home.d8 + at_home.d8_used);
                        home_dice.1 += u64::from(at_home.total());
                        home_dice.2 += 1;
                    }
                    last_end = format!(
                        "last turn r{}: {mine} areas, {factories}/3 fact, cap {} u, largest enemy {largest}, {live} enemies live; most {most}, alone {alone_turns}",
                        state.round(),
                        state.areas()[usize::from(capital)].units.total()
                    );
                }
                Event::PlayerEliminated { seat: t, by, .. } if t.index() == me => {
                    let desc = match action {
                        warroom_engine::capitals::Action::Attack { path, units } => format!(
                            "{}-step {}d6+{}d8 vs {}",
                            path.areas().len() - 1,
                            units.d6,
                            units.d8,
                            before.total()
                        ),
                        _ => "?".into(),
                    };
                    let (won_then, won_best) = match action {
                        warroom_engine::capitals::Action::Attack { units, .. } => (
                            chance(units, caps, before, &mut sim),
                            chance(units, caps, best_home, &mut sim),
                        ),
                        _ => (0.0, 0.0),
                    };
                    fall = Some(format!(
                        "fell r{} to seat {} ({desc}; odds {:.3}, vs best home of {} {:.3}); {last_end}",
                        state.round(),
                        by.index(),
                        won_then,
                        best_home.total(),
                        won_best,
                    ));
                }
                _ => {}
            }
        }
    }
    let won = state.outcome().map(|o| o.winner.index()) == Some(me);
    Played {
        won,
        unfinished: false,
        actions,
        times,
        loss: if won { None } else { fall.or(Some(last_end)) },
        rounds: state.round(),
        home: home_dice,
        stuck,
    }
}

/// The chance (Monte Carlo, 20,000 battles) that `attack` with dice caps `caps` beats `defence`
/// (C-BATTLE-2: a tie goes to the defender).
fn chance(attack: Selection, caps: (u8, u8), defence: Units, rng: &mut BotRng) -> f64 {
    let d6 = defence.d6 + defence.d6_used;
    let d8 = defence.d8 + defence.d8_used;
    let mut won = 0;
    for _ in 0..20_000 {
        let mut a = 0;
        for _ in 0..attack.d6 {
            a += (rng.below(6) as u32 + 1).min(u32::from(caps.0));
        }
        for _ in 0..attack.d8 {
            a += (rng.below(8) as u32 + 1).min(u32::from(caps.1));
        }
        let mut d = 0;
        for _ in 0..d6 {
            d += rng.below(6) as u32 + 1;
        }
        for _ in 0..d8 {
            d += rng.below(8) as u32 + 1;
        }
        if a > d {
            won += 1;
        }
    }
    f64::from(won) / 20_000.0
}

fn verbose() -> bool {
    std::env::var("DUEL_VERBOSE").is_ok_and(|v| v == "1")
}

fn census(state: &Capitals, seat: Seat) -> (usize, usize, usize) {
    let mut held = vec![0usize; usize::from(state.seats())];
    for a in state.areas() {
        if let Some(o) = a.owner {
            held[o.index()] += 1;
        }
    }
    let largest = held
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat.index())
        .map(|(_, &n)| n)
        .max()
        .unwrap_or(0);
    let live = (0..state.seats())
        .filter(|&s| s != seat.0 && !state.is_eliminated(Seat(s)))
        .count();
    (held[seat.index()], largest, live)
}

fn main() {
    let (mode, first, count, threads, last) = arguments("random");
    let trace = last.is_some_and(|a| a == "losses");
    let (seats, measured, others) = match mode.as_str() {
        "hard" => (
            2,
            Player::Bot(BotLevel::Hard),
            Player::Bot(BotLevel::Normal),
        ),
        "hardrandom" => (4, Player::Bot(BotLevel::Hard), Player::Random),
        _ => (4, Player::Bot(BotLevel::Normal), Player::Random),
    };
    let start = Instant::now();
    let results = on_threads(first, count, threads, |seed| {
        (seed, play(seed, seats, measured, others, trace))
    });
    let mut results = results;
    results.sort_by_key(|r| r.0);
    let wins = results.iter().filter(|r| r.1.won).count();
    let unfinished = results.iter().filter(|r| r.1.unfinished).count();
    let actions: u64 = results.iter().map(|r| r.1.actions).sum();
    let mut times: Vec<u64> = results.iter().flat_map(|r| r.1.times.clone()).collect();
    times.sort_unstable();
    for (seed, p) in &results {
        if let Some(l) = &p.loss {
            println!("loss seed {seed} seat {}: {l}", seed % seats as u64);
        }
    }
    let lost: Vec<String> = results
        .iter()
        .filter(|r| !r.1.won)
        .map(|r| r.0.to_string())
        .collect();
    println!("not won: {}", lost.join(" "));
    if trace {
        let (d8, all, turns) = results.iter().fold((0, 0, 0), |(a, b, c), r| {
            (a + r.1.home.0, b + r.1.home.1, c + r.1.home.2)
        });
        let turns = turns.max(1) as f64;
        let stuck: Vec<&(u64, Played)> = results.iter().filter(|r| r.1.stuck).collect();
        println!(
            "held to at most 2 areas at an end of turn from round 4 on: {} matches, {} not won",
            stuck.len(),
            stuck.iter().filter(|r| !r.1.won).count()
        );
        println!(
            "capital at the measured seat's ends of turn: {:.2} d8 of {:.2} units on average",
            d8 as f64 / turns,
            all as f64 / turns
        );
    }
    let mut rounds: Vec<u32> = results
        .iter()
        .filter(|r| r.1.won)
        .map(|r| r.1.rounds)
        .collect();
    rounds.sort_unstable();
    if !rounds.is_empty() {
        println!(
            "rounds of won matches: mean {:.1}, p50 {}, p90 {}, max {}",
            rounds.iter().map(|&r| f64::from(r)).sum::<f64>() / rounds.len() as f64,
            rounds[rounds.len() / 2],
            rounds[rounds.len() * 9 / 10],
            rounds[rounds.len() - 1]
        );
    }
    println!(
        "{mode} {first}..{}: {wins}/{count} won, {unfinished} unfinished, {:.0} actions/match, decisions {} p50 {:.3} ms p99 {:.3} ms max {:.1} ms, {:.1} s",
        first + count,
        actions as f64 / count as f64,
        times.len(),
        percentile_ms(&times, 0.5),
        percentile_ms(&times, 0.99),
        times.last().copied().unwrap_or(0) as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
}
