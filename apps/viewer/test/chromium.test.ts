/**
 * The viewer in real headless Chromium (Debian's `chromium`, driven by `playwright-core`): the page is built with
 * `build.mjs` into `apps/viewer/out` (always, so the test never sees a stale bundle), served with the files by a
 * local HTTP server that answers range requests, and opened with `?url=` (read with `fetchSource`) and with the file
 * picker (read through a Blob). The DOM must hold as many row-group, column-chunk and page elements as the file has
 * (counted by hyparquet and Apache Thrift, see peers.ts), the schema tree's leaves must be the file's leaf columns
 * (hyparquet's schema), the first rows' cells must equal Node's read, and hovering must show the statistics (chunk
 * statistics as Node decodes them, page bounds from the ColumnIndex as hyparquet decodes them) and the page index
 * and bloom filter presence. A screenshot of the sample file is saved to `apps/viewer/out/screenshot.png` (the CI
 * artifact; its path is printed).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetMetadata, parquetSchema, readColumnIndex } from 'hyparquet';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
import { allCodecs, writeParquet } from 'parquetry';
import { buildViewer } from '../build.mjs';
import { peerChunks } from './peers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const outDir = path.join(here, '..', 'out');
const corpus = path.resolve(repo, '../shared/parquet-testing/data');
// CI installs Chromium (.ci/run); a developer machine without it skips, CI never does
const RUN = fs.existsSync(CHROMIUM) || process.env.CI !== undefined;

const FILES: Record<string, string> = {
  'sample.parquet': path.join(repo, 'fixtures/sample/sample.parquet'),
  'alltypes_tiny_pages.parquet': path.join(corpus, 'alltypes_tiny_pages.parquet'),
  'data_index_bloom_encoding_with_length.parquet': path.join(corpus, 'data_index_bloom_encoding_with_length.parquet'),
  // written in beforeAll: BROTLI (the corpus's BROTLI file holds a 1 GiB string, too heavy for a test)
  'brotli.parquet': path.join(os.tmpdir(), `viewer-brotli-${process.pid}.parquet`),
};

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.wasm': 'application/wasm' };

let server: http.Server;
let base = '';
let browser: Browser | undefined;
const requests: string[] = [];

/** Serves `out/` and, under `/files/`, the test files with byte ranges. */
function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  requests.push(`${req.method} ${url.pathname} ${req.headers.range ?? ''}`);
  let file: string | undefined;
  if (url.pathname.startsWith('/files/')) file = FILES[decodeURIComponent(url.pathname.slice('/files/'.length))];
  else {
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const abs = path.resolve(outDir, rel);
    if (abs.startsWith(outDir + path.sep) && fs.existsSync(abs) && fs.statSync(abs).isFile()) file = abs;
  }
  if (!file) return void res.writeHead(404).end();
  const body = fs.readFileSync(file);
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  const size = body.length;
  const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (!m) return void res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Accept-Ranges': 'bytes' }).end(req.method === 'HEAD' ? undefined : body);
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  res.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
  res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
}

beforeAll(async () => {
  if (!RUN) return;
  const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, word: `w${i % 17}`, x: i % 5 === 0 ? null : i / 4 }));
  fs.writeFileSync(FILES['brotli.parquet']!, await writeParquet(rows, { compression: 'BROTLI', pageRows: 64, rowGroupRows: 150 }));
  const built = await buildViewer(outDir);
  expect(built.files).toEqual(expect.arrayContaining(['index.html', 'viewer.js', 'viewer.css']));
  server = http.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  fs.rmSync(FILES['brotli.parquet']!, { force: true });
});

/** What the file holds, read in Node without the viewer. */
async function expected(file: string) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const meta = parquetMetadata(bytes.slice().buffer);
  const chunks = peerChunks(bytes);
  const leaves: string[] = [];
  const walk = (node: ReturnType<typeof parquetSchema>, pathSoFar: string[]) => {
    for (const child of node.children) {
      const p = [...pathSoFar, child.element.name];
      if (child.children.length === 0) leaves.push(p.join('.'));
      else walk(child, p);
    }
  };
  walk(parquetSchema(meta), []);
  const ours = await openParquet(bytes, { codecs: await allCodecs() });
  // a file whose first rows cannot be read (a 1 GiB string) has the reader's error message instead
  let rows: Record<string, unknown>[] | undefined;
  let rowsError: string | undefined;
  try {
    rows = await ours.readRows({ rowEnd: 20, values: 'json' });
  } catch (e) {
    rowsError = (e as Error).message;
  }
  const fields = ours.schema.root.children.map((c) => c.name);
  const cell = (v: unknown) => (v === null || v === undefined ? 'null' : typeof v === 'string' ? v : JSON.stringify(v));
  return {
    bytes,
    meta,
    ours,
    rowGroups: meta.row_groups.length,
    chunks: meta.row_groups.reduce((a, g) => a + g.columns.length, 0),
    pages: chunks.flat().reduce((a, c) => a + c.pages.length, 0),
    pagesPerChunk: chunks.flat().map((c) => c.pages.length),
    leaves,
    header: rows ? ['#', ...fields] : [],
    cells: rows ? rows.map((r, i) => [String(i), ...fields.map((f) => cell(r[f]))]) : [],
    rowsError,
  };
}

interface Dom {
  state: string | undefined;
  status: string;
  rowGroups: number;
  chunks: number;
  pages: number;
  pagesPerChunk: number[];
  overviewRowGroups: number;
  leaves: string[];
  header: string[];
  cells: string[][];
  problems: string[];
  rowsError: string | undefined;
}

async function readDom(page: Page): Promise<Dom> {
  return page.evaluate(() => {
    const all = (s: string) => Array.from(document.querySelectorAll(s));
    return {
      state: document.body.dataset.state,
      status: document.getElementById('status')?.textContent ?? '',
      rowGroups: all('[data-kind="row-group"]').length,
      chunks: all('[data-kind="chunk"]').length,
      pages: all('[data-kind="page"]').length,
      pagesPerChunk: all('[data-kind="chunk"]').map((c) => c.querySelectorAll('[data-kind="page"]').length),
      overviewRowGroups: all('[data-kind="overview-row-group"]').length,
      leaves: all('[data-kind="schema-leaf"]').map((e) => (e as HTMLElement).title),
      header: all('table.rows thead th').map((e) => e.textContent ?? ''),
      cells: all('table.rows tbody tr').map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')),
      problems: all('.problems li').map((e) => e.textContent ?? ''),
      rowsError: document.querySelector('.rows-box .error')?.textContent ?? undefined,
    };
  });
}

async function open(page: Page, how: () => Promise<unknown>): Promise<Dom> {
  await how();
  await page.waitForFunction(() => document.body.dataset.state === 'ready' || document.body.dataset.state === 'error', undefined, { timeout: 60_000 });
  return readDom(page);
}

async function tooltip(page: Page): Promise<string[]> {
  await page.waitForSelector('#tooltip:not([hidden])');
  return page.$$eval('#tooltip > *', (els) => els.map((e) => e.textContent ?? ''));
}

async function expectDom(dom: Dom, want: Awaited<ReturnType<typeof expected>>): Promise<void> {
  expect(dom.status).toBe('');
  expect(dom.state).toBe('ready');
  expect(dom.problems).toEqual([]);
  expect(dom.rowGroups).toBe(want.rowGroups);
  expect(dom.overviewRowGroups).toBe(want.rowGroups);
  expect(dom.chunks).toBe(want.chunks);
  expect(dom.pages).toBe(want.pages);
  expect(dom.pagesPerChunk).toEqual(want.pagesPerChunk);
  expect(dom.leaves).toEqual(want.leaves);
  expect(dom.header).toEqual(want.header);
  expect(dom.cells).toEqual(want.cells);
  expect(dom.rowsError).toBe(want.rowsError === undefined ? undefined : `The rows could not be read: ${want.rowsError}`);
}

describe.skipIf(!RUN)('the viewer in headless Chromium', () => {
  test('the sample file by ?url=: layout, schema, first rows, chunk statistics on hover; screenshot', async () => {
    const want = await expected(FILES['sample.parquet']!);
    expect(want.cells).toHaveLength(20);
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(String(e)));
    requests.length = 0;
    const dom = await open(page, () => page.goto(`${base}/index.html?url=/files/sample.parquet`));
    await expectDom(dom, want);
    expect(logs.filter((l) => /error/i.test(l))).toEqual([]);
    // read with range requests, not whole
    expect(requests.filter((r) => r.startsWith('GET /files/sample.parquet bytes=')).length).toBeGreaterThan(0);
    expect(requests.filter((r) => r === 'GET /files/sample.parquet ')).toEqual([]);

    // hover the first chunk's lane label: its statistics as Node decodes them, no page index, no bloom filter
    const stats = (await want.ours.statistics(0, 0, { values: 'json' }))!;
    expect(stats.min).toBe(0); // sanity: the id column starts at 0
    await page.hover('[data-kind="chunk"][data-rg="0"][data-col="0"] text');
    const chunkTip = await tooltip(page);
    expect(chunkTip[0]).toBe('Row group 0 · column id');
    expect(chunkTip).toContain(`min: ${JSON.stringify(stats.min)}`);
    expect(chunkTip).toContain(`max: ${JSON.stringify(stats.max)}`);
    expect(chunkTip).toContain(`null count: ${stats.nullCount}`);
    expect(chunkTip).toContain('codec: SNAPPY');
    expect(chunkTip).toContain('column index: no');
    expect(chunkTip).toContain('offset index: no');
    expect(chunkTip).toContain('bloom filter: no');
    // and hyparquet's reading of the same footer statistics agrees
    const peerStats = want.meta.row_groups[0]!.columns[0]!.meta_data!.statistics!;
    expect(Number(peerStats.min_value)).toBe(stats.min);
    expect(Number(peerStats.max_value)).toBe(stats.max);

    // hover the name column's dictionary page (the page tooltip)
    const nameDict = '[data-kind="page"][data-rg="0"][data-col="1"][data-page="0"]';
    await page.hover(nameDict);
    const pageTip = await tooltip(page);
    expect(pageTip[0]).toBe('Row group 0 · column name · page 0 (dictionary page)');
    expect(pageTip.some((l) => l.startsWith('encoding: PLAIN · codec: SNAPPY'))).toBe(true);

    const shot = path.join(outDir, 'screenshot.png');
    // the name chunk drawn across the width (dictionary page + data page), a tooltip open
    await page.click('[data-kind="chunk"][data-rg="0"][data-col="1"] text');
    expect(await page.$$('[data-kind="detail-page"]')).toHaveLength(want.pagesPerChunk[1]!);
    await page.hover('[data-kind="chunk"][data-rg="0"][data-col="0"] text');
    await page.screenshot({ path: shot, fullPage: true });
    const png = fs.readFileSync(shot);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    console.log(`viewer screenshot (CI artifact): ${shot} (${png.length} bytes)`);
    await page.close();
  });

  test('a corpus file with the page index by ?url=: thousands of pages, page bounds from the ColumnIndex on hover', async () => {
    const name = 'alltypes_tiny_pages.parquet';
    const want = await expected(FILES[name]!);
    expect(want.pages).toBeGreaterThan(5000);
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const dom = await open(page, () => page.goto(`${base}/index.html?url=/files/${name}`));
    await expectDom(dom, want);
    // column 0 (id, INT32): the widest data page, and its bounds as hyparquet reads the ColumnIndex
    const cc = want.meta.row_groups[0]!.columns[0]!;
    const ciAt = Number(cc.column_index_offset);
    const ci = readColumnIndex({ view: new DataView(want.bytes.slice().buffer, ciAt, cc.column_index_length!), offset: 0 }, want.meta.schema[1]!);
    const widest = await page.$$eval('[data-kind="page"][data-rg="0"][data-col="0"]', (els) => {
      // the widest in bytes (the lane draws every page at least a hairline wide, so compare the width attributes)
      let best = els[0]!;
      for (const e of els) if (Number(e.getAttribute('width')) > Number(best.getAttribute('width'))) best = e;
      return Number((best as SVGElement).dataset.page);
    });
    const first = peerChunks(want.bytes)[0]![0]!.pages[0]!.type === 2 ? 1 : 0; // a dictionary page is not in the index
    // pages of a few hundred bytes in a 450 KB row group are hairlines that overlap in the lane: a click on the lane
    // draws the chunk across the whole width, one element per page, where the pointer can reach each
    await page.click('[data-kind="chunk"][data-rg="0"][data-col="0"] text');
    expect(await page.$$('[data-kind="detail-page"]')).toHaveLength(want.pagesPerChunk[0]!);
    await page.hover(`[data-kind="detail-page"][data-rg="0"][data-col="0"][data-page="${widest}"]`);
    const tip = await tooltip(page);
    expect(tip[0]).toBe(`Row group 0 · column id · page ${widest} (data page)`);
    expect(tip).toContain(`column index min: ${JSON.stringify(ci.min_values[widest - first])} (a bound)`);
    expect(tip).toContain(`column index max: ${JSON.stringify(ci.max_values[widest - first])} (a bound)`);
    await page.hover('[data-kind="chunk"][data-rg="0"][data-col="0"] text');
    const chunkTip = await tooltip(page);
    expect(chunkTip.some((l) => l.startsWith('column index: yes'))).toBe(true);
    expect(chunkTip.some((l) => l.startsWith('offset index: yes'))).toBe(true);
    expect(chunkTip.some((l) => l.startsWith('pages: ') && l.endsWith('(from the offset index)'))).toBe(true);
    await page.close();
  });

  test('local files through the file picker (a Blob source): bloom filter presence; BROTLI loaded lazily', async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${base}/index.html`);
    for (const name of ['data_index_bloom_encoding_with_length.parquet', 'brotli.parquet']) {
      const want = await expected(FILES[name]!);
      requests.length = 0;
      await page.evaluate(() => (document.body.dataset.state = 'idle'));
      const dom = await open(page, () => page.setInputFiles('#file', FILES[name]!));
      await expectDom(dom, want);
      expect(requests.filter((r) => r.includes('/files/'))).toEqual([]);
      if (name.includes('bloom')) {
        await page.hover('[data-kind="chunk"][data-rg="0"][data-col="0"] text');
        const tip = await tooltip(page);
        const len = Number(want.meta.row_groups[0]!.columns[0]!.meta_data!.bloom_filter_length);
        const at = Number(want.meta.row_groups[0]!.columns[0]!.meta_data!.bloom_filter_offset);
        // e.g. "bloom filter: yes, 2.0 KiB (2,064 B) at byte 253"
        const line = tip.find((l) => l.startsWith('bloom filter: '));
        expect(line).toMatch(new RegExp(`^bloom filter: yes, (.* \\()?${len.toLocaleString('en-US')} B\\)? at byte ${at}$`));
        expect(await page.$$('[data-kind="region"]')).not.toHaveLength(0);
      } else {
        // the BROTLI codec came as a lazy chunk, fetched for the first BROTLI file
        expect(want.cells.length).toBe(20);
        expect(want.rowGroups).toBe(2);
        expect(requests.some((r) => /^GET \/chunks\/.+\.js/.test(r))).toBe(true);
      }
    }
    await page.close();
  }, 120_000);
});
