//! The capitals play UI (placeholder until its engine's JSON lands).

import { generic } from './generic.js';

export const capitals = generic('capitals');
