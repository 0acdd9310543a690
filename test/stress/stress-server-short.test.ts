// The stress suite's server parts (kill -9 mid edit batch, fuzzing, the daemon under load) at the
// short scale, inside `npm test` (see stress-short.test.ts).

import { registerStressTests } from '../../test-stress/lib/suite.js';
import { stressPlan } from '../../test-stress/lib/scale.js';
import { SERVER_PARTS } from './short-parts.js';

registerStressTests(stressPlan('short'), SERVER_PARTS);
