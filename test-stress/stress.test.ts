// `npm run test:stress`: the full stress suite (minutes). The parts run one after another so
// their figures do not disturb each other. STRESS_SCALE=short runs the same at the short scale.

import { registerStressTests } from './lib/suite.js';
import { stressPlan } from './lib/scale.js';

registerStressTests(stressPlan('full'));
