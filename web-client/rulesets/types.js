//! The shape every ruleset's UI module has (rulesets/<id>.js), so the room and replay screens
//! stay ruleset-agnostic: option fields for the lobby, a play controller, events in words, dice.

/**
 * @typedef {import('../lib/board.js').Decoration} Decoration
 * @typedef {import('../lib/board.js').Arrow} Arrow
 * @typedef {import('../lib/protocol.js').Outcome} Outcome
 *
 * @typedef {{
 *   key: string,
 *   kind: 'select', values: string[],
 * } | {
 *   key: string,
 *   kind: 'number', min: number, max: number,
 * } | {
 *   key: string,
 *   kind: 'json',
 * } | {
 *   key: string,
 *   kind: 'preset', presets: {label: string, value: any}[],
 * }} OptionField
 *
 * What the screen knows when a ruleset draws a frame.
 * @typedef {{
 *   view: any,
 *   seat: number | null,
 *   toAct: number | null,
 *   outcome: Outcome | null,
 *   names: string[],
 *   lastEvents: any[],
 *   interactive: boolean,
 * }} PlayState
 *
 * @typedef {{act: (action: any) => void, rerender: () => void}} PlayContext
 *
 * @typedef {{
 *   decorate: (id: number) => Decoration,
 *   arrows: Arrow[],
 *   controls: Node[],
 *   prompt: string | null,
 *   links?: [number, number][],
 * }} Frame
 *
 * @typedef {{
 *   click: (id: number, state: PlayState) => void,
 *   frame: (state: PlayState) => Frame,
 *   reset: () => void,
 * }} Controller
 *
 * @typedef {{label: string, dice: number[], seat?: number | null, caps?: number[]}} DiceRoll
 *
 * @typedef {{
 *   id: string,
 *   fields: (defaults: Record<string, any>) => OptionField[],
 *   controller: (ctx: PlayContext) => Controller,
 *   describe: (event: any, names: string[], view: any) => string | null,
 *   dice: (event: any, names: string[]) => DiceRoll[],
 *   seatSummary: (view: any, seat: number) => string,
 *   advance: (view: any, events: any[]) => any,
 * }} RulesetUi
 *
 * `advance` returns the view after `events` (a new object), folding the events into the board
 * as the engine did: replays use it for steps that come without a view of their own.
 */

export {};
