//! REST calls in a test: warroom-testkit's client (shared with the benchmarks), its failures
//! turned into the test's failure.

use std::net::SocketAddr;

use serde_json::Value;
pub use warroom_testkit::Answer;

/// REST calls to one server.
#[derive(Clone, Copy, Debug)]
pub struct Http {
    /// The server.
    pub addr: SocketAddr,
}

impl Http {
    fn kit(&self) -> warroom_testkit::Http {
        warroom_testkit::Http { addr: self.addr }
    }

    /// Sends a request; returns the status and the JSON body (`Null` when empty).
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let answer = self
            .kit()
            .request(method, path, token, body)
            .await
            .expect("HTTP request");
        (answer.status, answer.body)
    }

    /// GET, `None` when the server does not answer.
    pub async fn try_get(&self, path: &str) -> Option<(u16, Value)> {
        let answer = self.kit().request("GET", path, None, None).await.ok()?;
        Some((answer.status, answer.body))
    }

    /// GET.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.request("GET", path, token, None).await
    }

    /// POST with a JSON body.
    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        self.request("POST", path, token, Some(body)).await
    }

    /// GET that must be refused with `status` and the error `code`; returns the error's body.
    pub async fn get_refused(
        &self,
        path: &str,
        token: Option<&str>,
        status: u16,
        code: &str,
    ) -> Value {
        let answer = self.get(path, token).await;
        refused(("GET", path), answer, status, code)
    }

    /// POST that must be refused with `status` and the error `code`; returns the error's body.
    pub async fn post_refused(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
        status: u16,
        code: &str,
    ) -> Value {
        let answer = self.post(path, token, body).await;
        refused(("POST", path), answer, status, code)
    }

    /// Creates a guest; returns (id, token).
    pub async fn guest(&self, name: &str) -> (String, String) {
        self.kit().guest(name).await.expect("a guest")
    }

    /// Creates one guest per name, in order; returns their (id, token).
    pub async fn guests<const N: usize>(&self, names: [&str; N]) -> [(String, String); N] {
        let mut made = Vec::with_capacity(N);
        for name in names {
            made.push(self.guest(name).await);
        }
        made.try_into().expect("one guest per name")
    }

    /// Opens a room; returns its id.
    pub async fn room_id(&self, token: &str, request: &Value) -> String {
        let room = self.room(token, request).await;
        room["id"].as_str().expect("a room id").to_owned()
    }

    /// Opens a room; returns its JSON.
    pub async fn room(&self, token: &str, request: &Value) -> Value {
        self.kit().room(token, request).await.expect("a room")
    }

    /// `POST /api/quick-play` as `token`: the status and the body.
    pub async fn quick_play(&self, token: &str, request: &Value) -> (u16, Value) {
        self.post("/api/quick-play", Some(token), request).await
    }

    /// The match `room` plays (its `match_id`, as `GET /api/rooms/{room}` shows it).
    pub async fn match_of(&self, room: &str) -> String {
        let (_, shown) = self.get(&format!("/api/rooms/{room}"), None).await;
        shown["match_id"]
            .as_str()
            .unwrap_or_else(|| panic!("the room plays a match: {shown}"))
            .to_owned()
    }

    /// `GET /api/rooms/{room}` again every 25 ms until `wanted` holds of what it shows (what a
    /// room task publishes reaches the lobby's copy a moment after its sockets); panics with
    /// `what` and the last answer after 5 s.
    pub async fn room_until(
        &self,
        room: &str,
        what: &str,
        wanted: impl Fn(&Value) -> bool,
    ) -> Value {
        let mut shown = Value::Null;
        for _ in 0..200 {
            shown = self.get(&format!("/api/rooms/{room}"), None).await.1;
            if wanted(&shown) {
                return shown;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        panic!("{what}: never shown, last {shown}");
    }

    /// A match's replay as `token` (or anyone) sees it: the status and the body.
    pub async fn replay(&self, match_id: &str, token: Option<&str>) -> (u16, Value) {
        self.get(&format!("/api/matches/{match_id}/replay"), token)
            .await
    }

    /// The replay of the match `room` plays, as `token` (or anyone) sees it.
    pub async fn room_replay(&self, room: &str, token: Option<&str>) -> (u16, Value) {
        let match_id = self.match_of(room).await;
        self.replay(&match_id, token).await
    }

    /// Sends these bytes as they are (a whole request, however wrong) and reads the answer
    /// until the server closes the connection.
    pub async fn raw(&self, request: &[u8]) -> Answer {
        tokio::time::timeout(super::WAIT, self.kit().raw(request))
            .await
            .expect("the server answers and closes in time")
            .expect("an answer")
    }

    /// A request with this method, path, headers and body.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Answer {
        self.kit()
            .send(method, path, headers, body)
            .await
            .unwrap_or_else(|error| panic!("{method} {path}: {error:#}"))
    }

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

/// Checks that `request` was refused with `status` and `code`, in the `{"code","message"}`
/// shape with a message; returns the body.
fn refused(
    (method, path): (&str, &str),
    (got, body): (u16, Value),
    status: u16,
    code: &str,
) -> Value {
    assert_eq!(
        (got, body["code"].as_str()),
        (status, Some(code)),
        "{method} {path}: {body}"
    );
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{method} {path}: an error has a message: {body}"
    );
    body
}
