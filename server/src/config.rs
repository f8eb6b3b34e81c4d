//! The server's configuration, from flags and environment variables (clap), and the limits it
//! enforces on clients.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::logging::LogFormat;

/// The `warroom` command line.
#[derive(Debug, Parser)]
#[command(
    name = "warroom",
    version,
    about = "An authoritative game server for turn-based territory games"
)]
pub struct Cli {
    /// What to do; serving is the default.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Log line format: `text` (readable) or `json` (one object per line).
    #[arg(
        long,
        env = "WARROOM_LOG_FORMAT",
        value_enum,
        default_value_t,
        global = true
    )]
    pub log_format: LogFormat,
    /// Server settings (used when serving).
    #[command(flatten)]
    pub config: Config,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve (the default).
    Serve,
    /// Recompute a finished match's replay from its revealed seed and say whether it matches.
    Verify {
        /// A replay JSON as served by `GET /api/matches/{id}/replay`.
        replay: PathBuf,
    },
}

/// How to serve.
#[derive(Clone, Debug, Args)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:0` picks a free port).
    #[arg(long, env = "WARROOM_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// `postgres://…` or `sqlite://…`; without it an embedded SQLite file in `--data-dir`.
    #[arg(long, env = "WARROOM_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Where the embedded SQLite database lives when no database URL is given.
    #[arg(long, env = "WARROOM_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// Threads that run rooms and sockets (default: one per core). On a small machine shared
    /// with its database, 1 spends less CPU per action (no wake-ups across threads) but raises
    /// the latency at a steady rate: bench/RESULTS.md.
    #[arg(long, env = "WARROOM_WORKER_THREADS")]
    pub worker_threads: Option<usize>,
    /// Limits on clients.
    #[command(flatten)]
    pub limits: Limits,
    /// Cluster mode (several nodes over one PostgreSQL); off without `--nats-url`.
    #[command(flatten)]
    pub cluster: ClusterConfig,
    /// Rated play: who may play it, and how quick play matches by strength.
    #[command(flatten)]
    pub ratings: RatingsConfig,
}

/// Rated play's settings (docs/RATINGS.md).
#[derive(Clone, Debug, Args)]
pub struct RatingsConfig {
    /// Finished matches an identity needs before it may create, quick-play into or take a seat
    /// in a rated room (`not_yet_rated`); a new identity plays casual until then.
    #[arg(long, env = "WARROOM_RATED_MIN_MATCHES", default_value_t = 5)]
    pub rated_min_matches: u64,
    /// A rated result does not count when one of its seats' identities was created less than
    /// this before the match ended from the address another seat's identity was created from.
    #[arg(long, env = "WARROOM_RATED_NEW_IDENTITY_WINDOW", default_value = "10m", value_parser = duration)]
    pub rated_new_identity_window: Duration,
    /// Rated quick play: the widest rating gap between players at first (display points).
    #[arg(long, env = "WARROOM_MATCHMAKING_START", default_value_t = 100)]
    pub matchmaking_start: u32,
    /// Rated quick play: display points the window widens by per second a player waits.
    #[arg(long, env = "WARROOM_MATCHMAKING_PER_SECOND", default_value_t = 10)]
    pub matchmaking_per_second: u32,
    /// Rated quick play: the widest window (display points); a player waiting long enough for it
    /// is matched with anyone within it.
    #[arg(long, env = "WARROOM_MATCHMAKING_MAX", default_value_t = 500)]
    pub matchmaking_max: u32,
}

impl RatingsConfig {
    /// Rated quick play's window.
    pub fn window(&self) -> crate::ratings::matchmaking::Window {
        crate::ratings::matchmaking::Window {
            start: self.matchmaking_start,
            per_second: self.matchmaking_per_second,
            max: self.matchmaking_max,
        }
    }

    /// The rules the writer and the handlers apply.
    pub fn policy(&self) -> crate::ratings::RatingPolicy {
        crate::ratings::RatingPolicy {
            min_matches: self.rated_min_matches,
            new_identity_window: self.rated_new_identity_window,
        }
    }
}

impl Default for RatingsConfig {
    fn default() -> Self {
        RatingsConfig {
            rated_min_matches: 5,
            rated_new_identity_window: Duration::from_secs(10 * 60),
            matchmaking_start: 100,
            matchmaking_per_second: 10,
            matchmaking_max: 500,
        }
    }
}

/// How a node joins a cluster (docs/SCALING.md). Without `--nats-url` the server is a single
/// process and none of this is used.
#[derive(Clone, Debug, Default, Args)]
pub struct ClusterConfig {
    /// `nats://host:port` of the NATS server the nodes talk through: this process is then one
    /// node of a cluster sharing the PostgreSQL database (required in this mode).
    #[arg(long, env = "WARROOM_NATS_URL")]
    pub nats_url: Option<String>,
    /// This node's name in the cluster (unique; default: a random one per start).
    #[arg(long, env = "WARROOM_NODE_ID")]
    pub node_id: Option<String>,
    /// How long a room's lease lasts unless renewed (renewed every third of it; at least a
    /// second): how long the rooms of a node that died wait before other nodes take them over.
    /// `--lease-seconds`, its name before durations had units, is still accepted.
    #[arg(long, alias = "lease-seconds", env = "WARROOM_LEASE", default_value = "5s", value_parser = duration)]
    pub lease: Duration,
    /// How this node proves who it is to NATS, and its TLS settings.
    #[command(flatten)]
    pub nats_auth: NatsAuth,
}

/// How a node authenticates to NATS and checks its server (docs/OPERATIONS.md, "NATS"): at most
/// one of user/password, an nkey seed or a credentials file, and TLS when asked or when a
/// certificate is given. Secrets are read from files or the environment, never printed.
#[derive(Clone, Debug, Default, Args)]
pub struct NatsAuth {
    /// User name for NATS (with `--nats-password`).
    #[arg(long, env = "WARROOM_NATS_USER", requires = "nats_password")]
    pub nats_user: Option<String>,
    /// Password for `--nats-user` (better given by the environment than on the command line).
    #[arg(
        long,
        env = "WARROOM_NATS_PASSWORD",
        hide_env_values = true,
        requires = "nats_user"
    )]
    pub nats_password: Option<Secret>,
    /// File holding this node's nkey seed (`SU…`): NATS nkey authentication.
    #[arg(long, env = "WARROOM_NATS_NKEY_FILE", conflicts_with_all = ["nats_user", "nats_creds_file"])]
    pub nats_nkey_file: Option<PathBuf>,
    /// A NATS credentials file (a user JWT and its nkey seed, as `nsc` writes them).
    #[arg(long, env = "WARROOM_NATS_CREDS_FILE", conflicts_with = "nats_user")]
    pub nats_creds_file: Option<PathBuf>,
    /// Require TLS to NATS (also implied by the two settings below).
    #[arg(long, env = "WARROOM_NATS_TLS")]
    pub nats_tls: bool,
    /// PEM file of the certificate authorities the NATS server's certificate is checked against
    /// (default: the system's).
    #[arg(long, env = "WARROOM_NATS_TLS_CA")]
    pub nats_tls_ca: Option<PathBuf>,
    /// PEM certificate of this node, for NATS servers that verify clients (with
    /// `--nats-tls-key`).
    #[arg(long, env = "WARROOM_NATS_TLS_CERT", requires = "nats_tls_key")]
    pub nats_tls_cert: Option<PathBuf>,
    /// PEM private key of `--nats-tls-cert`.
    #[arg(long, env = "WARROOM_NATS_TLS_KEY", requires = "nats_tls_cert")]
    pub nats_tls_key: Option<PathBuf>,
}

/// A secret given on the command line or in the environment: printed as `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_owned()))
    }
}

/// How long a room's lease lasts by default (`--lease`).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(5);

impl ClusterConfig {
    /// True in cluster mode.
    pub fn enabled(&self) -> bool {
        self.nats_url.is_some()
    }

    /// The lease length (at least a second).
    pub fn lease(&self) -> Duration {
        self.lease.max(Duration::from_secs(1))
    }
}

impl Config {
    /// The database URL to connect to: the given one, or the embedded SQLite file.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("warroom.db").display()
            ),
        }
    }
}

/// A duration from a flag or a variable, as quinn's `TransportConfig` takes them: humantime's
/// form (`90s`, `5m`, `1h 30m`, `250ms`), or a plain number of seconds (the form of the
/// releases before durations had units, still accepted).
pub fn duration(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<u64>() {
        Ok(seconds) => Ok(Duration::from_secs(seconds)),
        Err(_) => humantime::parse_duration(text.trim()).map_err(|error| {
            format!("{error}: a duration is a number of seconds or e.g. `90s`, `5m`, `250ms`")
        }),
    }
}

/// What one client may cost the server.
#[derive(Clone, Debug, Args)]
pub struct Limits {
    /// Longest accepted WebSocket message, in bytes; longer ones are refused (`frame_too_large`).
    #[arg(long, env = "WARROOM_MAX_FRAME_BYTES", default_value_t = 16 * 1024)]
    pub max_frame_bytes: usize,
    /// Sustained client messages per second per connection.
    #[arg(long, env = "WARROOM_MESSAGES_PER_SECOND", default_value_t = 20)]
    pub messages_per_second: u32,
    /// Messages a connection may send in a burst above the sustained rate.
    #[arg(long, env = "WARROOM_MESSAGE_BURST", default_value_t = 60)]
    pub message_burst: u32,
    /// Spectators (connections holding no seat there) one room accepts; its seated players
    /// always get in. `--max-connections-per-room` is the older name.
    #[arg(
        long,
        env = "WARROOM_MAX_SPECTATORS_PER_ROOM",
        alias = "max-connections-per-room",
        default_value_t = 200
    )]
    pub max_spectators_per_room: usize,
    /// Rooms one WebSocket follows at once; joining one more is refused (`too_many_rooms`).
    /// Each followed room is held in memory, so with `--max-sockets-per-ip` this bounds the
    /// rooms one address can make the server hold.
    #[arg(long, env = "WARROOM_MAX_ROOMS_PER_SOCKET", default_value_t = 16)]
    pub max_rooms_per_socket: usize,
    /// Messages queued towards one connection before it counts as too slow and is disconnected.
    #[arg(long, env = "WARROOM_OUTGOING_QUEUE", default_value_t = 256)]
    pub outgoing_queue: usize,
    /// How long a socket that was only sent spectators' copies of a match waits, on
    /// average, before its next write (each wait drawn between half and one and a half of it;
    /// urgent messages, such as a seat's copy or an answer, never wait), so one write carries
    /// several actions and a room watched by many keeps its players' latency. 0: every message
    /// is written at once.
    #[arg(long, env = "WARROOM_SPECTATOR_PACE", default_value = "100ms", value_parser = duration)]
    pub spectator_pace: Duration,
    /// Most appends the writer commits in one transaction.
    #[arg(long, env = "WARROOM_MAX_BATCH", default_value_t = 256)]
    pub max_batch: usize,
    /// Batches of appends the writer commits at once, each in its own transaction (PostgreSQL;
    /// SQLite has one writer at a time and always uses 1). A batch starts beside another's
    /// commit only once an eighth of `--max-batch` queued; fewer wait for the next commit.
    #[arg(long, env = "WARROOM_WRITER_LANES", default_value_t = 4)]
    pub writer_lanes: usize,
    /// How long a waiting room may go without any connection before it expires.
    #[arg(long, env = "WARROOM_WAITING_ROOM_EXPIRY", default_value = "30m", value_parser = duration)]
    pub waiting_room_expiry: Duration,
    /// How long a room stays in memory with nobody following it and nothing to do (no running
    /// clock, no bot to act); then it leaves memory and is rebuilt from the database on demand.
    #[arg(long, env = "WARROOM_ROOM_IDLE_EVICTION", default_value = "5m", value_parser = duration)]
    pub room_idle_eviction: Duration,
    /// Longest accepted HTTP request body, in bytes; longer ones get `413 body_too_large`.
    #[arg(long, env = "WARROOM_MAX_BODY_BYTES", default_value_t = 64 * 1024)]
    pub max_body_bytes: usize,
    /// How long a client has to send a request body once its headers are in (`408 request_timeout`).
    #[arg(long, env = "WARROOM_BODY_READ_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub body_read_timeout: Duration,
    /// How long a client has to send a request's headers; a connection with no request in hand
    /// for that long is closed.
    #[arg(long, env = "WARROOM_HEADER_READ_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub header_read_timeout: Duration,
    /// How long a new WebSocket has to say `hello` before it is closed (`hello_timeout`).
    #[arg(long, env = "WARROOM_HELLO_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub hello_timeout: Duration,
    /// Time between the pings the server sends on every WebSocket.
    #[arg(long, env = "WARROOM_PING_INTERVAL", default_value = "20s", value_parser = duration)]
    pub ping_interval: Duration,
    /// How long without any frame from a client (a pong included) before its socket counts as
    /// dead and is closed (`ping_timeout`).
    #[arg(long, env = "WARROOM_PING_TIMEOUT", default_value = "60s", value_parser = duration)]
    pub ping_timeout: Duration,
    /// WebSockets one client address (IPv6: one /64) may hold open at once.
    #[arg(long, env = "WARROOM_MAX_SOCKETS_PER_IP", default_value_t = 32)]
    pub max_sockets_per_ip: usize,
    /// Guests one client address may create per minute (also the burst).
    #[arg(long, env = "WARROOM_GUESTS_PER_IP_PER_MINUTE", default_value_t = 10)]
    pub guests_per_ip_per_minute: u32,
    /// Rooms one client address may open per minute (also the burst; quick play counts when it
    /// opens one).
    #[arg(long, env = "WARROOM_ROOMS_PER_IP_PER_MINUTE", default_value_t = 20)]
    pub rooms_per_ip_per_minute: u32,
    /// Take the client address from the last `X-Forwarded-For` entry (only behind a proxy that
    /// sets it; otherwise clients could pick their own address).
    #[arg(long, env = "WARROOM_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// Pages allowed to open WebSockets, by origin (`https://play.example.com`, comma-separated;
    /// `*`: any). Empty: only pages of the host the request names (same host).
    #[arg(long, env = "WARROOM_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// How long the database has to hand out a connection and take an action's rows before the
    /// action is refused (`unavailable`); a socket waits at most twice that for any answer.
    #[arg(long, env = "WARROOM_DATABASE_TIMEOUT", default_value = "5s", value_parser = duration)]
    pub database_timeout: Duration,
}

impl Limits {
    /// [`Limits::database_timeout`] as a duration (at least 100 ms).
    pub fn database_timeout(&self) -> Duration {
        self.database_timeout.max(Duration::from_millis(100))
    }

    /// The longest a socket waits for a room's answer before it tells the client
    /// `unavailable`.
    pub fn answer_timeout(&self) -> Duration {
        self.database_timeout() * 2
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame_bytes: 16 * 1024,
            messages_per_second: 20,
            message_burst: 60,
            max_spectators_per_room: 200,
            max_rooms_per_socket: 16,
            outgoing_queue: 256,
            spectator_pace: Duration::from_millis(100),
            max_batch: 256,
            writer_lanes: 4,
            waiting_room_expiry: Duration::from_secs(30 * 60),
            room_idle_eviction: Duration::from_secs(5 * 60),
            max_body_bytes: 64 * 1024,
            body_read_timeout: Duration::from_secs(10),
            header_read_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(20),
            ping_timeout: Duration::from_secs(60),
            max_sockets_per_ip: 32,
            guests_per_ip_per_minute: 10,
            rooms_per_ip_per_minute: 20,
            trust_forwarded_for: false,
            allowed_origins: Vec::new(),
            database_timeout: Duration::from_secs(5),
        }
    }
}

impl Config {
    /// A configuration for tests: a free port on loopback and this database, a message rate
    /// high enough for bots that answer at once, and per-address limits high enough for many
    /// clients on one loopback address (the tests of those limits lower them again).
    pub fn for_tests(database_url: String) -> Config {
        Config {
            bind: "127.0.0.1:0".into(),
            database_url: Some(database_url),
            data_dir: PathBuf::from("data"),
            worker_threads: None,
            cluster: ClusterConfig {
                lease: DEFAULT_LEASE,
                ..ClusterConfig::default()
            },
            ratings: RatingsConfig::default(),
            limits: Limits {
                messages_per_second: 100_000,
                message_burst: 100_000,
                max_sockets_per_ip: 100_000,
                guests_per_ip_per_minute: 1_000_000,
                rooms_per_ip_per_minute: 1_000_000,
                // Tests that wait for a spectator after every action would wait a pace each;
                // the pace has its own tests (`ws/writer.rs`, e2e `play`).
                spectator_pace: Duration::ZERO,
                ..Limits::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_plain_seconds_and_humantime() {
        assert_eq!(duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(duration(" 0 "), Ok(Duration::ZERO));
        assert_eq!(duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(duration("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(duration("250ms"), Ok(Duration::from_millis(250)));
        for refused in ["", "ten", "-1", "5 parsecs"] {
            assert!(duration(refused).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn the_flags_default_to_the_limits_defaults() {
        let cli = Cli::try_parse_from(["warroom"]).expect("no flag is required");
        let limits = Limits::default();
        let parsed = &cli.config.limits;
        assert_eq!(parsed.waiting_room_expiry, limits.waiting_room_expiry);
        assert_eq!(parsed.room_idle_eviction, limits.room_idle_eviction);
        assert_eq!(parsed.body_read_timeout, limits.body_read_timeout);
        assert_eq!(parsed.header_read_timeout, limits.header_read_timeout);
        assert_eq!(parsed.hello_timeout, limits.hello_timeout);
        assert_eq!(parsed.ping_interval, limits.ping_interval);
        assert_eq!(parsed.ping_timeout, limits.ping_timeout);
        assert_eq!(parsed.database_timeout, limits.database_timeout);
        assert_eq!(parsed.spectator_pace, limits.spectator_pace);
        assert_eq!(cli.config.cluster.lease(), DEFAULT_LEASE);
    }

    #[test]
    fn a_duration_flag_takes_either_form() {
        let cli = Cli::try_parse_from(["warroom", "--hello-timeout", "3", "--ping-timeout", "2m"])
            .expect("both forms");
        assert_eq!(cli.config.limits.hello_timeout, Duration::from_secs(3));
        assert_eq!(cli.config.limits.ping_timeout, Duration::from_secs(120));
        assert!(Cli::try_parse_from(["warroom", "--hello-timeout", "soon"]).is_err());
    }

    #[test]
    fn the_lease_and_the_spectators_pace_are_durations() {
        let cli = Cli::try_parse_from(["warroom", "--lease", "1500ms", "--spectator-pace", "40ms"])
            .expect("durations");
        assert_eq!(cli.config.cluster.lease(), Duration::from_millis(1500));
        assert_eq!(cli.config.limits.spectator_pace, Duration::from_millis(40));
        // The lease's name before durations had units, in plain seconds, still works; a lease
        // is never under a second.
        let cli = Cli::try_parse_from(["warroom", "--lease-seconds", "7"]).expect("old name");
        assert_eq!(cli.config.cluster.lease(), Duration::from_secs(7));
        let cli = Cli::try_parse_from(["warroom", "--lease", "10ms"]).expect("short");
        assert_eq!(cli.config.cluster.lease(), Duration::from_secs(1));
    }
}
