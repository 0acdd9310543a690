// The console's static files (console.html, its three script modules, console.css), shipped as they are: no build
// step, no CDN. They live in src/http/console/assets/ and are copied to dist/http/console/assets/
// by the build; the bundled CLI (bin/) finds them in ../dist/. Read once, then served from memory.

import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

export const ASSET_NAMES = ['console.html', 'console.js', 'console-dom.js', 'console-diff.js', 'console-labels.js', 'console-guard.js', 'console.css', 'icon.svg'] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

/** Where the assets are: beside this module (sources, dist/), or dist/ beside the bundled bin/. */
export function assetDir(): string {
  const candidates = ['./assets/', '../dist/http/console/assets/', './http/console/assets/'];
  for (const c of candidates) {
    const dir = fileURLToPath(new URL(c, import.meta.url));
    try {
      if (statSync(`${dir}console.html`).isFile()) return dir;
    } catch {
      // next candidate
    }
  }
  throw new Error(`the console's assets are missing (looked for ${candidates.join(', ')} beside ${fileURLToPath(import.meta.url)}); reinstall hashline`);
}

let cache: Map<AssetName, Asset> | undefined;

/** Every asset, read on first use. */
export function consoleAssets(): ReadonlyMap<AssetName, Asset> {
  if (cache) return cache;
  const dir = assetDir();
  const loaded = new Map<AssetName, Asset>();
  for (const name of ASSET_NAMES) {
    loaded.set(name, { body: readFileSync(`${dir}${name}`), type: TYPES[name.slice(name.lastIndexOf('.') + 1)]! });
  }
  cache = loaded;
  return loaded;
}
