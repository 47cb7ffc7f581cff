/**
 * Strings longer than a JavaScript string may be, in real headless Chromium (Debian's `chromium`, driven by
 * `playwright-core`): Chromium's TextDecoder returns `""` for such input without an error, which would lose data
 * silently; the reader finds the length before decoding and throws VALUE_TOO_LARGE, as it does in Node. A file is
 * written here (LZ4_RAW: 4 MB on the wire for two values of 512 MiB), a tiny page is bundled with esbuild from the
 * reader's source, served with the file by a local range server, and read with `fetchSource`: the value at the limit
 * (2^29 − 24 bytes) reads whole, the one a byte longer is VALUE_TOO_LARGE, and `strings: 'bytes'` still returns it.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_STRING_LENGTH } from '@parquetry/parquet-column';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import type { PageReport } from './browser/too-large.page.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
// CI installs Chromium (.ci/run); a developer machine without it skips, CI never does
const RUN = fs.existsSync(CHROMIUM) || process.env.CI !== undefined;

/** Workspace packages from source, as vitest resolves them. */
const workspaceSource: esbuild.Plugin = {
  name: 'workspace-source',
  setup(build) {
    build.onResolve({ filter: /^@parquetry\/[a-z0-9-]+(\/[a-z0-9-]+)?$/ }, (args) => {
      const [, pkg, sub] = /^@parquetry\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(args.path)!;
      return { path: path.join(repo, 'packages', pkg!, 'src', `${sub ?? 'index'}.ts`) };
    });
  },
};

let dir = '';
let server: http.Server;
let base = '';
let browser: Browser | undefined;
const timings: Record<string, number> = {};

beforeAll(async () => {
  if (!RUN) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-chromium-'));
  let t = performance.now();
  // row group 0: a short string and one of exactly the limit; row group 1: one byte more
  const atLimit = new Uint8Array(MAX_STRING_LENGTH).fill(0x61);
  const over = new Uint8Array(MAX_STRING_LENGTH + 1).fill(0x62);
  const file = await writeParquet([{ s: 'short' }, { s: atLimit }, { s: over }], {
    schema: { s: field.string() },
    compression: 'LZ4_RAW',
    dictionary: false,
    statistics: false,
    // no page CRC: a checksum over 1 GiB of pages, written and verified, would double the test's time
    checksum: false,
    rowGroupRows: 2,
  });
  fs.writeFileSync(path.join(dir, 'too-large.parquet'), file);
  timings.writeMs = performance.now() - t;
  t = performance.now();
  const bundle = await esbuild.build({
    entryPoints: [path.join(here, 'browser/too-large.page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    plugins: [workspaceSource],
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]!.contents;
  timings.bundleMs = performance.now() - t;
  const files: Record<string, { body: Uint8Array; type: string }> = {
    '/': { body: new TextEncoder().encode('<!doctype html><meta charset="utf-8"><title>too large</title><script type="module" src="/page.js"></script>'), type: 'text/html' },
    '/page.js': { body: js, type: 'text/javascript' },
    '/too-large.parquet': { body: file, type: 'application/octet-stream' },
  };
  server = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end();
    const size = f.body.length;
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (!m) return void res.writeHead(200, { 'Content-Type': f.type, 'Content-Length': size, 'Accept-Ranges': 'bytes' }).end(req.method === 'HEAD' ? undefined : f.body);
    const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
    const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    res.writeHead(206, { 'Content-Type': f.type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
    res.end(req.method === 'HEAD' ? undefined : f.body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = performance.now();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  timings.launchMs = performance.now() - t;
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!RUN)('headless Chromium', () => {
  test('a string one byte over the limit is VALUE_TOO_LARGE, not "" (Chromium decodes it to "" silently)', async () => {
    const page = await browser!.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(String(e)));
    await page.goto(`${base}/`);
    await page.waitForFunction(() => 'runTooLarge' in globalThis);
    const t = performance.now();
    const report = await page.evaluate(async (url) => (globalThis as unknown as { runTooLarge(u: string): Promise<PageReport> }).runTooLarge(url), `${base}/too-large.parquet`);
    timings.readMs = performance.now() - t;
    console.log(`chromium: ${report.userAgent}; ms: ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])))}`);
    expect(logs.filter((l) => /error/i.test(l))).toEqual([]);
    expect(report.userAgent).toMatch(/HeadlessChrome|Chrome\//);
    // the value at the limit is read whole
    expect(report.groups[0]).toEqual({ rowGroup: 0, lengths: [5, MAX_STRING_LENGTH] });
    // one byte more: typed, named, never an empty string
    const g1 = report.groups[1]!;
    expect(g1.lengths).toBeUndefined();
    expect(g1.error).toMatchObject({ name: 'ParquetError', code: 'VALUE_TOO_LARGE' });
    expect(g1.error!.message).toMatch(/column 's': value 0 is 536870889 bytes of UTF-8, too long for a JavaScript string .* strings: 'bytes'/);
    // the bytes are all there
    expect(report.asBytes).toEqual([MAX_STRING_LENGTH + 1]);
    // what the library guards against: Chromium's own decoder gives "" (or throws, should a later version do so)
    console.log(`Chromium's TextDecoder on the same bytes: ${JSON.stringify(report.rawDecoder)}`);
    expect(report.rawDecoder.length === 0 || report.rawDecoder.error !== undefined, JSON.stringify(report.rawDecoder)).toBe(true);
    await page.close();
  }, 240_000);
});
