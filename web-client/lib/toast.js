//! Short messages in the page's corner: refusals, disconnections, copies to the clipboard. One
//! notice at a time: a new one takes the place of the one shown (a flood of refusals shows one
//! line, not a stack over the board). The box counts the refusals shown (`data-errors`), so a
//! refusal that repeats the one on screen is still told apart.

/** @type {ReturnType<typeof setTimeout> | undefined} */
let hideTimer;

/**
 * Shows `text` for a few seconds in place of any notice shown. Refusals use kind `error`.
 * @param {string} text
 * @param {'info' | 'error'} [kind]
 */
export function toast(text, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = document.createElement('div');
  item.className = `toast ${kind}`;
  item.textContent = text;
  box.replaceChildren(item);
  if (kind === 'error') box.dataset.errors = String(Number(box.dataset.errors ?? 0) + 1);
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => item.remove(), kind === 'error' ? 6000 : 3000);
}
