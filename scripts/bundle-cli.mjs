// Bundles the built CLI (dist/cli/main.js) into one ES module, dist/hashline.mjs, with esbuild
// (installed with tsx). One file loads faster than the ~300 modules the SDK, zod and ajv bring in:
// `node dist/hashline.mjs mcp` is what the cold-start benchmark compares as "bundled".
// Native and grammar packages (@ast-grep/*) stay external and load lazily from node_modules.
// --no-ajv swaps the SDK's ajv-backed JSON Schema validator for a stub (the server only uses it to
// check elicitation answers, which hashline never asks for), to measure what ajv's load costs.
// Usage: node scripts/bundle-cli.mjs [--out FILE] [--entry FILE] [--no-ajv]   (FILE must sit one level under a
// folder holding package.json, like dist/, because the version is read from ../package.json)
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' }, entry: { type: 'string' }, 'no-ajv': { type: 'boolean' }, split: { type: 'boolean' } } });

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

const started = Date.now();
// chunk names carry content hashes: clear the old ones so bin/ holds exactly one build
if (values.split) rmSync(path.join(repo, 'bin'), { recursive: true, force: true });
// --split: the shipped bin. One entry per output folder (`bin/hashline.mjs`), each subcommand in its own
// chunk (the CLI imports them dynamically), so `hashline mcp` loads neither fastify nor tar.
const output = values.split
  ? { outdir: path.join(repo, 'bin'), splitting: true, entryNames: 'hashline', chunkNames: 'hashline-[name]-[hash]', outExtension: { '.js': '.mjs' } }
  : { outfile };
await build({
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
  external: ['@ast-grep/*'],
  banner: { js: "import { createRequire as __hashlineRequire } from 'node:module'; const require = __hashlineRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: values['no-ajv'] ? [noAjv] : [],
});
process.stderr.write(`bundled ${values.split ? 'bin/hashline.mjs' : path.relative(repo, outfile)} in ${Date.now() - started} ms\n`);
