//! Strength and speed of the bots (engine/src/bot): seeded whole matches of every ruleset
//! between bots and uniformly random legal players, on one thread.
//!
//! ```sh
//! cargo run --release -p warroom-bench --bin bots
//! ```
//!
//! Match-ups (the measured seat rotates through every seat, one match per seed):
//! - hexdice, default options (20-cell board): `normal` vs random, `hard` vs `normal`, `easy`
//!   vs random;
//! - capitals, default (medium) map: one `normal` among three random players (4 seats, fair
//!   share 1/4), `hard` vs `normal` (2 seats);
//! - classic, default options (claim setup): one `normal` among five random players (6 seats,
//!   fair share 1/6), one `hard` among two `normal` (3 seats, fair share 1/3).
//!
//! Every bot decision is timed (wall clock and this thread's CPU time around `bot_action`, which
//! lists the legal actions itself); the run reports p50, p99 and the maximum per ruleset and
//! level, with the load average before and after. `BOTS_BENCH_GAMES` sets the matches per match-up (default 200),
//! `BOTS_BENCH_FIRST_SEED` the first seed (default 0; the seeds are consecutive) and
//! `BOTS_BENCH_ONLY` (hexdice, capitals or classic) runs one ruleset. A match that runs past its
//! action limit counts as not won and is reported. `BOTS_BENCH_LOSSES=1` replays every capitals
//! match the `normal` bot did not win among random players and prints one line on how it lost
//! (`warroom_bench::capitals_losses`).
//!
//! `BOTS_BENCH_RATINGS=1` measures the computer levels' reference ratings instead
//! (docs/RATINGS.md, `server/src/ratings/reference.rs`): per ruleset, a pool of random players
//! and bots of each level plays one match per seed and is rated by the server's own code
//! ([`rating_tournament`]).

use std::time::Instant;

use warroom_bench::capitals_losses::LossTrace;
use warroom_engine::capitals::Capitals;
use warroom_engine::classic::Classic;
use warroom_engine::hexdice::Hexdice;
use warroom_engine::{Bot, BotLevel, BotRng, Outcome, RulesetId, Seat, Seed, random_legal};
use warroom_room::placings::{finishing_order, note_out};
use warroom_server::ratings::{Rating, rate, system_of};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    /// A uniformly random legal action.
    Random,
    /// A bot of this level.
    Bot(BotLevel),
}

/// Decision times in nanoseconds, per bot level (easy, normal, hard): wall clock, and CPU time
/// of this thread (the machine is shared, so wall clock includes time spent descheduled).
#[derive(Default)]
struct Timings {
    wall: [Vec<u64>; 3],
    cpu: [Vec<u64>; 3],
}

impl Timings {
    fn record(&mut self, level: BotLevel, wall: u64, cpu: u64) {
        self.wall[level_index(level)].push(wall);
        self.cpu[level_index(level)].push(cpu);
    }
}

/// CPU time this thread has run, in nanoseconds (`/proc/thread-self/schedstat`, first field);
/// 0 where it cannot be read. Reading it costs a few microseconds, counted in the figures.
fn thread_cpu_nanos() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

fn level_index(level: BotLevel) -> usize {
    match level {
        BotLevel::Easy => 0,
        BotLevel::Normal => 1,
        BotLevel::Hard => 2,
    }
}

/// One finished (or abandoned) match: the winning seat, how it ended, and how many actions it
/// took.
struct Played {
    winner: Option<usize>,
    outcome: Option<Outcome>,
    actions: u64,
}

/// Plays one match of `R` with `players` seated in order, to its end or `max_actions`; `observe`
/// sees the state and the events after every action.
fn play<R: Bot>(
    options: &R::Options,
    players: &[Player],
    seed: u64,
    max_actions: u64,
    timings: &mut Timings,
    observe: &mut dyn FnMut(&R, &[R::Event]),
) -> Played {
    let (mut state, _) = new_match::<R>(options, players, seed);
    let mut rngs: Vec<BotRng> = (0..players.len())
        .map(|i| BotRng::new(seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect();
    let mut actions = 0;
    while let Some(seat) = state.to_act() {
        if actions >= max_actions {
            return Played {
                winner: None,
                outcome: None,
                actions,
            };
        }
        let rng = &mut rngs[seat.index()];
        let action = match players[seat.index()] {
            Player::Random => random_legal(&state, rng),
            Player::Bot(level) => {
                let cpu_start = thread_cpu_nanos();
                let start = Instant::now();
                let action = state.bot_action(level, rng);
                let wall = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                let cpu = thread_cpu_nanos().saturating_sub(cpu_start);
                timings.record(level, wall, cpu);
                action
            }
        }
        .expect("a seat to act has an action");
        let events = state
            .play(seat, &action)
            .expect("bots and random players play listed actions");
        observe(&state, &events);
        actions += 1;
    }
    let outcome = state.outcome();
    Played {
        winner: outcome.as_ref().map(|o| o.winner.index()),
        outcome,
        actions,
    }
}

fn new_match<R: Bot>(options: &R::Options, players: &[Player], seed: u64) -> (R, Vec<R::Event>) {
    let seats = u8::try_from(players.len()).expect("few seats");
    R::new(options, seats, Seed::from_u64(seed)).expect("valid options")
}

/// A match-up: `measured` in one seat (rotating), `others` in the rest.
struct MatchUp<'a, R: Bot> {
    name: &'a str,
    options: R::Options,
    seats: usize,
    measured: Player,
    others: Player,
    max_actions: u64,
}

impl<R: Bot> MatchUp<'_, R> {
    /// Who sits where in match `game`, and the measured seat.
    fn players(&self, game: u64) -> (Vec<Player>, usize) {
        let measured_seat = (game % self.seats as u64) as usize;
        let players = (0..self.seats)
            .map(|s| {
                if s == measured_seat {
                    self.measured
                } else {
                    self.others
                }
            })
            .collect();
        (players, measured_seat)
    }
}

/// Plays the match-up on `seeds`; returns the seeds the measured seat did not win.
fn run<R: Bot>(m: &MatchUp<'_, R>, seeds: std::ops::Range<u64>, timings: &mut Timings) -> Vec<u64> {
    let start = Instant::now();
    let games = seeds.end - seeds.start;
    let (mut wins, mut unfinished, mut actions) = (0u64, 0u64, 0u64);
    let mut not_won = Vec::new();
    for game in seeds {
        let (players, measured_seat) = m.players(game);
        let played = play::<R>(
            &m.options,
            &players,
            game,
            m.max_actions,
            timings,
            &mut |_, _| {},
        );
        actions += played.actions;
        match played.winner {
            Some(w) if w == measured_seat => wins += 1,
            Some(_) => not_won.push(game),
            None => {
                unfinished += 1;
                not_won.push(game);
            }
        }
    }
    let rate = wins as f64 / games as f64;
    let fair = 1.0 / m.seats as f64;
    println!(
        "| {} | {} | {wins}/{games} = {:.1}% | {:.2}× | {unfinished} | {:.0} | {:.1} s |",
        m.name,
        m.seats,
        100.0 * rate,
        rate / fair,
        actions as f64 / games as f64,
        start.elapsed().as_secs_f64()
    );
    not_won
}

/// Replays each capitals match in `seeds` that the measured seat did not win and prints why it
/// lost ([`LossTrace`]).
fn explain_capitals_losses(m: &MatchUp<'_, Capitals>, seeds: &[u64]) {
    println!();
    println!("{}: {} matches not won", m.name, seeds.len());
    for &game in seeds {
        let (players, measured_seat) = m.players(game);
        let seat = Seat(u8::try_from(measured_seat).expect("few seats"));
        let (start, _) = new_match::<Capitals>(&m.options, &players, game);
        let mut trace = LossTrace::new(&start, seat);
        play::<Capitals>(
            &m.options,
            &players,
            game,
            m.max_actions,
            &mut Timings::default(),
            &mut |state, events| trace.observe(state, events),
        );
        println!("- seed {game}, seat {measured_seat}: {}", trace.report());
    }
}

/// Who plays in the ratings tournament: the floor and the three levels.
const KINDS: [(&str, Player); 4] = [
    ("random", Player::Random),
    ("easy", Player::Bot(BotLevel::Easy)),
    ("normal", Player::Bot(BotLevel::Normal)),
    ("hard", Player::Bot(BotLevel::Hard)),
];

/// Identities per kind in the tournament's pool: a match may seat two of one kind, each rated
/// on its own as two people would be.
const PER_KIND: usize = 3;

/// A step of splitmix64: who sits where in the tournament, drawn from the match's seed.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The reference ratings of the computer levels (`BOTS_BENCH_RATINGS=1`, docs/RATINGS.md): a
/// pool of [`PER_KIND`] identities of each kind (random, easy, normal, hard), all new (1500),
/// plays one match per seed of `R`: a seat count drawn from the ruleset's range, the seats
/// drawn from the pool without repeats. Each finished match is rated as the server rates it:
/// the finishing order from `warroom_room::placings` (seats noted out as they go), then
/// `warroom_server::ratings::rate` with the ruleset's system, one match after the other. A
/// kind's rating is the mean of its identities' shown ratings, averaged after every match of
/// the second half of the seeds (the first half lets the ratings settle); the last quarter's
/// average is printed beside it to show how settled they are.
fn rating_tournament<R: Bot>(ruleset: RulesetId, seeds: std::ops::Range<u64>, max_actions: u64) {
    let start = Instant::now();
    let system = system_of(ruleset);
    let pool: Vec<usize> = (0..KINDS.len())
        .flat_map(|kind| std::iter::repeat_n(kind, PER_KIND))
        .collect();
    let mut ratings = vec![Rating::new(system); pool.len()];
    let counts = R::seat_counts();
    let (first, games) = (seeds.start, seeds.end - seeds.start);
    let (mut unfinished, mut played_by, mut won_by) = (0u64, [0u64; 4], [0u64; 4]);
    // Per kind: the sum over the matches of the second half (and of the last quarter) of the
    // mean shown rating of its identities.
    let (mut half, mut quarter, mut half_n, mut quarter_n) = ([0f64; 4], [0f64; 4], 0u64, 0u64);
    let options = R::Options::default();
    // How long each `rate` took (the maths of a rating update, without its SQL).
    let mut rating_time = Vec::new();
    for game in seeds {
        let mut draw = game ^ 0x7261_7469_6e67_7321;
        let span = u64::from(counts.end() - counts.start()) + 1;
        let seats = usize::from(*counts.start()) + (splitmix(&mut draw) % span) as usize;
        let mut order: Vec<usize> = (0..pool.len()).collect();
        for i in (1..order.len()).rev() {
            let j = (splitmix(&mut draw) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let seated = &order[..seats];
        let players: Vec<Player> = seated.iter().map(|&id| KINDS[pool[id]].1).collect();
        let mut out_at = vec![None; seats];
        let mut seq = 0u64;
        let played = play::<R>(
            &options,
            &players,
            game,
            max_actions,
            &mut Timings::default(),
            &mut |state, _| {
                seq += 1;
                note_out(&mut out_at, seq, |seat| state.is_out(seat));
            },
        );
        let Some(outcome) = played.outcome else {
            unfinished += 1;
            continue;
        };
        let places = finishing_order(&outcome, &out_at);
        let before: Vec<Rating> = seated.iter().map(|&id| ratings[id]).collect();
        let rating_start = Instant::now();
        let after = rate(system, &before, &places);
        rating_time.push(u64::try_from(rating_start.elapsed().as_nanos()).unwrap_or(u64::MAX));
        for ((&id, rating), &place) in seated.iter().zip(after).zip(&places) {
            ratings[id] = rating;
            played_by[pool[id]] += 1;
            won_by[pool[id]] += u64::from(place == 1);
        }
        let done = game - first + 1;
        if done > games / 2 {
            half_n += 1;
            if done > games * 3 / 4 {
                quarter_n += 1;
            }
            for kind in 0..KINDS.len() {
                let mean = (0..pool.len())
                    .filter(|&id| pool[id] == kind)
                    .map(|id| ratings[id].shown(system) as f64)
                    .sum::<f64>()
                    / PER_KIND as f64;
                half[kind] += mean;
                if done > games * 3 / 4 {
                    quarter[kind] += mean;
                }
            }
        }
    }
    for (kind, (name, _)) in KINDS.iter().enumerate() {
        let identities: Vec<String> = (0..pool.len())
            .filter(|&id| pool[id] == kind)
            .map(|id| {
                format!(
                    "{} ± {}",
                    ratings[id].shown(system),
                    ratings[id].shown_deviation(system)
                )
            })
            .collect();
        println!(
            "| {ruleset} | {name} | {:.0} | {:.0} | {} | {}/{} = {:.1}% |",
            half[kind] / half_n.max(1) as f64,
            quarter[kind] / quarter_n.max(1) as f64,
            identities.join(", "),
            won_by[kind],
            played_by[kind],
            100.0 * won_by[kind] as f64 / played_by[kind].max(1) as f64,
        );
    }
    rating_time.sort_unstable();
    println!(
        "| {ruleset} | ({games} matches, {unfinished} unfinished, {:.1} s; `rate` p50 {:.1} µs, p99 {:.1} µs) | | | | |",
        start.elapsed().as_secs_f64(),
        percentile(&rating_time, 0.5) as f64 / 1e3,
        percentile(&rating_time, 0.99) as f64 / 1e3,
    );
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn report_timings(ruleset: &str, timings: &mut Timings) {
    for (i, name) in ["easy", "normal", "hard"].iter().enumerate() {
        let (wall, cpu) = (&mut timings.wall[i], &mut timings.cpu[i]);
        if wall.is_empty() {
            continue;
        }
        wall.sort_unstable();
        cpu.sort_unstable();
        let ms = |n: u64| n as f64 / 1e6;
        println!(
            "| {ruleset} | {name} | {} | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms |",
            wall.len(),
            ms(percentile(wall, 0.5)),
            ms(percentile(wall, 0.99)),
            ms(*wall.last().unwrap_or(&0)),
            ms(percentile(cpu, 0.99)),
            ms(*cpu.last().unwrap_or(&0)),
        );
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn main() {
    let games: u64 = std::env::var("BOTS_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let first: u64 = std::env::var("BOTS_BENCH_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let seeds = first..first + games;
    let only = std::env::var("BOTS_BENCH_ONLY").ok();
    let explain_losses = std::env::var("BOTS_BENCH_LOSSES").is_ok_and(|v| v == "1");
    let mut capitals_losses = Vec::new();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    println!("load average before: {}", load_average());
    println!();
    if std::env::var("BOTS_BENCH_RATINGS").is_ok_and(|v| v == "1") {
        println!(
            "| ruleset | player | rating (2nd half) | rating (last quarter) | its identities at the end | placed first |"
        );
        println!("|---|---|---|---|---|---|");
        if wanted("hexdice") {
            rating_tournament::<Hexdice>(RulesetId::Hexdice, seeds.clone(), 10_000);
        }
        if wanted("capitals") {
            rating_tournament::<Capitals>(RulesetId::Capitals, seeds.clone(), 50_000);
        }
        if wanted("classic") {
            rating_tournament::<Classic>(RulesetId::Classic, seeds.clone(), 100_000);
        }
        println!();
        println!("load average after: {}", load_average());
        return;
    }
    println!(
        "| match-up | seats | measured seat won | × fair share | unfinished | actions/match | time |"
    );
    println!("|---|---|---|---|---|---|---|");
    let (mut hexdice, mut capitals, mut classic) =
        (Timings::default(), Timings::default(), Timings::default());
    let normal = Player::Bot(BotLevel::Normal);
    if wanted("hexdice") {
        for (name, measured, others) in [
            ("hexdice: normal vs random", normal, Player::Random),
            (
                "hexdice: hard vs normal",
                Player::Bot(BotLevel::Hard),
                normal,
            ),
            (
                "hexdice: easy vs random",
                Player::Bot(BotLevel::Easy),
                Player::Random,
            ),
        ] {
            let m = MatchUp::<Hexdice> {
                name,
                options: Default::default(),
                seats: 2,
                measured,
                others,
                max_actions: 10_000,
            };
            run(&m, seeds.clone(), &mut hexdice);
        }
    }
    if wanted("capitals") {
        for (name, seats, measured, others) in [
            ("capitals: normal among random", 4, normal, Player::Random),
            (
                "capitals: hard vs normal",
                2,
                Player::Bot(BotLevel::Hard),
                normal,
            ),
        ] {
            let m = MatchUp::<Capitals> {
                name,
                options: Default::default(),
                seats,
                measured,
                others,
                max_actions: 50_000,
            };
            let not_won = run(&m, seeds.clone(), &mut capitals);
            if explain_losses && others == Player::Random {
                capitals_losses.push((m, not_won));
            }
        }
    }
    if wanted("classic") {
        for (name, seats, measured, others) in [
            ("classic: normal among random", 6, normal, Player::Random),
            (
                "classic: hard among normal",
                3,
                Player::Bot(BotLevel::Hard),
                normal,
            ),
        ] {
            let m = MatchUp::<Classic> {
                name,
                options: Default::default(),
                seats,
                measured,
                others,
                max_actions: 100_000,
            };
            run(&m, seeds.clone(), &mut classic);
        }
    }
    println!();
    println!(
        "| ruleset | level | decisions | wall p50 | wall p99 | wall max | CPU p99 | CPU max |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    report_timings("hexdice", &mut hexdice);
    report_timings("capitals", &mut capitals);
    report_timings("classic", &mut classic);
    for (m, seeds) in &capitals_losses {
        explain_capitals_losses(m, seeds);
    }
    println!();
    println!("load average after: {}", load_average());
}
