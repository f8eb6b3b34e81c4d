//! A minimal HTTP/1.1 JSON client over a plain TCP stream, one connection per request (the
//! server answers with a Content-Length; the client asks it to close the connection).

use std::net::SocketAddr;

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// REST calls to one server.
#[derive(Clone, Copy, Debug)]
pub struct Http {
    /// The server.
    pub addr: SocketAddr,
}

impl Http {
    /// Sends a request; returns the status and the JSON body (`Null` when empty).
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<(u16, Value)> {
        let mut stream = TcpStream::connect(self.addr).await?;
        stream.set_nodelay(true)?;
        let body_text = body.map(Value::to_string).unwrap_or_default();
        let mut request =
            format!("{method} {path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n");
        if let Some(token) = token {
            request.push_str(&format!("authorization: Bearer {token}\r\n"));
        }
        if body.is_some() {
            request.push_str("content-type: application/json\r\n");
        }
        request.push_str(&format!(
            "content-length: {}\r\n\r\n{body_text}",
            body_text.len()
        ));
        stream.write_all(request.as_bytes()).await?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await?;
        let text = String::from_utf8_lossy(&response);
        let (head, body) = text.split_once("\r\n\r\n").context("an HTTP response")?;
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .context("an HTTP status")?;
        let json = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()))
        };
        Ok((status, json))
    }

    /// Creates a guest named `name`; returns its token.
    pub async fn guest(&self, name: &str) -> anyhow::Result<String> {
        let (status, body) = self
            .request("POST", "/api/guests", None, Some(&json!({"name": name})))
            .await?;
        if status != 201 {
            bail!("creating guest {name}: {status} {body}");
        }
        Ok(body["token"].as_str().context("a token")?.to_owned())
    }

    /// Opens a room of `ruleset` with `seats` seats, its creator (`token`) on seat 0; returns
    /// its id.
    pub async fn room(&self, token: &str, ruleset: &str, seats: usize) -> anyhow::Result<String> {
        let request = json!({"ruleset": ruleset, "seats": seats, "creator_seat": 0});
        let (status, body) = self
            .request("POST", "/api/rooms", Some(token), Some(&request))
            .await?;
        if status != 201 {
            bail!("opening a {ruleset} room: {status} {body}");
        }
        Ok(body["id"].as_str().context("a room id")?.to_owned())
    }

    /// Opens a room nobody will fill (for idle spectators); returns its id.
    pub async fn waiting_room(&self, token: &str) -> anyhow::Result<String> {
        let request = json!({"ruleset": "hexdice", "seats": 2});
        let (status, body) = self
            .request("POST", "/api/rooms", Some(token), Some(&request))
            .await?;
        if status != 201 {
            bail!("opening a waiting room: {status} {body}");
        }
        Ok(body["id"].as_str().context("a room id")?.to_owned())
    }
}
