//! `warroom verify <replay.json>`: reads a replay, recomputes it with its ruleset from the
//! revealed seed, and reports whether every event, every step's board and the result match.

use std::path::Path;

use warroom_protocol::Replay;

use crate::runner::{VerifyReport, rules};

/// Verifies the replay in `path`; `Err` when it cannot even be read.
pub fn verify_file(path: &Path) -> anyhow::Result<VerifyReport> {
    let text = std::fs::read_to_string(path)?;
    let replay: Replay = serde_json::from_str(&text)?;
    verify_replay(&replay)
}

/// Verifies a parsed replay.
pub fn verify_replay(replay: &Replay) -> anyhow::Result<VerifyReport> {
    let rules = rules(replay.ruleset)
        .ok_or_else(|| anyhow::anyhow!("this build does not know ruleset {}", replay.ruleset))?;
    Ok(rules.verify(replay))
}
