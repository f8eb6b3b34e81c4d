//! A room's chat, sans-IO: checks a line (length, emptiness, control characters, each
//! speaker's rate), numbers it, says who may read it, and keeps the recent lines for those who
//! join later. The room stores each line (with its match and the seq it was said at) before
//! anyone reads it; nothing here does IO or reads a clock (the time comes in).
//!
//! Two channels: seated players speak in `players`, everyone else in `spectators`. Seated
//! players do not read `spectators` until the match is over, so watchers cannot pass them
//! information; spectators read both.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

use std::time::Instant;
use warroom_protocol::{ChatChannel, ChatLine, Identity, IdentityId, codes};

use crate::ConnId;
use crate::error::RoomError;

/// Longest line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// Lines a joining connection gets (the newest).
pub const HISTORY_LINES: usize = 100;
/// Lines one speaker may say within [`RATE_WINDOW`].
pub const RATE_LINES: usize = 5;
/// The window of the rate limit.
pub const RATE_WINDOW: Duration = Duration::from_secs(10);

/// Who reads a line: whether the reader holds a seat, and whose chat it muted.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    /// True for a seated player of the room.
    pub seated: bool,
    /// Whose chat it does not read (`None`: an anonymous spectator, who mutes no one).
    pub mutes: Option<&'a HashSet<IdentityId>>,
}

/// True when a reader may read `line` now (`match_over`: the room's match has ended).
pub fn may_read(line: &ChatLine, reader: &Reader<'_>, match_over: bool) -> bool {
    let channel_open = match line.channel {
        ChatChannel::Players => true,
        ChatChannel::Spectators => !reader.seated || match_over,
    };
    channel_open && !reader.mutes.is_some_and(|m| m.contains(&line.from.id))
}

/// Checks a line's text: trimmed, 1–[`MAX_CHAT_CHARS`] characters, no control characters.
pub fn check_text(text: &str) -> Result<String, RoomError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RoomError::bad_request(
            codes::CHAT_EMPTY,
            "say something: the line is empty",
        ));
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(RoomError::bad_request(
            codes::CHAT_TOO_LONG,
            format!("a line has at most {MAX_CHAT_CHARS} characters"),
        ));
    }
    if let Some(bad) = text.chars().find(|c| c.is_control()) {
        return Err(RoomError::bad_request(
            codes::CHAT_CONTROL_CHARACTERS,
            format!("a line may not contain control characters ({bad:?})"),
        ));
    }
    Ok(text.to_owned())
}

/// One room's chat.
#[derive(Debug)]
pub struct Chat {
    /// The id of the next line.
    next_id: u64,
    /// The newest lines, oldest first, at most [`HISTORY_LINES`].
    recent: VecDeque<ChatLine>,
    /// When each speaker's recent lines were said, for the rate limit.
    said: HashMap<IdentityId, VecDeque<Instant>>,
    /// Whose lines each following connection does not read.
    mutes: HashMap<ConnId, HashSet<IdentityId>>,
}

impl Default for Chat {
    /// A room nobody has said anything in yet.
    fn default() -> Chat {
        Chat::new(Vec::new())
    }
}

impl Chat {
    /// The chat of a room, over its stored lines (oldest first).
    pub fn new(stored: Vec<ChatLine>) -> Chat {
        let next_id = stored.last().map_or(1, |line| line.id + 1);
        let skip = stored.len().saturating_sub(HISTORY_LINES);
        Chat {
            next_id,
            recent: stored.into_iter().skip(skip).collect(),
            said: HashMap::new(),
            mutes: HashMap::new(),
        }
    }

    /// Connection `conn` does not read these identities' lines from now on.
    pub fn set_mutes(&mut self, conn: ConnId, muted: Vec<IdentityId>) {
        self.mutes.insert(conn, muted.into_iter().collect());
    }

    /// Whose lines `conn` does not read.
    pub fn mutes_of(&self, conn: ConnId) -> Option<&HashSet<IdentityId>> {
        self.mutes.get(&conn)
    }

    /// Connection `conn` follows the room no more.
    pub fn forget(&mut self, conn: ConnId) {
        self.mutes.remove(&conn);
    }

    /// Checks what `speaker` says and makes it the next line (said at `seq`, `at_ms` Unix
    /// milliseconds); the room stores it, then calls [`Chat::stored`]. `seated` picks the
    /// channel.
    pub fn line(
        &mut self,
        speaker: &Identity,
        seated: bool,
        text: &str,
        seq: u64,
        at_ms: i64,
        now: Instant,
    ) -> Result<ChatLine, RoomError> {
        let text = check_text(text)?;
        let said = self.said.entry(speaker.id).or_default();
        while said
            .front()
            .is_some_and(|&at| now.saturating_duration_since(at) >= RATE_WINDOW)
        {
            said.pop_front();
        }
        if said.len() >= RATE_LINES {
            return Err(RoomError::new(
                crate::error::ErrorKind::TooMany,
                codes::CHAT_RATE_LIMITED,
                format!(
                    "at most {RATE_LINES} lines every {} seconds",
                    RATE_WINDOW.as_secs()
                ),
            ));
        }
        said.push_back(now);
        let line = ChatLine {
            id: self.next_id,
            seq,
            channel: if seated {
                ChatChannel::Players
            } else {
                ChatChannel::Spectators
            },
            from: speaker.clone(),
            text,
            at: crate::records::rfc3339(at_ms),
        };
        self.next_id += 1;
        Ok(line)
    }

    /// A line is stored: keep it for those who join later.
    pub fn stored(&mut self, line: ChatLine) {
        self.recent.push_back(line);
        while self.recent.len() > HISTORY_LINES {
            self.recent.pop_front();
        }
    }

    /// A line could not be stored: its id is free again (lines are made one at a time).
    pub fn not_stored(&mut self, line: &ChatLine) {
        if line.id + 1 == self.next_id {
            self.next_id = line.id;
        }
    }

    /// The recent lines `reader` may read, oldest first.
    pub fn history(&self, reader: &Reader<'_>, match_over: bool) -> Vec<ChatLine> {
        self.recent
            .iter()
            .filter(|line| may_read(line, reader, match_over))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use warroom_protocol::IdentityId;

    use super::*;

    fn someone(name: &str) -> Identity {
        Identity {
            id: IdentityId::random(),
            name: name.into(),
        }
    }

    #[test]
    fn lines_are_checked_with_codes() {
        assert_eq!(check_text("  gg  ").unwrap(), "gg");
        let code = |text: &str| check_text(text).unwrap_err().code;
        assert_eq!(code(""), codes::CHAT_EMPTY);
        assert_eq!(code(" \t "), codes::CHAT_EMPTY);
        assert_eq!(code(&"x".repeat(MAX_CHAT_CHARS + 1)), codes::CHAT_TOO_LONG);
        assert!(check_text(&"é".repeat(MAX_CHAT_CHARS)).is_ok());
        assert_eq!(code("a\u{7}b"), codes::CHAT_CONTROL_CHARACTERS);
        assert_eq!(code("two\nlines"), codes::CHAT_CONTROL_CHARACTERS);
        // Markup is just text: the client shows it as text.
        assert!(check_text("<img src=x onerror=alert(1)>").is_ok());
    }

    #[test]
    fn each_speaker_has_a_rate_limit_that_time_restores() {
        let mut chat = Chat::new(Vec::new());
        let (ada, bob) = (someone("Ada"), someone("Bob"));
        let start = Instant::now();
        for n in 0..RATE_LINES {
            let line = chat.line(&ada, true, "hi", 0, 0, start).unwrap();
            assert_eq!(line.id, n as u64 + 1);
            chat.stored(line);
        }
        let refused = chat.line(&ada, true, "hi", 0, 0, start).unwrap_err();
        assert_eq!(refused.code, codes::CHAT_RATE_LIMITED);
        // Another speaker is not limited by Ada.
        assert!(chat.line(&bob, false, "hello", 0, 0, start).is_ok());
        assert!(
            chat.line(&ada, true, "again", 0, 0, start + RATE_WINDOW)
                .is_ok()
        );
    }

    #[test]
    fn players_read_the_spectators_only_after_the_end() {
        let mut chat = Chat::new(Vec::new());
        let (ada, sam) = (someone("Ada"), someone("Sam"));
        let now = Instant::now();
        let from_player = chat.line(&ada, true, "my move", 3, 0, now).unwrap();
        let from_spectator = chat.line(&sam, false, "attack left!", 3, 0, now).unwrap();
        assert_eq!(from_player.channel, ChatChannel::Players);
        assert_eq!(from_spectator.channel, ChatChannel::Spectators);
        chat.stored(from_player);
        chat.stored(from_spectator);
        let player = Reader {
            seated: true,
            mutes: None,
        };
        let spectator = Reader {
            seated: false,
            mutes: None,
        };
        let texts = |lines: Vec<ChatLine>| lines.into_iter().map(|l| l.text).collect::<Vec<_>>();
        assert_eq!(texts(chat.history(&player, false)), ["my move"]);
        assert_eq!(
            texts(chat.history(&spectator, false)),
            ["my move", "attack left!"]
        );
        assert_eq!(
            texts(chat.history(&player, true)),
            ["my move", "attack left!"]
        );
    }

    #[test]
    fn a_muted_speaker_is_not_read() {
        let mut chat = Chat::new(Vec::new());
        let (ada, bob) = (someone("Ada"), someone("Bob"));
        let now = Instant::now();
        for (who, text) in [(&ada, "hi"), (&bob, "spam")] {
            let line = chat.line(who, true, text, 0, 0, now).unwrap();
            chat.stored(line);
        }
        let conn = 7;
        chat.set_mutes(conn, vec![bob.id]);
        let read = |chat: &Chat| {
            let reader = Reader {
                seated: true,
                mutes: chat.mutes_of(conn),
            };
            chat.history(&reader, false)
        };
        let lines = read(&chat);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].from.id, ada.id);
        chat.set_mutes(conn, Vec::new());
        assert_eq!(read(&chat).len(), 2);
        chat.set_mutes(conn, vec![bob.id]);
        chat.forget(conn);
        assert_eq!(read(&chat).len(), 2, "a connection gone mutes no one");
    }

    #[test]
    fn a_rebuilt_chat_continues_the_numbering_and_keeps_the_newest() {
        let ada = someone("Ada");
        let stored: Vec<ChatLine> = (1..=HISTORY_LINES as u64 + 20)
            .map(|id| ChatLine {
                id,
                seq: 0,
                channel: ChatChannel::Players,
                from: ada.clone(),
                text: format!("line {id}"),
                at: String::new(),
            })
            .collect();
        let mut chat = Chat::new(stored);
        let reader = Reader {
            seated: true,
            mutes: None,
        };
        let history = chat.history(&reader, false);
        assert_eq!(history.len(), HISTORY_LINES);
        assert_eq!(history[0].id, 21);
        let next = chat.line(&ada, true, "next", 0, 0, Instant::now()).unwrap();
        assert_eq!(next.id, HISTORY_LINES as u64 + 21);
        chat.not_stored(&next);
        let again = chat.line(&ada, true, "next", 0, 0, Instant::now()).unwrap();
        assert_eq!(again.id, next.id, "an unstored line's id is reused");
    }
}
