//! The one board renderer: draws any ruleset's `view.board.regions` (clusters of axial hex cells,
//! engine/src/hex.rs) as SVG. Each region is filled as a whole and outlined along its border
//! with other regions; rulesets decorate regions (fill, label, highlight) on every update.

import { s } from './dom.js';

/**
 * @typedef {{q: number, r: number}} Cell
 * @typedef {{id: number, name?: string, cells: Cell[]}} Region
 * @typedef {{
 *   fill?: string,
 *   classes?: string[],
 *   label?: SVGElement | string | null,
 *   title?: string,
 * }} Decoration
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
function hexPoints(cell) {
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

export class Board {
  /**
   * @param {Region[]} regions
   * @param {(id: number) => void} onRegionClick
   */
  constructor(regions, onRegionClick) {
    this.regions = regions;
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
    this.element = /** @type {SVGSVGElement} */ (
      s('svg', {
        class: 'board',
        viewBox: `${fmt(minX)} ${fmt(minY)} ${fmt(width)} ${fmt(height)}`,
        role: 'img',
      })
    );
    /** @type {Map<number, SVGElement>} */
    this.groups = new Map();
    /** @type {Map<number, SVGElement>} */
    this.titles = new Map();
    const cells = s('g', { class: 'cells' });
    const outlines = s('g', { class: 'outlines' });
    for (const region of regions) {
      const title = s('title', {}, region.name ?? `#${region.id}`);
      const group = s(
        'g',
        { class: 'region', 'data-region': region.id, tabindex: 0 },
        title,
        region.cells.map((cell) => s('polygon', { points: hexPoints(cell) })),
      );
      group.addEventListener('click', () => onRegionClick(region.id));
      group.addEventListener('keydown', (event) => {
        const key = /** @type {KeyboardEvent} */ (event).key;
        if (key === 'Enter' || key === ' ') onRegionClick(region.id);
      });
      this.groups.set(region.id, group);
      this.titles.set(region.id, title);
      cells.append(group);
      outlines.append(s('path', { d: outlinePath(region), 'data-outline': region.id }));
    }
    this.links = s('g', { class: 'links' });
    /** The links drawn, so they are drawn once. */
    this.linksKey = '';
    this.arrows = s('g', { class: 'arrows' });
    this.labels = s('g', { class: 'labels' });
    this.element.append(
      s(
        'defs',
        {},
        s(
          'marker',
          { id: 'arrowhead', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 2.6, markerHeight: 2.6, orient: 'auto' },
          s('path', { d: 'M0 0L10 5L0 10z' }),
        ),
      ),
      this.links,
      cells,
      outlines,
      this.arrows,
      this.labels,
    );
  }

  /**
   * Draws connections between regions that border without sharing an edge (classic's sea
   * lanes), as dashed lines under the board. Drawn once; later calls with the same list do nothing.
   * @param {[number, number][]} pairs
   */
  setLinks(pairs) {
    const key = pairs.map((pair) => pair.join('-')).join(',');
    if (key === this.linksKey) return;
    this.linksKey = key;
    const touching = regionNeighbours(this.regions);
    this.links.replaceChildren(
      ...pairs.flatMap(([a, b]) => {
        if (touching.get(a)?.has(b)) return [];
        const from = this.anchors.get(a);
        const to = this.anchors.get(b);
        if (!from || !to) return [];
        // A link across most of the board is a wrap-around (Alaska–Kamchatka): draw two stubs
        // leaving each region towards the nearer edge instead of a line across everything.
        const box = this.element.viewBox.baseVal;
        if (Math.abs(to[0] - from[0]) > box.width / 2) {
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
   * Redraws every region's decoration and the arrows (e.g. the last attack).
   * @param {(id: number) => Decoration} decorate
   * @param {Arrow[]} [arrows]
   */
  update(decorate, arrows = []) {
    this.labels.replaceChildren();
    for (const region of this.regions) {
      const group = /** @type {SVGElement} */ (this.groups.get(region.id));
      const decoration = decorate(region.id);
      group.setAttribute('class', ['region', ...(decoration.classes ?? [])].join(' '));
      group.style.setProperty('--fill', decoration.fill ?? '#d8d2c4');
      const title = this.titles.get(region.id);
      if (title) title.textContent = decoration.title ?? region.name ?? `#${region.id}`;
      const [x, y] = /** @type {[number, number]} */ (this.anchors.get(region.id));
      if (decoration.label) {
        const label = s('g', { transform: `translate(${fmt(x)} ${fmt(y)})`, 'data-label': region.id });
        label.append(decoration.label);
        this.labels.append(label);
      }
    }
    this.arrows.replaceChildren(
      ...arrows.flatMap((arrow) => {
        const from = this.anchors.get(arrow.from);
        const to = this.anchors.get(arrow.to);
        if (!from || !to) return [];
        // Stop short of both centres so the labels stay readable.
        const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
        const length = Math.hypot(dx, dy) || 1;
        const cut = Math.min(SIZE * 0.6, length / 3);
        return [
          s('line', {
            class: `arrow ${arrow.kind ?? ''}`,
            x1: fmt(from[0] + (dx / length) * cut),
            y1: fmt(from[1] + (dy / length) * cut),
            x2: fmt(to[0] - (dx / length) * cut),
            y2: fmt(to[1] - (dy / length) * cut),
            'marker-end': 'url(#arrowhead)',
          }),
        ];
      }),
    );
  }
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
 * A count badge (units on a territory), centred on the origin, with an optional name under it.
 * @param {string | number} text
 * @param {{name?: string, small?: string, scale?: number}} [extra] `scale` enlarges the whole
 *   label for boards whose regions are large
 * @returns {SVGElement}
 */
export function badge(text, { name, small, scale = 1 } = {}) {
  const group = s('g', { class: 'badge', transform: scale === 1 ? null : `scale(${scale})` });
  group.append(s('circle', { r: 5.4 }), s('text', { y: 2.3, 'text-anchor': 'middle' }, text));
  if (small) group.append(s('text', { class: 'badge-small', y: -7, 'text-anchor': 'middle' }, small));
  if (name) {
    // Long names break at the middle space so they stay within their region.
    const words = name.split(' ');
    const lines = name.length > 11 && words.length > 1 ? splitInTwo(words) : [name];
    lines.forEach((line, index) =>
      group.append(s('text', { class: 'region-name', y: fmt(10.2 + index * 4.2), 'text-anchor': 'middle' }, line)),
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
