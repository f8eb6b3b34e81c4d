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

    /// Sends these bytes as they are (a whole request, however wrong) and reads the answer
    /// until the server closes the connection.
    pub async fn raw(&self, request: &[u8]) -> Raw {
        let mut stream = TcpStream::connect(self.addr).await.expect("connect");
        stream.write_all(request).await.expect("send");
        let mut response = Vec::new();
        let read = tokio::time::timeout(super::WAIT, stream.read_to_end(&mut response)).await;
        assert!(read.is_ok(), "the server answers and closes in time");
        Raw::parse(&response)
    }

    /// A request with this method, path, extra header lines (each ending in CRLF) and body.
    pub async fn send(&self, method: &str, path: &str, headers: &str, body: &[u8]) -> Raw {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n{headers}content-length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.raw(&request).await
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

/// An answer read by [`Http::raw`].
#[derive(Clone, Debug)]
pub struct Raw {
    /// Its status (0: no answer at all).
    pub status: u16,
    /// Its headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Its body as JSON (`Null` when empty, a string when not JSON).
    pub body: Value,
}

impl Raw {
    fn parse(response: &[u8]) -> Raw {
        let text = String::from_utf8_lossy(response);
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            return Raw {
                status: 0,
                headers: Vec::new(),
                body: Value::Null,
            };
        };
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        let body = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()))
        };
        Raw {
            status,
            headers,
            body,
        }
    }

    /// The value of header `name` (lower case), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Asserts the answer is an error in the contract: this status, a JSON body with a string
    /// `code` and `message`; returns the code.
    pub fn error(&self, status: u16, what: &str) -> String {
        assert_eq!(self.status, status, "{what}: {self:?}");
        assert!(
            self.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{what}: JSON answer: {self:?}"
        );
        let message = self.body["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{what}: a message: {self:?}");
        self.body["code"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: a code: {self:?}"))
            .to_owned()
    }
}

impl Http {
    /// One sample of `/metrics` by its name with labels (e.g. `warroom_connections`); 0 when
    /// absent.
    pub async fn metric(&self, name: &str) -> f64 {
        let (status, body) = self.get("/metrics", None).await;
        assert_eq!(status, 200);
        body.as_str()
            .expect("the metrics are text")
            .lines()
            .filter_map(|line| line.rsplit_once(' '))
            .find(|(sample, _)| *sample == name)
            .map_or(0.0, |(_, value)| value.parse().expect("a number"))
    }
}
