//! Short messages in the page's corner: refusals, disconnections, copies to the clipboard.

/**
 * Shows `text` for a few seconds. Refusals use kind `error`.
 * @param {string} text
 * @param {'info' | 'error'} [kind]
 */
export function toast(text, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = document.createElement('div');
  item.className = `toast ${kind}`;
  item.textContent = text;
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 6000 : 3000);
}
