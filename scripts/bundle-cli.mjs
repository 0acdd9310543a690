// Bundles the built CLI (dist/cli/main.js) into one ES module, dist/hashline.mjs, with esbuild
// (installed with tsx). One file loads faster than the ~300 modules the SDK, zod and ajv bring in:
// `node dist/hashline.mjs mcp` is what the cold-start benchmark compares as "bundled".
// Native and grammar packages (@ast-grep/*), pg and the SQL parser (libpg-query: WASM found
// beside its own script) stay external and load lazily from node_modules. The SQL validation worker's body is a
// second, small entry beside the CLI (hashline-sql-worker.mjs), so the worker thread loads nothing else; so is the archive read thread's
// (hashline-tar-read.mjs), and the Node.js version check every file of the CLI imports first (hashline-node-check.mjs).
// With --split, the code a start of `hashline mcp` runs is kept in one chunk (see oneStartChunk).
// --no-ajv swaps the SDK's ajv-backed JSON Schema validator for a stub (the server only uses it to
// check elicitation answers, which hashline never asks for), to measure what ajv's load costs.
// The web console's static files (src/http/console/assets/: HTML, ES modules, CSS) are copied as
// they are into dist/http/console/assets/, where dist/ modules find them beside themselves and the
// bundled bin/ finds them through ../dist/.
// Usage: node scripts/bundle-cli.mjs [--out FILE] [--entry FILE] [--no-ajv] [--split] [--metafile FILE: esbuild's map of inputs per output]   (FILE must sit one level under a
// folder holding package.json, like dist/, because the version is read from ../package.json)
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * --split: every module imported with `import()` (each subcommand, each tool, the registries ...)
 * also imports the mcp command's module, so the whole graph `hashline mcp` loads at start is
 * reached from every chunk's entry and esbuild puts it in one chunk: a start of `hashline mcp`
 * then loads 4 files instead of 27 (each ES module file costs a resolve, a read and a compile).
 * The other subcommands load that chunk too (the MCP SDK among it) in place of ~20 smaller ones.
 * `targets`: the modules imported with `import()`, from a first pass of esbuild (its metafile).
 */
function oneStartChunk(targets, hub) {
  const line = `\nimport ${JSON.stringify(hub)};\n`;
  return {
    name: 'one-start-chunk',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!targets.has(args.path)) return undefined;
        return { contents: readFileSync(args.path, 'utf8') + line, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The files (absolute) that the bundle of `options` imports with `import()`, other than `hub`; none when `hub` is not one of them. */
async function dynamicTargets(options, hub) {
  const pass = await build({ ...options, write: false, minify: false, metafile: true });
  const out = new Set();
  for (const input of Object.values(pass.metafile.inputs)) {
    for (const i of input.imports) if (i.kind === 'dynamic-import' && !i.external) out.add(path.resolve(i.path));
  }
  // only when `hub` is itself imported that way (the CLI's entry; not a bench server's)
  return out.delete(hub) ? out : new Set();
}

const SQL_WORKER_FILE = 'hashline-sql-worker.mjs';
const NODE_CHECK_FILE = 'hashline-node-check.mjs';
const TAR_READ_FILE = 'hashline-tar-read.mjs';
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
const cliOptions = {
  entryPoints: [path.resolve(values.entry ?? path.join(repo, 'dist/cli/main.js'))],
  ...output,
  bundle: true,
  platform: 'node',
  // ESM builds first: a UMD build (jsonc-parser's main) requires its parts at run time, which a bundle cannot
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node22',
  minify: true,
  legalComments: 'none',
  external: ['@ast-grep/*', 'libpg-query', 'pg'],
  // jsonc-parser's `main` is a UMD build whose factory requires its own files at run time, which a
  // bundle does not hold: bundle its ES module build instead
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // io/sql/sql-worker.ts and http/tar/tar-read-pool.ts start their workers from these files, next to the chunk that holds them
  define: { HASHLINE_SQL_WORKER: JSON.stringify(SQL_WORKER_FILE), HASHLINE_TAR_READ: JSON.stringify(TAR_READ_FILE), HASHLINE_TOOL_LISTING: JSON.stringify(TOOL_LISTING) },
  // every file of the CLI first imports the Node.js version check (bundled below), so an older Node is refused before any chunk runs
  banner: { js: `import './${NODE_CHECK_FILE}'; import { createRequire as __hashlineRequire } from 'node:module'; const require = __hashlineRequire(import.meta.url);` },
  logLevel: 'warning',
  plugins: values['no-ajv'] ? [noAjv] : [],
};
const MCP_COMMAND = path.join(repo, 'dist/cli/mcp-command.js');
if (values.split) {
  const targets = await dynamicTargets(cliOptions, MCP_COMMAND);
  if (targets.size > 0) cliOptions.plugins = [...cliOptions.plugins, oneStartChunk(targets, MCP_COMMAND)];
}
const cli = await build({ ...cliOptions, metafile: values.metafile !== undefined });
if (values.metafile !== undefined) writeFileSync(values.metafile, JSON.stringify(cli.metafile));
/** A worker thread's body, bundled as its own file beside the CLI (the CLI starts it by that name). */
const workerDir = values.split ? path.join(repo, 'bin') : path.dirname(outfile);
const bundleWorker = (entry, file, external = []) =>
  build({
    entryPoints: [path.join(repo, entry)],
    outfile: path.join(workerDir, file),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    legalComments: 'none',
    external,
    logLevel: 'warning',
  });
await bundleWorker('dist/io/sql/sql-worker-thread.js', SQL_WORKER_FILE, ['libpg-query']);
await bundleWorker('dist/cli/node-check.js', NODE_CHECK_FILE);
await bundleWorker('dist/http/tar/tar-read-thread.js', TAR_READ_FILE);
process.stderr.write(`bundled ${values.split ? 'bin/hashline.mjs' : path.relative(repo, outfile)} in ${Date.now() - started} ms\n`);
