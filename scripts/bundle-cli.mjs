// Bundles the built CLI (dist/cli/main.js) into one ES module, dist/hashline.mjs, with esbuild
// (installed with tsx). One file loads faster than the ~300 modules the SDK, zod and ajv bring in:
// `node dist/hashline.mjs mcp` is what the cold-start benchmark compares as "bundled".
// Native and grammar packages (@ast-grep/*, better-sqlite3), pg and the SQL parser (libpg-query: WASM found
// beside its own script) stay external and load lazily from node_modules. The SQL validation worker's body is a
// second, small entry beside the CLI (hashline-sql-worker.mjs), so the worker thread loads nothing else.
// --no-ajv swaps the SDK's ajv-backed JSON Schema validator for a stub (the server only uses it to
// check elicitation answers, which hashline never asks for), to measure what ajv's load costs.
// The web console's static files (src/http/console/assets/: HTML, ES modules, CSS) are copied as
// they are into dist/http/console/assets/, where dist/ modules find them beside themselves and the
// bundled bin/ finds them through ../dist/.
// Usage: node scripts/bundle-cli.mjs [--out FILE] [--entry FILE] [--no-ajv] [--split] [--metafile FILE: esbuild's map of inputs per output]   (FILE must sit one level under a
// folder holding package.json, like dist/, because the version is read from ../package.json)
import { build } from 'esbuild';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' }, entry: { type: 'string' }, 'no-ajv': { type: 'boolean' }, split: { type: 'boolean' }, metafile: { type: 'string' } } });

/** Replaces the SDK's validation/ajv-provider.js with a validator that refuses to validate. */
const noAjv = {
  name: 'no-ajv',
  setup(b) {
    b.onLoad({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({
      contents:
        "export class AjvJsonSchemaValidator { getValidator() { throw new Error('hashline does not ask clients for input (elicitation), so this build has no JSON Schema validator'); } }",
      loader: 'js',
    }));
  },
};
const outfile = path.resolve(values.out ?? path.join(repo, 'dist/hashline.mjs'));

const SQL_WORKER_FILE = 'hashline-sql-worker.mjs';
// every tool's tools/list entry (JSON Schemas from zod), made once here from the compiled modules the
// bundle is made of, so a start of the bundled CLI converts no schema (src/mcp/tool-listing.ts)
const { ALL_TOOLS } = await import(pathToFileURL(path.join(repo, 'dist/tools/registry.js')).href);
const { listingJson } = await import(pathToFileURL(path.join(repo, 'dist/mcp/tool-listing.js')).href);
const TOOL_LISTING = listingJson(ALL_TOOLS);
const started = Date.now();
const consoleAssets = path.join(repo, 'dist/http/console/assets');
rmSync(consoleAssets, { recursive: true, force: true });
cpSync(path.join(repo, 'src/http/console/assets'), consoleAssets, { recursive: true });
// chunk names carry content hashes: clear the old ones so bin/ holds exactly one build
if (values.split) rmSync(path.join(repo, 'bin'), { recursive: true, force: true });
// --split: the shipped bin. One entry per output folder (`bin/hashline.mjs`), each subcommand in its own
// chunk (the CLI imports them dynamically), so `hashline mcp` loads neither fastify nor tar.
const output = values.split
  ? { outdir: path.join(repo, 'bin'), splitting: true, entryNames: 'hashline', chunkNames: 'hashline-[name]-[hash]', outExtension: { '.js': '.mjs' } }
  : { outfile };
const cli = await build({
  metafile: values.metafile !== undefined,
  entryPoints: [path.resolve(values.entry ?? path.join(repo, 'dist/cli/main.js'))],
  ...output,
  bundle: true,
  platform: 'node',
  // ESM builds first: a UMD build (jsonc-parser's main) requires its parts at run time, which a bundle cannot
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  external: ['@ast-grep/*', 'libpg-query', 'better-sqlite3', 'pg'],
  // jsonc-parser's `main` is a UMD build whose factory requires its own files at run time, which a
  // bundle does not hold: bundle its ES module build instead
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // io/sql-worker.ts starts its worker from this file, next to the chunk that holds it
  define: { HASHLINE_SQL_WORKER: JSON.stringify(SQL_WORKER_FILE), HASHLINE_TOOL_LISTING: JSON.stringify(TOOL_LISTING) },
  banner: { js: "import { createRequire as __hashlineRequire } from 'node:module'; const require = __hashlineRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: values['no-ajv'] ? [noAjv] : [],
});
if (values.metafile !== undefined) writeFileSync(values.metafile, JSON.stringify(cli.metafile));
await build({
  entryPoints: [path.join(repo, 'dist/io/sql-worker-thread.js')],
  outfile: path.join(values.split ? path.join(repo, 'bin') : path.dirname(outfile), SQL_WORKER_FILE),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  external: ['libpg-query'],
  logLevel: 'warning',
});
process.stderr.write(`bundled ${values.split ? 'bin/hashline.mjs' : path.relative(repo, outfile)} in ${Date.now() - started} ms\n`);
