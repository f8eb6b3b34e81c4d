//! Tiny DOM helpers: build elements from a tag, attributes and children, so views read as trees.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Attrs
 */

/**
 * An HTML element. Attributes starting with `on` are event listeners; `false`/`null` ones are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

/** The SVG namespace. */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const element = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

/**
 * @param {Element} element
 * @param {Attrs} attrs
 */
function setAttrs(element, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'style') {
      // Through the CSSOM: the Content-Security-Policy refuses inline `style` attributes.
      /** @type {HTMLElement | SVGElement} */ (element).style.cssText = String(value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

/**
 * @param {Element} element
 * @param {(Child | Child[])[]} children
 */
function append(element, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
}

/**
 * Replaces every child of `element`.
 * @param {Element} element
 * @param {...(Child | Child[])} children
 */
export function replaceChildren(element, ...children) {
  element.replaceChildren();
  append(element, children);
}
