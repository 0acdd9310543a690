// The stress suite at its short scale (seconds), inside `npm test`: the same code as
// `npm run test:stress` (test-stress/), with fewer clients, trials and cases.

import { registerStressTests } from '../../test-stress/lib/suite.js';
import { stressPlan } from '../../test-stress/lib/scale.js';

registerStressTests(stressPlan('short'));
