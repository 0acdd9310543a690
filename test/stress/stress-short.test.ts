// The stress suite at its short scale (seconds), inside `npm test`: the same code as
// `npm run test:stress` (test-stress/), with fewer clients, trials and cases. Its parts are spread
// over three files so they run side by side (short-parts.ts): this one takes the rest.

import { registerStressTests } from '../../test-stress/lib/suite.js';
import { stressPlan } from '../../test-stress/lib/scale.js';
import { OTHER_PARTS } from './short-parts.js';

registerStressTests(stressPlan('short'), OTHER_PARTS);
