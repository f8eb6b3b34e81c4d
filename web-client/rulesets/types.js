//! The shape every ruleset's UI module has (rulesets/<id>.js), so the room and replay screens
//! stay ruleset-agnostic: option fields for the lobby, a play controller, events in words, dice.

/**
 * @typedef {import('../lib/board.js').Decoration} Decoration
 * @typedef {import('../lib/board.js').Arrow} Arrow
 * @typedef {import('../lib/protocol.js').Outcome} Outcome
 *
 * @typedef {{
 *   key: string,
 *   kind: 'select', values: string[], preferred?: string,
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
 *   legal: any[] | null,
 *   interactive: boolean,
 * }} PlayState
 *
 * `legal` is the server's list of what the seat to act may send now (docs/PROTOCOL.md,
 * `legal`, written out), when this client is that seat.
 *
 * @typedef {{act: (action: any) => void, rerender: () => void}} PlayContext
 *
 * @typedef {{
 *   decorate: (id: number) => Decoration,
 *   arrows: Arrow[],
 *   controls: Node[],
 *   prompt: string | null,
 *   links?: [number, number][],
 *   extra?: Node[],
 *   overlay?: {shown: boolean, groups: {name: string, regions: number[], labelAt: number}[]},
 * }} Frame
 *
 * `extra` is drawn under the controls for everyone (e.g. dice still to place, a legend);
 * `overlay` outlines groups of regions (classic's continents) when `shown`.
 * A select field's `preferred` value is offered first, before the server's default.
 *
 * @typedef {{
 *   click: (id: number, state: PlayState) => void,
 *   frame: (state: PlayState) => Frame,
 *   reset: () => void,
 * }} Controller
 *
 * @typedef {{attack: number, defence: number, winner: 'attacker' | 'defender', attackerSeat?: number | null, defenderSeat?: number | null}} DicePair
 * @typedef {{
 *   label: string, dice: number[], seat?: number | null, caps?: (number | undefined)[],
 *   kinds?: string[], total?: number, pairs?: DicePair[],
 * }} DiceRoll
 *
 * `kinds` names each die (`d6`, `d8`); `caps` what each counts as at most; `pairs` the dice
 * compared one against one (sorted, highest first).
 *
 * @typedef {{
 *   id: string,
 *   fields: (defaults: Record<string, any>) => OptionField[],
 *   controller: (ctx: PlayContext) => Controller,
 *   describe: (event: any, names: string[], view: any) => string | null,
 *   dice: (event: any, names: string[]) => DiceRoll[],
 *   seatSummary: (view: any, seat: number) => string,
 *   paramText: (name: string, value: number, view: any, names: string[]) => string | number,
 * }} RulesetUi
 *
 * `paramText` words one parameter of a refusal (a cell, area or territory id as its name).
 */

export {};
