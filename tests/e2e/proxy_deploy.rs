//! End to end: the shipped proxy configuration, `deploy/nginx.conf`, run by Debian's nginx in
//! front of two real cluster nodes on loopback (the node names replaced by their addresses,
//! the listening port by a free one). A node frozen with SIGSTOP accepts connections but never
//! answers: the proxy must take it out within its read timeout and answer every request from
//! the other node, not leave half of them hanging; `/metrics` is refused to a client outside
//! the private networks (loopback counts as outside there).
//!
//! Needs `nginx` on the PATH (`apt-get install -y nginx`; `.ci/run` installs it) besides
//! PostgreSQL and NATS; fails, never skips, without it.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cluster::{Node, cluster_setup};
use crate::common::Http;

/// The proxy's read timeout for plain requests (`location /` in deploy/nginx.conf).
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// nginx running deploy/nginx.conf, stopped when dropped.
struct Nginx {
    child: Child,
    addr: SocketAddr,
    /// Its configuration, pid and logs.
    dir: std::path::PathBuf,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The version nginx reports, as (major, minor, patch).
fn nginx_version() -> (u32, u32, u32) {
    let output = Command::new("nginx")
        .arg("-v")
        .output()
        .expect("nginx is installed (apt-get install -y nginx)");
    let text = String::from_utf8_lossy(&output.stderr).to_string();
    let version = text
        .split('/')
        .nth(1)
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or_else(|| panic!("nginx -v said {text}"));
    let mut parts = version.split('.').map(|p| p.parse().unwrap_or(0));
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

/// Starts nginx with deploy/nginx.conf in front of `nodes`.
fn nginx(nodes: [SocketAddr; 2]) -> Nginx {
    let shipped = include_str!("../../deploy/nginx.conf");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut conf = shipped
        .replace("node-a:8080", &nodes[0].to_string())
        .replace("node-b:8080", &nodes[1].to_string())
        .replace("listen 8080;", &format!("listen 127.0.0.1:{port};"))
        .replace("resolver 127.0.0.11", "resolver 127.0.0.1");
    // `resolve` on upstream servers came to open-source nginx in 1.27.3 (Debian 12 has 1.22):
    // an older nginx runs the rest of the file as shipped.
    if nginx_version() < (1, 27, 3) {
        conf = conf.replace(" resolve ", " ");
    }
    assert!(conf.contains(&format!("listen 127.0.0.1:{port};")));
    let dir = std::env::temp_dir().join(format!("warroom-nginx-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let main = dir.join("nginx.conf");
    let site = dir.join("warroom.conf");
    std::fs::write(&site, conf).unwrap();
    let prefix = dir.display().to_string();
    std::fs::write(
        &main,
        format!(
            "worker_processes 2;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log warn;\n\
             events {{ worker_connections 256; }}\n\
             http {{ access_log off; client_body_temp_path {prefix}/body; \
             proxy_temp_path {prefix}/proxy; include {}; }}\n",
            site.display()
        ),
    )
    .unwrap();
    let child = Command::new("nginx")
        .args(["-p", &prefix, "-c", &main.display().to_string()])
        .args(["-g", "daemon off;"])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start nginx");
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    Nginx { child, addr, dir }
}

/// GET `path` through `addr`: its status (0: no answer within `limit`) and how long it took.
async fn timed_get(addr: SocketAddr, path: &str, limit: Duration) -> (u16, Duration) {
    let started = Instant::now();
    let http = Http { addr };
    let status = tokio::time::timeout(limit, http.try_get(path))
        .await
        .ok()
        .flatten()
        .map_or(0, |(status, _)| status);
    (status, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(all(warroom_test_postgres, warroom_test_nats)),
    ignore = "needs WARROOM_TEST_POSTGRES_URL and WARROOM_TEST_NATS_URL"
)]
async fn the_shipped_proxy_takes_a_frozen_node_out_within_its_timeout_and_keeps_metrics_private() {
    let (nats, db, prefix) = cluster_setup().await;
    let nodes = Node::cluster::<2>(&db, &nats, &format!("x{prefix}"), 5, &[]).await;
    let proxy = nginx([nodes[0].addr, nodes[1].addr]);
    let mut up = false;
    for _ in 0..100 {
        if timed_get(proxy.addr, "/healthz", Duration::from_secs(1))
            .await
            .0
            == 200
        {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "nginx answers");

    // /metrics: the nodes serve it, the proxy refuses it to a client from outside.
    let direct = timed_get(nodes[0].addr, "/metrics", Duration::from_secs(5)).await;
    assert_eq!(direct.0, 200, "a node serves /metrics to its own network");
    let proxied = timed_get(proxy.addr, "/metrics", Duration::from_secs(5)).await;
    assert_eq!(proxied.0, 403, "the proxy refuses /metrics from outside");

    // Both nodes answer through the proxy.
    for _ in 0..4 {
        let (status, took) = timed_get(proxy.addr, "/healthz", Duration::from_secs(2)).await;
        assert_eq!(status, 200, "through the proxy ({took:?})");
    }

    // Node a freezes: it still accepts connections, but answers nothing.
    nodes[0].signal("STOP");
    let frozen_at = Instant::now();
    let mut answers = Vec::new();
    for path in [
        "/healthz",
        "/api/rooms",
        "/healthz",
        "/api/rooms",
        "/healthz",
        "/api/rooms",
    ] {
        answers.push(timed_get(proxy.addr, path, Duration::from_secs(12)).await);
    }
    let all = frozen_at.elapsed();
    nodes[0].signal("CONT");
    println!("proxy with a frozen node: {answers:?}, {all:?} for all six");
    assert!(
        answers.iter().all(|(status, _)| *status == 200),
        "every request answered by the live node: {answers:?}"
    );
    let slow: Vec<&(u16, Duration)> = answers
        .iter()
        .filter(|(_, took)| *took > Duration::from_secs(1))
        .collect();
    assert!(
        slow.len() <= 1,
        "after one request timed out on the frozen node it is out: {answers:?}"
    );
    assert!(
        slow.iter()
            .all(|(_, took)| *took < READ_TIMEOUT + Duration::from_secs(2)),
        "the one that met the frozen node was retried within its read timeout: {answers:?}"
    );
    drop(proxy);
    drop(nodes);
    db.cleanup().await;
}
