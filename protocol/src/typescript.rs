//! The TypeScript declarations of the wire types, generated from these Rust types with ts-rs,
//! for the web client's type check (`web-client/lib/protocol.gen.d.ts`).
//!
//! The types carry `#[cfg_attr(test, ...)]` attributes only, so ts-rs is a dev-dependency. Fields
//! of engine types and ruleset JSON are written out (`ts(type = ...)`), and `u64` counters are
//! declared `number` (JSON numbers), not the `bigint` ts-rs gives them by default. ts-rs reads
//! the serde attributes too; the two it cannot read (`transparent` on the id newtypes, which it
//! writes as their inner `string` anyway, and `deny_unknown_fields` on `ClientMsg`, whose tagging
//! is repeated in a `ts(...)` line) are ignored without a warning (`no-serde-warnings`).
//!
//! The test fails when the committed file is out of date; run it with
//! `WARROOM_UPDATE_BINDINGS=1 cargo test -p warroom-protocol typescript` to rewrite the file.

use ts_rs::{Config, TS};

use crate::{
    ActedBy, BotSeat, ChatChannel, ChatLine, ClientMsg, ClockChoice, ClockPreset, ClockSettings,
    ClockState, ErrorBody, GuestCreated, Health, Identity, IdentityId, Leaderboard,
    LeaderboardEntry, LegalGroup, MatchId, MatchPage, MatchResult, MatchSeat, MatchState,
    MatchSummary, Me, NewGuest, NewRoom, OpponentRecord, PlayerMatch, PlayerProfile, PlayerRatings,
    QuickPlay, QuickPlayRoom, RatingPoint, RatingSystem, Recover, RecoveryCode, ReferenceRating,
    Rematch, Rename, Replay, ReplayAction, Room, RoomId, RoomPage, RoomSettings, RoomState,
    RulesetInfo, RulesetRating, RulesetRecord, SeatInfo, SeatRange, SeatRating, ServerMsg,
    Takeover,
};

/// Where the client reads the declarations.
const OUTPUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../web-client/lib/protocol.gen.d.ts"
);

/// Every wire type, declared and exported, in a stable order.
fn declarations() -> String {
    let cfg = Config::new();
    let decls = [
        RoomId::decl(&cfg),
        MatchId::decl(&cfg),
        IdentityId::decl(&cfg),
        ErrorBody::decl(&cfg),
        Health::decl(&cfg),
        NewGuest::decl(&cfg),
        GuestCreated::decl(&cfg),
        Identity::decl(&cfg),
        SeatRange::decl(&cfg),
        ReferenceRating::decl(&cfg),
        RulesetInfo::decl(&cfg),
        ActedBy::decl(&cfg),
        BotSeat::decl(&cfg),
        Takeover::decl(&cfg),
        ClockSettings::decl(&cfg),
        ClockPreset::decl(&cfg),
        ClockChoice::decl(&cfg),
        ClockState::decl(&cfg),
        RoomSettings::decl(&cfg),
        NewRoom::decl(&cfg),
        RoomState::decl(&cfg),
        SeatInfo::decl(&cfg),
        Room::decl(&cfg),
        RoomPage::decl(&cfg),
        MatchState::decl(&cfg),
        MatchSeat::decl(&cfg),
        SeatRating::decl(&cfg),
        MatchSummary::decl(&cfg),
        ReplayAction::decl(&cfg),
        Replay::decl(&cfg),
        Me::decl(&cfg),
        Rename::decl(&cfg),
        RecoveryCode::decl(&cfg),
        Recover::decl(&cfg),
        RulesetRecord::decl(&cfg),
        PlayerProfile::decl(&cfg),
        MatchResult::decl(&cfg),
        PlayerMatch::decl(&cfg),
        MatchPage::decl(&cfg),
        QuickPlay::decl(&cfg),
        QuickPlayRoom::decl(&cfg),
        RatingSystem::decl(&cfg),
        LeaderboardEntry::decl(&cfg),
        Leaderboard::decl(&cfg),
        RatingPoint::decl(&cfg),
        OpponentRecord::decl(&cfg),
        RulesetRating::decl(&cfg),
        PlayerRatings::decl(&cfg),
        ChatChannel::decl(&cfg),
        ChatLine::decl(&cfg),
        Rematch::decl(&cfg),
        LegalGroup::decl(&cfg),
        ClientMsg::decl(&cfg),
        ServerMsg::decl(&cfg),
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
