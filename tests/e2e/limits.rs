//! End to end, what one client may cost the server: slow or half-sent HTTP requests are
//! dropped and never hold the shutdown; sockets must say hello, answer pings and read what they
//! are sent (a kicked one is closed even if it reads nothing), frames over the hard limit close
//! with 1009; `Origin` is checked; one address has caps on sockets, guests and rooms; the web
//! client carries its security headers.

use crate::common;

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
use tokio_tungstenite::{WebSocketStream, client_async};

use common::play::{Chooser, play, seat_everyone};
use common::{Http, TestDb, TestServer};
use warroom_server::config::Config;

/// Reads until the server closes the connection; how long that took (fails after `limit`).
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Duration {
    let started = Instant::now();
    let mut sink = Vec::new();
    tokio::time::timeout(limit, stream.read_to_end(&mut sink))
        .await
        .unwrap_or_else(|_| panic!("the server kept the connection open over {limit:?}"))
        .ok();
    started.elapsed()
}

/// A connection to `addr` that has sent `bytes` (a request cut short) and sends no more.
async fn having_sent(addr: std::net::SocketAddr, bytes: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(bytes).await.unwrap();
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_request_does_not_block_shutdown() {
    let db = common::db::sqlite();
    let mut config = Config::for_tests(db.url.clone());
    // Far longer than the test: only the shutdown may end these connections.
    config.limits.header_read_timeout = Duration::from_secs(120);
    config.limits.body_read_timeout = Duration::from_secs(120);
    let server = TestServer::start_with(config).await;
    let mut half_headers = having_sent(
        server.addr,
        b"GET /api/rooms HTTP/1.1\r\nhost: x\r\nx-slow: ",
    )
    .await;
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let mut half_body = having_sent(
        server.addr,
        b"POST /api/guests HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{\"na",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    server.stop().await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "the shutdown took {took:?}");
    for stream in [&mut half_headers, &mut silent, &mut half_body] {
        closed_within(stream, Duration::from_secs(3)).await;
    }
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_and_silent_connections_are_dropped_after_the_header_timeout() {
    let server =
        TestServer::on_sqlite(|limits| limits.header_read_timeout = Duration::from_secs(1)).await;
    let mut half_headers =
        having_sent(server.addr, b"GET /api/rooms HTTP/1.1\r\nhost: x\r\n").await;
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    // A client trickling its headers byte by byte is dropped too.
    let mut trickle = TcpStream::connect(server.addr).await.unwrap();
    let trickling = tokio::spawn(async move {
        for byte in b"GET /api/rooms HTTP/1.1\r\nhost: x\r\nx-a: aaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
            if trickle.write_all(&[*byte]).await.is_err() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        false
    });
    let opened = Instant::now();
    for stream in [&mut half_headers, &mut silent] {
        closed_within(stream, Duration::from_secs(5)).await;
        let took = opened.elapsed();
        assert!(
            took >= Duration::from_millis(500),
            "not before the timeout: {took:?}"
        );
    }
    assert!(
        tokio::time::timeout(Duration::from_secs(10), trickling)
            .await
            .expect("the trickling client was cut off")
            .unwrap(),
        "writing failed once the server closed"
    );
    // Whole requests are still served.
    let (status, _) = server.http().get("/healthz", None).await;
    assert_eq!(status, 200);
    server.stop().await;
}

/// A raw WebSocket (tokio-tungstenite) to `/ws`, with extra request headers and, if given, a
/// small receive buffer (so that a client that does not read fills up quickly).
async fn raw_socket(
    addr: std::net::SocketAddr,
    headers: &[(&str, &str)],
    recv_buffer: Option<u32>,
) -> Result<WebSocketStream<TcpStream>, tokio_tungstenite::tungstenite::Error> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    if let Some(size) = recv_buffer {
        socket.set_recv_buffer_size(size).unwrap();
    }
    let stream = socket.connect(addr).await.unwrap();
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    client_async(request, stream)
        .await
        .map(|(socket, _)| socket)
}

/// Reads until the server's close frame; its (code, reason).
async fn close_frame(socket: &mut WebSocketStream<TcpStream>, limit: Duration) -> (u16, String) {
    let read = tokio::time::timeout(limit, async {
        while let Some(frame) = socket.next().await {
            match frame {
                Ok(Message::Close(Some(frame))) => {
                    return (u16::from(frame.code), frame.reason.to_string());
                }
                Ok(Message::Close(None)) => return (0, String::new()),
                Ok(_) => {}
                Err(error) => return (0, error.to_string()),
            }
        }
        (0, "no close frame".to_owned())
    });
    read.await
        .unwrap_or_else(|_| panic!("the server closed nothing within {limit:?}"))
}

/// Waits until `/metrics` says `name` is `value`.
async fn metric_becomes(http: Http, name: &str, value: f64, limit: Duration) {
    let started = Instant::now();
    loop {
        let now = http.metric(name).await;
        if now == value {
            return;
        }
        assert!(
            started.elapsed() < limit,
            "{name} is {now}, not {value}, after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_never_says_hello_is_closed() {
    let server =
        TestServer::on_sqlite(|limits| limits.hello_timeout = Duration::from_secs(1)).await;
    let started = Instant::now();
    let mut silent = raw_socket(server.addr, &[], None).await.unwrap();
    let mut greeted = server.client(None).await;
    let (code, reason) = close_frame(&mut silent, Duration::from_secs(5)).await;
    assert_eq!((code, reason.as_str()), (1008, "hello_timeout"));
    assert!(started.elapsed() >= Duration::from_millis(900));
    // One that said hello stays.
    tokio::time::sleep(Duration::from_millis(500)).await;
    greeted.sync().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sockets_are_pinged_and_dead_ones_closed() {
    let server = TestServer::on_sqlite(|limits| {
        limits.ping_interval = Duration::from_secs(1);
        limits.ping_timeout = Duration::from_secs(2);
    })
    .await;
    let http = server.http();
    // A live client: it reads, so tungstenite answers every ping with a pong.
    let mut live = raw_socket(server.addr, &[], None).await.unwrap();
    live.send(Message::Text(r#"{"type":"hello","token":null}"#.into()))
        .await
        .unwrap();
    // A dead one: it says hello, then never reads again (so it answers no ping).
    let mut dead = raw_socket(server.addr, &[], None).await.unwrap();
    dead.send(Message::Text(r#"{"type":"hello","token":null}"#.into()))
        .await
        .unwrap();
    metric_becomes(http, "warroom_connections", 2.0, Duration::from_secs(2)).await;
    let mut pings = 0;
    let listening = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(frame)) = live.next().await {
            if matches!(frame, Message::Ping(_)) {
                pings += 1;
            }
        }
    })
    .await;
    assert!(listening.is_err(), "the live socket stays open");
    assert!(pings >= 3, "pinged every second: {pings}");
    // The dead one was closed meanwhile; the live one was not.
    metric_becomes(http, "warroom_connections", 1.0, Duration::from_secs(1)).await;
    // Its close frame says why, unless reading fails first: tungstenite then answers the
    // pings it held back, onto a connection the server has closed.
    let (code, reason) = close_frame(&mut dead, Duration::from_secs(2)).await;
    assert!(
        (code, reason.as_str()) == (1008, "ping_timeout")
            || (code == 0 && (reason.contains("Broken pipe") || reason.contains("reset"))),
        "{code} {reason}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kicked_socket_is_closed_even_if_the_client_never_reads() {
    let server = TestServer::on_sqlite(|limits| limits.outgoing_queue = 8).await;
    let http = server.http();
    let (room, mut players, mut spectator) =
        seat_everyone(http, server.addr, "classic", json!({"setup": "random"}), 3).await;
    let mut stuck = raw_socket(server.addr, &[], Some(2048)).await.unwrap();
    stuck
        .send(Message::Text(r#"{"type":"hello","token":null}"#.into()))
        .await
        .unwrap();
    stuck
        .send(Message::Text(
            json!({"type": "join", "room": room}).to_string().into(),
        ))
        .await
        .unwrap();
    metric_becomes(http, "warroom_connections", 5.0, Duration::from_secs(5)).await;
    // Play until the room has kicked the socket that reads nothing. Live actions reach it as
    // small patches, so it also joins again now and then: each join is answered with a whole
    // snapshot of the classic board (about 15 KB), which fills its buffers sooner.
    let mut chooser = Chooser(0x51ee);
    let join = json!({"type": "join", "room": room}).to_string();
    for _ in 0..100 {
        if http.metric("warroom_slow_consumer_kicks_total").await >= 1.0 {
            break;
        }
        let _ = stuck.send(Message::Text(join.clone().into())).await;
        let over = play(&mut players, &mut [&mut spectator], 20, &mut |legal| {
            chooser.below(legal.len())
        })
        .await;
        assert!(!over, "the match lasts until the kick");
    }
    assert_eq!(http.metric("warroom_slow_consumer_kicks_total").await, 1.0);
    // Its connection is gone within the close grace (1 s), though it never read a byte.
    metric_becomes(http, "warroom_connections", 4.0, Duration::from_secs(3)).await;
    let mut rest = Vec::new();
    let drained = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(frame)) = stuck.next().await {
            rest.push(frame);
        }
    })
    .await;
    assert!(drained.is_ok(), "the server closed the TCP connection");
    // The others play on.
    play(&mut players, &mut [&mut spectator], 3, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_over_the_limit_close_with_1009() {
    let server = TestServer::on_sqlite(|limits| limits.max_frame_bytes = 1024).await;
    let mut client = raw_socket(server.addr, &[], None).await.unwrap();
    client
        .send(Message::Text(r#"{"type":"hello","token":null}"#.into()))
        .await
        .unwrap();
    // Over the message limit but under the hard limit: refused, the socket stays.
    let padded = json!({"type": "ping", "pad": "x".repeat(2000)}).to_string();
    client.send(Message::Text(padded.into())).await.unwrap();
    let refused = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(Ok(Message::Text(text))) = client.next().await
                && text.contains("frame_too_large")
            {
                return;
            }
        }
    })
    .await;
    assert!(refused.is_ok(), "frame_too_large");
    // Over the hard limit (16 times): closed with 1009, message too big.
    let huge = json!({"type": "ping", "pad": "x".repeat(20 * 1024)}).to_string();
    let _ = client.send(Message::Text(huge.into())).await;
    let (code, reason) = close_frame(&mut client, Duration::from_secs(5)).await;
    assert_eq!((code, reason.as_str()), (1009, "frame_too_large"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_origin_is_checked() {
    common::on_sqlite(|db: TestDb| async move {
        let server = TestServer::start(&db).await;
        let addr = server.addr;
        let same = format!("http://{addr}");
        assert!(
            raw_socket(addr, &[], None).await.is_ok(),
            "no Origin: not a browser"
        );
        assert!(
            raw_socket(addr, &[("origin", &same)], None).await.is_ok(),
            "a page of this host"
        );
        let refused = raw_socket(addr, &[("origin", "https://evil.example")], None).await;
        match refused {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403);
                let body = String::from_utf8(response.body().clone().unwrap_or_default()).unwrap();
                assert!(body.contains("forbidden_origin"), "{body}");
            }
            other => panic!("another site's page is refused: {other:?}"),
        }
        server.stop().await;
        let mut config = Config::for_tests(db.url.clone());
        config.limits.allowed_origins = vec!["https://play.example".to_owned()];
        let server = TestServer::start_with(config).await;
        let addr = server.addr;
        assert!(
            raw_socket(addr, &[("origin", "https://play.example")], None)
                .await
                .is_ok()
        );
        assert!(
            raw_socket(addr, &[("origin", &format!("http://{addr}"))], None)
                .await
                .is_err()
        );
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_address_caps_on_sockets_guests_and_rooms() {
    let server = TestServer::on_sqlite(|limits| {
        limits.max_sockets_per_ip = 3;
        limits.guests_per_ip_per_minute = 3;
        limits.rooms_per_ip_per_minute = 2;
    })
    .await;
    let http = server.http();
    // Sockets: three at once, the fourth refused until one closes.
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(raw_socket(server.addr, &[], None).await.unwrap());
    }
    match raw_socket(server.addr, &[], None).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429);
            let body = String::from_utf8(response.body().clone().unwrap_or_default()).unwrap();
            assert!(body.contains("too_many_connections"), "{body}");
        }
        other => panic!("a fourth socket is refused: {other:?}"),
    }
    let mut first = open.remove(0);
    first.close(None).await.unwrap();
    let _ = close_frame(&mut first, Duration::from_secs(5)).await;
    metric_becomes(http, "warroom_connections", 2.0, Duration::from_secs(5)).await;
    open.push(raw_socket(server.addr, &[], None).await.unwrap());
    // Guests: three a minute.
    let mut tokens = Vec::new();
    for n in 0..3 {
        tokens.push(http.guest(&format!("guest {n}")).await.1);
    }
    let answer = http
        .send("POST", "/api/guests", &[], br#"{"name": "one more"}"#)
        .await;
    assert_eq!(answer.error(429, "fourth guest"), "rate_limited");
    // Rooms: two a minute, quick play counted when it opens one.
    http.room(&tokens[0], &json!({"ruleset": "hexdice"})).await;
    let (status, body) = http
        .quick_play(&tokens[1], &json!({"ruleset": "classic", "seats": 3}))
        .await;
    assert_eq!(status, 201, "{body}");
    http.post_refused(
        "/api/rooms",
        Some(&tokens[2]),
        &json!({"ruleset": "hexdice"}),
        429,
        "rate_limited",
    )
    .await;
    http.post_refused(
        "/api/quick-play",
        Some(&tokens[2]),
        &json!({"ruleset": "capitals", "seats": 4}),
        429,
        "rate_limited",
    )
    .await;
    // Quick play that finds a room opens none, so it is not counted.
    let (status, body) = http
        .quick_play(&tokens[2], &json!({"ruleset": "classic", "seats": 3}))
        .await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_apart_only_when_trusted() {
    let db = common::db::sqlite();
    for trusted in [false, true] {
        let mut config = Config::for_tests(db.url.clone());
        config.limits.guests_per_ip_per_minute = 1;
        config.limits.trust_forwarded_for = trusted;
        let server = TestServer::start_with(config).await;
        let http = server.http();
        let mut statuses = Vec::new();
        for (n, address) in ["203.0.113.1", "203.0.113.2"].iter().enumerate() {
            let forwarded = format!("198.51.100.7, {address}");
            let header = [("x-forwarded-for", forwarded.as_str())];
            let body = format!("{{\"name\": \"fwd {trusted} {n}\"}}");
            statuses.push(
                http.send("POST", "/api/guests", &header, body.as_bytes())
                    .await
                    .status,
            );
        }
        let expected = if trusted {
            vec![201, 201]
        } else {
            vec![201, 429]
        };
        assert_eq!(statuses, expected, "trusted: {trusted}");
        server.stop().await;
    }
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_client_is_served_with_security_headers() {
    let server = TestServer::on_sqlite(|_| {}).await;
    for path in ["/", "/app.js", "/style.css"] {
        let answer = server.http().send("GET", path, &[], b"").await;
        assert_eq!(answer.status, 200, "{path}");
        let csp = answer.header("content-security-policy").unwrap_or_default();
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(
            answer.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(answer.header("x-frame-options"), Some("DENY"), "{path}");
    }
    // The page has no inline script or style the policy would block.
    let (_, page) = server.http().get("/", None).await;
    let page = page.as_str().unwrap().to_owned();
    assert!(!page.contains("<script>") && !page.contains("<style") && !page.contains("style="));
    server.stop().await;
}
