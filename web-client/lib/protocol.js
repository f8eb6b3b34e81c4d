//! The wire shapes the client speaks (docs/PROTOCOL.md), named from protocol.gen.d.ts, which is
//! generated from the Rust types (protocol/src/typescript.rs) so the type check follows the
//! server. Ruleset-specific actions, events and views are `any` on the wire and are read by
//! each rulesets/<id>.js.

/**
 * @typedef {import('./protocol.gen').Identity} Identity
 * @typedef {import('./protocol.gen').GuestCreated} Guest
 * @typedef {import('./protocol.gen').ErrorBody} ErrorBody
 * @typedef {import('./protocol.gen').RulesetInfo} RulesetInfo
 * @typedef {import('./protocol.gen').SeatInfo} SeatInfo
 * @typedef {import('./protocol.gen').Room} Room
 * @typedef {import('./protocol.gen').RoomPage} RoomPage
 * @typedef {import('./protocol.gen').NewRoom} NewRoom
 * @typedef {import('./protocol.gen').MatchSummary} MatchSummary
 * @typedef {import('./protocol.gen').ReplayAction} ReplayAction
 * @typedef {import('./protocol.gen').Replay} Replay
 * @typedef {import('./protocol.gen').Me} Me
 * @typedef {import('./protocol.gen').RecoveryCode} RecoveryCode
 * @typedef {import('./protocol.gen').PlayerProfile} PlayerProfile
 * @typedef {import('./protocol.gen').RulesetRecord} RulesetRecord
 * @typedef {import('./protocol.gen').PlayerMatch} PlayerMatch
 * @typedef {import('./protocol.gen').MatchPage} MatchPage
 * @typedef {import('./protocol.gen').QuickPlayRoom} QuickPlayRoom
 * @typedef {import('./protocol.gen').ChatLine} ChatLine
 * @typedef {import('./protocol.gen').Rematch} Rematch
 * @typedef {import('./protocol.gen').ServerMsg} ServerMsg
 * @typedef {import('./protocol.gen').ClientMsg} ClientMsg
 * @typedef {{winner: number, reason: string}} Outcome
 */

export {};
