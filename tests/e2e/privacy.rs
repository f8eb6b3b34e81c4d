//! End to end, privacy: a private room's match is seen only by its players, its creator and
//! holders of its invite, live and as a replay, running and finished: `GET /api/matches`,
//! `/api/matches/{id}`, `/replay`, players' pages and the socket.

use crate::common;

use serde_json::{Value, json};

use common::play::{Chooser, play, seat_players};
use common::{Client, Http, TestDb, TestServer};

on_both_databases! {
    private_match_is_hidden_from_strangers;
}

/// Ids in a list of match summaries (or a player's page).
fn ids(list: &Value) -> Vec<String> {
    let items = list
        .as_array()
        .or_else(|| list["matches"].as_array())
        .cloned()
        .unwrap_or_default();
    items
        .iter()
        .map(|item| {
            let summary = if item["match"].is_object() {
                &item["match"]
            } else {
                item
            };
            summary["id"].as_str().unwrap_or_default().to_owned()
        })
        .collect()
}

/// Asserts what `token` (and `invite`) may see of the match.
async fn check_visibility(
    http: Http,
    who: &str,
    token: Option<&str>,
    invite: Option<&str>,
    match_id: &str,
    player: &str,
    visible: bool,
) {
    let listings = [
        "/api/matches".to_owned(),
        format!("/api/matches?player={player}"),
        "/api/matches?state=playing".to_owned(),
        "/api/matches?state=finished".to_owned(),
        format!("/api/players/{player}/matches"),
    ];
    if invite.is_none() {
        for path in &listings {
            let (status, list) = http.get(path, token).await;
            assert_eq!(status, 200, "{who}: {path}: {list}");
            let listed = ids(&list).contains(&match_id.to_owned());
            let in_state = !path.contains("state=")
                || list.as_array().is_some_and(|l| {
                    l.iter()
                        .all(|m| path.ends_with(m["state"].as_str().unwrap_or("?")))
                });
            assert!(in_state, "{who}: {path}");
            if !path.contains("state=") {
                assert_eq!(listed, visible, "{who}: listed in {path}: {list}");
            } else if listed {
                assert!(visible, "{who}: listed in {path}: {list}");
            }
        }
    }
    let query = invite
        .map(|code| format!("?invite={code}"))
        .unwrap_or_default();
    for path in [
        format!("/api/matches/{match_id}{query}"),
        format!("/api/matches/{match_id}/replay{query}"),
    ] {
        let (status, body) = http.get(&path, token).await;
        if visible {
            assert_eq!(status, 200, "{who}: {path}: {body}");
        } else {
            assert_eq!(status, 404, "{who}: {path}: {body}");
            assert_eq!(body["code"], "match_not_found", "{who}: {path}");
        }
    }
}

async fn private_match_is_hidden_from_strangers(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(ada_id, ada), (_, bob), (_, cy)] = http.guests(["Ada", "Bob", "Cyd"]).await;
    let room = http
        .room(
            &ada,
            &json!({"ruleset": "hexdice", "seats": 2, "private": true}),
        )
        .await;
    let room_id = room["id"].as_str().unwrap().to_owned();
    let invite = room["invite_code"].as_str().unwrap().to_owned();
    let mut players = seat_players(
        server.addr,
        &room_id,
        Some(&invite),
        &[ada.clone(), bob.clone()],
    )
    .await;
    let mut chooser = Chooser(0x9111);
    play(&mut players, &mut [], 4, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    let (_, shown) = http.get(&format!("/api/rooms/{room_id}"), Some(&ada)).await;
    let match_id = shown["match_id"].as_str().expect("started").to_owned();
    // A public match beside it, to show the listings do list.
    let [(_, dee), (_, eve)] = http.guests(["Dee", "Eve"]).await;
    let public = http
        .room(&dee, &json!({"ruleset": "hexdice", "seats": 2}))
        .await;
    let public_id = public["id"].as_str().unwrap().to_owned();
    let _public_players = seat_players(server.addr, &public_id, None, &[dee, eve]).await;
    let (_, list) = http.get("/api/matches", None).await;
    assert_eq!(
        ids(&list).len(),
        1,
        "only the public match is listed: {list}"
    );

    // Live: strangers cannot follow it without the invite.
    let mut stranger = Client::connect(server.addr).await;
    stranger.hello(Some(&cy)).await;
    let answer = stranger.join(&room_id, None).await;
    assert_eq!(answer["code"], "invalid_invite", "{answer}");
    stranger.close().await;

    for finished in [false, true] {
        let stage = if finished { "finished" } else { "running" };
        // Who asks (bearer, invite) and whether the match is shown to them.
        for (who, bearer, code, visible) in [
            ("player", Some(ada.as_str()), None, true),
            ("other player", Some(bob.as_str()), None, true),
            ("stranger", Some(cy.as_str()), None, false),
            ("anonymous", None, None, false),
            ("invite holder", None, Some(invite.as_str()), true),
            (
                "wrong invite",
                Some(cy.as_str()),
                Some("0000000000000000"),
                false,
            ),
        ] {
            let label = format!("{stage}, {who}");
            check_visibility(http, &label, bearer, code, &match_id, &ada_id, visible).await;
        }
        if !finished {
            let over = play(&mut players, &mut [], 5_000, &mut |legal| {
                chooser.below(legal.len())
            })
            .await;
            assert!(over, "hexdice ends within 5000 actions");
        }
    }
    // The replay an invite holder sees is the spectator's.
    let (status, replay) = http
        .get(
            &format!("/api/matches/{match_id}/replay?invite={invite}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(replay["viewer"], "spectator", "{}", replay["viewer"]);
    assert!(replay["seed"].is_string(), "finished: the seed is revealed");
    server.stop().await;
}
