//! Zoom and pan for an SVG by moving its viewBox: the mouse wheel zooms around the pointer, two
//! fingers pinch, one finger or the mouse drags once zoomed in, and buttons zoom for those with
//! neither. A drag never counts as a click on what lies under it.

const MIN_SCALE = 1;
const MAX_SCALE = 8;
/** A pointer that moves further than this (px) drags instead of clicking. */
const DRAG_SLOP = 6;

/** @typedef {{x: number, y: number, width: number, height: number}} Box */

export class Zoom {
  /**
   * @param {SVGSVGElement} svg
   * @param {Box} full the whole drawing, the viewBox at scale 1
   * @param {() => void} onChange called after every change (labels re-lay out)
   */
  constructor(svg, full, onChange) {
    this.svg = svg;
    this.full = full;
    this.onChange = onChange;
    /** @type {Box} */
    this.box = { ...full };
    /** Pointers down, by id: where they are now (client px). @type {Map<number, {x: number, y: number}>} */
    this.pointers = new Map();
    /** The gesture under way. @type {{kind: 'pan' | 'pinch' | 'maybe', startX: number, startY: number, box: Box, distance?: number, mid?: {x: number, y: number}} | null} */
    this.gesture = null;
    /** Set after a drag so that the click ending it is swallowed. */
    this.dragged = false;
    this.apply();
    svg.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    svg.addEventListener('pointerdown', (event) => this.down(event));
    svg.addEventListener('pointermove', (event) => this.move(event));
    svg.addEventListener('pointerup', (event) => this.up(event));
    svg.addEventListener('pointercancel', (event) => this.up(event));
    // Two fingers on the board are the board's pinch, never a scroll or zoom of the page (which
    // would cancel the pointers mid-gesture); one finger still scrolls the page at full size.
    for (const type of /** @type {const} */ (['touchstart', 'touchmove'])) {
      svg.addEventListener(type, (event) => {
        if (event.touches.length >= 2) event.preventDefault();
      }, { passive: false });
    }
    svg.addEventListener('click', (event) => {
      if (this.dragged) {
        event.stopPropagation();
        event.preventDefault();
        this.dragged = false;
      }
    }, true);
  }

  /** How many times the drawing is enlarged. */
  get scale() {
    return this.full.width / this.box.width;
  }

  /** Zooms by `factor` around the point (client px), or the middle. @param {number} factor @param {{x: number, y: number}} [at] */
  zoomBy(factor, at) {
    const rect = this.svg.getBoundingClientRect();
    const point = at ?? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    const target = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.scale * factor));
    this.zoomTo(target, this.toBoard(point), this.box);
  }

  /** Back to the whole board. */
  reset() {
    this.svg.classList.remove('zoomed');
    this.box = { ...this.full };
    this.apply();
  }

  /**
   * The height/width ratio of the view at `scale`: the board's own at scale 1, else the
   * element's (a phone gives a zoomed board more height, style.css), so the view fills it.
   * @param {number} scale
   */
  aspect(scale) {
    this.svg.classList.toggle('zoomed', scale > 1.01);
    const rect = this.svg.getBoundingClientRect();
    const own = this.full.height / this.full.width;
    if (scale <= 1.01 || rect.width === 0 || rect.height === 0) return own;
    return rect.height / rect.width;
  }

  /**
   * Sets the scale so that the board point `fixed` stays where it is on screen, starting from `from`.
   * @param {number} scale @param {{x: number, y: number}} fixed @param {Box} from
   */
  zoomTo(scale, fixed, from) {
    const width = this.full.width / scale;
    const height = scale <= 1.01 ? this.full.height : width * this.aspect(scale);
    if (scale <= 1.01) this.svg.classList.remove('zoomed');
    const fx = (fixed.x - from.x) / from.width;
    const fy = (fixed.y - from.y) / from.height;
    this.box = this.clamp({ x: fixed.x - fx * width, y: fixed.y - fy * height, width, height });
    this.apply();
  }

  /** Keeps the view over the board; a view larger than the board in one direction centres it. @param {Box} box */
  clamp(box) {
    const axis = (/** @type {number} */ at, /** @type {number} */ size, /** @type {number} */ start, /** @type {number} */ length) =>
      size >= length ? start + (length - size) / 2 : Math.min(Math.max(at, start), start + length - size);
    return { ...box, x: axis(box.x, box.width, this.full.x, this.full.width), y: axis(box.y, box.height, this.full.y, this.full.height) };
  }

  /** A client point in board units. @param {{x: number, y: number}} point @param {Box} [box] */
  toBoard(point, box = this.box) {
    const rect = this.svg.getBoundingClientRect();
    // preserveAspectRatio "xMidYMid meet": one scale, centred.
    const unit = Math.min(rect.width / box.width, rect.height / box.height) || 1;
    const offsetX = (rect.width - box.width * unit) / 2;
    const offsetY = (rect.height - box.height * unit) / 2;
    return { x: box.x + (point.x - rect.left - offsetX) / unit, y: box.y + (point.y - rect.top - offsetY) / unit };
  }

  /** Client pixels per board unit now. */
  pixelsPerUnit() {
    const rect = this.svg.getBoundingClientRect();
    return Math.min(rect.width / this.box.width, rect.height / this.box.height) || 1;
  }

  apply() {
    const { x, y, width, height } = this.box;
    this.svg.setAttribute('viewBox', `${x.toFixed(2)} ${y.toFixed(2)} ${width.toFixed(2)} ${height.toFixed(2)}`);
    this.svg.dataset.zoom = this.scale.toFixed(2);
    // Zoomed in, one finger pans the board instead of the page.
    this.svg.style.touchAction = this.scale > 1.01 ? 'none' : 'pan-x pan-y';
    this.onChange();
  }

  /** @param {WheelEvent} event */
  wheel(event) {
    event.preventDefault();
    this.zoomBy(Math.exp(-event.deltaY * 0.0015), { x: event.clientX, y: event.clientY });
  }

  /** @param {PointerEvent} event */
  down(event) {
    // A new touch sequence starts with its primary pointer: pointers of an earlier one whose
    // `pointerup` never came (the browser took the gesture over) are forgotten.
    if (event.isPrimary) this.pointers.clear();
    if (this.pointers.size === 0) this.dragged = false;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.gesture = {
        kind: 'pinch',
        startX: 0,
        startY: 0,
        box: { ...this.box },
        distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
        mid: this.toBoard({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }),
      };
    } else if (this.pointers.size === 1) {
      this.gesture = { kind: 'maybe', startX: event.clientX, startY: event.clientY, box: { ...this.box } };
    }
  }

  /** @param {PointerEvent} event */
  move(event) {
    if (!this.pointers.has(event.pointerId) || !this.gesture) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const gesture = this.gesture;
    if (gesture.kind === 'pinch' && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, (this.full.width / gesture.box.width) * (distance / (gesture.distance ?? distance))));
      this.zoomTo(scale, /** @type {{x: number, y: number}} */ (gesture.mid), gesture.box);
      this.dragged = true;
      return;
    }
    const dx = event.clientX - gesture.startX;
    const dy = event.clientY - gesture.startY;
    if (gesture.kind === 'maybe' && Math.hypot(dx, dy) > DRAG_SLOP && this.scale > 1.01) {
      gesture.kind = 'pan';
      this.svg.setPointerCapture?.(event.pointerId);
    }
    if (gesture.kind === 'pan') {
      const unit = this.pixelsPerUnit();
      this.box = this.clamp({ ...gesture.box, x: gesture.box.x - dx / unit, y: gesture.box.y - dy / unit });
      this.dragged = true;
      this.apply();
    }
  }

  /** @param {PointerEvent} event */
  up(event) {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size === 0) this.gesture = null;
  }
}
