//! The hexdice play UI (placeholder until its engine's JSON lands).

import { generic } from './generic.js';

export const hexdice = generic('hexdice');
