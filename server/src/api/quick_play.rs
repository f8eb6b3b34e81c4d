//! `POST /api/quick-play`: "Play now". The bearer gets the oldest waiting public room of the
//! ruleset that fits, or a new one with the default options; the client then takes a seat in it
//! over the socket (and asks again if someone else took the last seat first: the room serving
//! it takes seats one at a time, so two players never get one seat).
//!
//! In cluster mode the rooms looked at are the newest waiting public rooms of the database
//! (wherever they are served, with the presence their nodes wrote), and quick plays of one
//! ruleset take turns cluster-wide (`store/quick_play.rs`): two players pressing "Play now" at
//! once on two nodes are sent to one room.
//!
//! Rated quick play (`"rated": true`, docs/RATINGS.md) looks only at rated rooms and picks by
//! strength (`ratings/matchmaking.rs`); casual quick play only at casual rooms.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use warroom_protocol::{
    ErrorBody, Identity, IdentityId, NewRoom, QuickPlay, QuickPlayRoom, Room, RoomState,
};

use super::body::json;
use super::rooms::open_room;
use crate::error::ApiError;
use crate::per_ip::ClientIp;
use crate::ratings::matchmaking::{Candidate, choose};
use crate::state::AppState;
use crate::store::LobbyQuery;

/// Finds or opens a room to play `ruleset` in now.
#[utoipa::path(
    post, path = "/api/quick-play", tag = "rooms", request_body = QuickPlay, security(("bearer" = [])),
    responses(
        (status = 200, description = "a waiting room that fits", body = QuickPlayRoom),
        (status = 201, description = "no room fitted: a new one", body = QuickPlayRoom),
        (status = 400, description = "`invalid_request` and the other codes of a refused request", body = ErrorBody),
        (status = 401, description = "`unauthorized`: a valid bearer token is required", body = ErrorBody),
        (status = 403, description = "`not_yet_rated`: rated quick play by an identity with too few finished matches (`--rated-min-matches`)", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many rooms opened from this address (`--rooms-per-ip-per-minute`)", body = ErrorBody)
    )
)]
pub async fn quick_play(
    State(state): State<AppState>,
    ip: ClientIp,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<QuickPlayRoom>), ApiError> {
    let player = state.required_identity(&headers).await?;
    let request: QuickPlay = json(&body)?;
    if request.rated {
        super::ratings::check_may_play_rated(&state, player.id).await?;
    }
    // Cluster mode: one quick play of the ruleset at a time across the nodes, held until the
    // room is picked or stored, so the next one finds it.
    let turn = match &state.cluster {
        Some(_) => Some(state.store.quick_play_turn(request.ruleset).await?),
        None => None,
    };
    let rooms = match turn {
        Some(_) => waiting_in_cluster(&state, &request).await?,
        None => state.rooms.public_rooms(),
    };
    let picked = if request.rated {
        pick_rated(&state, &rooms, &request, &player).await?
    } else {
        pick(&rooms, &request, &player).cloned()
    };
    if let Some(room) = picked {
        if let Some(turn) = turn {
            turn.end().await;
        }
        return Ok((
            StatusCode::OK,
            Json(QuickPlayRoom {
                room,
                created: false,
            }),
        ));
    }
    let room = open_room(
        &state,
        ip,
        &player,
        NewRoom {
            ruleset: request.ruleset,
            options: None,
            seats: request.seats,
            private: false,
            // The client takes a seat as it joins (`#/room/<id>?play=1`).
            creator_seat: None,
            bots: Vec::new(),
            bot_delay_ms: None,
            grace_seconds: None,
            clock: None,
            rated: request.rated,
        },
    )
    .await?;
    if let Some(turn) = turn {
        turn.end().await;
    }
    Ok((
        StatusCode::CREATED,
        Json(QuickPlayRoom {
            room,
            created: true,
        }),
    ))
}

/// How many of the newest waiting public rooms quick play looks at in cluster mode.
const CLUSTER_CANDIDATES: u32 = 100;

/// Cluster mode: the newest waiting public rooms of the ruleset with a free seat, wherever they
/// are served, from the database with their presence (`AppState::lobby_summaries`).
async fn waiting_in_cluster(state: &AppState, request: &QuickPlay) -> Result<Vec<Room>, ApiError> {
    let (records, _) = state
        .store
        .lobby_rooms(&LobbyQuery {
            state: Some(RoomState::Waiting),
            ruleset: Some(request.ruleset),
            open: true,
            before: None,
            limit: CLUSTER_CANDIDATES,
        })
        .await?;
    Ok(state.lobby_summaries(&records).await)
}

/// The waiting public rooms of the request's ruleset, seat count and kind (rated or casual),
/// and among them one `player` already waits in, if any.
fn waiting<'a>(
    rooms: &'a [Room],
    request: &QuickPlay,
    player: &Identity,
) -> (Vec<&'a Room>, Option<&'a Room>) {
    let waiting: Vec<&Room> = rooms
        .iter()
        .filter(|room| {
            room.state == RoomState::Waiting
                && room.ruleset == request.ruleset
                && room.rated == request.rated
                && request
                    .seats
                    .is_none_or(|seats| room.seats.len() == usize::from(seats))
        })
        .collect();
    let mine = waiting.iter().copied().find(|room| {
        room.seats
            .iter()
            .any(|seat| seat.player.as_ref().is_some_and(|p| p.id == player.id))
    });
    (waiting, mine)
}

/// A room with a free seat in which everyone seated is present, so nobody is matched with a
/// player who left.
fn open_to_join(room: &Room) -> bool {
    room.seats.iter().any(|seat| seat.player.is_none())
        && room
            .seats
            .iter()
            .all(|seat| seat.player.is_none() || seat.connected)
}

/// The room casual quick play sends `player` to, among the public rooms: one it already waits
/// in, else the oldest waiting casual room of the ruleset (with the seat count asked for) that
/// is open to join.
fn pick<'a>(rooms: &'a [Room], request: &QuickPlay, player: &Identity) -> Option<&'a Room> {
    let (waiting, mine) = waiting(rooms, request, player);
    if mine.is_some() {
        return mine;
    }
    waiting
        .into_iter()
        .filter(|room| open_to_join(room))
        // RFC 3339 times of one format sort as text.
        .min_by(|a, b| a.created_at.cmp(&b.created_at))
}

/// The room rated quick play sends `player` to: one it already waits in, else the waiting rated
/// room open to join whose players are closest to its rating within the room's window
/// (`ratings/matchmaking.rs`); `None`: a new room.
async fn pick_rated(
    state: &AppState,
    rooms: &[Room],
    request: &QuickPlay,
    player: &Identity,
) -> Result<Option<Room>, ApiError> {
    let (waiting, mine) = waiting(rooms, request, player);
    if let Some(mine) = mine {
        return Ok(Some(mine.clone()));
    }
    // At most 40 rooms of at most 6 seats: the ratings are read in one query.
    let open: Vec<&Room> = waiting
        .into_iter()
        .filter(|room| open_to_join(room))
        .take(40)
        .collect();
    let mut ids: Vec<IdentityId> = vec![player.id];
    ids.extend(
        open.iter()
            .flat_map(|room| room.seats.iter().filter_map(|seat| seat.player.as_ref()))
            .map(|p| p.id),
    );
    let ratings = state.store.shown_ratings(request.ruleset, &ids).await?;
    let mine = ratings.get(&player.id).copied().unwrap_or(1500);
    let now = std::time::SystemTime::now();
    let candidates: Vec<Candidate> = open
        .iter()
        .map(|room| {
            let seated: Vec<i64> = room
                .seats
                .iter()
                .filter_map(|seat| seat.player.as_ref())
                .map(|p| ratings.get(&p.id).copied().unwrap_or(mine))
                .collect();
            let average = if seated.is_empty() {
                mine
            } else {
                seated.iter().sum::<i64>() / seated.len() as i64
            };
            let waited = humantime::parse_rfc3339(&room.created_at)
                .ok()
                .and_then(|created| now.duration_since(created).ok())
                .unwrap_or_default();
            Candidate {
                gap: average.abs_diff(mine),
                waited,
            }
        })
        .collect();
    Ok(choose(&state.matchmaking, &candidates).map(|index| open[index].clone()))
}

#[cfg(test)]
mod tests {
    use warroom_engine::{RulesetId, Seat};
    use warroom_protocol::{IdentityId, RoomId, SeatInfo};

    use super::*;

    fn room(created_at: &str, seats: &[(Option<&Identity>, bool)]) -> Room {
        Room {
            id: RoomId::random(),
            ruleset: RulesetId::Hexdice,
            options: serde_json::Value::Null,
            settings: warroom_protocol::RoomSettings::default(),
            clock: None,
            private: false,
            rated: false,
            invite_code: None,
            state: RoomState::Waiting,
            seats: seats
                .iter()
                .enumerate()
                .map(|(seat, (player, connected))| SeatInfo {
                    seat: Seat(u8::try_from(seat).unwrap()),
                    player: player.cloned(),
                    connected: *connected,
                    bot: None,
                    takeover: None,
                })
                .collect(),
            spectators: 0,
            match_id: None,
            created_at: created_at.into(),
        }
    }

    fn someone(name: &str) -> Identity {
        Identity {
            id: IdentityId::random(),
            name: name.into(),
        }
    }

    #[test]
    fn quick_play_picks_the_oldest_fitting_room_with_everyone_present() {
        let (ada, bob, cyd) = (someone("Ada"), someone("Bob"), someone("Cyd"));
        let hexdice = QuickPlay {
            ruleset: RulesetId::Hexdice,
            seats: None,
            rated: false,
        };
        let newer = room(
            "2026-01-01T10:05:00.000Z",
            &[(Some(&ada), true), (None, false)],
        );
        let older = room(
            "2026-01-01T10:01:00.000Z",
            &[(Some(&bob), true), (None, false)],
        );
        let absent = room(
            "2026-01-01T10:00:00.000Z",
            &[(Some(&cyd), false), (None, false)],
        );
        let mut full = room(
            "2026-01-01T09:00:00.000Z",
            &[(Some(&ada), true), (Some(&bob), true)],
        );
        full.state = RoomState::Waiting;
        let mut other = older.clone();
        other.ruleset = RulesetId::Capitals;
        other.created_at = "2026-01-01T08:00:00.000Z".into();
        let rooms = vec![newer.clone(), older.clone(), absent, full, other];
        let me = someone("Dee");
        assert_eq!(pick(&rooms, &hexdice, &me).map(|r| r.id), Some(older.id));
        // Someone already waiting in a room is sent back to it.
        assert_eq!(pick(&rooms, &hexdice, &ada).map(|r| r.id), Some(newer.id));
        let three = QuickPlay {
            ruleset: RulesetId::Hexdice,
            seats: Some(3),
            rated: false,
        };
        assert_eq!(pick(&rooms, &three, &me), None);
    }
}
