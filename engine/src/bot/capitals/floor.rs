//! A floor study for the lost matches of one `normal` among three random players (issue 9,
//! bench/RESULTS.md), run by hand: a test built only with the feature `studies`, not part of the bot.
//!
//! ```sh
//! FLOOR_SEEDS="4012 4321" FLOOR_BACK=1 FLOOR_PLAYOUTS=40 \
//!   cargo test --release -p warroom-engine --features studies floor_study -- --nocapture
//! ```
//!
//! Each seed is replayed exactly as the bench and `examples/capitals_duel.rs` play it (medium
//! map, measured seat `seed % 4`, `BotRng` seeds `seed * 31 + seat`) to the start of the bot's
//! `FLOOR_BACK`-th last turn before it lost. From there every candidate plan for that turn is
//! played out `FLOOR_PLAYOUTS` times to the end of the match, with fresh dice (a new match RNG
//! per playout, which only this study may touch) and fresh random players, `normal` playing our
//! seat after the turn. A plan is: `normal` itself, ending the turn at once, pulling every unit
//! it can into the capital then ending, `hard`'s turn, or one of the first orders `normal` rates
//! best followed by `normal`. The line per seed gives each plan's fraction of playouts won.

use super::bench_match::{self, SEATS};
use crate::bot::{Bot, BotLevel, BotRng, random_legal};
use crate::capitals::{Action, Capitals};
use crate::core::{Ruleset, Seat};
use crate::rng::{MatchRng, Seed};

/// The start of every turn of the measured seat in seed `seed`'s match, and whether it won.
fn replay(seed: u64) -> (Vec<Capitals>, bool) {
    let (mut state, me, mut rngs) = bench_match::start(seed);
    let mut starts = Vec::new();
    let mut actions = 0;
    while let Some(s) = state.to_act() {
        if actions >= 50_000 {
            break;
        }
        if s == me
            && state.orders_given() == 0
            && starts.last().map(|t: &Capitals| t.round()) != Some(state.round())
        {
            starts.push(state.clone());
        }
        let action = bench_match::bench_action(&state, s, me, &mut rngs);
        state.play(s, &action).expect("legal");
        actions += 1;
    }
    let won = state.outcome().map(|o| o.winner) == Some(me);
    (starts, won)
}

#[derive(Clone, Copy, Debug)]
enum Plan {
    Normal,
    End,
    Home,
    Hard,
    First(Action),
}

/// Plays `plan` for our turn from `start`, then the match to its end; whether we won.
fn playout(start: &Capitals, me: Seat, plan: Plan, seed: u64) -> bool {
    let mut s = start.clone();
    s.rng = MatchRng::new(Seed::from_u64(seed ^ 0xf100_7000));
    let mut rngs: Vec<BotRng> = (0..SEATS)
        .map(|i| BotRng::new(seed.wrapping_mul(7919).wrapping_add(i as u64)))
        .collect();
    let mut first = true;
    let mut in_turn = true;
    let mut actions = 0;
    while let Some(seat) = s.to_act() {
        if actions >= 50_000 {
            return false;
        }
        if seat != me {
            in_turn = false;
        }
        let rng = &mut rngs[seat.index()];
        let action = if seat != me {
            random_legal(&s, rng)
        } else if !in_turn {
            s.bot_action(BotLevel::Normal, rng)
        } else {
            match plan {
                Plan::Normal => s.bot_action(BotLevel::Normal, rng),
                Plan::Hard => s.bot_action(BotLevel::Hard, rng),
                Plan::End => Some(Action::EndTurn),
                Plan::Home => Some(pull_home(&s, me)),
                Plan::First(a) if first => Some(a),
                Plan::First(_) => s.bot_action(BotLevel::Normal, rng),
            }
        };
        first = false;
        let Some(action) = action else { return false };
        if s.play(seat, &action).is_err() {
            return false;
        }
        actions += 1;
    }
    s.outcome().map(|o| o.winner) == Some(me)
}

/// The transport into our capital that brings the most units, or the end of the turn.
fn pull_home(s: &Capitals, me: Seat) -> Action {
    let capital = s.map().capitals[me.index()];
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    legal
        .into_iter()
        .filter(|a| matches!(a, Action::Transport { to, .. } if *to == capital))
        .max_by_key(|a| match a {
            Action::Transport { units, .. } => units.d6 + units.d8,
            _ => 0,
        })
        .unwrap_or(Action::EndTurn)
}

/// The first orders `normal` rates best from `s`, at most `n`, ending the turn left out.
fn best_firsts(s: &Capitals, me: Seat, n: usize) -> Vec<Action> {
    let mut rng = BotRng::new(1);
    let planner = super::Planner::new(s, me, BotLevel::Normal, &mut rng);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    if let Some(capital) = planner.capital {
        super::add_capital_shares(s, me, capital, &mut legal);
    }
    let mut scored: Vec<(f64, Action)> = legal
        .into_iter()
        .filter(|a| *a != Action::EndTurn)
        .map(|a| (planner.score(&a), a))
        .filter(|(score, _)| *score > f64::MIN)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(n).map(|(_, a)| a).collect()
}

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

#[test]
fn floor_study() {
    let seeds: Vec<u64> = env("FLOOR_SEEDS", "7087")
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect();
    let back: usize = env("FLOOR_BACK", "1").parse().unwrap_or(1);
    let playouts: u64 = env("FLOOR_PLAYOUTS", "40").parse().unwrap_or(40);
    let firsts: usize = env("FLOOR_FIRSTS", "6").parse().unwrap_or(6);
    let threads: usize = env("FLOOR_THREADS", "2").parse().unwrap_or(2);
    let lines: Vec<(String, f64, f64, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let seeds = &seeds;
                scope.spawn(move || {
                    seeds
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&seed| study(seed, back, playouts, firsts))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    let mut sum_normal = 0.0;
    let mut sum_best = 0.0;
    let mut sum_best_fixed = 0.0;
    for line in &lines {
        println!("{}", line.0);
        sum_normal += line.1;
        sum_best += line.2;
        sum_best_fixed += line.3;
    }
    println!(
        "{} seeds, {back} turn(s) back, {playouts} playouts a plan: expected wins with normal {sum_normal:.1}, with the best plan per seed {sum_best:.1}, with the best of end/home/hard {sum_best_fixed:.1}",
        lines.len()
    );
}

/// One seed's line, and its win fractions: `normal`, the best plan, the best fixed plan.
fn study(seed: u64, back: usize, playouts: u64, firsts: usize) -> (String, f64, f64, f64) {
    let me = Seat((seed % SEATS as u64) as u8);
    let (starts, won) = replay(seed);
    if won || starts.len() < back {
        return (format!("seed {seed}: won or too short"), 0.0, 0.0, 0.0);
    }
    let start = &starts[starts.len() - back];
    let mut plans = vec![Plan::Normal, Plan::End, Plan::Home, Plan::Hard];
    plans.extend(best_firsts(start, me, firsts).into_iter().map(Plan::First));
    let rates: Vec<f64> = plans
        .iter()
        .map(|&plan| {
            let wins = (0..playouts)
                .filter(|&p| playout(start, me, plan, seed * 1_000 + p))
                .count();
            wins as f64 / playouts as f64
        })
        .collect();
    let best = rates.iter().copied().fold(0.0, f64::max);
    let fixed = rates[..4].iter().copied().fold(0.0, f64::max);
    let cells: Vec<String> = plans
        .iter()
        .zip(&rates)
        .map(|(plan, r)| {
            let name = match plan {
                Plan::Normal => "normal".to_string(),
                Plan::End => "end".to_string(),
                Plan::Home => "home".to_string(),
                Plan::Hard => "hard".to_string(),
                Plan::First(a) => format!("{a:?}"),
            };
            format!("{name}={r:.2}")
        })
        .collect();
    (
        format!(
            "seed {seed} r{} (of {} turns): {}",
            start.round(),
            starts.len(),
            cells.join(" | ")
        ),
        rates[0],
        best,
        fixed,
    )
}
