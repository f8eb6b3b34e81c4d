//! The load generator (`cargo run --release -p warroom-bench --bin load -- --help`): starts the
//! server (or the echo baseline) as a child process, sets up rooms and clients through the real
//! REST and WebSocket API, measures a window, and reports a readable table and a JSON line.
//!
//! Modules: `args` (command line), `spawn` (child processes and fresh databases), `ws` (the
//! client side; REST goes through warroom-testkit), `plan` (rooms and random choices), `play`
//! (rooms playing), `echo` (the baseline's clients), `idle` (idle connections), `stats`
//! (histograms, counters), `procstat` (`/proc` readings), `dbstat` (what the database did in a
//! window), `report` (JSON, table, Markdown).

pub mod args;
pub mod dbstat;
pub mod echo;
pub mod idle;
pub mod plan;
pub mod play;
pub mod procstat;
pub mod report;
pub mod spawn;
pub mod stats;
pub mod ws;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context as _, bail};
use serde_json::json;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use warroom_testkit::{FreshDb, Http};

use args::{Args, Scenario};
use play::{Context, Pacer};
use procstat::ProcSample;
use report::Measured;
use spawn::Served;
use stats::Recorder;

/// What is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The warroom server.
    Warroom,
    /// The echo baseline.
    Echo,
}

/// Runs the generator.
pub async fn run(args: Args) -> anyhow::Result<()> {
    if let Some(file) = &args.markdown {
        let text = std::fs::read_to_string(file)?;
        print!("{}", report::markdown(&text)?);
        return Ok(());
    }
    let echo = match &args.echo_server {
        Some(path) => Some(measure(&args, Target::Echo, Some(path)).await?),
        None => None,
    };
    let warroom = measure(&args, Target::Warroom, None).await?;
    let mut lines = Vec::new();
    if let Some(echo) = &echo {
        println!("{}", report::table(echo));
        lines.push(report::json(echo, None));
    }
    println!("{}", report::table(&warroom));
    if let Some(echo) = &echo {
        println!("{}", report::ratios_table(&warroom, echo));
    }
    lines.push(report::json(&warroom, echo.as_ref()));
    for line in &lines {
        println!("{line}");
    }
    if let Some(path) = &args.json_out {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        for line in &lines {
            writeln!(file, "{line}")?;
        }
    }
    Ok(())
}

/// Starts the target, sets up the scenario, measures the window, stops everything.
async fn measure(
    args: &Args,
    target: Target,
    echo_path: Option<&std::path::Path>,
) -> anyhow::Result<Measured> {
    let mut db = None;
    let mut served = Vec::new();
    match (target, args.addr) {
        (Target::Echo, _) => {
            let path = echo_path.context("the echo server's path")?;
            let argv = vec!["--bind".to_owned(), "127.0.0.1:0".to_owned()];
            served.push(
                Served::start(
                    path,
                    &argv,
                    &[],
                    &args.server_log.with_extension("echo.log"),
                )
                .await?,
            );
        }
        (Target::Warroom, Some(_)) => {}
        (Target::Warroom, None) => {
            if args.nats_url.is_some() && args.db != spawn::Database::Postgres {
                bail!("--nats-url (cluster mode) needs --db postgres");
            }
            let fresh = spawn::fresh_db(args.db, &args.postgres_url).await?;
            let mut argv = vec![
                "--bind".to_owned(),
                "127.0.0.1:0".to_owned(),
                "--database-url".to_owned(),
                fresh.url.clone(),
                // Limits raised: the generator is one client playing as fast as allowed.
                "--messages-per-second".to_owned(),
                "1000000".to_owned(),
                "--message-burst".to_owned(),
                "1000000".to_owned(),
                // The older name of `--max-spectators-per-room`: older servers know it too.
                "--max-connections-per-room".to_owned(),
                "100000".to_owned(),
                // Every client comes from 127.0.0.1: the per-address limits would refuse most.
                "--max-sockets-per-ip".to_owned(),
                "1000000".to_owned(),
                "--guests-per-ip-per-minute".to_owned(),
                "1000000".to_owned(),
                "--rooms-per-ip-per-minute".to_owned(),
                "1000000".to_owned(),
            ];
            argv.extend(args.server_args.iter().cloned());
            db = Some(fresh);
            match &args.nats_url {
                None => {
                    served.push(Served::start(&args.server, &argv, &[], &args.server_log).await?)
                }
                Some(nats) => {
                    // One after the other: the first runs the migrations.
                    for node in 0..args.nodes.max(1) {
                        let mut argv = argv.clone();
                        argv.extend([
                            "--nats-url".to_owned(),
                            nats.clone(),
                            "--node-id".to_owned(),
                            format!("load{node}"),
                        ]);
                        let log = args.server_log.with_extension(format!("node{node}.log"));
                        served.push(Served::start(&args.server, &argv, &[], &log).await?);
                    }
                }
            }
        }
    }
    let (addrs, pids) = if served.is_empty() {
        (
            vec![args.addr.context("--addr")?],
            args.server_pid.into_iter().collect(),
        )
    } else {
        (
            served.iter().map(|s| s.addr).collect(),
            served.iter().map(|s| s.pid).collect(),
        )
    };
    // The database's counters (cluster mode: the writer's are the first node's).
    let probe = (target == Target::Warroom).then(|| dbstat::DbProbe {
        addr: addrs[0],
        postgres: db
            .as_ref()
            .and_then(FreshDb::postgres_admin)
            .map(|(admin, name)| (admin.clone(), name.to_owned())),
    });
    let result = drive(args, target, addrs, pids, probe).await;
    futures_util::future::join_all(served.into_iter().map(Served::stop)).await;
    if let Some(db) = db {
        db.cleanup().await;
    }
    result
}

/// The scenario against a serving target.
async fn drive(
    args: &Args,
    target: Target,
    addrs: Vec<std::net::SocketAddr>,
    pids: Vec<u32>,
    probe: Option<dbstat::DbProbe>,
) -> anyhow::Result<Measured> {
    let recorder = Arc::new(Recorder::default());
    let addr = addrs[0];
    let (go, go_rx) = tokio::sync::watch::channel(false);
    let ctx = Arc::new(Context {
        addr,
        addrs,
        recorder: recorder.clone(),
        pacer: args.rate.map(Pacer::new),
        ready: AtomicUsize::new(0),
        go: go_rx,
        setup: Semaphore::new(args.setup_concurrency.max(1)),
        run_tag: format!(
            "{:06x}",
            std::process::id() ^ (now_nanos() as u32 & 0xff_ffff)
        ),
        spectators_node: args.spectators_node,
        clients: args.clients,
    });
    let mut chooser = plan::Chooser::new(args.seed);
    let plans = plan::rooms(
        args.ruleset,
        args.rooms,
        args.seats,
        args.spectators,
        &mut chooser,
    );
    let seats: usize = plans.iter().map(|p| p.seats).sum();
    let spectators: usize = plans.iter().map(|p| p.spectators).sum();
    let setup_started = Instant::now();
    // The server's processes together (every node in cluster mode).
    let sample = || procstat::sample_all(&pids);
    // Each node's CPU seconds (cluster mode: which node pays for what).
    let node_cpu = || -> Vec<Option<f64>> {
        pids.iter()
            .map(|pid| procstat::sample(*pid).map(|s| s.cpu_seconds))
            .collect()
    };
    let mut tasks: Vec<JoinHandle<()>> = Vec::new();
    let spawn = |tasks: &mut Vec<JoinHandle<()>>, future| {
        let recorder = recorder.clone();
        tasks.push(tokio::spawn(watch_task(recorder, future)));
    };
    let (expected, connections, rss_base) = match (args.scenario, target) {
        (Scenario::Play, Target::Warroom) => {
            for (n, plan) in plans.iter().enumerate() {
                let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(n as u64);
                spawn(
                    &mut tasks,
                    Box::pin(play::room(ctx.clone(), n, *plan, seed)) as Task,
                );
            }
            (plans.len(), seats + spectators, None)
        }
        (Scenario::Play, Target::Echo) => {
            // As many echo clients as seats: each is one sender, like a seat.
            for n in 0..seats {
                spawn(&mut tasks, Box::pin(echo::client(ctx.clone(), n)) as Task);
            }
            (seats, seats, None)
        }
        (Scenario::Idle, _) => {
            let base = sample();
            let mut rooms = Vec::new();
            if target == Target::Warroom {
                let http = Http { addr };
                let (_, token) = http.guest(&format!("L{}-idle", ctx.run_tag)).await?;
                // Rooms nobody will fill, for the idle spectators.
                let request = json!({"ruleset": "hexdice", "seats": 2});
                for _ in 0..args.connections.div_ceil(args.per_room.max(1)) {
                    rooms.push(room_id(&http.room(&token, &request).await?)?);
                }
            }
            for n in 0..args.connections {
                let room = rooms.get(n / args.per_room.max(1)).cloned();
                spawn(
                    &mut tasks,
                    Box::pin(idle::client(ctx.clone(), room)) as Task,
                );
            }
            (args.connections, args.connections, base)
        }
    };
    wait_ready(&ctx, expected, args.setup_timeout).await?;
    let setup_seconds = setup_started.elapsed().as_secs_f64();
    go.send_replace(true);
    eprintln!(
        "[{}] set up {expected} {} in {setup_seconds:.1} s; warming up {:.0} s",
        target_name(target),
        if args.scenario == Scenario::Idle {
            "connections"
        } else {
            "rooms/clients"
        },
        args.warmup
    );
    tokio::time::sleep(Duration::from_secs_f64(args.warmup)).await;

    let load_start = procstat::load_average();
    let db_before = match &probe {
        Some(probe) => probe.sample().await,
        None => None,
    };
    let nats_before = nats_messages(args.nats_monitor).await;
    let before = sample();
    let nodes_before = node_cpu();
    let own_before = procstat::own_cpu_seconds();
    recorder.set_measuring(true);
    let started = Instant::now();
    let window = Duration::from_secs_f64(args.duration);
    let mut last = 0;
    while started.elapsed() < window {
        let step = (window - started.elapsed()).min(Duration::from_secs(1));
        tokio::time::sleep(step).await;
        let accepted = Recorder::get(&recorder.accepted);
        let errors: u64 = recorder.errors().values().sum();
        let now = sample();
        eprintln!(
            "[{}] {:>5.1} s  {:>7.0} accepted/s  {:>9} accepted  {:>5} errors  server CPU {:>6.1} s  RSS {:>7.1} MiB",
            target_name(target),
            started.elapsed().as_secs_f64(),
            (accepted - last) as f64 / step.as_secs_f64().max(0.001),
            accepted,
            errors,
            now.map_or(0.0, |s| s.cpu_seconds),
            now.map_or(0.0, |s| s.rss_kib as f64 / 1024.0),
        );
        last = accepted;
    }
    recorder.set_measuring(false);
    let errors = recorder.errors();
    let elapsed = started.elapsed().as_secs_f64();
    let after = sample();
    let nodes_after = node_cpu();
    let nats_after = nats_messages(args.nats_monitor).await;
    let db_after = match &probe {
        Some(probe) => probe.sample().await,
        None => None,
    };
    let own_after = procstat::own_cpu_seconds();
    let load_end = procstat::load_average();
    let db = dbstat::summary(
        db_before,
        db_after,
        elapsed,
        Recorder::get(&recorder.accepted),
    );
    let failed = tasks.iter().filter(|t| t.is_finished()).count();
    for task in &tasks {
        task.abort();
    }
    Ok(Measured {
        label: args.label.clone(),
        target,
        database: (target == Target::Warroom && args.addr.is_none()).then_some(args.db),
        scenario: args.scenario,
        ruleset: args.ruleset,
        rooms: if args.scenario == Scenario::Play {
            plans.len()
        } else {
            0
        },
        seats: if args.scenario == Scenario::Play {
            seats
        } else {
            0
        },
        spectators: if args.scenario == Scenario::Play {
            spectators
        } else {
            0
        },
        connections,
        rate: args.rate,
        server: args.server.display().to_string(),
        cluster: args
            .nats_url
            .as_ref()
            .map(|_| (args.nodes.max(1), args.clients)),
        seconds: elapsed,
        setup_seconds,
        failed_tasks: failed,
        recorder,
        errors,
        before: before.or(rss_base),
        base: rss_base,
        after,
        generator_cpu_seconds: own_after - own_before,
        node_cpu_seconds: nodes_before
            .iter()
            .zip(&nodes_after)
            .map(|(before, after)| Some(after.as_ref()? - before.as_ref()?))
            .collect(),
        nats_messages: nats_before
            .zip(nats_after)
            .map(|((in0, out0), (in1, out1))| (in1 - in0, out1 - out0)),
        load_average: (load_start, load_end),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        db,
    })
}

/// A client task.
type Task = std::pin::Pin<Box<dyn std::future::Future<Output = anyhow::Result<()>> + Send>>;

/// Runs a client task, counting its failure (with the first message printed).
async fn watch_task(recorder: Arc<Recorder>, task: Task) {
    if let Err(error) = task.await {
        recorder.error("client_task_failed");
        eprintln!("a client task failed: {error:#}");
    }
}

/// Waits until `expected` rooms or clients are ready.
async fn wait_ready(ctx: &Context, expected: usize, timeout: f64) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs_f64(timeout);
    let mut last_print = Instant::now();
    loop {
        let ready = ctx.ready.load(Ordering::SeqCst);
        if ready >= expected {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(
                "only {ready} of {expected} ready after {timeout} s; errors: {:?}",
                ctx.recorder.errors()
            );
        }
        if last_print.elapsed() > Duration::from_secs(2) {
            eprintln!("setting up: {ready}/{expected} ready");
            last_print = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The target's name in reports.
pub fn target_name(target: Target) -> &'static str {
    match target {
        Target::Warroom => "warroom",
        Target::Echo => "echo",
    }
}

fn now_nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// `ProcSample` differences.
/// A NATS server's (messages in, messages out) so far, from its monitoring `/varz`.
async fn nats_messages(monitor: Option<std::net::SocketAddr>) -> Option<(f64, f64)> {
    let http = Http { addr: monitor? };
    let varz = http.request("GET", "/varz", None, None).await.ok()?.body;
    Some((varz["in_msgs"].as_f64()?, varz["out_msgs"].as_f64()?))
}

/// The id of a room the server answered with.
pub(crate) fn room_id(room: &serde_json::Value) -> anyhow::Result<String> {
    Ok(room["id"].as_str().context("a room id")?.to_owned())
}

pub(crate) fn cpu_between(before: Option<ProcSample>, after: Option<ProcSample>) -> Option<f64> {
    Some(after?.cpu_seconds - before?.cpu_seconds)
}
