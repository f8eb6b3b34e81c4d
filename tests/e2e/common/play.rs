//! Playing whole matches over WebSockets: participants follow a room, keep track of what the
//! server told them (seq, whose turn, their legal actions), and the seat to act picks one of its
//! legal actions (listed by the server in its snapshot/applied messages).

use serde_json::{Value, json};

use super::client::Client;
use super::http::Http;

/// A connection following a room: a seated player or a spectator.
pub struct Participant {
    /// Its socket.
    pub client: Client,
    /// Its seat, if it plays.
    pub seat: Option<u64>,
    /// Its bearer token, if any.
    pub token: Option<String>,
    /// The room.
    pub room: String,
    /// The last seq it saw.
    pub seq: u64,
    /// Whose turn it is, as last told.
    pub to_act: Option<u64>,
    /// Its legal actions, when it is to act.
    pub legal: Vec<Value>,
    /// The outcome, once told.
    pub outcome: Option<Value>,
    /// The `finished` message, once received.
    pub finished: Option<Value>,
    /// Every `applied` message's seq, in order (to check nothing is missed or repeated).
    pub applied_seqs: Vec<u64>,
}

impl Participant {
    /// Follows the state messages in `message`.
    pub fn absorb(&mut self, message: &Value) {
        if message["room"] != Value::String(self.room.clone()) {
            return;
        }
        match message["type"].as_str() {
            Some("snapshot") | Some("applied") => {
                let seq = message["seq"].as_u64().expect("seq");
                if message["type"] == "applied" {
                    self.applied_seqs.push(seq);
                }
                self.seq = seq;
                self.to_act = message["to_act"].as_u64();
                self.legal =
                    warroom_protocol::legal::expand_value(&message["legal"]).unwrap_or_default();
                if !message["outcome"].is_null() {
                    self.outcome = Some(message["outcome"].clone());
                }
            }
            Some("finished") => self.finished = Some(message.clone()),
            _ => {}
        }
    }

    /// The `finished` message, waiting for it if it has not come yet.
    pub async fn finished(&mut self) -> Value {
        if let Some(finished) = &self.finished {
            return finished.clone();
        }
        self.until("finished", |m| m["type"] == "finished").await
    }

    /// Reads messages until one matches `wanted`, absorbing state along the way.
    pub async fn until(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .client
                .next()
                .await
                .unwrap_or_else(|| panic!("socket closed while waiting for {what}"));
            self.absorb(&message);
            if wanted(&message) {
                return message;
            }
        }
    }

    /// Reads until it has seen `seq`.
    pub async fn reach(&mut self, seq: u64) {
        if self.seq >= seq {
            return;
        }
        let room = self.room.clone();
        self.until(&format!("seq {seq}"), |m| {
            m["room"] == Value::String(room.clone())
                && (m["type"] == "applied" || m["type"] == "snapshot")
                && m["seq"].as_u64() >= Some(seq)
        })
        .await;
    }

    /// Sends an action and waits for its ack (or error); returns that message.
    pub async fn act(&mut self, id: &str, action: &Value) -> Value {
        let room = self.room.clone();
        self.client
            .send(&json!({"type": "action", "room": room, "id": id, "action": action}))
            .await;
        let id = id.to_owned();
        self.until("ack", move |m| {
            (m["type"] == "ack" || m["type"] == "error") && m["id"] == Value::String(id.clone())
        })
        .await
    }
}

/// [`seat_everyone`] in a hexdice room of the default options, for two players.
pub async fn hexdice_duel(
    http: Http,
    addr: std::net::SocketAddr,
) -> (String, Vec<Participant>, Participant) {
    seat_everyone(http, addr, "hexdice", json!({}), 2).await
}

/// Sets up a room of `ruleset` with `seats` guests seated and a spectator; returns the players
/// (in seat order) and the spectator once every one has the opening snapshot.
pub async fn seat_everyone(
    http: Http,
    addr: std::net::SocketAddr,
    ruleset: &str,
    options: Value,
    seats: u64,
) -> (String, Vec<Participant>, Participant) {
    let mut tokens = Vec::new();
    for n in 0..seats {
        tokens.push(http.guest(&format!("player {n}")).await.1);
    }
    let room = http
        .room(
            &tokens[0],
            &json!({"ruleset": ruleset, "options": options, "seats": seats}),
        )
        .await;
    let room_id = room["id"].as_str().expect("room id").to_owned();
    let mut spectator_client = Client::connect(addr).await;
    spectator_client.hello(None).await;
    spectator_client.join(&room_id, None).await;
    let mut spectator = participant(spectator_client, None, None, &room_id);
    let players = seat_players(addr, &room_id, None, &tokens).await;
    spectator
        .until("snapshot", |m| m["type"] == "snapshot")
        .await;
    (room_id, players, spectator)
}

/// Seats the holders of `tokens` in `room` (seat i for token i; a private room's `invite`), each
/// on its own socket; returns them in seat order once every one has the opening snapshot.
pub async fn seat_players(
    addr: std::net::SocketAddr,
    room_id: &str,
    invite: Option<&str>,
    tokens: &[String],
) -> Vec<Participant> {
    let mut players = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut client = Client::connect(addr).await;
        client.hello(Some(token)).await;
        client
            .send(&json!({"type": "join", "room": room_id, "invite": invite}))
            .await;
        let joined = client
            .until("room", |m| m["type"] == "room" || m["type"] == "error")
            .await;
        assert_eq!(joined["type"], "room", "{joined}");
        players.push(take_seat(client, room_id, seat, token).await);
    }
    for player in &mut players {
        player.until("snapshot", |m| m["type"] == "snapshot").await;
    }
    players
}

/// The holder of `token` takes `seat` over `client`, which follows `room`: a seated participant
/// (its snapshot still to be read).
pub async fn take_seat(mut client: Client, room: &str, seat: usize, token: &str) -> Participant {
    client
        .send(&json!({"type": "take_seat", "room": room, "seat": seat}))
        .await;
    participant(client, Some(seat as u64), Some(token.to_owned()), room)
}

/// A participant over a socket that already follows `room`.
pub fn participant(
    client: Client,
    seat: Option<u64>,
    token: Option<String>,
    room: &str,
) -> Participant {
    Participant {
        client,
        seat,
        token,
        room: room.to_owned(),
        seq: 0,
        to_act: None,
        legal: Vec::new(),
        outcome: None,
        finished: None,
        applied_seqs: Vec::new(),
    }
}

/// A seated player (or a spectator) who comes back to `room` on the server at `addr` with
/// `token`: follows it again and has read its snapshot.
pub async fn rejoin(
    addr: std::net::SocketAddr,
    token: &str,
    seat: Option<u64>,
    room: &str,
) -> Participant {
    let mut client = Client::connect(addr).await;
    client.hello(Some(token)).await;
    client.join(room, None).await;
    let mut rejoined = participant(client, seat, Some(token.to_owned()), room);
    rejoined
        .until("snapshot", |m| m["type"] == "snapshot")
        .await;
    rejoined
}

/// A small deterministic chooser (xorshift), so a failing game can be replayed.
pub struct Chooser(pub u64);

impl Chooser {
    /// An index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// One of the `legal` actions, `end_turn` one time in four when it is listed: ending turns
    /// early keeps capitals matches short.
    pub fn hurried(&mut self, legal: &[Value]) -> usize {
        let end = legal.iter().position(|a| a["type"] == "end_turn");
        match end {
            Some(end) if self.below(4) == 0 => end,
            _ => self.below(legal.len()),
        }
    }
}

/// Plays `steps` uniformly random legal actions (or to the end), chosen by `Chooser(seed)`;
/// see [`play`].
pub async fn play_at_random(
    players: &mut [Participant],
    watchers: &mut [&mut Participant],
    steps: usize,
    seed: u64,
) -> bool {
    let mut chooser = Chooser(seed);
    play(players, watchers, steps, &mut |legal| {
        chooser.below(legal.len())
    })
    .await
}

/// Plays `steps` actions (or to the end): the seat to act picks a legal action with `choose`,
/// and every other participant is brought up to date. Returns true once the match is over.
pub async fn play(
    players: &mut [Participant],
    watchers: &mut [&mut Participant],
    steps: usize,
    choose: &mut dyn FnMut(&[Value]) -> usize,
) -> bool {
    for _ in 0..steps {
        if players[0].outcome.is_some() {
            return true;
        }
        let to_act = players[0]
            .to_act
            .expect("someone is to act while the match runs");
        let actor = players
            .iter_mut()
            .find(|p| p.seat == Some(to_act))
            .expect("the seat to act is played");
        assert!(
            !actor.legal.is_empty(),
            "seat {to_act} is to act but lists no legal action"
        );
        let pick = choose(&actor.legal);
        let action = actor.legal[pick].clone();
        let id = format!("a{}", actor.seq + 1);
        let answer = actor.act(&id, &action).await;
        assert_eq!(
            answer["type"], "ack",
            "a listed legal action is accepted: {answer}"
        );
        let seq = answer["seq"].as_u64().expect("ack seq");
        for player in players.iter_mut() {
            player.reach(seq).await;
        }
        for watcher in watchers.iter_mut() {
            watcher.reach(seq).await;
        }
    }
    players[0].outcome.is_some()
}
