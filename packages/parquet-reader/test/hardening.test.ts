// Issue 16 (reader side): no silent row loss, and no tiny file that takes the process down. Every count a file
// states is checked against the others and against the bytes — levels per chunk against num_values, records against
// the row group's num_rows, row groups against the file's num_rows — in every read method; page types outside the
// enum are corrupt; and each read has a budget, charged before allocation. The corpus cases are the byte
// changes; the hostile files are written by hand (hostile.ts); memory is measured in a child process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { workspacePlugin } from '../../../tools/testing/workspace-plugin.mjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { decodeThrift, encodeThrift, readFileMetaData, readPageHeader, writeFileMetaData, writePageHeader } from '@parquetry/thrift-compact';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type ParquetFile, type ReadOptions } from '../src/index.js';
import { cat, hostileFiles, u32 } from './hostile.js';
import { gzipCodec } from '../../codec-gzip/src/index.js';
import { zstdDecoder } from '../../codec-zstd/src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const corpus = process.env.PARQUET_TESTING_DIR ?? path.resolve(repo, '../shared/parquet-testing');
const codecs = { ...builtinCodecs(), 2: gzipCodec, 6: zstdDecoder };
const load = (rel: string) => new Uint8Array(fs.readFileSync(path.join(corpus, rel)));

/** The typed error a read ends in (fails the test for a non-ParquetError or no error). */
async function codeOf(f: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await f();
  } catch (e) {
    const err = e as { name?: string; code?: string; message: string };
    if (err?.name !== 'ParquetError') throw e;
    return { code: err.code!, message: err.message };
  }
  throw new Error('the read succeeded');
}

/** Every read method over a file, collecting each whole. */
const methods: [string, (f: ParquetFile, o?: ReadOptions) => Promise<unknown>][] = [
  ['readRows', (f, o) => f.readRows(o)],
  ['iterateRowGroups', async (f, o) => {
    for await (const _ of f.iterateRowGroups(o));
  }],
  ['iterateBatches rows', async (f, o) => {
    for await (const _ of f.iterateBatches({ ...o, batchSize: 7 }));
  }],
  ['iterateBatches columns', async (f, o) => {
    for await (const _ of f.iterateBatches({ ...o, batchSize: 7, form: 'columns' }));
  }],
  ['readRowGroupColumns', async (f, o) => {
    for (let g = 0; g < f.metadata.row_groups.length; g++) await f.readRowGroupColumns(g, o);
  }],
  // a row range that cuts the last row off (of a one-row file: the whole row)
  ['readRows with a row range', (f, o) => f.readRows({ ...o, rowStart: 0, rowEnd: Math.max(1, f.numRows - 1) })],
  ['iterateBatches with a row range', async (f, o) => {
    for await (const _ of f.iterateBatches({ ...o, batchSize: 5, rowStart: 0, rowEnd: Math.max(1, f.numRows - 1) }));
  }],
  ['readColumnChunk', async (f) => {
    for (let g = 0; g < f.metadata.row_groups.length; g++) for (let c = 0; c < f.schema.columns.length; c++) await f.readColumnChunk(g, c);
  }],
];

/** A page header of the file at `at`, re-encoded after `change` (it must keep its length). */
function rewriteHeader(bytes: Uint8Array, at: number, change: (h: ReturnType<typeof readPageHeader>) => void): Uint8Array {
  const { value, end } = decodeThrift(readPageHeader, bytes, at, bytes.length, 0);
  change(value);
  const enc = encodeThrift(writePageHeader, value);
  expect(enc.length).toBe(end - at);
  const out = bytes.slice();
  out.set(enc, at);
  return out;
}

describe('no silent row loss: the corpus cases of issue 16', () => {
  test('data_index_bloom_encoding_stats.parquet, byte 5 0x00→0x01 (page type 1 → unknown): CORRUPT_PAGE, not 0 rows', async () => {
    const bytes = load('data/data_index_bloom_encoding_stats.parquet');
    expect(bytes[5]).toBe(0x00);
    const bad = bytes.slice();
    bad[5] = 0x01;
    const file = await openParquet(bad, { codecs });
    for (const [name, read] of methods) {
      const e = await codeOf(() => read(file));
      expect([name, e.code]).toEqual([name, 'CORRUPT_PAGE']);
      expect(e.message).toMatch(/row group 0, column '[^']+', page 0 at byte 4: page type/);
    }
    // unchanged, it reads its 14 rows
    expect((await (await openParquet(bytes, { codecs })).readRows()).length).toBe(14);
  });

  test('delta_length_byte_array.parquet, byte 5 0x06→0x46: a typed error in every read method, never 0 rows', async () => {
    const bytes = load('data/delta_length_byte_array.parquet');
    expect(bytes[5]).toBe(0x06);
    const bad = bytes.slice();
    bad[5] = 0x46;
    const file = await openParquet(bad, { codecs });
    for (const [name, read] of methods) {
      const e = await codeOf(() => read(file));
      expect([name, e.code]).toEqual([name, 'CORRUPT_PAGE']);
    }
    expect((await (await openParquet(bytes, { codecs })).readRows()).length).toBe(1000);
  });

  test("a page's num_values lowered (1,000 rows would become 996) or raised: an error in every read method, never 996 rows", async () => {
    // delta_length_byte_array.parquet: one DELTA_LENGTH_BYTE_ARRAY page V2 of 1,000 values (its lengths say 1,000:
    // the decoder notices when fewer are asked for); alltypes_plain.parquet: PLAIN pages V1 of 8 values, where only
    // the counts can tell
    for (const [rel, path, n, lowered] of [
      ['data/delta_length_byte_array.parquet', 'FRUIT', 1000, /ENCODING_CORRUPT|CORRUPT_PAGE/],
      ['data/alltypes_plain.parquet', 'id', 8, /CORRUPT_PAGE/],
    ] as const) {
      const bytes = load(rel);
      // the chunk's first data page (alltypes_plain's chunks start with a dictionary page)
      const at = (await openParquet(bytes, { codecs })).metadata.row_groups[0]!.columns[0]!.meta_data!.data_page_offset;
      for (const delta of [-4, 4]) {
        const bad = rewriteHeader(bytes, at, (h) => {
          (h.data_page_header ?? h.data_page_header_v2)!.num_values += delta;
        });
        const file = await openParquet(bad, { codecs });
        for (const [name, read] of methods) {
          const e = await codeOf(() => read(file));
          expect([rel, name, e.code]).toEqual([rel, name, expect.stringMatching(delta < 0 ? lowered : /CORRUPT_PAGE/)]);
          expect(e.message).toContain(`row group 0, column '${path}'`);
          if (e.code === 'CORRUPT_PAGE') expect(e.message).toContain(delta < 0 ? `hold ${n - 4} values, its num_values says ${n}` : `claims ${n + 4} values, but only ${n} of the chunk's num_values are left`);
        }
      }
    }
  });

  test('a footer claiming 2^53-1 rows, or rows its row groups do not hold: ROW_COUNT_MISMATCH at open', async () => {
    const bytes = load('data/delta_length_byte_array.parquet');
    const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
    const start = bytes.length - 8 - len;
    for (const rows of [2 ** 53 - 1, 999, 1001]) {
      const md = decodeThrift(readFileMetaData, bytes, start, bytes.length - 8, 0).value;
      md.num_rows = rows;
      const footer = encodeThrift(writeFileMetaData, md);
      const bad = cat(bytes.subarray(0, start), footer, u32(footer.length), bytes.subarray(bytes.length - 4));
      const e = await codeOf(() => openParquet(bad, { codecs }));
      expect(e.code).toBe('ROW_COUNT_MISMATCH');
      expect(e.message).toBe(`parquet-reader: the footer says the file has ${rows} rows, its 1 row groups hold 1000`);
    }
  });

  test('a row group whose num_rows disagrees with its chunks: ROW_COUNT_MISMATCH naming the column and both counts', async () => {
    // nested_lists.snappy.parquet: its list column has more levels than rows, so the records are counted
    for (const rel of ['data/nested_lists.snappy.parquet', 'data/delta_length_byte_array.parquet']) {
      const bytes = load(rel);
      const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
      const start = bytes.length - 8 - len;
      const md = decodeThrift(readFileMetaData, bytes, start, bytes.length - 8, 0).value;
      const rows = md.row_groups[0]!.num_rows;
      md.row_groups[0]!.num_rows = rows + 1;
      md.num_rows = rows + 1;
      const footer = encodeThrift(writeFileMetaData, md);
      const bad = cat(bytes.subarray(0, start), footer, u32(footer.length), bytes.subarray(bytes.length - 4));
      const file = await openParquet(bad, { codecs });
      for (const [name, read] of methods) {
        const e = await codeOf(() => read(file));
        expect([rel, name, e.code]).toEqual([rel, name, 'ROW_COUNT_MISMATCH']);
        expect(e.message).toContain(`the row group's num_rows`);
        expect(e.message).toContain(String(rows + 1));
      }
    }
  });

  test('the leading magic is checked when the head is in hand: NOT_PARQUET', async () => {
    const bad = load('data/alltypes_plain.parquet');
    bad[1] = 0x42;
    const e = await codeOf(() => openParquet(bad, { codecs }));
    expect(e.code).toBe('NOT_PARQUET');
    expect(e.message).toContain('the first 4 bytes are 50 42 52 31, not "PAR1"');
  });

  test('parquet-rs 0.3.0 wrote 0 as the file num_rows (repeated_no_annotation.parquet): read by its row groups, as the reference readers do', async () => {
    const file = await openParquet(load('data/repeated_no_annotation.parquet'), { codecs });
    expect(file.metadata.num_rows).toBe(0);
    expect(file.metadata.created_by).toMatch(/^parquet-rs version 0\.3\.0/);
    expect(file.numRows).toBe(6);
    expect((await file.readRows()).length).toBe(6);
  });
});

describe('tiny hostile files end in their typed error, quickly', () => {
  for (const h of hostileFiles()) {
    test(h.name, { timeout: 20_000 }, async () => {
      const t = performance.now();
      let file: ParquetFile;
      try {
        file = await openParquet(h.bytes, { codecs });
      } catch (e) {
        expect(h.codes).toContain((e as { code?: string }).code);
        return;
      }
      for (const [name, read] of methods) {
        const t0 = performance.now();
        const e = await codeOf(() => read(file));
        expect([name, h.codes.includes(e.code) ? 'expected' : e.code]).toEqual([name, 'expected']);
        expect(performance.now() - t0).toBeLessThan(3000);
      }
      expect(performance.now() - t).toBeLessThan(15_000);
    });
  }

  test('with the limits raised, the codecs refuse SNAPPY and GZIP pages claiming 2^31-1 bytes from a hundred', async () => {
    for (const h of hostileFiles().filter((f) => /(SNAPPY|GZIP) page claiming/.test(f.name))) {
      const file = await openParquet(h.bytes, { codecs, limits: { maxBytes: Infinity } });
      const e = await codeOf(() => file.readRows());
      expect(e.code).toBe('CODEC_SIZE');
      expect(e.message).toMatch(/declares 2147483647 uncompressed bytes, but (its snappy length preamble says 96|98 compressed bytes of GZIP hold at most 101136)/);
    }
  });

  test('with the limits raised, the level check still refuses a LIST page claiming 2^26 levels from 2', async () => {
    const h = hostileFiles().find((f) => f.name.startsWith('LIST page claiming'))!;
    const file = await openParquet(h.bytes, { codecs, limits: { maxRows: Infinity, maxValues: Infinity, maxBytes: Infinity } });
    const e = await codeOf(() => file.readRows());
    expect(e.code).toBe('ENCODING_TRUNCATED');
    expect(e.message).toContain(`claims ${2 ** 26} repetition levels, its 4 bytes of repetition levels hold 2`);
  });

  test('limits: LIMIT_EXCEEDED names the limit and how to raise it; a read may raise them; bad limits are INVALID_ARGUMENT', async () => {
    const bytes = load('data/delta_length_byte_array.parquet');
    const file = await openParquet(bytes, { codecs, limits: { maxRows: 999 } });
    const e = await codeOf(() => file.readRows());
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain('row group 0: 1000 rows would bring the read to 1000, over its maxRows of 999');
    expect((await file.readRows({ limits: { maxRows: 1000 } })).length).toBe(1000);
    const small = await openParquet(bytes, { codecs, limits: { maxBytes: 1000 } });
    expect((await codeOf(() => small.readRows())).message).toMatch(/over its maxBytes of 1000/);
    expect((await codeOf(() => openParquet(bytes, { codecs, limits: { maxRows: -1 } }))).code).toBe('INVALID_ARGUMENT');
    expect((await codeOf(() => file.readRows({ limits: { maxValues: 0 } }))).code).toBe('INVALID_ARGUMENT');
    // streaming reads charge one row group at a time
    const two = await openParquet(load('data/floating_orders_nan_count.parquet'), { codecs });
    const perGroup = two.metadata.row_groups[0]!.num_rows;
    expect((await codeOf(() => two.readRows({ limits: { maxRows: perGroup } }))).code).toBe('LIMIT_EXCEEDED');
    let groups = 0;
    for await (const _ of two.iterateRowGroups({ limits: { maxRows: perGroup } })) groups++;
    for await (const _ of two.iterateBatches({ limits: { maxRows: perGroup } })) groups++;
    expect(groups).toBe(2 * two.metadata.row_groups.length);
  });
});

describe('memory: no read of a file under 1 MB allocates more than 256 MiB unless the limits are raised', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-hostile-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('each hostile file, every read method, in a child process measuring its peak RSS', { timeout: 120_000 }, async () => {
    const files = hostileFiles();
    files.forEach((h, i) => fs.writeFileSync(path.join(dir, `${i}.parquet`), h.bytes));
    const child = path.join(dir, 'child.mjs'); // self-contained: every import bundled
    await esbuild.build({
      stdin: {
        contents: `
          import fs from 'node:fs';
          import { openParquet } from '@parquetry/parquet-reader';
          import { builtinCodecs } from '@parquetry/parquet-codecs';
          import { gzipCodec } from '@parquetry/codec-gzip';
          const codecs = { ...builtinCodecs(), 2: gzipCodec };
          const out = [];
          for (const p of process.argv.slice(2)) {
            globalThis.gc?.();
            const before = process.memoryUsage().rss;
            const codes = [];
            for (const m of ['rows', 'batches', 'columns']) {
              try {
                const f = await openParquet(new Uint8Array(fs.readFileSync(p)), { codecs });
                if (m === 'rows') await f.readRows();
                else if (m === 'batches') { for await (const _ of f.iterateBatches()); }
                else await f.readRowGroupColumns(0);
                codes.push('ok');
              } catch (e) { codes.push(e.name === 'ParquetError' ? e.code : 'UNTYPED ' + String(e)); }
            }
            out.push({ file: p, codes, before, peak: process.resourceUsage().maxRSS * 1024 });
          }
          console.log(JSON.stringify(out));`,
        resolveDir: here,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: child,
      logLevel: 'silent',
      plugins: [workspacePlugin()],
    });
    // one child per file: each peak RSS is that file's alone
    for (let i = 0; i < files.length; i++) {
      const [r] = JSON.parse(execFileSync(process.execPath, ['--expose-gc', child, path.join(dir, `${i}.parquet`)], { cwd: repo, encoding: 'utf8', timeout: 60_000 })) as { codes: string[]; before: number; peak: number }[];
      const grew = (r!.peak - r!.before) / 2 ** 20;
      console.log(`${files[i]!.name}: ${r!.codes.join(', ')}; peak RSS ${(r!.peak / 2 ** 20).toFixed(0)} MiB (${grew.toFixed(0)} MiB over the ${(r!.before / 2 ** 20).toFixed(0)} MiB before the reads)`);
      expect(files[i]!.bytes.length).toBeLessThan(1 << 20);
      for (const c of r!.codes) expect(files[i]!.codes).toContain(c);
      expect(grew).toBeLessThan(256);
    }
  });

  test('large_string_map.brotli.parquet (two 1 GiB strings) read as bytes, limits raised: peak RSS under 2.5 GB', { timeout: 180_000 }, async () => {
    const child = path.join(dir, 'large.mjs');
    await esbuild.build({
      stdin: {
        contents: `
          import fs from 'node:fs';
          import { openParquet } from '@parquetry/parquet-reader';
          import { builtinCodecs } from '@parquetry/parquet-codecs';
          import { createBrotliCodec } from '@parquetry/codec-brotli';
          const codecs = { ...builtinCodecs(), 4: await createBrotliCodec() };
          const file = await openParquet(new Uint8Array(fs.readFileSync(process.argv[2])), { codecs, limits: { maxBytes: 2 ** 33 } });
          const rows = await file.readRows({ strings: 'bytes' });
          const lengths = rows.map((r) => [...r.arr.keys()].map((k) => k.length));
          console.log(JSON.stringify({ lengths, peak: process.resourceUsage().maxRSS * 1024 }));`,
        resolveDir: here,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: child,
      logLevel: 'silent',
      plugins: [workspacePlugin()],
    });
    const r = JSON.parse(execFileSync(process.execPath, [child, path.join(corpus, 'data/large_string_map.brotli.parquet')], { cwd: repo, encoding: 'utf8', timeout: 170_000 })) as { lengths: number[][]; peak: number };
    console.log(`large_string_map.brotli.parquet as bytes: peak RSS ${(r.peak / 2 ** 30).toFixed(2)} GiB`);
    expect(r.lengths).toEqual([[2 ** 30], [2 ** 30]]);
    expect(r.peak).toBeLessThan(2.5e9);
  });
});

describe('duplicate field names', () => {
  test("a footer naming two root fields alike: INVALID_SCHEMA at open (rows kept only the second field's values, and Arrow tables threw a TypeError)", async () => {
    const good = await writeParquet([{ c0: 1n, c1: 'a' }, { c0: 2n, c1: 'b' }], { schema: { c0: field.int64(), c1: field.string() } });
    const len = new DataView(good.buffer, good.byteOffset).getUint32(good.length - 8, true);
    const start = good.length - 8 - len;
    const md = decodeThrift(readFileMetaData, good, start, good.length - 8, 0).value;
    expect((await (await openParquet(good, { codecs })).readRows()).length).toBe(2);
    md.schema[2]!.name = 'c0';
    const footer = encodeThrift(writeFileMetaData, md);
    const bad = cat(good.subarray(0, start), footer, u32(footer.length), good.subarray(good.length - 4));
    const e = await codeOf(() => openParquet(bad, { codecs }));
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toContain(`two fields named 'c0' in the root (schema elements 1 and 2)`);
  });
});
