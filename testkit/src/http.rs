//! A client for the server's REST API: hyper's HTTP/1.1 client (hyper-util's `legacy::Client`,
//! already in the tree with hyper), one connection per request, answers read whole with their
//! status, headers and body as JSON. [`Http::raw`] sends bytes as they are, for requests no
//! client would send (a broken chunked body): its answer is read until the server closes and
//! parsed with httparse.

use std::net::SocketAddr;

use anyhow::{Context, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// REST calls to one server.
#[derive(Clone, Copy, Debug)]
pub struct Http {
    /// The server.
    pub addr: SocketAddr,
}

/// A server's answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Its status.
    pub status: u16,
    /// Its headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Its body as JSON (`Null` when empty, a string when not JSON).
    pub body: Value,
}

impl Http {
    /// Sends `method path` with these headers and body.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> anyhow::Result<Answer> {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("http://{}{path}", self.addr));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Full::new(Bytes::copy_from_slice(body)))
            .with_context(|| format!("a request {method} {path}"))?;
        // No pool: a client per request, so that no idle connection outlives the test's
        // runtime or keeps a server that is stopping waiting for it.
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(0)
            .build::<_, Full<Bytes>>(connector);
        let response = client
            .request(request)
            .await
            .with_context(|| format!("{method} {path} to {}", self.addr))?;
        let status = response.status().as_u16();
        let headers = header_pairs(response.headers());
        let body = response
            .into_body()
            .collect()
            .await
            .with_context(|| format!("the body of {method} {path}"))?
            .to_bytes();
        Ok(Answer {
            status,
            headers,
            body: json_or_text(&body),
        })
    }

    /// Sends a request with a bearer `token` and a JSON `body`, both optional.
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> anyhow::Result<Answer> {
        let bearer = token.map(|token| format!("Bearer {token}"));
        let mut headers = Vec::new();
        if let Some(bearer) = &bearer {
            headers.push((AUTHORIZATION.as_str(), bearer.as_str()));
        }
        if body.is_some() {
            headers.push((CONTENT_TYPE.as_str(), "application/json"));
        }
        let body = body.map(Value::to_string).unwrap_or_default();
        self.send(method, path, &headers, body.as_bytes()).await
    }

    /// Creates a guest named `name`; returns its (id, token).
    pub async fn guest(&self, name: &str) -> anyhow::Result<(String, String)> {
        let answer = self
            .request("POST", "/api/guests", None, Some(&json!({"name": name})))
            .await?;
        let body = answer.created(&format!("creating guest {name}"))?;
        let field = |name: &str| {
            body[name]
                .as_str()
                .map(str::to_owned)
                .with_context(|| format!("a guest's {name}: {body}"))
        };
        Ok((field("id")?, field("token")?))
    }

    /// Opens a room as `token` with this request body; returns the room.
    pub async fn room(&self, token: &str, request: &Value) -> anyhow::Result<Value> {
        self.request("POST", "/api/rooms", Some(token), Some(request))
            .await?
            .created(&format!("opening a room {request}"))
    }

    /// Sends these bytes as they are (a whole request, however wrong) and reads the answer
    /// until the server closes the connection.
    pub async fn raw(&self, request: &[u8]) -> anyhow::Result<Answer> {
        let mut stream = TcpStream::connect(self.addr).await?;
        stream.write_all(request).await?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await?;
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut head = httparse::Response::new(&mut headers);
        let httparse::Status::Complete(length) = head.parse(&response)? else {
            bail!(
                "an incomplete answer: {}",
                String::from_utf8_lossy(&response)
            );
        };
        Ok(Answer {
            status: head.code.context("a status")?,
            headers: head
                .headers
                .iter()
                .map(|h| {
                    let value = String::from_utf8_lossy(h.value).trim().to_owned();
                    (h.name.to_ascii_lowercase(), value)
                })
                .collect(),
            body: json_or_text(&response[length..]),
        })
    }
}

impl Answer {
    /// The value of header `name` (lower case), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The body of a `201 Created`; an error naming `what` otherwise.
    pub fn created(self, what: &str) -> anyhow::Result<Value> {
        if self.status != 201 {
            bail!("{what}: {} {}", self.status, self.body);
        }
        Ok(self.body)
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

/// The headers as (lower-case name, value) pairs.
fn header_pairs(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), value)
        })
        .collect()
}

/// A body as JSON: `Null` when empty, a string when it is not JSON.
fn json_or_text(body: &[u8]) -> Value {
    if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
    }
}
