//! A minimal HTTP/1.1 JSON client over a plain TCP stream (the server always answers with a
//! Content-Length, and the client asks it to close the connection).

use std::net::SocketAddr;

use serde_json::Value;
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
    ) -> (u16, Value) {
        self.try_request(method, path, token, body)
            .await
            .expect("HTTP request")
    }

    /// GET, `None` when the server does not answer.
    pub async fn try_get(&self, path: &str) -> Option<(u16, Value)> {
        self.try_request("GET", path, None, None).await
    }

    /// GET.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.request("GET", path, token, None).await
    }

    /// POST with a JSON body.
    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        self.request("POST", path, token, Some(body)).await
    }

    /// Creates a guest; returns (id, token).
    pub async fn guest(&self, name: &str) -> (String, String) {
        let (status, body) = self
            .post("/api/guests", None, &serde_json::json!({"name": name}))
            .await;
        assert_eq!(status, 201, "{body}");
        (
            body["id"].as_str().expect("id").to_owned(),
            body["token"].as_str().expect("token").to_owned(),
        )
    }

    /// Opens a room; returns its JSON.
    pub async fn room(&self, token: &str, request: &Value) -> Value {
        let (status, body) = self.post("/api/rooms", Some(token), request).await;
        assert_eq!(status, 201, "{body}");
        body
    }

    async fn try_request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Option<(u16, Value)> {
        let mut stream = TcpStream::connect(self.addr).await.ok()?;
        stream.set_nodelay(true).ok()?;
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
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.ok()?;
        let text = String::from_utf8_lossy(&response);
        let (head, body) = text.split_once("\r\n\r\n")?;
        let status = head.split(' ').nth(1)?.parse().ok()?;
        let json = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()))
        };
        Some((status, json))
    }
}
