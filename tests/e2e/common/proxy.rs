//! A TCP proxy the test controls, between the server and its database: it forwards bytes both
//! ways until told to pause (bytes are held, connections stay open: a database that stopped
//! answering) or to cut (every connection is closed and new ones refused: a database that went
//! away), and resumes on request. It can also lose one exchange: the database's reply to a
//! request (the request reached the database, its answer never comes back) or the request
//! itself, then cut every connection, as a network that breaks at the worst moment does. It
//! stands in for an outage without touching the machine's PostgreSQL, which other tests share.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use sqlx::ConnectOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::TestDb;

/// What the proxy does with traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Forward every byte.
    Forward,
    /// Hold every byte (connections stay open, nothing passes).
    Pause,
    /// Close every connection, refuse new ones.
    Cut,
    /// Forward, until a client sends bytes containing this (empty: any bytes): forward those,
    /// drop the database's reply, cut every connection, then forward again.
    LoseReplyTo(&'static [u8]),
    /// Forward, until a client sends bytes containing this (empty: any bytes): drop those, cut
    /// every connection, then forward again.
    LoseRequest(&'static [u8]),
    /// A request of `LoseReplyTo` went through: replies are held until the first one comes,
    /// which is dropped with every connection.
    Losing,
}

/// The proxy; dropped, it stops.
pub struct Proxy {
    /// Where it listens.
    pub addr: SocketAddr,
    control: Arc<Control>,
    task: JoinHandle<()>,
}

/// What the proxy's tasks share.
struct Control {
    mode: watch::Sender<Mode>,
    /// Cancelled to close the current connections (on `Cut`); replaced afterwards.
    generation: Mutex<CancellationToken>,
}

impl Control {
    fn set(&self, mode: Mode) {
        if mode == Mode::Cut {
            let mut generation = self.generation.lock().unwrap();
            generation.cancel();
            *generation = CancellationToken::new();
        }
        self.mode.send_replace(mode);
    }

    /// Closes every connection, then forwards again.
    fn cut_once(&self) {
        self.set(Mode::Cut);
        self.set(Mode::Forward);
    }
}

/// Which way a pump copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Client to database: requests.
    Requests,
    /// Database to client: replies.
    Replies,
}

impl Proxy {
    /// A proxy to `target`, forwarding.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let (mode, _) = watch::channel(Mode::Forward);
        let control = Arc::new(Control {
            mode,
            generation: Mutex::new(CancellationToken::new()),
        });
        let task = tokio::spawn(accept(listener, target, control.clone()));
        Proxy {
            addr,
            control,
            task,
        }
    }

    /// Switches to `mode`.
    pub fn set(&self, mode: Mode) {
        self.control.set(mode);
    }

    /// The mode now (a lost exchange has happened once it is `Forward` again).
    pub fn mode(&self) -> Mode {
        *self.control.mode.borrow()
    }

    /// The URL of `db`, a PostgreSQL database, through this proxy instead of straight to its
    /// server.
    pub fn url(&self, db: &TestDb) -> String {
        db.postgres_options()
            .expect("a PostgreSQL database")
            .host(&self.addr.ip().to_string())
            .port(self.addr.port())
            .to_url_lossy()
            .to_string()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.control.generation.lock().unwrap().cancel();
        self.task.abort();
    }
}

async fn accept(listener: TcpListener, target: SocketAddr, control: Arc<Control>) {
    while let Ok((client, _)) = listener.accept().await {
        if *control.mode.borrow() == Mode::Cut {
            continue; // dropped: refused
        }
        let Ok(server) = TcpStream::connect(target).await else {
            continue;
        };
        let cut = control.generation.lock().unwrap().clone();
        let (client_read, client_write) = client.into_split();
        let (server_read, server_write) = server.into_split();
        let requests = (control.clone(), Direction::Requests);
        let replies = (control.clone(), Direction::Replies);
        tokio::spawn(pump(client_read, server_write, requests, cut.clone()));
        tokio::spawn(pump(server_read, client_write, replies, cut));
    }
}

/// Whether `bytes` contain `pattern` (any bytes contain the empty one).
fn contains(bytes: &[u8], pattern: &[u8]) -> bool {
    pattern.is_empty() || bytes.windows(pattern.len()).any(|window| window == pattern)
}

/// Copies `from` to `to` while the mode forwards; holds bytes while paused; stops on a cut;
/// loses the exchange a `LoseReplyTo` or `LoseRequest` waits for.
async fn pump(
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    (control, direction): (Arc<Control>, Direction),
    cut: CancellationToken,
) {
    let mut mode = control.mode.subscribe();
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let read = tokio::select! {
            () = cut.cancelled() => return,
            read = from.read(&mut buffer) => read,
        };
        let n = match read {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        // Bytes read just as a pause began are held until it ends.
        loop {
            let now = *mode.borrow_and_update();
            match (now, direction) {
                (Mode::LoseRequest(pattern), Direction::Requests)
                    if contains(&buffer[..n], pattern) =>
                {
                    control.cut_once();
                    return;
                }
                (Mode::LoseReplyTo(pattern), Direction::Requests)
                    if contains(&buffer[..n], pattern) =>
                {
                    control.set(Mode::Losing);
                    break;
                }
                (Mode::Losing, Direction::Replies) => {
                    control.cut_once();
                    return;
                }
                (Mode::Forward | Mode::LoseReplyTo(_) | Mode::LoseRequest(_), _)
                | (Mode::Losing, Direction::Requests) => break,
                (Mode::Cut, _) => return,
                (Mode::Pause, _) => {
                    tokio::select! {
                        () = cut.cancelled() => return,
                        changed = mode.changed() => if changed.is_err() { return },
                    }
                }
            }
        }
        let written = tokio::select! {
            () = cut.cancelled() => return,
            written = to.write_all(&buffer[..n]) => written,
        };
        if written.is_err() {
            return;
        }
    }
}
