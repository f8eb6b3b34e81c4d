//! The wire shapes the client speaks (docs/PROTOCOL.md), as JSDoc types. Ruleset-specific
//! actions, events and views stay `any` here and are typed in each rulesets/<id>.js.

/**
 * @typedef {{id: string, name: string}} Identity
 * @typedef {Identity & {token: string}} Guest
 * @typedef {{code: string, message: string}} ErrorBody
 * @typedef {{id: string, seats: {min: number, max: number}, default_options: Record<string, any>}} RulesetInfo
 * @typedef {{seat: number, player: Identity | null, connected?: boolean}} SeatInfo
 * @typedef {{
 *   id: string, ruleset: string, options: Record<string, any>, private: boolean,
 *   invite_code?: string | null, state: 'waiting' | 'playing' | 'finished',
 *   seats: SeatInfo[], spectators: number, match_id: string | null, created_at: string,
 * }} Room
 * @typedef {{winner: number, reason: string}} Outcome
 * @typedef {{
 *   id: string, room_id: string, ruleset: string, options: Record<string, any>,
 *   seats: SeatInfo[], state: string, outcome: Outcome | null, started_at: string, finished_at: string | null,
 * }} MatchSummary
 * @typedef {{seq: number, seat: number, action: any, events: any[], view?: any, to_act?: number | null}} ReplayStep
 * @typedef {{
 *   match_id: string, ruleset: string, options: Record<string, any>, seats: SeatInfo[],
 *   seed_commitment: string, seed: string | null, initial_view: any, setup_events: any[],
 *   actions: ReplayStep[], outcome: Outcome | null,
 * }} Replay
 * @typedef {{type: 'welcome', identity: Identity | null}
 *   | {type: 'room', room: Room}
 *   | {type: 'snapshot', room: string, seq: number, seat: number | null, view: any, to_act: number | null, outcome: Outcome | null, seed_commitment?: string}
 *   | {type: 'applied', room: string, seq: number, seat: number, action: any, events: any[], view: any, to_act: number | null, outcome: Outcome | null}
 *   | {type: 'ack', room: string, id: string, seq: number}
 *   | {type: 'error', room?: string, id?: string, code: string, message: string}
 *   | {type: 'finished', room: string, outcome: Outcome, seed: string}
 *   | {type: 'pong'}} ServerMsg
 */

export {};
