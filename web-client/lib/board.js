//! The one board renderer: draws any ruleset's `view.board.regions` (clusters of axial hex cells,
//! engine/src/hex.rs) as SVG. Each region is filled as a whole and outlined along its border
//! with other regions; rulesets decorate regions (fill, label, highlight) on every update.

import { h, s } from './dom.js';
import { t } from './i18n.js';
import { seatInk, seatSymbol } from './colors.js';
import { Zoom } from './zoom.js';

/**
 * @typedef {{q: number, r: number}} Cell
 * @typedef {{id: number, name?: string, cells: Cell[]}} Region
 * @typedef {{
 *   fill?: string,
 *   owner?: number | null,
 *   classes?: string[],
 *   label?: SVGElement | string | null,
 *   name?: string,
 *   title?: string,
 *   speech?: string,
 *   labelText?: number,
 * }} Decoration
 *
 * `owner` hatches the region with the seat's pattern; `name` is drawn by the board where it
 * fits; `speech` is what a screen reader says for the region (else `title`); `labelText`, the
 * size of the label's text in board units, keeps it readable at every zoom (`scaleLabels`).
 * @typedef {{from: number, to: number, kind?: string}} Arrow
 */

const SIZE = 10;
const SQRT3 = Math.sqrt(3);

/** For each axial direction (as in engine/src/hex.rs), the two corners of the shared edge. */
const DIRECTIONS = /** @type {const} */ ([
  [1, 0, 0, 1],
  [1, -1, 5, 0],
  [0, -1, 4, 5],
  [-1, 0, 3, 4],
  [-1, 1, 2, 3],
  [0, 1, 1, 2],
]);

/** @param {Cell} cell @returns {[number, number]} the cell's centre in board units */
export function centre(cell) {
  return [SIZE * SQRT3 * (cell.q + cell.r / 2), SIZE * 1.5 * cell.r];
}

/** @param {number} x @param {number} y @param {number} i @returns {[number, number]} corner i of a pointy-top hex */
function corner(x, y, i) {
  const angle = (Math.PI / 180) * (60 * i - 30);
  return [x + SIZE * Math.cos(angle), y + SIZE * Math.sin(angle)];
}

/** @param {number} n */
const fmt = (n) => n.toFixed(2);

/** @param {Cell} cell */
export function hexPoints(cell) {
  const [x, y] = centre(cell);
  // A hair larger than the cell so neighbouring cells of one region leave no seam.
  return [0, 1, 2, 3, 4, 5]
    .map((i) => {
      const angle = (Math.PI / 180) * (60 * i - 30);
      return `${fmt(x + SIZE * 1.02 * Math.cos(angle))},${fmt(y + SIZE * 1.02 * Math.sin(angle))}`;
    })
    .join(' ');
}

/** The path along the edges of `region` that do not face another cell of the same region. @param {Region} region */
function outlinePath(region) {
  const own = new Set(region.cells.map((c) => `${c.q},${c.r}`));
  const parts = [];
  for (const cell of region.cells) {
    const [x, y] = centre(cell);
    for (const [dq, dr, a, b] of DIRECTIONS) {
      if (own.has(`${cell.q + dq},${cell.r + dr}`)) continue;
      const [x1, y1] = corner(x, y, a);
      const [x2, y2] = corner(x, y, b);
      parts.push(`M${fmt(x1)} ${fmt(y1)}L${fmt(x2)} ${fmt(y2)}`);
    }
  }
  return parts.join('');
}

/** Where a region's label goes: the centre of its cell nearest to the mean of its cells. @param {Region} region @returns {[number, number]} */
export function anchor(region) {
  if (region.cells.length === 0) return [0, 0];
  const points = region.cells.map(centre);
  const mx = points.reduce((sum, p) => sum + p[0], 0) / points.length;
  const my = points.reduce((sum, p) => sum + p[1], 0) / points.length;
  let best = points[0];
  for (const p of points) {
    if ((p[0] - mx) ** 2 + (p[1] - my) ** 2 < (best[0] - mx) ** 2 + (best[1] - my) ** 2) best = p;
  }
  return best;
}

/** Hatching per seat (a second cue besides colour): the pattern's lines, in a 4×4 tile. */
const HATCHES = [
  'M-1 1L1 -1M0 4L4 0M3 5L5 3',
  'M1 1h0.01M3 3h0.01',
  'M0 1H4M0 3H4',
  'M-1 3L1 5M0 0L4 4M3 -1L5 1',
  'M-1 1L1 -1M0 4L4 0M3 5L5 3M-1 3L1 5M0 0L4 4M3 -1L5 1',
  'M1 0V4M3 0V4',
];

/** The decoration classes drawn as a region outline over the board. */
const MARKS = new Set(['selected', 'target', 'source', 'partner', 'friendly', 'path', 'recent']);

/** A name's size on screen (px), whatever the zoom. */
const NAME_PX = 11;
/** The smallest a label's text may be on screen (px; 10 and a margin for rounding): a count stays readable zoomed out. */
const MIN_LABEL_PX = 10.5;
/** A board narrower than this (px) is on a phone... */
const PHONE_BOARD_WIDTH = 600;
/** ...where a hex cell should be at least this wide (px) to read and tap... */
const READABLE_CELL_PX = 18;
/** ...so the board starts zoomed in when that takes at least this scale, and at most this one. */
const PHONE_START_MIN_SCALE = 1.3;
const PHONE_START_MAX_SCALE = 3;

/** Unique ids for each board's SVG defs (several boards may share a page). */
let boards = 0;

export class Board {
  /**
   * @param {Region[]} regions
   * @param {(id: number) => void} onRegionClick
   */
  constructor(regions, onRegionClick) {
    this.regions = regions;
    this.onRegionClick = onRegionClick;
    this.prefix = `b${++boards}`;
    /** @type {Map<number, [number, number]>} */
    this.anchors = new Map(regions.map((r) => [r.id, anchor(r)]));
    const all = regions.flatMap((r) => r.cells.map(centre));
    const xs = all.map((p) => p[0]);
    const ys = all.map((p) => p[1]);
    const pad = SIZE * 1.4;
    const minX = Math.min(...xs, 0) - pad;
    const minY = Math.min(...ys, 0) - pad;
    const width = Math.max(...xs, 0) - minX + pad;
    const height = Math.max(...ys, 0) - minY + pad;
    this.full = { x: minX, y: minY, width, height };
    this.element = /** @type {SVGSVGElement} */ (
      s('svg', {
        class: 'board',
        viewBox: `${fmt(minX)} ${fmt(minY)} ${fmt(width)} ${fmt(height)}`,
        role: 'group',
        'aria-label': t('board_label'),
        'aria-describedby': `${this.prefix}-help`,
      })
    );
    /** @type {Map<number, SVGElement>} */
    this.groups = new Map();
    /** @type {Map<number, SVGElement>} */
    this.titles = new Map();
    /** @type {Map<number, SVGElement>} */
    this.hatches = new Map();
    /** Each region's outline (path data), reused to mark it. @type {Map<number, string>} */
    this.outlineOf = new Map();
    /** The marked regions' outlines, drawn over every plain outline. */
    this.marks = s('g', { class: 'marks', 'aria-hidden': 'true' });
    /** The region that keeps the board's one tab stop (arrow keys move it). */
    this.focusId = regions[0]?.id ?? 0;
    const cells = s('g', { class: 'cells' });
    const hatchLayer = s('g', { class: 'hatches', 'aria-hidden': 'true' });
    const outlines = s('g', { class: 'outlines', 'aria-hidden': 'true' });
    for (const region of regions) {
      const title = s('title', {}, region.name ?? `#${region.id}`);
      const polygons = region.cells.map((cell) => s('polygon', { points: hexPoints(cell) }));
      const group = s(
        'g',
        { class: 'region', 'data-region': region.id, tabindex: region.id === this.focusId ? 0 : -1, role: 'button' },
        title,
        polygons,
      );
      group.addEventListener('click', () => this.onRegionClick(region.id));
      group.addEventListener('keydown', (event) => this.key(/** @type {KeyboardEvent} */ (event), region.id));
      group.addEventListener('focus', () => {
        this.moveFocus(region.id, false);
        this.showInfo(region.id);
      });
      // Pointing at a region (a finger's touch too) names it under the board: every name can be
      // found, also where the map has no room to draw it.
      group.addEventListener('pointerenter', () => this.showInfo(region.id));
      group.addEventListener('pointerdown', () => this.showInfo(region.id));
      this.groups.set(region.id, group);
      this.titles.set(region.id, title);
      cells.append(group);
      const hatch = s('g', { 'data-hatch': region.id }, region.cells.map((cell) => s('polygon', { points: hexPoints(cell) })));
      this.hatches.set(region.id, hatch);
      hatchLayer.append(hatch);
      const outline = outlinePath(region);
      this.outlineOf.set(region.id, outline);
      outlines.append(s('path', { d: outline, 'data-outline': region.id }));
    }
    this.links = s('g', { class: 'links', 'aria-hidden': 'true' });
    /** Edges where regions touch on the grid but do not border: drawn as sea between them. */
    this.gaps = s('g', { class: 'gaps', 'aria-hidden': 'true' });
    /** The links drawn, so they are drawn once. */
    this.linksKey = '';
    this.overlay = s('g', { class: 'overlay', 'aria-hidden': 'true' });
    /** The overlay drawn, so it is drawn once per language. */
    this.overlayKey = '';
    this.arrows = s('g', { class: 'arrows', 'aria-hidden': 'true' });
    this.labels = s('g', { class: 'labels', 'aria-hidden': 'true' });
    this.names = s('g', { class: 'names', 'aria-hidden': 'true' });
    this.element.append(
      s(
        'defs',
        {},
        s(
          'marker',
          { id: `${this.prefix}-arrowhead`, class: 'arrowhead', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 2.4, markerHeight: 2.4, orient: 'auto' },
          s('path', { d: 'M0 0L10 5L0 10z' }),
        ),
        HATCHES.map((d, seat) =>
          s(
            'pattern',
            { id: `${this.prefix}-hatch-${seat}`, width: 4, height: 4, patternUnits: 'userSpaceOnUse' },
            s('path', { d, class: 'hatch-line', stroke: seatInk(seat), 'stroke-width': seat === 1 ? 1.3 : 0.55, 'stroke-linecap': 'round' }),
          ),
        ),
      ),
      this.links,
      cells,
      hatchLayer,
      outlines,
      this.gaps,
      this.marks,
      this.overlay,
      this.arrows,
      this.labels,
      this.names,
    );
    /** Each region's decoration as last drawn. @type {Decoration[]} */
    this.decorations = [];
    /** The region pointed at or focused last, named under the board. @type {number | null} */
    this.infoId = null;
    this.info = h('p', { class: 'region-info', 'data-testid': 'region-info' }, t('region_info_hint'));
    /** The board in words under it: a button per region (name, owner, strength, what it can do now), which clicks it. */
    this.listButtons = new Map(
      regions.map((region) => [
        region.id,
        h('button', { type: 'button', class: 'link region-choice', 'data-region-choice': region.id, onclick: () => this.onRegionClick(region.id) }, region.name ?? `#${region.id}`),
      ]),
    );
    this.list = h(
      'details',
      { class: 'region-list', 'data-testid': 'region-list' },
      h('summary', {}, t('region_list')),
      h('ul', { class: 'plain' }, [...this.listButtons.values()].map((button) => h('li', {}, button))),
    );
    /** Regions' names as last decorated, for the name layer. @type {Map<number, string>} */
    this.nameOf = new Map();
    /** The overlay groups' labels, with the regions to try them at in turn. @type {{text: string, spots: number[]}[]} */
    this.overlayLabels = [];
    this.zoom = new Zoom(this.element, this.full, () => this.layoutNames());
    /** Set once the board had its first size (and a phone's first zoom). */
    this.sized = false;
    this.resizer = new ResizeObserver(() => {
      this.startZoomed();
      this.layoutNames();
    });
    this.resizer.observe(this.element);
  }

  /**
   * On its first size: a board whose cells would be too small to read or tap on a phone-sized
   * screen (classic's world) starts zoomed in around its middle, just enough for readable cells
   * and names; the board's height fits the map at that scale, a drag pans, and the reset button
   * shows the whole board. Small boards start whole.
   */
  startZoomed() {
    if (this.sized) return;
    const width = this.element.getBoundingClientRect().width;
    if (width === 0) return;
    this.sized = true;
    if (width >= PHONE_BOARD_WIDTH) return;
    const own = this.full.height / this.full.width;
    const cell = (width / this.full.width) * SIZE * Math.sqrt(3);
    const scale = Math.min(PHONE_START_MAX_SCALE, READABLE_CELL_PX / cell);
    if (scale < PHONE_START_MIN_SCALE) return;
    // Zoomed, a phone's board gets more height (style.css): as much as the map fills at this scale.
    this.element.style.setProperty('--zoomed-height', `${Math.round(width * own * scale)}px`);
    const middle = { x: this.full.x + this.full.width / 2, y: this.full.y + this.full.height / 2 };
    this.zoom.zoomTo(scale, middle, this.zoom.box);
  }

  /** Zoom buttons for those without a wheel or two fingers. */
  zoomControls() {
    return h(
      'div',
      { class: 'zoom-controls', role: 'group', 'aria-label': t('zoom_label') },
      h('button', { type: 'button', 'data-zoom': 'in', title: t('zoom_in'), 'aria-label': t('zoom_in'), onclick: () => this.zoom.zoomBy(1.5) }, '+'),
      h('button', { type: 'button', 'data-zoom': 'out', title: t('zoom_out'), 'aria-label': t('zoom_out'), onclick: () => this.zoom.zoomBy(1 / 1.5) }, '−'),
      h('button', { type: 'button', 'data-zoom': 'reset', title: t('zoom_reset'), 'aria-label': t('zoom_reset'), onclick: () => this.zoom.reset() }, '⤢'),
    );
  }

  /** Names the region `id` (its tooltip: name, owner, strength) in the line under the board. @param {number} id */
  showInfo(id) {
    this.infoId = id;
    const region = this.regions.find((candidate) => candidate.id === id);
    this.info.textContent = this.decorations[id]?.title ?? region?.name ?? `#${id}`;
    this.info.dataset.region = String(id);
  }

  /** A short help for keyboard users (the board's description). */
  help() {
    return h('p', { id: `${this.prefix}-help`, class: 'sr-only' }, t('board_help'));
  }

  /** @param {KeyboardEvent} event @param {number} id */
  key(event, id) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.onRegionClick(id);
      return;
    }
    const direction = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!direction) return;
    event.preventDefault();
    const next = nearestInDirection(this.anchors, id, direction);
    if (next !== null) this.moveFocus(next, true);
  }

  /** Gives `id` the board's tab stop, and focus if asked. @param {number} id @param {boolean} focus */
  moveFocus(id, focus) {
    if (this.focusId !== id) {
      this.groups.get(this.focusId)?.setAttribute('tabindex', '-1');
      this.focusId = id;
      this.groups.get(id)?.setAttribute('tabindex', '0');
    }
    if (focus) /** @type {SVGGElement | undefined} */ (this.groups.get(id))?.focus();
  }

  /**
   * Given the ruleset's borders (classic's: the engine's adjacency, not the cells'), draws
   * connections between regions that border without sharing an edge (sea lanes) as dashed lines
   * under the board, and the edges of regions that touch on the grid without bordering as sea
   * between them (Iceland and Northern Europe), so that only true borders look like borders.
   * Drawn once; later calls with the same list do nothing.
   * @param {[number, number][]} pairs
   */
  setLinks(pairs) {
    const key = pairs.map((pair) => pair.join('-')).join(',');
    if (key === this.linksKey) return;
    this.linksKey = key;
    const touching = regionNeighbours(this.regions);
    const bordering = new Set(pairs.flatMap(([a, b]) => [`${a}-${b}`, `${b}-${a}`]));
    this.gaps.replaceChildren(
      ...this.regions.flatMap((region) =>
        [...(touching.get(region.id) ?? [])]
          .filter((other) => region.id < other && !bordering.has(`${region.id}-${other}`))
          .map((other) => s('path', { d: sharedEdges(region, other, this.regions), 'data-gap': `${region.id}-${other}` })),
      ),
    );
    this.links.replaceChildren(
      ...pairs.flatMap(([a, b]) => {
        if (touching.get(a)?.has(b)) return [];
        const from = this.anchors.get(a);
        const to = this.anchors.get(b);
        if (!from || !to) return [];
        // A link across most of the board is a wrap-around (Alaska–Kamchatka): draw two stubs
        // leaving each region towards the nearer edge instead of a line across everything.
        if (Math.abs(to[0] - from[0]) > this.full.width / 2) {
          const stub = SIZE * 3;
          const dir = Math.sign(to[0] - from[0]);
          return [
            s('line', { x1: fmt(from[0]), y1: fmt(from[1]), x2: fmt(from[0] - dir * stub), y2: fmt(from[1]) }),
            s('line', { x1: fmt(to[0]), y1: fmt(to[1]), x2: fmt(to[0] + dir * stub), y2: fmt(to[1]) }),
          ];
        }
        return [s('line', { x1: fmt(from[0]), y1: fmt(from[1]), x2: fmt(to[0]), y2: fmt(to[1]) })];
      }),
    );
  }

  /**
   * Outlines groups of regions (classic's continents) with a thick coloured border and a label
   * at a chosen region; hidden until `showOverlay(true)`.
   * @param {{name: string, regions: number[], labelAt: number}[]} groups
   */
  setOverlay(groups) {
    const key = groups.map((group) => group.name).join('|');
    if (key === this.overlayKey) return;
    this.overlayKey = key;
    const byId = new Map(this.regions.map((region) => [region.id, region]));
    this.overlay.replaceChildren(
      ...groups.map((group) => {
        const cells = group.regions.flatMap((id) => byId.get(id)?.cells ?? []);
        return s(
          'g',
          { class: 'continent', 'data-continent': group.name },
          s('path', { class: 'continent-casing', d: outlinePath({ id: -1, cells }) }),
          s('path', { class: 'continent-line', d: outlinePath({ id: -1, cells }) }),
        );
      }),
    );
    // Each group's label is laid out with the names (never over a name or a count): tried above
    // its chosen region first, then above and below each of its other regions, largest first.
    this.overlayLabels = groups.map((group) => ({
      text: group.name,
      spots: [group.labelAt, ...group.regions.filter((id) => id !== group.labelAt).sort((a, b) => (byId.get(b)?.cells.length ?? 0) - (byId.get(a)?.cells.length ?? 0))],
    }));
    this.layoutNames();
  }

  /** @param {boolean} on */
  showOverlay(on) {
    const was = this.element.classList.contains('with-overlay');
    this.element.classList.toggle('with-overlay', on);
    if (was !== on) this.layoutNames();
  }

  /**
   * Redraws every region's decoration and the arrows (e.g. the last attack).
   * @param {(id: number) => Decoration} decorate
   * @param {Arrow[]} [arrows]
   */
  update(decorate, arrows = []) {
    this.labels.replaceChildren();
    /** @type {SVGElement[]} */
    const marks = [];
    this.decorations = [];
    for (const region of this.regions) {
      const group = /** @type {SVGElement} */ (this.groups.get(region.id));
      const decoration = decorate(region.id);
      this.decorations[region.id] = decoration;
      group.setAttribute('class', ['region', ...(decoration.classes ?? [])].join(' '));
      const marked = (decoration.classes ?? []).filter((name) => MARKS.has(name) || name.startsWith('target-'));
      if (marked.length > 0) {
        // A mark is a core line over a casing of another lightness (style.css), so it stands out
        // on every seat colour.
        const d = this.outlineOf.get(region.id) ?? '';
        marks.push(
          s('g', { class: marked.join(' '), 'data-mark': region.id }, s('path', { d, class: 'casing' }), s('path', { d, class: 'core' })),
        );
      }
      group.style.setProperty('--fill', decoration.fill ?? '#d8d2c4');
      const speech = decoration.speech ?? decoration.title ?? region.name ?? `#${region.id}`;
      const words = `${speech}${stateWords(decoration.classes ?? [])}`;
      group.setAttribute('aria-label', words);
      const choice = this.listButtons.get(region.id);
      if (choice && choice.textContent !== words) choice.textContent = words;
      choice?.classList.toggle('can-choose', (decoration.classes ?? []).includes('clickable'));
      const title = this.titles.get(region.id);
      if (title) title.textContent = decoration.title ?? region.name ?? `#${region.id}`;
      const hatch = this.hatches.get(region.id);
      if (hatch) {
        const owner = decoration.owner;
        if (owner === null || owner === undefined) hatch.removeAttribute('fill');
        else hatch.setAttribute('fill', `url(#${this.prefix}-hatch-${owner % HATCHES.length})`);
        hatch.dataset.owner = owner === null || owner === undefined ? '' : String(owner);
      }
      const [x, y] = /** @type {[number, number]} */ (this.anchors.get(region.id));
      if (decoration.label) {
        // The label sits in a group of its own scale (see `scaleLabels`), under its place.
        const label = s('g', { transform: `translate(${fmt(x)} ${fmt(y)})`, 'data-label': region.id });
        const sized = s('g', { class: 'label-scale' });
        if (decoration.labelText) sized.dataset.text = String(decoration.labelText);
        sized.append(decoration.label);
        label.append(sized);
        this.labels.append(label);
      }
      if (decoration.name) this.nameOf.set(region.id, decoration.name);
      else this.nameOf.delete(region.id);
    }
    if (this.infoId !== null) this.showInfo(this.infoId);
    // Sources under targets under the selection, so the strongest mark wins on shared edges.
    const rank = (/** @type {SVGElement} */ mark) => ['recent', 'source', 'partner', 'friendly', 'path', 'target', 'selected'].findIndex((name) => mark.classList.contains(name));
    this.marks.replaceChildren(...marks.sort((a, b) => rank(a) - rank(b)));
    this.arrows.replaceChildren(
      ...arrows.flatMap((arrow) => {
        const from = this.anchors.get(arrow.from);
        const to = this.anchors.get(arrow.to);
        if (!from || !to) return [];
        // Stop short of both centres so the labels stay readable.
        const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
        const length = Math.hypot(dx, dy) || 1;
        const cut = Math.min(SIZE * 0.6, length / 3);
        const line = {
          x1: fmt(from[0] + (dx / length) * cut),
          y1: fmt(from[1] + (dy / length) * cut),
          x2: fmt(to[0] - (dx / length) * cut),
          y2: fmt(to[1] - (dy / length) * cut),
        };
        // A light casing under a dark line stays visible on every seat colour.
        return [
          s('line', { class: `arrow-casing ${arrow.kind ?? ''}`, ...line }),
          s('line', { class: `arrow ${arrow.kind ?? ''}`, ...line, 'marker-end': `url(#${this.prefix}-arrowhead)` }),
        ];
      }),
    );
    this.layoutNames();
  }

  /**
   * Draws the regions' names at a fixed size on screen, largest regions first, leaving out any
   * name that would overlap one already placed or a count badge (it stays in the region's
   * tooltip and the list; zooming in makes room for it).
   */
  layoutNames() {
    if (!this.element.isConnected) return;
    const unit = this.zoom.pixelsPerUnit();
    this.scaleLabels(unit);
    const size = NAME_PX / unit;
    this.names.replaceChildren();
    this.names.style.fontSize = `${size.toFixed(3)}px`;
    /** @type {{x1: number, y1: number, x2: number, y2: number}[]} */
    const placed = [];
    for (const label of this.labels.children) {
      // In the label's own space: its place, with every scale inside it applied.
      const box = /** @type {SVGGraphicsElement} */ (label).getBBox();
      const [x, y] = this.anchors.get(Number(/** @type {SVGElement} */ (label).dataset.label)) ?? [0, 0];
      placed.push({ x1: x + box.x, y1: y + box.y, x2: x + box.x + box.width, y2: y + box.y + box.height });
    }
    const view = this.zoom.box;
    /** True when `box` lies outside the view in part. @param {DOMRect} box */
    const clippedOut = (box) => box.x < view.x || box.x + box.width > view.x + view.width || box.y < view.y || box.y + box.height > view.y + view.height;
    /**
     * Draws `text` and keeps it when it lies within the view, clear of everything placed (with a
     * little room around it, so that neighbours never touch); else takes it away again.
     * @param {SVGTextElement} text @returns {boolean} whether it was kept
     */
    const place = (text) => {
      this.names.append(text);
      const box = text.getBBox();
      const gap = size * 0.35;
      const rect = { x1: box.x - gap, y1: box.y, x2: box.x + box.width + gap, y2: box.y + box.height };
      if (clippedOut(box) || placed.some((other) => overlaps(rect, other))) {
        text.remove();
        return false;
      }
      placed.push(rect);
      return true;
    };
    if (this.element.classList.contains('with-overlay')) {
      for (const label of this.overlayLabels) {
        for (const [spot, below] of label.spots.flatMap((id) => /** @type {[number, boolean][]} */ ([[id, false], [id, true]]))) {
          const [x, y] = this.anchors.get(spot) ?? [0, 0];
          const at = below ? y + SIZE * 1.25 + size * 2.2 : y - SIZE * 1.1;
          const text = /** @type {SVGTextElement} */ (s('text', { x: fmt(x), y: fmt(at), 'text-anchor': 'middle', class: 'continent-name', 'data-continent-name': label.text }, label.text));
          if (place(text)) break;
        }
      }
    }
    const order = [...this.nameOf.keys()].sort(
      (a, b) => (this.regions[b]?.cells.length ?? 0) - (this.regions[a]?.cells.length ?? 0) || a - b,
    );
    for (const id of order) {
      const [x, y] = this.anchors.get(id) ?? [0, 0];
      place(/** @type {SVGTextElement} */ (s('text', { x: fmt(x), y: fmt(y + SIZE * 1.25 + size), 'text-anchor': 'middle', 'data-name': id }, this.nameOf.get(id) ?? '')));
    }
    this.element.dataset.namesShown = String(this.names.querySelectorAll('text[data-name]').length);
  }

  /**
   * Keeps the labels that say their text size (`labelText`, in board units: classic's counts) at
   * least MIN_LABEL_PX on screen at every zoom: zoomed out, a label grows, and the names that no
   * longer fit beside it are left out (counts only), until zoomed in again.
   * @param {number} unit screen pixels per board unit
   */
  scaleLabels(unit) {
    for (const sized of this.labels.querySelectorAll('g.label-scale')) {
      const text = Number(/** @type {SVGElement} */ (sized).dataset.text);
      const k = text > 0 ? Math.max(1, MIN_LABEL_PX / (text * unit)) : 1;
      sized.setAttribute('transform', k === 1 ? '' : `scale(${k.toFixed(3)})`);
      // Grown, a count drops its disc for a halo: neighbours' counts stay apart.
      sized.classList.toggle('compact', k > 1.05);
    }
  }

  dispose() {
    this.resizer.disconnect();
  }
}

/** @param {{x1: number, y1: number, x2: number, y2: number}} a @param {{x1: number, y1: number, x2: number, y2: number}} b */
function overlaps(a, b) {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/** Words for a region's marks, for screen readers. @param {string[]} classes */
function stateWords(classes) {
  const words = [];
  if (classes.includes('selected')) words.push(t('sr_selected'));
  if (classes.includes('target')) words.push(t('sr_target'));
  else if (classes.includes('source')) words.push(t('sr_source'));
  if (classes.includes('recent')) words.push(t('sr_recent'));
  return words.length > 0 ? ` (${words.join(', ')})` : '';
}

/**
 * The region whose anchor lies nearest in `direction` from `from`'s (within 60° of it), or null.
 * @param {Map<number, [number, number]>} anchors @param {number} from @param {number[]} direction
 */
export function nearestInDirection(anchors, from, direction) {
  const origin = anchors.get(from);
  if (!origin) return null;
  let best = null;
  let bestScore = Infinity;
  for (const [id, point] of anchors) {
    if (id === from) continue;
    const dx = point[0] - origin[0];
    const dy = point[1] - origin[1];
    const distance = Math.hypot(dx, dy);
    if (distance === 0) continue;
    const along = (dx * direction[0] + dy * direction[1]) / distance;
    if (along < 0.5) continue;
    // Prefer the straightest, then the nearest.
    const score = distance * (2 - along);
    if (score < bestScore) {
      bestScore = score;
      best = id;
    }
  }
  return best;
}

/** Where pips sit on a die face, on a 3×3 grid from -1 to 1. */
const PIPS = /** @type {Record<number, [number, number][]>} */ ({
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
});

/**
 * A die face showing `value` (pips for 1–6, a number otherwise), centred on the origin.
 * @param {number} value
 * @param {{size?: number, color?: string, pip?: string}} [style]
 * @returns {SVGElement}
 */
export function dieFace(value, { size = 9, color = '#fffdf7', pip = '#1d2330' } = {}) {
  const half = size / 2;
  const face = s('g', { class: 'die', 'data-value': value });
  face.append(
    s('rect', { x: -half, y: -half, width: size, height: size, rx: size * 0.18, fill: color }),
  );
  const pips = PIPS[value];
  if (pips) {
    for (const [px, py] of pips) {
      face.append(s('circle', { cx: fmt(px * size * 0.27), cy: fmt(py * size * 0.27), r: fmt(size * 0.09), fill: pip }));
    }
  } else {
    face.append(s('text', { y: size * 0.3, 'font-size': size * 0.75, fill: pip, 'text-anchor': 'middle' }, value));
  }
  return face;
}

/**
 * The owner's symbol (lib/colors.js), drawn on the region beside its label in the seat's ink:
 * the board tells seats apart by more than their colour.
 * @param {number} seat @param {number} x @param {number} y @param {number} size
 */
export function seatMark(seat, x, y, size) {
  return s(
    'text',
    { class: 'seat-symbol', x: fmt(x), y: fmt(y), 'font-size': fmt(size), fill: seatInk(seat), 'text-anchor': 'middle', 'data-seat-symbol': seat },
    seatSymbol(seat),
  );
}

/** The size of a badge's count, in board units. */
export const BADGE_TEXT = 6.4;

/**
 * A count badge (units on a territory), centred on the origin, with an optional mark above it
 * (`small`), a detail line under it (`name`), the region's number beside it (`id`, which the
 * event log uses) and its owner's symbol on the other side (`seat`).
 * @param {string | number} text
 * @param {{name?: string, small?: string, scale?: number, id?: number, seat?: number | null}} [extra]
 *   `scale` enlarges the whole label for boards whose regions are large
 * @returns {SVGElement}
 */
export function badge(text, { name, small, scale = 1, id, seat = null } = {}) {
  const group = s('g', { class: 'badge', transform: scale === 1 ? null : `scale(${scale})` });
  group.append(s('circle', { r: 5.4 }), s('text', { class: 'badge-count', y: 2.3, 'font-size': BADGE_TEXT, 'text-anchor': 'middle' }, text));
  if (seat !== null) group.append(seatMark(seat, -8.4, 1.9, 5.2));
  if (small) group.append(s('text', { class: 'badge-small', y: -7, 'text-anchor': 'middle' }, small));
  if (id !== undefined) group.append(s('text', { class: 'badge-id', x: 6.2, y: -3.6 }, id));
  if (name) {
    // Long names break at the middle space so they stay within their region.
    const words = name.split(' ');
    const lines = name.length > 11 && words.length > 1 ? splitInTwo(words) : [name];
    lines.forEach((line, index) =>
      group.append(s('text', { class: 'region-detail', y: fmt(10.2 + index * 4.2), 'text-anchor': 'middle' }, line)),
    );
  }
  return group;
}

/**
 * Which regions border which: two regions border when cells of each share an edge (as
 * `borders_from_cells` in engine/src/hex.rs does). Keyed by region id.
 * @param {Region[]} regions
 * @returns {Map<number, Set<number>>}
 */
export function regionNeighbours(regions) {
  /** @type {Map<string, number>} */
  const owner = new Map();
  for (const region of regions) for (const cell of region.cells) owner.set(`${cell.q},${cell.r}`, region.id);
  /** @type {Map<number, Set<number>>} */
  const borders = new Map(regions.map((region) => [region.id, new Set()]));
  for (const region of regions) {
    for (const cell of region.cells) {
      for (const [dq, dr] of DIRECTIONS) {
        const other = owner.get(`${cell.q + dq},${cell.r + dr}`);
        if (other !== undefined && other !== region.id) borders.get(region.id)?.add(other);
      }
    }
  }
  return borders;
}

/**
 * The path along the edges where `region`'s cells meet region `other`'s.
 * @param {Region} region @param {number} other @param {Region[]} regions
 */
function sharedEdges(region, other, regions) {
  const theirs = new Set((regions.find((candidate) => candidate.id === other)?.cells ?? []).map((c) => `${c.q},${c.r}`));
  const parts = [];
  for (const cell of region.cells) {
    const [x, y] = centre(cell);
    for (const [dq, dr, a, b] of DIRECTIONS) {
      if (!theirs.has(`${cell.q + dq},${cell.r + dr}`)) continue;
      const [x1, y1] = corner(x, y, a);
      const [x2, y2] = corner(x, y, b);
      parts.push(`M${fmt(x1)} ${fmt(y1)}L${fmt(x2)} ${fmt(y2)}`);
    }
  }
  return parts.join('');
}

/** Region neighbours, computed once per board (the regions array of a view never changes). */
const neighbourCache = new WeakMap();

/** @param {Region[]} regions @returns {Map<number, Set<number>>} */
export function neighboursOf(regions) {
  let found = neighbourCache.get(regions);
  if (!found) {
    found = regionNeighbours(regions);
    neighbourCache.set(regions, found);
  }
  return found;
}

/** Two lines of about equal length from a name's words. @param {string[]} words */
function splitInTwo(words) {
  let best = 1;
  let bestDiff = Infinity;
  for (let cut = 1; cut < words.length; cut++) {
    const diff = Math.abs(words.slice(0, cut).join(' ').length - words.slice(cut).join(' ').length);
    if (diff < bestDiff) {
      best = cut;
      bestDiff = diff;
    }
  }
  return [words.slice(0, best).join(' '), words.slice(best).join(' ')];
}
