//! The end-to-end harness: a real server on an ephemeral port over a real database (a fresh
//! SQLite file, or a fresh PostgreSQL database on the server `WARROOM_TEST_POSTGRES_URL` names), a tiny
//! HTTP client, and real WebSocket clients.

#![allow(dead_code)] // each test file uses a different part of the harness

pub mod client;
pub mod db;
pub mod http;
pub mod play;
pub mod proxy;

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use warroom_server::config::{Config, Limits};

pub use client::Client;
pub use db::TestDb;
pub use http::Http;

/// How long any single wait in a test may take before it fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// A server running inside the test process.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
    /// The database it made for itself ([`TestServer::on_sqlite`]), removed when it stops.
    own_db: Option<TestDb>,
}

impl TestServer {
    /// Starts a server over `db` with the default limits.
    pub async fn start(db: &TestDb) -> TestServer {
        Self::start_with(Config::for_tests(db.url.clone())).await
    }

    /// Starts a server over a fresh SQLite database of its own (removed by [`TestServer::stop`])
    /// with the test limits as `configure` changes them.
    pub async fn on_sqlite(configure: impl FnOnce(&mut Limits)) -> TestServer {
        let db = db::sqlite();
        let mut config = Config::for_tests(db.url.clone());
        configure(&mut config.limits);
        let mut server = Self::start_with(config).await;
        server.own_db = Some(db);
        server
    }

    /// Starts a server with this configuration.
    pub async fn start_with(config: Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(warroom_server::run(config, listener, async {
            let _ = stopped.await;
        }));
        let server = TestServer {
            addr,
            stop: Some(stop),
            task,
            own_db: None,
        };
        // Wait until it answers (migrations and rebuilding happen before serving).
        let http = server.http();
        for _ in 0..200 {
            if http.try_get("/healthz").await.is_some() {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the server did not start");
    }

    /// A REST client for this server.
    pub fn http(&self) -> Http {
        Http { addr: self.addr }
    }

    /// A WebSocket client, already greeted (`hello`) with `token`.
    pub async fn client(&self, token: Option<&str>) -> Client {
        let mut client = Client::connect(self.addr).await;
        client.hello(token).await;
        client
    }

    /// Stops gracefully and waits until every append is flushed; then removes its own database.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(WAIT, &mut self.task)
            .await
            .expect("the server stops in time")
            .expect("server task")
            .expect("server result");
        if let Some(db) = self.own_db.take() {
            db.cleanup().await;
        }
    }
}

/// Runs `test` against a fresh SQLite database.
pub async fn on_sqlite<F, Fut>(test: F)
where
    F: FnOnce(TestDb) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let db = db::sqlite();
    test(db.clone()).await;
    db.cleanup().await;
}

/// Runs `test` against a fresh PostgreSQL database (`WARROOM_TEST_POSTGRES_URL`; a test that
/// calls this is ignored unless the variable is set, and fails when the server cannot be
/// reached).
pub async fn on_postgres<F, Fut>(test: F)
where
    F: FnOnce(TestDb) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let db = db::postgres().await;
    test(db.clone()).await;
    db.cleanup().await;
}

/// Declares, for each `name` (an `async fn name(db: TestDb)` beside it), the tests
/// `<name>::sqlite` and `<name>::postgres`; the second is ignored, with its reason, unless
/// `WARROOM_TEST_POSTGRES_URL` is set (server/build.rs).
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident;)*) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    $crate::common::on_sqlite(super::$name).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(not(warroom_test_postgres), ignore = "needs WARROOM_TEST_POSTGRES_URL")]
                async fn postgres() {
                    $crate::common::on_postgres(super::$name).await;
                }
            }
        )*
    };
}

/// These fields of a JSON object, as a list in the order named (to check several at once).
pub fn fields<const N: usize>(object: &serde_json::Value, names: [&str; N]) -> serde_json::Value {
    names.iter().map(|name| object[*name].clone()).collect()
}

/// The `id` of each item of a JSON list (a lobby page's `rooms`).
pub fn ids_of(list: &serde_json::Value) -> Vec<&str> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|item| item["id"].as_str().expect("an id"))
        .collect()
}

/// Starts the `warroom` binary with `args` (after `--bind 127.0.0.1:0`), its warnings (or what
/// `WARROOM_TEST_NODE_LOG` asks for, a `RUST_LOG` filter) on the test's stderr; returns it and
/// the address it listens on.
pub fn start_warroom<'a>(
    args: impl IntoIterator<Item = &'a str>,
) -> (std::process::Child, SocketAddr) {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_warroom"))
        .args(["--bind", "127.0.0.1:0"])
        .args(args)
        .env(
            "RUST_LOG",
            std::env::var("WARROOM_TEST_NODE_LOG").unwrap_or_else(|_| "warn".to_owned()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start warroom");
    let addr = listening_address(&mut child);
    (child, addr)
}

/// The `warroom` binary running as a child process (for tests that kill it with SIGKILL).
pub struct ServerProcess {
    child: std::process::Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl ServerProcess {
    /// Starts the binary over `database_url`, with `extra` flags, and waits for its listening
    /// line. Its message limits are lifted: the tests drive whole matches at full speed.
    pub fn start<'a>(database_url: &'a str, extra: impl IntoIterator<Item = &'a str>) -> Self {
        let (child, addr) = start_warroom(
            [
                "--database-url",
                database_url,
                "--messages-per-second",
                "100000",
                "--message-burst",
                "100000",
            ]
            .into_iter()
            .chain(extra),
        );
        ServerProcess { child, addr }
    }

    /// Kills it with SIGKILL and reaps it.
    pub fn sigkill(mut self) {
        // `Child::kill` is SIGKILL on Unix: no shutdown code runs.
        self.child.kill().expect("kill");
        self.child.wait().expect("reap");
    }
}

/// The address a `warroom` process started with `--bind 127.0.0.1:0` and a piped stdout listens
/// on: its first line says `warroom listening on http://<address>`.
pub fn listening_address(child: &mut std::process::Child) -> SocketAddr {
    use std::io::{BufRead, BufReader};
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the listening line");
    line.trim()
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
}
