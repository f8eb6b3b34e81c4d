//! End to end: whole matches played by WebSocket clients to their end, spectated, fetched as
//! replays over REST and rechecked with `warroom verify`; hidden cards never reach anyone else.

mod common;

use std::process::Command;

use serde_json::{Value, json};

use common::play::{Chooser, play, seat_everyone};
use common::{TestDb, TestServer};

on_both_databases! {
    hexdice_match_is_played_to_the_end_and_verified => hexdice_match_is_played_to_the_end_and_verified;
}

/// Runs `warroom verify` on a replay; returns (exit success, output).
pub fn verify(replay: &Value) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("warroom-replay-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&path, replay.to_string()).expect("write replay");
    let output = Command::new(env!("CARGO_BIN_EXE_warroom"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("run warroom verify");
    let _ = std::fs::remove_file(&path);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

async fn hexdice_match_is_played_to_the_end_and_verified(db: TestDb) {
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (room, mut players, mut spectator) =
        seat_everyone(http, server.addr, "hexdice", json!({}), 2).await;
    let snapshot = spectator
        .client
        .received
        .iter()
        .find(|m| m["type"] == "snapshot")
        .unwrap()
        .clone();
    let commitment = snapshot["seed_commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);
    assert!(
        snapshot.get("seed").is_none(),
        "the seed stays secret while the match runs"
    );

    let mut chooser = Chooser(0x5eed);
    let over = play(&mut players, &mut [&mut spectator], 5_000, &mut |legal| {
        chooser.below(legal.len())
    })
    .await;
    assert!(over, "hexdice ends within 5000 actions");
    let last_seq = players[0].seq;
    for participant in players.iter_mut().chain([&mut spectator]) {
        let finished = participant.finished().await;
        let seed = finished["seed"].as_str().unwrap();
        assert_eq!(
            hex_sha256(seed),
            commitment,
            "the revealed seed matches the commitment published at the start"
        );
        assert_eq!(
            participant.applied_seqs,
            (1..=last_seq).collect::<Vec<_>>(),
            "every action is seen once, in order"
        );
    }

    let (status, room_json) = http.get(&format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(room_json["state"], "finished");
    let match_id = room_json["match_id"].as_str().unwrap().to_owned();
    let player0 = players[0].token.clone().unwrap();
    let (_, me) = http.get("/api/me", Some(&player0)).await;
    let (status, listed) = http
        .get(
            &format!(
                "/api/matches?player={}&ruleset=hexdice&state=finished",
                me["id"].as_str().unwrap()
            ),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    let (status, summary) = http.get(&format!("/api/matches/{match_id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(summary["state"], "finished");
    assert_eq!(summary["actions"].as_u64(), Some(last_seq));
    assert_eq!(summary["outcome"], players[0].outcome.clone().unwrap());

    let (status, replay) = http
        .get(&format!("/api/matches/{match_id}/replay"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(replay["seed_commitment"], commitment);
    assert_eq!(replay["actions"].as_array().unwrap().len() as u64, last_seq);
    let (ok, output) = verify(&replay);
    assert!(ok, "verify accepts the replay: {output}");
    assert!(output.starts_with("ok"), "{output}");

    // A forged die is caught, and the first difference is named.
    let mut forged = replay.clone();
    let forged_at = forge_a_die(&mut forged).expect("a hexdice match rolls dice");
    let (ok, output) = verify(&forged);
    assert!(!ok, "verify refuses a forged replay");
    assert!(output.contains(&format!("action #{forged_at}")), "{output}");
    server.stop().await;
}

/// Changes the first die value found in an action's events; returns that action's seq.
fn forge_a_die(replay: &mut Value) -> Option<u64> {
    fn bump(value: &mut Value) -> bool {
        match value {
            Value::Object(map) => {
                for (key, field) in map.iter_mut() {
                    if (key.contains("roll") || key == "value" || key.contains("dice"))
                        && let Some(n) = field.as_u64()
                    {
                        *field = json!(if n == 1 { 2 } else { 1 });
                        return true;
                    }
                    if bump(field) {
                        return true;
                    }
                }
                false
            }
            Value::Array(items) => items.iter_mut().any(bump),
            _ => false,
        }
    }
    for action in replay["actions"].as_array_mut()? {
        let seq = action["seq"].as_u64()?;
        if bump(&mut action["events"]) {
            return Some(seq);
        }
    }
    None
}

fn hex_sha256(seed_hex: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(hex::decode(seed_hex).unwrap()))
}
