//! The load generator's command line.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use super::plan::RulesetChoice;
use super::spawn::Database;

/// What the run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    /// Rooms play random legal actions (finished matches are replaced).
    Play,
    /// Connections follow waiting rooms and stay idle (memory per connection).
    Idle,
}

/// Where a room's clients connect in cluster mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Clients {
    /// Seat k of room n (and its spectators after the seats) on node (n + k) mod nodes: most
    /// rooms have followers on a node that does not serve them, and their actions and messages
    /// go through NATS.
    Spread,
    /// Every client of room n on node n mod nodes, where its creator (seat 0) made it, so the
    /// room is served where all its clients are and nothing goes through NATS: what the nodes
    /// cost without forwarding.
    Together,
}

impl Clients {
    /// The node (an index below `nodes`) client `k` of room `n` connects to: its seats first,
    /// then its spectators.
    pub fn node_of(self, n: usize, k: usize, nodes: usize) -> usize {
        let k = match self {
            Clients::Spread => k,
            Clients::Together => 0,
        };
        (n + k) % nodes.max(1)
    }
}

/// Load generator for the warroom server: real REST + WebSocket clients.
#[derive(Clone, Debug, Parser)]
#[command(name = "load", about)]
pub struct Args {
    /// The `warroom` binary to start (over a fresh database); see also `--addr`.
    #[arg(long, default_value = "target/release/warroom")]
    pub server: PathBuf,
    /// Drive a server already running here instead of starting one (`host:port`).
    #[arg(long)]
    pub addr: Option<std::net::SocketAddr>,
    /// With `--addr`: the server's pid, to read its CPU and memory from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// The database of a started server.
    #[arg(long, value_enum, default_value_t = Database::Sqlite)]
    pub db: Database,
    /// PostgreSQL admin URL; `--db postgres` creates a fresh database there and drops it after.
    #[arg(long, default_value = "postgres://postgres@127.0.0.1:5432/postgres")]
    pub postgres_url: String,
    /// Cluster mode (docs/SCALING.md): start `--nodes` warroom nodes over one fresh PostgreSQL
    /// database (`--db postgres`), talking through the NATS server at this URL. The clients of
    /// each room are spread over the nodes, or not (`--clients`).
    #[arg(long)]
    pub nats_url: Option<String>,
    /// A NATS server's monitoring address (`nats-server -m`): its message counters
    /// (`/varz`: `in_msgs`, `out_msgs`) are read at the window's start and end.
    #[arg(long)]
    pub nats_monitor: Option<std::net::SocketAddr>,
    /// Nodes started in cluster mode (`--nats-url`).
    #[arg(long, default_value_t = 1)]
    pub nodes: usize,
    /// Extra flag for the started server (repeatable), e.g. `--server-arg=--outgoing-queue=1024`.
    #[arg(long = "server-arg", allow_hyphen_values = true)]
    pub server_args: Vec<String>,
    /// Where the started server's stderr goes.
    #[arg(long, default_value = "/tmp/warroom-load-server.log")]
    pub server_log: PathBuf,
    /// Also drive this echo server (`echo_server`) the same way first, and report ratios to it.
    #[arg(long)]
    pub echo_server: Option<PathBuf>,
    /// What to do.
    #[arg(long, value_enum, default_value_t = Scenario::Play)]
    pub scenario: Scenario,
    /// Rooms playing at once.
    #[arg(long, default_value_t = 10)]
    pub rooms: usize,
    /// Ruleset of the rooms.
    #[arg(long, value_enum, default_value_t = RulesetChoice::Hexdice)]
    pub ruleset: RulesetChoice,
    /// Seats per room (clamped to the ruleset's range); random in the range when absent.
    #[arg(long)]
    pub seats: Option<usize>,
    /// Spectators per room.
    #[arg(long, default_value_t = 0)]
    pub spectators: usize,
    /// Cluster mode: where a room's clients connect.
    #[arg(long, value_enum, default_value_t = Clients::Spread)]
    pub clients: Clients,
    /// Cluster mode: every spectator connects to this node (0 is the first) instead of being
    /// spread over the nodes with its room's seats.
    #[arg(long)]
    pub spectators_node: Option<usize>,
    /// Total actions per second to send (paced across rooms); as fast as allowed when absent.
    #[arg(long)]
    pub rate: Option<f64>,
    /// Idle connections (`--scenario idle`).
    #[arg(long, default_value_t = 1000)]
    pub connections: usize,
    /// Idle connections following one waiting room.
    #[arg(long, default_value_t = 50)]
    pub per_room: usize,
    /// Seconds measured.
    #[arg(long, default_value_t = 20.0)]
    pub duration: f64,
    /// Seconds played after setup before measuring.
    #[arg(long, default_value_t = 2.0)]
    pub warmup: f64,
    /// Seconds the setup (guests, rooms, sockets, first matches) may take.
    #[arg(long, default_value_t = 180.0)]
    pub setup_timeout: f64,
    /// Rooms (or idle connections) set up at once.
    #[arg(long, default_value_t = 32)]
    pub setup_concurrency: usize,
    /// Seed of the generator's choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A name for the run in the reports.
    #[arg(long, default_value = "run")]
    pub label: String,
    /// Append each report's JSON line to this file.
    #[arg(long)]
    pub json_out: Option<PathBuf>,
    /// Only print the JSON lines of this file as a Markdown table, then exit.
    #[arg(long)]
    pub markdown: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::Clients;

    #[test]
    fn spread_clients_go_round_the_nodes_and_together_ones_stay_on_their_rooms_node() {
        let spread: Vec<usize> = (0..3).map(|k| Clients::Spread.node_of(1, k, 2)).collect();
        assert_eq!(spread, [1, 0, 1]);
        let together: Vec<usize> = (0..3).map(|k| Clients::Together.node_of(1, k, 2)).collect();
        assert_eq!(together, [1, 1, 1]);
        assert_eq!(Clients::Spread.node_of(4, 2, 3), 0);
        assert_eq!(Clients::Together.node_of(4, 2, 3), 1);
        assert_eq!(Clients::Spread.node_of(5, 1, 1), 0);
    }
}
