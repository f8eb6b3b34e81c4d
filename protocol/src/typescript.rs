//! The TypeScript declarations of the wire types, generated from these Rust types with ts-rs,
//! for the web client's type check (`web-client/lib/protocol.gen.d.ts`).
//!
//! The types carry `#[cfg_attr(test, ...)]` attributes only, so ts-rs is a dev-dependency. Fields
//! of engine types and ruleset JSON are written out (`ts(type = ...)`), and `u64` counters are
//! declared `number` (JSON numbers), not the `bigint` ts-rs gives them by default.
//!
//! The test fails when the committed file is out of date; run it with
//! `WARROOM_UPDATE_BINDINGS=1 cargo test -p warroom-protocol typescript` to rewrite the file.

use ts_rs::TS;

use crate::{
    ActedBy, BotSeat, ChatChannel, ChatLine, ClientMsg, ClockChoice, ClockPreset, ClockSettings,
    ClockState, ErrorBody, GuestCreated, Health, Identity, IdentityId, LegalGroup, MatchId,
    MatchPage, MatchResult, MatchSeat, MatchState, MatchSummary, Me, NewGuest, NewRoom,
    PlayerMatch, PlayerProfile, QuickPlay, QuickPlayRoom, Recover, RecoveryCode, Rematch, Rename,
    Replay, ReplayAction, Room, RoomId, RoomPage, RoomSettings, RoomState, RulesetInfo,
    RulesetRecord, SeatInfo, SeatRange, ServerMsg, Takeover,
};

/// Where the client reads the declarations.
const OUTPUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../web-client/lib/protocol.gen.d.ts"
);

/// Every wire type, declared and exported, in a stable order.
fn declarations() -> String {
    let decls = [
        RoomId::decl(),
        MatchId::decl(),
        IdentityId::decl(),
        ErrorBody::decl(),
        Health::decl(),
        NewGuest::decl(),
        GuestCreated::decl(),
        Identity::decl(),
        SeatRange::decl(),
        RulesetInfo::decl(),
        ActedBy::decl(),
        BotSeat::decl(),
        Takeover::decl(),
        ClockSettings::decl(),
        ClockPreset::decl(),
        ClockChoice::decl(),
        ClockState::decl(),
        RoomSettings::decl(),
        NewRoom::decl(),
        RoomState::decl(),
        SeatInfo::decl(),
        Room::decl(),
        RoomPage::decl(),
        MatchState::decl(),
        MatchSeat::decl(),
        MatchSummary::decl(),
        ReplayAction::decl(),
        Replay::decl(),
        Me::decl(),
        Rename::decl(),
        RecoveryCode::decl(),
        Recover::decl(),
        RulesetRecord::decl(),
        PlayerProfile::decl(),
        MatchResult::decl(),
        PlayerMatch::decl(),
        MatchPage::decl(),
        QuickPlay::decl(),
        QuickPlayRoom::decl(),
        ChatChannel::decl(),
        ChatLine::decl(),
        Rematch::decl(),
        LegalGroup::decl(),
        ClientMsg::decl(),
        ServerMsg::decl(),
    ];
    let mut out = String::from(
        "// Generated from protocol/src by protocol/src/typescript.rs (ts-rs). Do not edit:\n\
         // WARROOM_UPDATE_BINDINGS=1 cargo test -p warroom-protocol typescript\n\n",
    );
    for decl in decls {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out
}

#[test]
fn typescript_declarations_are_up_to_date() {
    let fresh = declarations();
    if std::env::var_os("WARROOM_UPDATE_BINDINGS").is_some() {
        std::fs::write(OUTPUT, &fresh).expect("write the TypeScript declarations");
        return;
    }
    let committed = std::fs::read_to_string(OUTPUT).unwrap_or_default();
    assert!(
        committed == fresh,
        "{OUTPUT} is out of date with the protocol types; run \
         WARROOM_UPDATE_BINDINGS=1 cargo test -p warroom-protocol typescript"
    );
}
