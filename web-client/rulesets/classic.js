//! The classic play UI (placeholder until its engine's JSON lands).

import { generic } from './generic.js';

export const classic = generic('classic');
