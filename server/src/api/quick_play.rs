//! `POST /api/quick-play`: "Play now". The bearer gets the oldest waiting public room of the
//! ruleset that fits, or a new one with the default options; the client then takes a seat in it
//! over the socket (and asks again if someone else took the last seat first: the room serving
//! it takes seats one at a time, so two players never get one seat).
//!
//! In cluster mode the rooms looked at are the newest waiting public rooms of the database
//! (wherever they are served, with the presence their nodes wrote), and quick plays of one
//! ruleset take turns cluster-wide (`store/quick_play.rs`): two players pressing "Play now" at
//! once on two nodes are sent to one room.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use warroom_protocol::{ErrorBody, Identity, NewRoom, QuickPlay, QuickPlayRoom, Room, RoomState};

use super::body::json;
use super::rooms::open_room;
use crate::error::ApiError;
use crate::openapi::{Refused, Unauthorized};
use crate::per_ip::ClientIp;
use crate::state::{AppState, Bearer};
use crate::store::LobbyQuery;

/// Finds or opens a room to play `ruleset` in now.
#[utoipa::path(
    post, path = "/api/quick-play", tag = "rooms", request_body = QuickPlay, security(("bearer" = [])),
    responses((status = 200, description = "a waiting room that fits", body = QuickPlayRoom), (status = 201, description = "no room fitted: a new one", body = QuickPlayRoom), Refused, Unauthorized, (status = 429, description = "`rate_limited`: too many rooms from this address (`--rooms-per-ip-per-minute`)", body = ErrorBody))
)]
pub async fn quick_play(
    State(state): State<AppState>,
    ip: ClientIp,
    Bearer(player): Bearer,
    body: Bytes,
) -> Result<(StatusCode, Json<QuickPlayRoom>), ApiError> {
    let request: QuickPlay = json(&body)?;
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
    if let Some(room) = pick(&rooms, &request, &player) {
        let room = room.clone();
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

/// The room quick play sends `player` to, among the public rooms: one it already waits in, else
/// the oldest waiting room of the ruleset (with the seat count asked for) that has a free seat
/// and in which everyone seated is present, so nobody is matched with a player who left.
fn pick<'a>(rooms: &'a [Room], request: &QuickPlay, player: &Identity) -> Option<&'a Room> {
    let waiting = rooms.iter().filter(|room| {
        room.state == RoomState::Waiting
            && room.ruleset == request.ruleset
            && request
                .seats
                .is_none_or(|seats| room.seats.len() == usize::from(seats))
    });
    let holds_seat = |room: &Room| {
        room.seats
            .iter()
            .any(|seat| seat.player.as_ref().is_some_and(|p| p.id == player.id))
    };
    if let Some(mine) = waiting.clone().find(|room| holds_seat(room)) {
        return Some(mine);
    }
    waiting
        .filter(|room| {
            room.seats.iter().any(|seat| seat.player.is_none())
                && room
                    .seats
                    .iter()
                    .all(|seat| seat.player.is_none() || seat.connected)
        })
        // RFC 3339 times of one format sort as text.
        .min_by(|a, b| a.created_at.cmp(&b.created_at))
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
        };
        assert_eq!(pick(&rooms, &three, &me), None);
    }
}
