//! End to end: lasting names (unique whatever their case, renamed), recovery codes that take an
//! identity onto another device, and a player's page: record per ruleset and the match list,
//! filtered and paginated, private matches shown only to their players.

use crate::common;

use std::collections::HashSet;

use serde_json::{Value, json};

use common::play::{Chooser, Participant, play, seat_players};
use common::{Http, TestDb, TestServer};

on_both_databases! {
    rename_conflict_is_refused_whatever_the_case;
    recovery_code_takes_the_identity_to_another_device;
    player_match_list_is_paginated_and_filtered;
}

async fn rename_conflict_is_refused_whatever_the_case(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(ada_id, ada), (_, bob)] = http.guests(["Ada", "Bob"]).await;

    http.post_refused(
        "/api/guests",
        None,
        &json!({"name": "aDA"}),
        409,
        "name_taken",
    )
    .await;
    for bad in [
        "Al",
        "  x ",
        "<img src=x onerror=alert(1)>",
        &"y".repeat(25),
    ] {
        http.post_refused(
            "/api/guests",
            None,
            &json!({"name": bad}),
            400,
            "invalid_name",
        )
        .await;
    }

    let (status, body) = rename(http, Some(&bob), "ADA").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("name_taken")),
        "{body}"
    );
    assert!(!body["message"].as_str().unwrap().is_empty());
    let (_, me) = http.get("/api/me", Some(&bob)).await;
    assert_eq!(me["name"], "Bob", "a refused rename changes nothing");

    // One's own name in another case is not a conflict; spaces are tidied.
    let (status, me) = rename(http, Some(&ada), "  ADA ").await;
    assert_eq!((status, me["name"].as_str()), (200, Some("ADA")), "{me}");
    let (status, me) = rename(http, Some(&bob), "Robert  the   Bold").await;
    assert_eq!(
        (status, me["name"].as_str()),
        (200, Some("Robert the Bold")),
        "{me}"
    );
    // The old name is free again.
    let (status, _) = http
        .post("/api/guests", None, &json!({"name": "bob"}))
        .await;
    assert_eq!(status, 201);

    let (status, found) = http
        .get("/api/players?name=robert%20THE%20bold", None)
        .await;
    assert_eq!(
        (status, found["name"].as_str()),
        (200, Some("Robert the Bold"))
    );
    let (status, found) = http.get(&format!("/api/players/{ada_id}"), None).await;
    assert_eq!((status, found["name"].as_str()), (200, Some("ADA")));
    assert_eq!(found["records"], json!([]));
    http.get_refused("/api/players?name=nobody", None, 404, "player_not_found")
        .await;

    let (status, body) = rename(http, Some(&ada), "no").await;
    assert_eq!((status, body["code"].as_str()), (400, Some("invalid_name")));
    let (status, body) = rename(http, None, "Nobody").await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    let (status, body) = http
        .request("PATCH", "/api/me", Some(&ada), Some(&json!({"nom": "x"})))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_request"))
    );
    server.stop().await;
}

async fn rename(http: Http, token: Option<&str>, name: &str) -> (u16, Value) {
    http.request("PATCH", "/api/me", token, Some(&json!({"name": name})))
        .await
}

async fn recovery_code_takes_the_identity_to_another_device(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ada_id, first_device) = http.guest("Ada").await;
    let (_, me) = http.get("/api/me", Some(&first_device)).await;
    assert_eq!(me["recovery_created_at"], Value::Null);

    let (status, recovery) = http
        .post("/api/me/recovery", Some(&first_device), &json!({}))
        .await;
    assert_eq!(status, 201, "{recovery}");
    let code = recovery["code"].as_str().unwrap().to_owned();
    let (_, me) = http.get("/api/me", Some(&first_device)).await;
    assert_eq!(me["recovery_created_at"], recovery["created_at"]);

    // Typed by hand on another device: lower case, spaces for dashes.
    let typed = code.to_lowercase().replace('-', " ");
    let (status, second) = http
        .post("/api/recover", None, &json!({"code": typed}))
        .await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(
        (second["id"].as_str(), second["name"].as_str()),
        (Some(ada_id.as_str()), Some("Ada"))
    );
    let second_device = second["token"].as_str().unwrap().to_owned();
    assert_ne!(second_device, first_device);
    for token in [&first_device, &second_device] {
        let (status, me) = http.get("/api/me", Some(token)).await;
        assert_eq!(
            (status, me["id"].as_str()),
            (200, Some(ada_id.as_str())),
            "both devices keep the identity"
        );
    }
    // The socket knows the second device as Ada too.
    let mut socket = server.client(None).await;
    let welcome = socket.hello(Some(&second_device)).await;
    assert_eq!(welcome["identity"]["id"], ada_id.as_str());

    // A new code replaces the old one.
    let (_, newer) = http
        .post("/api/me/recovery", Some(&second_device), &json!({}))
        .await;
    assert_ne!(newer["code"], recovery["code"]);
    http.post_refused(
        "/api/recover",
        None,
        &json!({"code": code}),
        401,
        "invalid_recovery_code",
    )
    .await;
    for garbage in [
        "",
        "AAAAA",
        "not a code at all, really not",
        "ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ",
    ] {
        http.post_refused(
            "/api/recover",
            None,
            &json!({"code": garbage}),
            401,
            "invalid_recovery_code",
        )
        .await;
    }
    http.post_refused("/api/me/recovery", None, &json!({}), 401, "unauthorized")
        .await;
    server.stop().await;
}

/// Opens a hexdice room (`private` or not) as the first token and seats the tokens in order.
async fn hexdice_room(server: &TestServer, tokens: &[String], private: bool) -> Vec<Participant> {
    let room = server
        .http()
        .room(
            &tokens[0],
            &json!({"ruleset": "hexdice", "seats": 2, "private": private}),
        )
        .await;
    seat_players(
        server.addr,
        room["id"].as_str().unwrap(),
        room["invite_code"].as_str(),
        tokens,
    )
    .await
}

async fn player_match_list_is_paginated_and_filtered(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let [(ada_id, ada), (_, bob), (_, cyd)] = http.guests(["Ada", "Bob", "Cyd"]).await;

    // Three finished public matches (seats swapped each time), one public match still playing,
    // one private match still playing.
    let mut chooser = Chooser(0x1157);
    for round in 0..3 {
        let tokens = if round % 2 == 0 {
            [ada.clone(), bob.clone()]
        } else {
            [bob.clone(), ada.clone()]
        };
        let mut players = hexdice_room(&server, &tokens, false).await;
        let over = play(&mut players, &mut [], 5_000, &mut |legal| {
            chooser.below(legal.len())
        })
        .await;
        assert!(over, "hexdice match {round} ends");
    }
    let _public_playing = hexdice_room(&server, &[ada.clone(), bob.clone()], false).await;
    let _private_playing = hexdice_room(&server, &[cyd.clone(), ada.clone()], true).await;

    // Ada sees all five of her matches, two per page, newest first, none twice.
    let base = format!("/api/players/{ada_id}/matches");
    let mut seen = Vec::new();
    let mut starts = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let path = match &cursor {
            Some(before) => format!("{base}?limit=2&before={before}"),
            None => format!("{base}?limit=2"),
        };
        let (status, page) = http.get(&path, Some(&ada)).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["total"], 5);
        pages += 1;
        for entry in page["matches"].as_array().unwrap() {
            seen.push(entry["match"]["id"].as_str().unwrap().to_owned());
            starts.push(entry["match"]["started_at"].as_str().unwrap().to_owned());
            let seat = entry["seat"].as_u64().unwrap() as usize;
            assert_eq!(
                entry["match"]["seats"][seat]["player"]["id"],
                ada_id.as_str()
            );
        }
        match page["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(seen.len(), 5);
    assert_eq!(
        seen.iter().collect::<HashSet<_>>().len(),
        5,
        "no match twice"
    );
    assert!(
        starts.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {starts:?}"
    );

    // Anyone else does not see the private match.
    let (_, page) = http.get(&base, None).await;
    assert_eq!(page["total"], 4);
    let (_, page) = http.get(&base, Some(&bob)).await;
    assert_eq!(page["total"], 4);
    let (_, page) = http.get(&base, Some(&cyd)).await;
    assert_eq!(
        page["total"], 5,
        "a fellow player of the private match sees it"
    );

    // Filters: won + lost = the finished matches, each entry saying so.
    let mut finished = 0;
    let mut counts = serde_json::Map::new();
    for result in ["won", "lost", "playing"] {
        let (status, page) = http
            .get(&format!("{base}?result={result}"), Some(&ada))
            .await;
        assert_eq!(status, 200);
        for entry in page["matches"].as_array().unwrap() {
            assert_eq!(entry["result"], result);
            let seat = entry["seat"].clone();
            let winner = entry["match"]["outcome"]["winner"].clone();
            match result {
                "won" => assert_eq!(winner, seat),
                "lost" => assert_ne!(winner, seat),
                _ => assert_eq!(entry["match"]["state"], "playing"),
            }
        }
        if result != "playing" {
            finished += page["total"].as_u64().unwrap();
        }
        counts.insert(result.into(), page["total"].clone());
    }
    assert_eq!(finished, 3);
    assert_eq!(counts["playing"], 2);
    // The casual-first rule counts her finished matches, and no further than it needs.
    let store = common::db::store(&db).await;
    let ada_identity = ada_id.parse().unwrap();
    assert_eq!(store.finished_matches(ada_identity, 10).await.unwrap(), 3);
    assert_eq!(store.finished_matches(ada_identity, 2).await.unwrap(), 2);
    assert_eq!(store.finished_matches(ada_identity, 0).await.unwrap(), 0);
    let (_, page) = http
        .get(&format!("{base}?ruleset=capitals"), Some(&ada))
        .await;
    assert_eq!(
        (
            page["total"].as_u64(),
            page["matches"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    let (_, page) = http
        .get(
            &format!("{base}?ruleset=hexdice&result=lost&limit=100"),
            Some(&ada),
        )
        .await;
    assert_eq!(page["total"], counts["lost"]);

    // The record per ruleset agrees with the list.
    let (_, profile) = http.get(&format!("/api/players/{ada_id}"), None).await;
    assert_eq!(
        profile["records"],
        json!([{"ruleset": "hexdice", "played": 3, "won": counts["won"], "lost": counts["lost"], "playing": 2}])
    );

    for bad in [
        "result=draw",
        "limit=0",
        "limit=101",
        "limit=x",
        "before=garbage",
        "ruleset=chess",
    ] {
        http.get_refused(&format!("{base}?{bad}"), None, 400, "invalid_request")
            .await;
    }
    http.get_refused(
        &format!("/api/players/{}/matches", uuid::Uuid::new_v4()),
        None,
        404,
        "player_not_found",
    )
    .await;
    server.stop().await;
}
