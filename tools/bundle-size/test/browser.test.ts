/**
 * The browser bundles in real headless Chromium (Debian's `chromium`, driven by `playwright-core`): two pages are
 * bundled from source with esbuild (code splitting on, so the umbrella's lazy codec chunks are files of their own)
 * and served with the data files by a local 127.0.0.1 range server that counts requests and bytes per path.
 *
 * - the minimal reader (reader + fetchSource + SNAPPY + `@parquetry/codec-zstd`'s decoder) and the umbrella
 *   (`parquetry`'s openParquet) read the project's sample file (SNAPPY) and the corpus's nested ZSTD file
 *   (`nested_structs.rust.parquet`), each in one request of exactly the file's bytes, to the values Node reads;
 * - the umbrella loads nothing for the SNAPPY file, `zstd.wasm` and the ZSTD chunk once on the first ZSTD read, and
 *   for a BROTLI file written here the WebAssembly BROTLI chunk (bounded output; the plain-JavaScript decoder is not
 *   the default, see the parquetry README);
 * - the lazy-codecs reader (`lazyBuiltinCodecs(lazyGzipCodec(), lazyZstdDecoder())`, bundled apart) loads no codec
 *   chunk for the SNAPPY file and each codec's chunk once, on the first file of that codec (ZSTD, GZIP, LZ4_RAW, LZ4),
 *   to the values Node reads;
 * - served from a directory without `zstd.wasm`, the umbrella still reads the SNAPPY file, and the ZSTD read is a
 *   ParquetError (CODEC_UNAVAILABLE) naming ZSTD and the URL, with no uncaught error on the page, which goes on
 *   reading;
 * - the HTTP source's rare paths (retries, answers other than 206: parquet-reader's http-rare.ts) are a lazy chunk
 *   the minimal reader loads only for a server that needs them: not for 206 answers; once for a server ignoring
 *   `Range` (the file read whole, in one request) and for a server answering 503 once (the request retried).
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gzipSync } from 'node:zlib';
import { field, openParquet, writeParquet } from '../../../packages/parquetry/src/index.js';
import { buildEntry } from '../bundle-size.mjs';
import type { ReadKind } from './browser/read-kinds.page.js';
import type { ReadResult, ReadUrl } from './browser/read.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const CORPUS = path.resolve(repo, '../shared/parquet-testing/data');
// CI installs Chromium (.ci/run) and has the corpus; a developer machine without them skips, CI never does
const RUN = (fs.existsSync(CHROMIUM) && fs.existsSync(CORPUS)) || process.env.CI !== undefined;

/** Workspace packages from source, as vitest resolves them (`parquetry` is the umbrella). */
const workspaceSource: esbuild.Plugin = {
  name: 'workspace-source',
  setup(build) {
    build.onResolve({ filter: /^(parquetry|@parquetry\/[a-z0-9-]+(\/[a-z0-9-]+)?)$/ }, (args) => {
      if (args.path === 'parquetry') return { path: path.join(repo, 'packages/parquetry/src/index.ts') };
      const [, pkg, sub] = /^@parquetry\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(args.path)!;
      return { path: path.join(repo, 'packages', pkg!, 'src', `${sub ?? 'index'}.ts`) };
    });
  },
};

interface Served {
  body: Uint8Array;
  type: string;
}
/** Requests and bytes sent, by path. */
const counts = new Map<string, { requests: number; bytes: number }>();
/** What the server serves, by path. */
const servedFiles = new Map<string, Served>();
const count = (p: string) => ({ ...(counts.get(p) ?? { requests: 0, bytes: 0 }) });
const fetched = (prefix: string) => [...counts.keys()].filter((k) => k.startsWith(prefix)).sort();

let dir = '';
/**
 * The `reader-snappy` entry of the budget table, ours (/r/) and hyparquet's (/h/), each built exactly as
 * bundle-size.mjs measures it: the files of its initial load, by served path.
 */
const entryInitial: Record<'r' | 'h', string[]> = { r: [], h: [] };
/** read-kinds.page.ts (the reader-snappy entry with one function per kind of read), served under /k/: its entry file and the source modules of each output. */
const kinds = { entry: '', inputs: new Map<string, string[]>() };
let server: http.Server;
let base = '';
let browser: Browser | undefined;
const data: Record<string, Uint8Array> = {};
const expected: Record<string, unknown[]> = {};
/** The lazy chunks of the umbrella's codecs, by source module. */
const chunks: Record<'zstd' | 'brotli' | 'httpRare', string> = { zstd: '', brotli: '', httpRare: '' };
/** The lazy-codecs page's codec chunks (served under /c/), by the module its `import()` targets. */
const lazyChunks: Record<'zstd' | 'gzip' | 'lz4' | 'lzo', string> = { zstd: '', gzip: '', lz4: '', lzo: '' };
/** The corpus files the lazy-codecs page reads, with the codec chunk each one loads (none: SNAPPY). */
const LAZY_FILES: [string, keyof typeof lazyChunks | undefined][] = [
  ['sample.parquet', undefined],
  ['nested_structs.rust.parquet', 'zstd'],
  ['concatenated_gzip_members.parquet', 'gzip'],
  ['lz4_raw_compressed.parquet', 'lz4'],
  ['hadoop_lz4_compressed.parquet', 'lz4'],
];

beforeAll(async () => {
  if (!RUN) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-umbrella-browser-'));
  data['sample.parquet'] = new Uint8Array(fs.readFileSync(path.join(repo, 'fixtures/sample/sample.parquet')));
  for (const [name] of LAZY_FILES.slice(1)) data[name] = new Uint8Array(fs.readFileSync(path.join(CORPUS, name)));
  const rows = Array.from({ length: 500 }, (_, i) => ({ id: BigInt(i), text: `row ${i} `.repeat(1 + (i % 4)), tags: i % 3 ? [`a${i % 5}`, `b${i % 7}`] : [] }));
  data['brotli.parquet'] = await writeParquet(rows, { schema: { id: field.int64({ required: true }), text: field.string(), tags: field.list(field.string()) }, compression: 'BROTLI' });
  for (const [name, bytes] of Object.entries(data)) expected[name] = await (await openParquet(bytes)).readRows({ values: 'json' });

  const out = path.join(dir, 'out');
  const result = await esbuild.build({
    entryPoints: [path.join(here, 'browser/umbrella.page.ts'), path.join(here, 'browser/minimal.page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    outdir: out,
    metafile: true,
    plugins: [workspaceSource],
    logLevel: 'silent',
  });
  for (const [file, o] of Object.entries(result.metafile.outputs)) {
    const name = path.basename(file);
    if (o.entryPoint?.endsWith('parquetry/src/lazy/zstd.ts')) chunks.zstd = name;
    if (o.entryPoint?.endsWith('parquetry/src/lazy/brotli.ts')) chunks.brotli = name;
    if (o.entryPoint?.endsWith('parquet-reader/src/http-rare.ts')) chunks.httpRare = name;
  }
  // the lazy-codecs page apart: a build shared with the minimal page (which imports the codecs' main entry) would
  // place the codecs it reaches statically in chunks of their own
  const lazyOut = path.join(dir, 'lazy');
  const lazyResult = await esbuild.build({
    entryPoints: [path.join(here, 'browser/lazy-codecs.page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    outdir: lazyOut,
    metafile: true,
    plugins: [workspaceSource],
    logLevel: 'silent',
  });
  for (const [file, o] of Object.entries(lazyResult.metafile.outputs)) {
    for (const [key, suffix] of [['zstd', 'codec-zstd/src/zstd-decoder.ts'], ['gzip', 'codec-gzip/src/gzip.ts'], ['lz4', 'parquet-codecs/src/lz4.ts'], ['lzo', 'parquet-codecs/src/lzo.ts']] as const) {
      if (o.entryPoint?.endsWith(suffix)) lazyChunks[key] = path.basename(file);
    }
  }
  const require = createRequire(path.join(repo, 'packages/codec-zstd/package.json'));
  const wasm = new Uint8Array(fs.readFileSync(path.join(path.dirname(require.resolve('@bokuweb/zstd-wasm')), 'zstd.wasm')));

  // /a/: the bundle with zstd.wasm beside it; /b/: the same bundle without; /data/: the files
  const files = servedFiles;
  for (const f of fs.readdirSync(out)) {
    const body = new Uint8Array(fs.readFileSync(path.join(out, f)));
    for (const d of ['a', 'b']) files.set(`/${d}/${f}`, { body, type: 'text/javascript' });
  }
  for (const d of ['a', 'b']) {
    for (const page of ['umbrella', 'minimal']) {
      files.set(`/${d}/${page}.html`, { body: new TextEncoder().encode(`<!doctype html><meta charset="utf-8"><title>${page}</title><script type="module" src="./${page}.page.js"></script>`), type: 'text/html' });
    }
  }
  // the budget table's reader-snappy entry, ours and hyparquet's, built as bundle-size.mjs builds it (minified)
  for (const [d, who] of [['r', 'ours'], ['h', 'hyparquet']] as const) {
    const entryDir = path.join(dir, d);
    const built = await buildEntry(path.join(here, '..', 'entries', who, 'reader-snappy.js'), entryDir);
    entryInitial[d] = [...built.initial].map((o) => `/${d}/${path.basename(o)}`).sort();
    const entryFile = path.basename(built.entryOut);
    for (const f of fs.readdirSync(entryDir)) files.set(`/${d}/${f}`, { body: new Uint8Array(fs.readFileSync(path.join(entryDir, f))), type: 'text/javascript' });
    const script = `import { readRows } from './${entryFile}'; globalThis.readUrl = async (u) => JSON.stringify(await readRows(u), (k, v) => (typeof v === 'bigint' ? String(v) : v));`;
    files.set(`/${d}/entry.html`, { body: new TextEncoder().encode(`<!doctype html><meta charset="utf-8"><title>${who}</title><script type="module">${script}</script>`), type: 'text/html' });
  }
  const kindsDir = path.join(dir, 'k');
  const kindsBuilt = await buildEntry(path.join(here, 'browser/read-kinds.page.ts'), kindsDir);
  kinds.entry = path.basename(kindsBuilt.entryOut);
  for (const [o, meta] of Object.entries(kindsBuilt.metafile.outputs)) kinds.inputs.set(`/k/${path.basename(o)}`, Object.keys(meta.inputs));
  for (const f of fs.readdirSync(kindsDir)) files.set(`/k/${f}`, { body: new Uint8Array(fs.readFileSync(path.join(kindsDir, f))), type: 'text/javascript' });
  files.set('/k/page.html', { body: new TextEncoder().encode(`<!doctype html><meta charset="utf-8"><title>kinds</title><script type="module">import { read } from './${kinds.entry}'; globalThis.read = read;</script>`), type: 'text/html' });
  for (const f of fs.readdirSync(lazyOut)) files.set(`/c/${f}`, { body: new Uint8Array(fs.readFileSync(path.join(lazyOut, f))), type: 'text/javascript' });
  files.set('/c/lazy-codecs.html', { body: new TextEncoder().encode('<!doctype html><meta charset="utf-8"><title>lazy codecs</title><script type="module" src="./lazy-codecs.page.js"></script>'), type: 'text/html' });
  files.set('/a/zstd.wasm', { body: wasm, type: 'application/wasm' });
  for (const [name, body] of Object.entries(data)) {
    for (const d of ['data', 'norange', 'flaky']) files.set(`/${d}/${name}`, { body, type: 'application/octet-stream' });
  }

  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const f = files.get(url);
    const c = counts.get(url) ?? { requests: 0, bytes: 0 };
    c.requests++;
    counts.set(url, c);
    if (!f) return void res.writeHead(404).end();
    // /flaky/: the first request of each file fails with 503
    if (url.startsWith('/flaky/') && c.requests === 1) return void res.writeHead(503, { 'Cache-Control': 'no-store' }).end();
    const size = f.body.length;
    // /norange/: a server ignoring Range (the whole file, 200)
    const m = url.startsWith('/norange/') ? null : /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = size - 1;
    if (m) {
      start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
      end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
      res.writeHead(206, { 'Content-Type': f.type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' });
    } else {
      // no-store: every page fetches what it uses, so the counts are the page's own
      res.writeHead(200, { 'Content-Type': f.type, 'Content-Length': size, 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' });
    }
    if (req.method === 'HEAD') return void res.end();
    c.bytes += end - start + 1;
    res.end(f.body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens a page and collects its uncaught errors and console errors. */
async function open(url: string): Promise<{ page: Page; uncaught: string[]; consoleErrors: string[] }> {
  const page = await browser!.newPage();
  const uncaught: string[] = [];
  const consoleErrors: string[] = [];
  page.on('pageerror', (e) => uncaught.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => 'readUrl' in globalThis);
  return { page, uncaught, consoleErrors };
}

/** Reads a data file in the page (from `/data/`, or the directory given); returns the result and what the server saw for it. */
async function read(page: Page, name: string, dir = 'data'): Promise<{ result: ReadResult; requests: number; bytes: number }> {
  const before = count(`/${dir}/${name}`);
  const result = await page.evaluate(([u]) => (globalThis as unknown as { readUrl: ReadUrl }).readUrl(u!), [`${base}/${dir}/${name}`]);
  const after = count(`/${dir}/${name}`);
  return { result, requests: after.requests - before.requests, bytes: after.bytes - before.bytes };
}

describe.skipIf(!RUN)('headless Chromium', () => {
  test('reader-snappy, each kind of read of the sample: the JavaScript it loads in all; readRows, readRowGroupColumns and iterateBatches without a filter do not load the value mapping of filters and writers (from-js.ts, compare.ts) nor the JSON-safe mapping (json.ts, convert.ts), iterateBatches not the pruning stages', async () => {
    const gz = (p: string) => gzipSync(servedFiles.get(p)!.body, { level: 9 }).length;
    const file = await openParquet(data['sample.parquet']!);
    const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x));
    const batchRows: unknown[] = [];
    for await (const b of file.iterateBatches({ batchSize: 2 })) batchRows.push(...b.rows);
    const want: Record<ReadKind, string> = {
      rows: json(await file.readRows()),
      filter: json(await file.readRows({ filter: { column: 'id', op: '>=', value: 2n } })),
      columns: json((await file.readRowGroupColumns(0)).length),
      batches: json(batchRows),
    };
    const lines: string[] = [];
    const mapping: string[] = [];
    for (const kind of ['rows', 'columns', 'batches', 'filter'] as const) {
      const js = () => new Map(fetched('/k/').filter((p) => p.endsWith('.js')).map((p) => [p, count(p).requests]));
      const before = js();
      const page = await browser!.newPage();
      const uncaught: string[] = [];
      page.on('pageerror', (e) => uncaught.push(String(e)));
      await page.goto(`${base}/k/page.html`);
      await page.waitForFunction(() => 'read' in globalThis);
      const newer = (then: Map<string, number>) => [...js()].filter(([p, n]) => n > (then.get(p) ?? 0)).map(([p]) => p);
      const initial = newer(before);
      const opened = js();
      const got = await page.evaluate(([u, k]) => (globalThis as unknown as { read: (u: string, k: string) => Promise<string> }).read(u!, k!), [`${base}/data/sample.parquet`, kind]);
      expect(got, kind).toBe(want[kind]);
      const lazy = newer(opened);
      const lazyModules = lazy.flatMap((p) => kinds.inputs.get(p) ?? []);
      // a read without a filter (iterateBatches too, which loads the pruning stages only for a filter or a row range)
      // loads neither the value mapping nor, for batches, the pruning stages, the page index and the filter's evaluation
      if (kind === 'rows' || kind === 'columns' || kind === 'batches') mapping.push(...lazyModules.filter((m) => /parquet-column\/src\/(from-js|compare|json|convert)\.ts$/.test(m)).map((m) => `${kind}: ${m}`));
      if (kind === 'batches') mapping.push(...lazyModules.filter((m) => /parquet-reader\/src\/(pruned-scan|page-index|prune|filter|filter-mask)\.ts$/.test(m)).map((m) => `${kind}: ${m}`));
      const initialGz = initial.reduce((sum, p) => sum + gz(p), 0);
      const lazyGz = lazy.reduce((sum, p) => sum + gz(p), 0);
      if (process.env.KINDS_DEBUG) console.log(kind, lazy.map((p) => `${p} ${gz(p)}: ${(kinds.inputs.get(p) ?? []).map((m) => m.replace(/^.*packages\//, '')).join(' ')}`).join('\n'));
      lines.push(`${kind.padEnd(8)} initial ${initialGz} B + lazy ${lazyGz} B (${lazy.length} files) = ${initialGz + lazyGz} B gzip`);
      expect(uncaught).toEqual([]);
      await page.close();
    }
    console.log(`reader-snappy in Chromium, the sample read each way (gzip -9 of each file loaded):\n  ${lines.join('\n  ')}`);
    expect(mapping).toEqual([]);
  }, 120_000);

  test("the budget table's reader-snappy entry: what reading the sample (SNAPPY) loads in all, ours and hyparquet's, with the rows Node reads", async () => {
    const body = (p: string) => {
      const served = servedFiles.get(p);
      if (served === undefined) throw new Error(`not served: ${p}`);
      return served.body;
    };
    const gz = (p: string) => gzipSync(body(p), { level: 9 }).length;
    const nodeRows = JSON.stringify(await (await openParquet(data['sample.parquet']!)).readRows(), (k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    const lines: string[] = [];
    for (const [d, who] of [['r', 'ours'], ['h', 'hyparquet']] as const) {
      const page = await browser!.newPage();
      const uncaught: string[] = [];
      page.on('pageerror', (e) => uncaught.push(String(e)));
      await page.goto(`${base}/${d}/entry.html`);
      await page.waitForFunction(() => 'readUrl' in globalThis);
      // before a read, the page has loaded exactly the initial load bundle-size.mjs measures
      const js = () => fetched(`/${d}/`).filter((p) => p.endsWith('.js'));
      expect(js()).toEqual(entryInitial[d]);
      const rows = await page.evaluate(([u]) => (globalThis as unknown as { readUrl: (u: string) => Promise<string> }).readUrl(u!), [`${base}/data/sample.parquet`]);
      if (d === 'r') expect(rows).toBe(nodeRows);
      else expect(JSON.parse(rows)).toHaveLength(JSON.parse(nodeRows).length);
      const lazy = js().filter((p) => !entryInitial[d].includes(p));
      const initialGz = entryInitial[d].reduce((sum, p) => sum + gz(p), 0);
      const lazyGz = lazy.reduce((sum, p) => sum + gz(p), 0);
      lines.push(`${who}: initial ${entryInitial[d].length} file(s) ${initialGz} B gzip; the read loaded ${lazy.length} more, ${lazyGz} B gzip (${lazy.map((p) => `${p.slice(3)} ${gz(p)} B`).join(', ') || 'none'}); in all ${initialGz + lazyGz} B`);
      expect(uncaught).toEqual([]);
      await page.close();
    }
    console.log(`reader-snappy in Chromium, reading the sample (SNAPPY) with readRows():\n  ${lines.join('\n  ')}`);
  }, 120_000);

  test('the minimal reader: the sample (SNAPPY) and a nested ZSTD file, one request each, values as in Node', async () => {
    const { page, uncaught } = await open(`${base}/a/minimal.html`);
    for (const name of ['sample.parquet', 'nested_structs.rust.parquet']) {
      const r = await read(page, name);
      expect(r.result.error).toBeUndefined();
      expect(r.result.rows).toEqual(expected[name]);
      expect(r.requests).toBe(1);
      expect(r.bytes).toBe(data[name]!.length);
    }
    expect(uncaught).toEqual([]);
    await page.close();
  }, 120_000);

  test("the minimal reader loads the HTTP source's rare paths only when a server needs them: not for 206 answers; once for a server ignoring Range and for a 503 retried", async () => {
    expect(chunks.httpRare).toBeTruthy();
    const rare = `/a/${chunks.httpRare}`;
    const { page, uncaught } = await open(`${base}/a/minimal.html`);
    const before = count(rare).requests;
    const sample = await read(page, 'sample.parquet');
    expect(sample.result.rows).toEqual(expected['sample.parquet']);
    expect([sample.requests, sample.bytes]).toEqual([1, data['sample.parquet']!.length]);
    expect(count(rare).requests).toBe(before);

    // a server ignoring Range: the suffix request's 200 answer is the whole file, kept (one request in all)
    const whole = await read(page, 'nested_structs.rust.parquet', 'norange');
    expect(whole.result.error).toBeUndefined();
    expect(whole.result.rows).toEqual(expected['nested_structs.rust.parquet']);
    expect([whole.requests, whole.bytes]).toEqual([1, data['nested_structs.rust.parquet']!.length]);
    expect(count(rare).requests).toBe(before + 1);

    // 503 to the first request: retried after the backoff, then read as usual; the chunk is not fetched again
    const flaky = await read(page, 'sample.parquet', 'flaky');
    expect(flaky.result.error).toBeUndefined();
    expect(flaky.result.rows).toEqual(expected['sample.parquet']);
    expect([flaky.requests, flaky.bytes]).toEqual([2, data['sample.parquet']!.length]);
    expect(count(rare).requests).toBe(before + 1);
    expect(uncaught).toEqual([]);
    await page.close();
  }, 120_000);

  test('the umbrella: SNAPPY loads no codec; the first ZSTD read loads zstd.wasm once; BROTLI loads the WebAssembly BROTLI chunk once', async () => {
    const { page, uncaught } = await open(`${base}/a/umbrella.html`);
    expect(chunks.zstd && chunks.brotli).toBeTruthy();
    const sample = await read(page, 'sample.parquet');
    expect(sample.result.rows).toEqual(expected['sample.parquet']);
    expect([sample.requests, sample.bytes]).toEqual([1, data['sample.parquet']!.length]);
    expect(fetched('/a/').filter((p) => p.endsWith('.wasm') || [chunks.zstd, chunks.brotli].some((c) => p.endsWith(c)))).toEqual([]);

    const nested = await read(page, 'nested_structs.rust.parquet');
    expect(nested.result.error).toBeUndefined();
    expect(nested.result.rows).toEqual(expected['nested_structs.rust.parquet']);
    expect([nested.requests, nested.bytes]).toEqual([1, data['nested_structs.rust.parquet']!.length]);
    expect(count('/a/zstd.wasm').requests).toBe(1);
    expect(count(`/a/${chunks.zstd}`).requests).toBe(1);

    const brotli = await read(page, 'brotli.parquet');
    expect(brotli.result.error).toBeUndefined();
    expect(brotli.result.rows).toEqual(expected['brotli.parquet']);
    expect(count(`/a/${chunks.brotli}`).requests).toBe(1);
    // a second BROTLI read loads nothing more
    expect((await read(page, 'brotli.parquet')).result.rows).toEqual(expected['brotli.parquet']);
    expect(count(`/a/${chunks.brotli}`).requests).toBe(1);

    // a second ZSTD read loads nothing more
    expect((await read(page, 'nested_structs.rust.parquet')).result.rows).toEqual(expected['nested_structs.rust.parquet']);
    expect(count('/a/zstd.wasm').requests).toBe(1);
    console.log(`umbrella in Chromium, files fetched from /a/: ${fetched('/a/').map((p) => `${p.slice(3)} (${count(p).bytes} B)`).join(', ')}`);
    expect(uncaught).toEqual([]);
    await page.close();
  }, 120_000);

  test('the lazy-codecs reader: SNAPPY loads no codec chunk; ZSTD, GZIP and LZ4 each load their chunk once, on their first file', async () => {
    const { page, uncaught } = await open(`${base}/c/lazy-codecs.html`);
    expect(Object.values(lazyChunks).every((c) => c !== '')).toBe(true);
    const codecChunks = () => fetched('/c/').filter((p) => Object.values(lazyChunks).some((c) => p.endsWith(c)));
    // nothing but the page's initial load before a read
    expect(codecChunks()).toEqual([]);
    const loaded = new Set<string>();
    for (const [name, codec] of [...LAZY_FILES, ...LAZY_FILES]) {
      const r = await read(page, name);
      expect(r.result.error, name).toBeUndefined();
      expect(r.result.rows, name).toEqual(expected[name]);
      if (codec !== undefined) loaded.add(`/c/${lazyChunks[codec]}`);
      // exactly the chunks of the codecs read so far, each fetched once
      expect(codecChunks(), name).toEqual([...loaded].sort());
      for (const c of loaded) expect(count(c).requests, `${c} after ${name}`).toBe(1);
    }
    expect(loaded.has(`/c/${lazyChunks.lzo}`)).toBe(false);
    console.log(`lazy codecs in Chromium, files fetched from /c/: ${fetched('/c/').map((p) => `${p.slice(3)} (${count(p).bytes} B)`).join(', ')}`);
    expect(uncaught).toEqual([]);
    await page.close();
  }, 120_000);

  test('without zstd.wasm: SNAPPY still reads, ZSTD is a ParquetError naming the codec and the URL, nothing uncaught', async () => {
    const { page, uncaught, consoleErrors } = await open(`${base}/b/umbrella.html`);
    const sample = await read(page, 'sample.parquet');
    expect(sample.result.rows).toEqual(expected['sample.parquet']);
    const nested = await read(page, 'nested_structs.rust.parquet');
    expect(nested.result.rows).toBeUndefined();
    expect(nested.result.error).toMatchObject({ name: 'ParquetError', code: 'CODEC_UNAVAILABLE' });
    expect(nested.result.error!.message).toContain(`${base}/b/zstd.wasm`);
    expect(nested.result.error!.message).toMatch(/ZSTD/);
    expect(nested.result.error!.message).toMatch(/HTTP 404/);
    console.log(`without zstd.wasm: ${nested.result.error!.message}`);
    expect(count('/b/zstd.wasm').requests).toBe(1);
    // the page goes on: SNAPPY again, and the failed ZSTD read again (tried again, failing the same way)
    expect((await read(page, 'sample.parquet')).result.rows).toEqual(expected['sample.parquet']);
    expect((await read(page, 'nested_structs.rust.parquet')).result.error?.code).toBe('CODEC_UNAVAILABLE');
    expect(uncaught).toEqual([]);
    // the browser's own log of the 404 is the only console error
    expect(consoleErrors.filter((e) => !/404/.test(e))).toEqual([]);
    await page.close();
  }, 120_000);
});
