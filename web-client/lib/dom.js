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

/**
 * `replaceChildren` for controls that are drawn anew on every change: when focus was inside
 * `element`, it goes to the new control with the same data attributes (the same button, drawn
 * again), else to `fallback`, never to the page's body (a keyboard or screen reader user keeps
 * their place).
 * @param {HTMLElement} element
 * @param {HTMLElement | null} fallback
 * @param {...any} children
 */
export function replaceKeepingFocus(element, fallback, ...children) {
  const focused = document.activeElement;
  const had = focused instanceof HTMLElement && focused !== element && element.contains(focused);
  const key = had ? dataKey(focused) : '';
  replaceChildren(element, ...children);
  if (!had) return;
  const same = key ? [...element.querySelectorAll('*')].find((candidate) => candidate instanceof HTMLElement && dataKey(candidate) === key) : null;
  const target = same instanceof HTMLElement && !(/** @type {HTMLButtonElement} */ (same).disabled) ? same : fallback;
  target?.focus();
}

/** What tells a control apart from its neighbours: its tag and data attributes. @param {HTMLElement} element */
function dataKey(element) {
  const data = Object.entries(element.dataset).map(([name, value]) => `${name}=${value}`);
  return data.length > 0 ? `${element.tagName}[${data.sort().join(',')}]` : '';
}

/**
 * Runs `submit` when `form` is sent: `button` disabled while it runs and `problem` emptied; a
 * refusal puts `explain(error)` in `problem` and enables the button again.
 * @param {HTMLFormElement} form
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} problem
 * @param {() => Promise<unknown>} submit
 * @param {(error: unknown) => string} explain
 */
export function whenSubmitted(form, button, problem, submit, explain) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    problem.textContent = '';
    try {
      await submit();
    } catch (error) {
      problem.textContent = explain(error);
      button.disabled = false;
    }
  });
}
