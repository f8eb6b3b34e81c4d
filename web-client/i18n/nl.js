//! Interface strings in nl (to be translated; English until then).

import en from './en.js';

/** @type {import('../lib/i18n.js').Dictionary} */
export default { ...en };
