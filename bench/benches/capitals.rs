//! Speed of the capitals engine: whole random 4-player games on the default (medium) map, single
//! thread, with legal-action generation and setup (map generation included) in the measured
//! work. Run with `cargo bench -p warroom-bench --bench capitals`; figures go to
//! bench/RESULTS.md.
//!
//! The policy is a biased random one, because uniformly random play rarely takes a capital:
//! - with probability 9/10 it plays the listed attack with the best expected margin (3.5 per
//!   d6, 4.5 per d8, one point per die per extra step, plus a bonus for capitals and
//!   factories) if that margin is positive, looking only at each path's first (strongest)
//!   listed selection;
//! - otherwise, with probability 1/2, a uniformly random listed transport or attack;
//! - otherwise it ends the turn.
//!
//! Its draws come from a generator separate from the match's own.

use std::time::Instant;

use warroom_engine::capitals::{Action, AreaKind, Capitals, Options, Selection, Units};
use warroom_engine::{MatchRng, Ruleset, Seed};

/// Games played per measurement.
const GAMES: u64 = 1000;
/// Times the play phase is repeated (median and best reported).
const ROUNDS: usize = 5;
/// A game longer than this is an engine or policy bug.
const MAX_ACTIONS: u64 = 1_000_000;

fn strength(units: Selection) -> f64 {
    3.5 * f64::from(units.d6) + 4.5 * f64::from(units.d8)
}

fn defence(units: Units) -> f64 {
    3.5 * f64::from(units.d6 + units.d6_used) + 4.5 * f64::from(units.d8 + units.d8_used)
}

/// The biased random policy described in the module documentation.
fn choose(game: &Capitals, legal: &[Action], chooser: &mut MatchRng) -> usize {
    let mut best: Option<(f64, usize)> = None;
    let mut previous = None;
    for (i, action) in legal.iter().enumerate() {
        let Action::Attack { path, units } = action else {
            continue;
        };
        // The engine lists each path's strongest selection first: skip the weaker ones.
        if previous == Some(path) {
            continue;
        }
        previous = Some(path);
        let Some(&target) = path.areas().last() else {
            continue;
        };
        let Some(state) = game.area(target) else {
            continue;
        };
        let bonus = match game.map().areas[usize::from(target)].kind {
            AreaKind::Capital => 6.0,
            AreaKind::FastFactory | AreaKind::StrongFactory => 2.0,
            AreaKind::Centre | AreaKind::Plain => 0.0,
        };
        // Deep attacks lose about one point per die per step: count them as one step worse.
        let depth_penalty = (path.areas().len() as f64 - 2.0) * f64::from(units.d6 + units.d8);
        let score = strength(*units) - defence(state.units) - depth_penalty + bonus;
        if score > 0.0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i));
        }
    }
    if let Some((_, i)) = best
        && chooser.below(10) < 9
    {
        return i;
    }
    if legal.len() > 1 && chooser.below(2) == 0 {
        // legal[0] is end_turn; pick among the orders.
        return 1 + chooser.below((legal.len() - 1) as u32) as usize;
    }
    legal
        .iter()
        .position(|a| *a == Action::EndTurn)
        .unwrap_or(0)
}

/// Plays one set-up game to its end; returns (actions, actions listed over all decisions).
fn play(seed: u64, mut game: Capitals) -> (u64, u64) {
    let mut chooser = MatchRng::new(Seed::from_u64(seed ^ 0x5eed));
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let (mut actions, mut listed) = (0, 0);
    while let Some(seat) = game.to_act() {
        legal.clear();
        game.legal_actions(&mut legal);
        listed += legal.len() as u64;
        let pick = choose(&game, &legal, &mut chooser);
        events.clear();
        game.apply(seat, &legal[pick], &mut events)
            .expect("a listed action is legal");
        actions += 1;
        assert!(actions <= MAX_ACTIONS, "game {seed} did not end");
    }
    (actions, listed)
}

/// Wall-clock and CPU seconds of `work`.
fn measure<T>(work: impl FnOnce() -> T) -> (T, f64, Option<f64>) {
    let cpu_start = thread_cpu_seconds();
    let start = Instant::now();
    let result = work();
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_start.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
    (result, wall, cpu)
}

/// CPU seconds this thread has run (user + system), from `/proc/thread-self/stat`, so the
/// figure is not inflated by time the shared machine spent on other work. `None` off Linux.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start at field 3.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // The kernel reports clock ticks; USER_HZ is 100 on every mainstream Linux.
    Some((utime + stime) / 100.0)
}

fn main() {
    // Phase 1: set every game up (map generation and the first turn).
    let (games, setup_wall, setup_cpu) = measure(|| {
        (0..GAMES)
            .map(|seed| {
                Capitals::new(&Options::default(), 4, Seed::from_u64(seed))
                    .expect("valid setup")
                    .0
            })
            .collect::<Vec<_>>()
    });
    // Phase 2: play them all to the end, ROUNDS times over (the games are deterministic), and
    // keep the median and best round: the machine is shared, so single runs are noisy.
    let mut rounds: Vec<((u64, u64), f64, Option<f64>)> = (0..ROUNDS)
        .map(|_| {
            let games = games.clone();
            measure(move || {
                games
                    .into_iter()
                    .enumerate()
                    .map(|(seed, game)| play(seed as u64, game))
                    .fold((0, 0), |(a, l), (da, dl)| (a + da, l + dl))
            })
        })
        .collect();
    rounds.sort_by(|a, b| a.2.unwrap_or(a.1).total_cmp(&b.2.unwrap_or(b.1)));
    let best_cpu = rounds[0].2;
    let ((actions, listed), play_wall, play_cpu) = rounds[rounds.len() / 2];
    let per_game = |seconds: f64| seconds / GAMES as f64 * 1e6;
    println!("capitals: {GAMES} random 4-player games (medium map), single thread");
    println!(
        "  {:.0} actions per game, {:.0} actions listed per decision on average",
        actions as f64 / GAMES as f64,
        listed as f64 / actions as f64
    );
    println!(
        "  wall clock, median round: play {:.0} actions/s; setup {:.0} µs/game; whole games {:.1} games/s",
        actions as f64 / play_wall,
        per_game(setup_wall),
        GAMES as f64 / (setup_wall + play_wall)
    );
    if let (Some(setup_cpu), Some(play_cpu), Some(best_cpu)) = (setup_cpu, play_cpu, best_cpu) {
        println!(
            "  CPU time, best of {ROUNDS} rounds: play {:.0} actions/s",
            actions as f64 / best_cpu
        );
        println!(
            "  CPU time, median round:   play {:.0} actions/s; setup {:.0} µs/game; whole games {:.1} games/s \
             ({:.0}% of wall time was ours)",
            actions as f64 / play_cpu,
            per_game(setup_cpu),
            GAMES as f64 / (setup_cpu + play_cpu),
            100.0 * (setup_cpu + play_cpu) / (setup_wall + play_wall)
        );
    }
}
