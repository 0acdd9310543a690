// A process that flips a directory between itself and a symbolic link to `outside` (rename it aside,
// link, unlink, rename it back) until told to stop: the attacker of the swap-race tests. Tests race
// it for a number of attempts, not a time, so a busy machine makes them slower, never wrong.

import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';

export interface Flipper {
  /** Resolves once the first flip was tried. */
  readonly ready: Promise<void>;
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts flipping `dir`; it stops when `stopFile` exists (made by `stop()`, then removed). */
export function flipDirectory(dir: string, outside: string, stopFile: string): Flipper {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs=require('fs');const d=${JSON.stringify(dir)},m=d+'.real',o=${JSON.stringify(outside)},stop=${JSON.stringify(stopFile)};
       for(let k=0;!fs.existsSync(stop);k++){try{fs.renameSync(d,m);fs.symlinkSync(o,d);fs.unlinkSync(d);fs.renameSync(m,d);}catch{}if(k===0)process.stdout.write('ready\\n');}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    void exited.then(() => reject(new Error('the flipper exited before it started')));
  });
  return {
    ready,
    stop: async () => {
      await fsp.writeFile(stopFile, '');
      await exited;
      await fsp.rm(stopFile, { force: true });
    },
  };
}
