//! A TCP proxy the test controls, between the server and its database: it forwards bytes both
//! ways until told to pause (bytes are held, connections stay open: a database that stopped
//! answering) or to cut (every connection is closed and new ones refused: a database that went
//! away), and resumes on request. It stands in for an outage without touching the machine's
//! PostgreSQL, which other tests share.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// What the proxy does with traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Forward every byte.
    Forward,
    /// Hold every byte (connections stay open, nothing passes).
    Pause,
    /// Close every connection, refuse new ones.
    Cut,
}

/// The proxy; dropped, it stops.
pub struct Proxy {
    /// Where it listens.
    pub addr: SocketAddr,
    mode: watch::Sender<Mode>,
    /// Cancelled to close the current connections (on `Cut`); replaced afterwards.
    generation: Arc<Mutex<CancellationToken>>,
    task: JoinHandle<()>,
}

impl Proxy {
    /// A proxy to `target`, forwarding.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let (mode, watching) = watch::channel(Mode::Forward);
        let generation = Arc::new(Mutex::new(CancellationToken::new()));
        let task = tokio::spawn(accept(listener, target, watching, generation.clone()));
        Proxy {
            addr,
            mode,
            generation,
            task,
        }
    }

    /// Switches to `mode`.
    pub fn set(&self, mode: Mode) {
        if mode == Mode::Cut {
            let mut generation = self.generation.lock().unwrap();
            generation.cancel();
            *generation = CancellationToken::new();
        }
        self.mode.send_replace(mode);
    }

    /// `url` (a PostgreSQL URL) pointed at this proxy instead of its host and port.
    pub fn url(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let credentials = authority
            .rsplit_once('@')
            .map(|(credentials, _)| format!("{credentials}@"))
            .unwrap_or_default();
        format!("{scheme}://{credentials}{}/{path}", self.addr)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.generation.lock().unwrap().cancel();
        self.task.abort();
    }
}

async fn accept(
    listener: TcpListener,
    target: SocketAddr,
    mode: watch::Receiver<Mode>,
    generation: Arc<Mutex<CancellationToken>>,
) {
    while let Ok((client, _)) = listener.accept().await {
        if *mode.borrow() == Mode::Cut {
            continue; // dropped: refused
        }
        let Ok(server) = TcpStream::connect(target).await else {
            continue;
        };
        let cut = generation.lock().unwrap().clone();
        let (client_read, client_write) = client.into_split();
        let (server_read, server_write) = server.into_split();
        tokio::spawn(pump(client_read, server_write, mode.clone(), cut.clone()));
        tokio::spawn(pump(server_read, client_write, mode.clone(), cut));
    }
}

/// Copies `from` to `to` while the mode forwards; holds bytes while paused; stops on a cut.
async fn pump(
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    mut mode: watch::Receiver<Mode>,
    cut: CancellationToken,
) {
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
            match now {
                Mode::Forward => break,
                Mode::Cut => return,
                Mode::Pause => {
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
