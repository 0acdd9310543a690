// The stress suite's kill -9 trials at the short scale, inside `npm test` (see stress-short.test.ts).

import { registerStressTests } from '../../test-stress/lib/suite.js';
import { stressPlan } from '../../test-stress/lib/scale.js';
import { KILL_PARTS } from './short-parts.js';

registerStressTests(stressPlan('short'), KILL_PARTS);
