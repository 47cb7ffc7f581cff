/**
 * Browser bundle sizes: each entry under `entries/ours/` (and hyparquet's equivalent under `entries/hyparquet/`)
 * bundled as a user's app would be — esbuild `--bundle --format=esm --minify --platform=browser`, with code
 * splitting so that `import()` chunks stay lazy — then measured minified and gzip -9. The initial load of an entry is
 * its output file plus every chunk it imports statically; the lazy chunks are reported apart.
 *
 * Workspace packages are bundled from their TypeScript sources (as the tests import them), so no build is needed;
 * esbuild honours each package's `sideEffects: false` from its package.json as it would for the published `dist/`.
 *
 * Command line: `node tools/bundle-size/bundle-size.mjs` prints the table;
 * `node tools/bundle-size/bundle-size.mjs --analyze reader-snappy` prints what the initial load of one entry holds
 * (esbuild's analysis: the bytes each module contributes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Maps `@parquetry/x` to `packages/x/src/index.ts`, `@parquetry/x/sub` to `packages/x/src/sub.ts` and `parquetry` to the umbrella's source, as vitest does. */
const workspaceSources = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^(parquetry|@parquetry\/[a-z0-9-]+)(\/[a-z0-9-]+)?$/ }, (args) => {
      const [name, sub] = args.path.startsWith('@') ? [args.path.split('/').slice(0, 2).join('/'), args.path.split('/')[2]] : args.path.split('/');
      const dir = name === 'parquetry' ? 'parquetry' : name.slice('@parquetry/'.length);
      const file = path.join(root, 'packages', dir, 'src', `${sub ?? 'index'}.ts`);
      return fs.existsSync(file) ? { path: file } : undefined;
    });
  },
};

/** The entry names: files under `entries/ours/`, without `.js`. */
export function entryNames() {
  return fs
    .readdirSync(path.join(here, 'entries', 'ours'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/**
 * Bundles one entry file for the browser as the measures do (esbuild, ESM, minified, code splitting, WebAssembly as
 * files, workspace packages from source) and finds its initial load: the entry's own output and every output it
 * imports statically (an `import()` target is an entry point of the metafile too, so the entry is found by its path).
 * @param {string} entry - path of the entry file.
 * @param {string} outdir - where esbuild writes.
 * @param {{ sourcemap?: boolean }} [options] - `sourcemap`: external source maps beside the outputs.
 * @returns {Promise<{ metafile: import('esbuild').Metafile, initial: Set<string>, entryOut: string }>}
 */
export async function buildEntry(entry, outdir, options = {}) {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    splitting: true,
    outdir,
    metafile: true,
    ...(options.sourcemap ? { sourcemap: 'external' } : {}),
    write: true,
    logLevel: 'silent',
    // WebAssembly and other assets referenced by `new URL(..., import.meta.url)` are fetched at run time
    loader: { '.wasm': 'file' },
    plugins: [workspaceSources],
  });
  const outputs = result.metafile.outputs;
  const entryOut = Object.keys(outputs).find((o) => outputs[o].entryPoint !== undefined && path.resolve(outputs[o].entryPoint) === path.resolve(entry));
  if (entryOut === undefined) throw new Error(`bundle-size: esbuild produced no entry output for ${entry}`);
  const initial = new Set();
  const visit = (o) => {
    if (initial.has(o)) return;
    initial.add(o);
    for (const imp of outputs[o]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(entryOut);
  return { metafile: result.metafile, initial, entryOut };
}

/**
 * The modules an `import()` of a codec targets (matched against the end of a lazy chunk's entry point), and the
 * codecs it gives: the table reports what each one loads.
 * @type {[string, string][]}
 */
const CODEC_CHUNKS = [
  ['parquet-codecs/src/snappy-kernel.ts', 'SNAPPY kernel (WebAssembly; a speed-up, not waited for)'],
  ['parquet-codecs/src/lz4.ts', 'LZ4, LZ4_RAW'],
  ['parquet-codecs/src/lzo.ts', 'LZO'],
  ['codec-gzip/src/gzip.ts', 'GZIP'],
  ['codec-zstd/src/zstd-decoder.ts', 'ZSTD'],
  ['parquetry/src/lazy/zstd.ts', 'ZSTD (WebAssembly; + zstd.wasm)'],
  ['parquetry/src/lazy/brotli.ts', 'BROTLI (WebAssembly)'],
];

/**
 * Bundles one entry file and measures its initial load and lazy chunks.
 * @param {string} entry - path of the entry file.
 * @returns {Promise<import('./bundle-size.d.mts').Measure>}
 */
export async function measureEntry(entry) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-size-'));
  try {
    const { metafile: meta, initial, entryOut } = await buildEntry(entry, outdir);
    const outputs = meta.outputs;
    const sizeOf = (files) => {
      let min = 0;
      let gz = 0;
      for (const o of files) {
        const bytes = fs.readFileSync(path.resolve(process.cwd(), o));
        min += bytes.length;
        gz += gzipSync(bytes, { level: 9 }).length;
      }
      return { min, gz };
    };
    const js = Object.keys(outputs).filter((o) => o.endsWith('.js'));
    const lazyFiles = js.filter((o) => !initial.has(o));
    const main = sizeOf([...initial]);
    const lazy = sizeOf(lazyFiles);
    // what each codec's import() loads: its chunk and the chunks that one imports statically, less the initial load
    const codecLoads = [];
    for (const o of js) {
      const from = outputs[o].entryPoint;
      if (initial.has(o) || from === undefined) continue;
      const codec = CODEC_CHUNKS.find(([suffix]) => from.endsWith(suffix))?.[1];
      if (codec === undefined) continue;
      const files = new Set();
      const visit = (f) => {
        if (initial.has(f) || files.has(f)) return;
        files.add(f);
        for (const imp of outputs[f]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
      };
      visit(o);
      codecLoads.push({ codec, ...sizeOf([...files]), chunks: files.size });
    }
    codecLoads.sort((a, b) => (a.codec < b.codec ? -1 : 1));
    // which input modules end up in the initial load (for explaining a size)
    const inputs = {};
    for (const o of initial) for (const [k, v] of Object.entries(outputs[o].inputs)) inputs[k] = (inputs[k] ?? 0) + v.bytesInOutput;
    return { min: main.min, gz: main.gz, lazyMin: lazy.min, lazyGz: lazy.gz, lazyChunks: lazyFiles.length, codecLoads, inputs, metafile: meta, entryOut };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Measures every entry, ours and hyparquet's, against `budgets.json`.
 * @returns {Promise<import('./bundle-size.d.mts').Row[]>}
 */
export async function measureAll() {
  const budgets = readBudgets();
  const rows = [];
  for (const name of entryNames()) {
    const ours = await measureEntry(path.join(here, 'entries', 'ours', `${name}.js`));
    const peerFile = path.join(here, 'entries', 'hyparquet', `${name}.js`);
    const peer = fs.existsSync(peerFile) ? await measureEntry(peerFile) : undefined;
    const forbidden = Object.keys(ours.inputs).filter((k) => (budgets[name]?.forbid ?? []).some((f) => k.includes(f)));
    rows.push({ name, budget: budgets[name]?.gzip, target: budgets[name]?.target, description: budgets[name]?.description ?? '', ours, peer, forbidden });
  }
  return rows;
}

/**
 * The committed budgets: gzip -9 bytes of each entry's initial load.
 * @returns {Record<string, import('./bundle-size.d.mts').Budget>}
 */
export function readBudgets() {
  return JSON.parse(fs.readFileSync(path.join(here, 'budgets.json'), 'utf8')).entries;
}

const kb = (n) => (n / 1024).toFixed(1);

/**
 * The table as text, one row per entry.
 * @param {import('./bundle-size.d.mts').Row[]} rows
 * @returns {string}
 */
export function formatTable(rows) {
  const head = ['entry', 'target gz', 'budget gz', 'ours min', 'ours gz', 'lazy min / gz (chunks)', 'hyparquet min', 'hyparquet gz', 'status'];
  const body = rows.map((r) => [
    r.name,
    r.target === undefined ? '—' : `${kb(r.target)} KB`,
    r.budget === undefined ? '—' : `${kb(r.budget)} KB`,
    `${kb(r.ours.min)} KB`,
    `${kb(r.ours.gz)} KB`,
    r.ours.lazyChunks === 0 ? '—' : `${kb(r.ours.lazyMin)} / ${kb(r.ours.lazyGz)} KB (${r.ours.lazyChunks})`,
    r.peer ? `${kb(r.peer.min)} KB` : '—',
    r.peer ? `${kb(r.peer.gz)} KB` : '—',
    r.budget === undefined ? 'NO BUDGET' : r.ours.gz <= r.budget ? 'ok' : 'OVER',
  ]);
  const loads = rows.flatMap((r) => r.ours.codecLoads.map((l) => [r.name, l.codec, `${kb(l.min)} KB`, `${kb(l.gz)} KB`, String(l.chunks)]));
  const tables = [grid(head, body)];
  if (loads.length > 0) tables.push(`codecs loaded lazily (what the first page of each codec loads):\n${grid(['entry', 'codec', 'lazy min', 'lazy gz', 'chunks'], loads)}`);
  return tables.join('\n\n');
}

/**
 * A markdown-like table.
 * @param {string[]} head
 * @param {string[][]} body
 * @returns {string}
 */
function grid(head, body) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/**
 * The largest input modules of an entry's initial load.
 * @param {import('./bundle-size.d.mts').Measure} m
 * @param {number} [top]
 * @returns {string}
 */
export function formatInputs(m, top = 40) {
  return Object.entries(m.inputs)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `${String(v).padStart(8)}  ${path.relative(root, path.resolve(process.cwd(), k))}`)
    .join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--analyze');
  if (i >= 0) {
    const name = process.argv[i + 1] ?? 'reader-snappy';
    const which = process.argv.includes('--hyparquet') ? 'hyparquet' : 'ours';
    const m = await measureEntry(path.join(here, 'entries', which, `${name}.js`));
    console.log(`${name} (${which}): ${kb(m.min)} KB min, ${kb(m.gz)} KB gzip; lazy ${kb(m.lazyMin)} KB min in ${m.lazyChunks} chunk(s)`);
    console.log(formatInputs(m, Number(process.argv[i + 2] ?? 60)));
  } else {
    console.log(formatTable(await measureAll()));
  }
}
