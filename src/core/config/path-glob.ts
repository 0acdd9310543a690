// The `glob` filter of the navigation tools: a picomatch pattern matched against a path relative
// to the listed or searched directory; a pattern without `/` matches the base name at any depth
// (`*.ts`), one with `/` the whole relative path (`src/**/*.ts`). Dot files match.

import picomatch from 'picomatch';
import { HashlineError } from '../errors/errors.js';
import { badGlob } from '../messages/nav.js';

export function compileGlob(glob: string): (rel: string) => boolean {
  if (glob.trim() === '') throw new HashlineError('invalid_arguments', badGlob(glob, 'it is empty'), { details: { glob } });
  try {
    return picomatch(glob, { dot: true, basename: !glob.includes('/') });
  } catch (e) {
    throw new HashlineError('invalid_arguments', badGlob(glob, (e as Error).message), { details: { glob } });
  }
}
