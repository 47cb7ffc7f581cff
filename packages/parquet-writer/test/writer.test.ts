// The writer's file structure, limits and failure behaviour, checked by reading the files back with our reader
// (values) and by walking the written pages and footer (structure).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { PageReader } from '@parquetry/parquet-column';
import { decodeLevelsV2 } from '@parquetry/parquet-levels';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { Encoding, PageType, isParquetError } from '@parquetry/thrift-compact';
import { afterAll, describe, expect, test } from 'vitest';
import { CREATED_BY, createWriter, field, memorySink, writableSink, writeParquet, type ByteSink } from '../src/index.js';
import { fileSink } from '../src/node.js';

const codecs = builtinCodecs();
const open = (b: Uint8Array) => openParquet(b, { codecs });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-writer-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function errorOf(f: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await f();
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a ParquetError');
}

/** Every page of one column chunk, with its decoded V2 levels. */
async function pagesOf(bytes: Uint8Array, f: ParquetFile, rg: number, col: number) {
  const md = f.metadata.row_groups[rg]!.columns[col]!.meta_data!;
  const start = md.dictionary_page_offset ?? md.data_page_offset;
  const r = new PageReader(bytes.subarray(start, start + md.total_compressed_size), { rowGroup: rg, path: '', offset: start }, { codec: md.codec, codecs, hasDictionaryPage: md.dictionary_page_offset !== undefined });
  const out = [];
  for (let p = await r.next(); p; p = await r.next()) out.push(p);
  return out;
}

describe('file structure', () => {
  test('a zero-row file has a schema and no row groups, and reads as zero rows', async () => {
    const bytes = await writeParquet([], { schema: { a: field.int32() } });
    const f = await open(bytes);
    expect(f.metadata.row_groups).toEqual([]);
    expect(f.metadata.num_rows).toBe(0);
    expect(f.schema.columns.map((c) => c.pathString)).toEqual(['a']);
    expect(await f.readRows()).toEqual([]);
  });

  test('footer: created_by in the form readers parse, column orders for every leaf, key/value metadata, sorting columns, version', async () => {
    const bytes = await writeParquet([{ a: 1, b: 'x' }], {
      schema: { a: field.int32(), b: field.string() },
      keyValueMetadata: { k: 'v' },
      sortingColumns: [{ column: 'a', descending: true }],
    });
    const m = (await open(bytes)).metadata;
    expect(m.created_by).toBe(CREATED_BY);
    expect(m.created_by).toMatch(/^parquetry version \d+\.\d+\.\d+ \(build [^)]+\)$/);
    expect(m.column_orders).toEqual([{ TYPE_ORDER: {} }, { TYPE_ORDER: {} }]);
    expect(m.key_value_metadata).toEqual([{ key: 'k', value: 'v' }]);
    expect(m.row_groups[0]!.sorting_columns).toEqual([{ column_idx: 0, descending: true, nulls_first: false }]);
    expect(m.version).toBe(1);
    expect((await open(await writeParquet([{ a: 1 }], { schema: { a: field.int32() }, pageVersion: 2 }))).metadata.version).toBe(2);
  });

  test('row groups are cut by rows, pages by rows (20,000 default) and by bytes', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ a: i, s: `value-${i}-${'x'.repeat(i % 50)}` }));
    const bytes = await writeParquet(rows, { schema: { a: field.int32({ required: true }), s: field.string({ required: true }) }, rowGroupRows: 30_000, dictionary: false });
    const f = await open(bytes);
    expect(f.metadata.row_groups.map((g) => g.num_rows)).toEqual([30_000, 20_000]);
    const a0 = await pagesOf(bytes, f, 0, 0);
    expect(a0.map((p) => p.numValues)).toEqual([20_000, 10_000]);
    const small = await writeParquet(rows, { schema: { a: field.int32({ required: true }), s: field.string({ required: true }) }, pageSize: 64 * 1024, dictionary: false });
    const g = await open(small);
    const s0 = await pagesOf(small, g, 0, 1);
    expect(s0.length).toBeGreaterThan(10);
    // cut at the value that fills 64 KiB of encoded values (one value over at most)
    for (const p of s0.slice(0, -1)) {
      expect(p.header.uncompressed_page_size).toBeGreaterThanOrEqual(64 * 1024);
      expect(p.header.uncompressed_page_size).toBeLessThan(64 * 1024 + 100);
    }
    expect(await g.readRows()).toEqual(rows);
  });

  test('pages start at repetition level 0 (record boundaries) and count their rows, for nested columns', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ l: Array.from({ length: i % 13 }, (_, j) => i * 100 + j) }));
    const bytes = await writeParquet(rows, { schema: { l: field.list(field.int32()) }, pageRows: 97, pageVersion: 2 });
    const f = await open(bytes);
    const pages = (await pagesOf(bytes, f, 0, 0)).filter((p) => p.header.type === PageType.DATA_PAGE_V2);
    let rowsSeen = 0;
    for (const p of pages) {
      const h = p.header.data_page_header_v2!;
      const rep = new Int32Array(h.num_values);
      decodeLevelsV2(p.levels!, 0, h.repetition_levels_byte_length, 1, rep, 0, h.num_values);
      expect(rep[0]).toBe(0);
      expect(rep.filter((r) => r === 0).length).toBe(h.num_rows);
      expect(h.num_rows).toBeLessThanOrEqual(97);
      rowsSeen += h.num_rows;
    }
    expect(rowsSeen).toBe(3000);
    expect(await f.readRows()).toEqual(rows);
  });

  test('dictionary: one per chunk, dropped when it does not pay, and a fallback past its byte limit keeps earlier pages dictionary-encoded', async () => {
    const low = Array.from({ length: 40_000 }, (_, i) => ({ s: `city-${i % 20}` }));
    const fLow = await open(await writeParquet(low, { schema: { s: field.string() } }));
    const mdLow = fLow.metadata.row_groups[0]!.columns[0]!.meta_data!;
    expect(mdLow.dictionary_page_offset).toBeDefined();
    expect(mdLow.encoding_stats).toEqual([
      { page_type: PageType.DICTIONARY_PAGE, encoding: Encoding.PLAIN, count: 1 },
      { page_type: PageType.DATA_PAGE, encoding: Encoding.RLE_DICTIONARY, count: 2 },
    ]);
    const unique = Array.from({ length: 40_000 }, (_, i) => ({ x: BigInt(i) * 7919n }));
    const mdU = (await open(await writeParquet(unique, { schema: { x: field.int64() } }))).metadata.row_groups[0]!.columns[0]!.meta_data!;
    expect(mdU.dictionary_page_offset).toBeUndefined();
    expect(mdU.encoding_stats).toEqual([{ page_type: PageType.DATA_PAGE, encoding: Encoding.PLAIN, count: 2 }]);
    // 400 distinct 40-byte strings: the first page (1,000 rows) pays for its dictionary, which is then past 4 KiB
    const mid = Array.from({ length: 60_000 }, (_, i) => ({ s: `${String(i % 400).padStart(40, '#')}` }));
    const bytes = await writeParquet(mid, { schema: { s: field.string() }, dictionaryPageSize: 4096, pageRows: 1000 });
    const f = await open(bytes);
    const md = f.metadata.row_groups[0]!.columns[0]!.meta_data!;
    const stats = Object.fromEntries(md.encoding_stats!.map((s) => [`${s.page_type}/${s.encoding}`, s.count]));
    expect(stats[`${PageType.DICTIONARY_PAGE}/${Encoding.PLAIN}`]).toBe(1);
    expect(stats[`${PageType.DATA_PAGE}/${Encoding.RLE_DICTIONARY}`]).toBeGreaterThan(0);
    expect(stats[`${PageType.DATA_PAGE}/${Encoding.PLAIN}`]).toBeGreaterThan(0);
    const pages = await pagesOf(bytes, f, 0, 0);
    expect(pages[0]!.header.type).toBe(PageType.DICTIONARY_PAGE);
    // every dictionary-encoded page comes before every plain one
    const kinds = pages.slice(1).map((p) => p.header.data_page_header!.encoding);
    expect(kinds.indexOf(Encoding.PLAIN)).toBeGreaterThan(kinds.lastIndexOf(Encoding.RLE_DICTIONARY));
    expect(await f.readRows()).toEqual(mid);
  });

  test('column-chunk key/value metadata by column path (a group path covers its leaves)', async () => {
    const m = (await open(await writeParquet([{ a: 1, g: { x: 1, y: 2 } }], {
      schema: { a: field.int32(), g: field.struct({ x: field.int32(), y: field.int32() }) },
      keyValueMetadata: { file: 'yes' },
      columns: { g: { keyValueMetadata: { unit: 'm' } }, 'g.y': { keyValueMetadata: { unit: 'cm' } } },
    }))).metadata;
    expect(m.key_value_metadata).toEqual([{ key: 'file', value: 'yes' }]);
    expect(m.row_groups[0]!.columns.map((c) => c.meta_data!.key_value_metadata)).toEqual([undefined, [{ key: 'unit', value: 'm' }], [{ key: 'unit', value: 'cm' }]]);
  });

  test('checkSorting: rows out of the declared order are NOT_SORTED naming the column and row; sorted rows pass (order restarts per row group)', async () => {
    const schema = { a: field.int32(), b: field.string() };
    const sortingColumns = [{ column: 'a' }, { column: 'b', descending: true, nullsFirst: true }];
    const ok = [{ a: 1, b: null }, { a: 1, b: 'z' }, { a: 1, b: 'a' }, { a: 2, b: 'x' }, { a: null, b: 'y' }, { a: 0, b: 'q' }];
    // a row group of 5 rows, then a new one that may start low again
    const m = (await open(await writeParquet(ok, { schema, sortingColumns, checkSorting: true, rowGroupRows: 5 }))).metadata;
    expect(m.row_groups.map((g) => g.num_rows)).toEqual([5, 1]);
    const e = await errorOf(() => writeParquet([{ a: 1, b: 'a' }, { a: 1, b: 'b' }], { schema, sortingColumns, checkSorting: true }));
    expect(e.code).toBe('NOT_SORTED');
    expect(e.message).toMatch(/'b'.*row 1\b/);
    const e2 = await errorOf(() => writeParquet([{ a: null, b: 'a' }, { a: 1, b: 'b' }], { schema, sortingColumns, checkSorting: true }));
    expect(e2.message).toMatch(/'a'.*row 1\b/);
  });

  test('statistics: chunk min/max/null_count and size statistics', async () => {
    const rows = [{ a: 3, s: 'b' }, { a: null, s: 'a' }, { a: -7, s: null }, { a: 12, s: 'é' }];
    const md = (await open(await writeParquet(rows, { schema: { a: field.int32(), s: field.string() } }))).metadata.row_groups[0]!.columns.map((c) => c.meta_data!);
    const i32 = (n: number) => new Uint8Array(new Int32Array([n]).buffer);
    expect(md[0]!.statistics).toMatchObject({ min_value: i32(-7), max_value: i32(12), null_count: 1 });
    expect(md[1]!.statistics).toMatchObject({ min_value: new TextEncoder().encode('a'), max_value: new TextEncoder().encode('é'), null_count: 1 });
    expect(md[1]!.size_statistics).toMatchObject({ unencoded_byte_array_data_bytes: 4, definition_level_histogram: [1, 3] });
  });
});

describe('bad input', () => {
  test('a value of the wrong type is INVALID_VALUE naming the column and the row (counted over the whole file), the sink is aborted and never closed', async () => {
    const calls: string[] = [];
    const sink: ByteSink = { write: () => void calls.push('write'), close: () => void calls.push('close'), abort: () => void calls.push('abort') };
    const w = createWriter(sink, { schema: { a: field.int32(), b: field.string() } });
    await w.write(Array.from({ length: 70_000 }, (_, i) => ({ a: i, b: 'x' })));
    const rows = Array.from({ length: 10 }, (_, i) => ({ a: i === 7 ? 'seven' : i, b: 'y' }));
    const e = await errorOf(() => w.write(rows));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.message).toMatch(/column 'a'/);
    expect(e.message).toMatch(/row 70007\b/);
    expect(calls.at(-1)).toBe('abort');
    expect(calls).not.toContain('close');
    expect((await errorOf(() => w.close())).code).toBe('WRITER_FAILED');
  });

  test('interned strings: a lone surrogate under strictUtf8 names its row; mixed strings and bytes; U+FFFD merges', async () => {
    const w = createWriter(memorySink(), { schema: { s: field.string() }, strictUtf8: true });
    await w.write(Array.from({ length: 70_000 }, (_, i) => ({ s: `v${i % 10}` })));
    const e = await errorOf(() => w.write(Array.from({ length: 10 }, (_, i) => ({ s: i === 3 ? 'bad\ud800' : 'ok' }))));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.message).toMatch(/column 's'.*row 70003\b/);
    // without strictUtf8 a lone surrogate is written as U+FFFD, the same bytes (and dictionary entry) as '\ufffd'
    const rows = [{ s: 'a\ud800' }, { s: 'a\ufffd' }, { s: new TextEncoder().encode('b') }, { s: 'c' }, { s: 'a\ufffd' }];
    const back = await (await open(await writeParquet(rows, { schema: { s: field.string() } }))).readRows();
    expect(back).toEqual([{ s: 'a\ufffd' }, { s: 'a\ufffd' }, { s: 'b' }, { s: 'c' }, { s: 'a\ufffd' }]);
  });

  test('out of range, non-integers, a null in a required field, a decimal with too many digits', async () => {
    const bad: [Record<string, unknown>, Record<string, unknown>, string, RegExp][] = [
      [{ a: field.int32() }, { a: 2 ** 31 }, 'INVALID_VALUE', /column 'a'.*row 0/],
      [{ a: field.int32() }, { a: 1.5 }, 'INVALID_VALUE', /column 'a'/],
      [{ a: field.int32({ required: true }) }, { a: null }, 'INVALID_RECORD', /'a'.*row 0/],
      [{ a: field.decimal(4, 2) }, { a: '123.45' }, 'INVALID_VALUE', /column 'a'/],
      [{ a: field.int(8, false) }, { a: 256 }, 'INVALID_VALUE', /column 'a'/],
      [{ a: field.list(field.int32()) }, { a: 'not a list' }, 'INVALID_RECORD', /'a'/],
    ];
    for (const [schema, row, code, msg] of bad) {
      const e = await errorOf(() => writeParquet([row], { schema: schema as never }));
      expect(e.code, JSON.stringify(row)).toBe(code);
      expect(e.message).toMatch(msg);
    }
  });

  test('no schema and no rows: the schema cannot be inferred', async () => {
    expect((await errorOf(() => writeParquet([]))).code).toBe('SCHEMA_REQUIRED');
  });
});

describe('sinks', () => {
  test('a WHATWG WritableStream sink waits for backpressure and closes the stream after the footer', async () => {
    const chunks: Uint8Array[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let closed = false;
    const stream = new WritableStream<Uint8Array>(
      {
        async write(c) {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 1));
          chunks.push(c.slice());
          inFlight--;
        },
        close() {
          closed = true;
        },
      },
      new CountQueuingStrategy({ highWaterMark: 1 }),
    );
    const w = createWriter(writableSink(stream), { schema: { a: field.int32() }, rowGroupRows: 1000 });
    await w.write(Array.from({ length: 5000 }, (_, i) => ({ a: i })));
    await w.close();
    expect(closed).toBe(true);
    expect(maxInFlight).toBe(1);
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const f = await open(bytes);
    expect(f.metadata.row_groups.length).toBe(5);
    expect((await f.readRows()).length).toBe(5000);
  });

  test('a failed write aborts the WritableStream', async () => {
    let aborted: unknown;
    const stream = new WritableStream<Uint8Array>({ write() {}, abort(r) { aborted = r; } });
    const w = createWriter(writableSink(stream), { schema: { a: field.int32() } });
    await errorOf(() => w.write([{ a: 'x' }]));
    expect(isParquetError(aborted)).toBe(true);
  });

  test('the Node file sink writes under a temporary name and renames on close; abort removes the temporary file', async () => {
    const target = path.join(tmp, 'a.parquet');
    const sink = await fileSink(target);
    const w = createWriter(sink, { schema: { a: field.int32() } });
    await w.write([{ a: 1 }, { a: 2 }]);
    await w.flushRowGroup();
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(sink.tempPath)).toBe(true);
    await w.close();
    expect(fs.existsSync(target)).toBe(true);
    expect(fs.existsSync(sink.tempPath)).toBe(false);
    expect(await (await open(new Uint8Array(fs.readFileSync(target)))).readRows()).toEqual([{ a: 1 }, { a: 2 }]);

    const target2 = path.join(tmp, 'b.parquet');
    const sink2 = await fileSink(target2);
    const w2 = createWriter(sink2, { schema: { a: field.int32() } });
    await w2.write([{ a: 1 }]);
    await w2.flushRowGroup();
    await errorOf(() => w2.write([{ a: 'x' }]));
    expect(fs.existsSync(sink2.tempPath)).toBe(false);
    expect(fs.existsSync(target2)).toBe(false);
  });

  test('memory sink and streaming writes in several calls', async () => {
    const sink = memorySink();
    const w = createWriter(sink, { schema: { a: field.int64({ required: true }) }, rowGroupRows: 5 });
    await w.write([{ a: 1n }, { a: 2n }, { a: 3n }]);
    await w.write((async function* () {
      for (let i = 4n; i <= 12n; i++) yield { a: i };
    })());
    const meta = await w.close();
    expect(meta.row_groups.map((g) => g.num_rows)).toEqual([5, 5, 2]);
    expect(meta.num_rows).toBe(12);
    expect((await (await open(sink.bytes())).readRows()).map((r) => r.a)).toEqual(Array.from({ length: 12 }, (_, i) => BigInt(i + 1)));
  });
});
