/**
 * Values a page expands into beyond its own bytes are charged to the read's budget before they are allocated (QA
 * helper-88): a tiny file whose dictionary entry is repeated by a million indices must be LIMIT_EXCEEDED, not a
 * gigabyte gathered into one byte vector; the same file reads with the limit raised, values exact.
 */
import { encodeThrift, writePageHeader, ConvertedType, Encoding, FieldRepetitionType, Type, type PageHeader } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { openParquet } from '../src/index.js';
import { cat, dataPage, oneColumnFile, u32, varint } from './hostile.js';
import { typedError } from './helpers.js';

/** A dictionary of one `size`-byte string (binary without `utf8`), and one data page of `n` indices (a single RLE run, bit width 0). */
function repeatedEntry(size: number, n: number, utf8 = true): Uint8Array {
  const dictBody = cat(u32(size), new Uint8Array(size).fill(0x62));
  const dictHeader: PageHeader = { type: 2, uncompressed_page_size: dictBody.length, compressed_page_size: dictBody.length, dictionary_page_header: { num_values: 1, encoding: Encoding.PLAIN } };
  const dataBody = cat(Uint8Array.of(0), varint(n * 2), Uint8Array.of(0));
  const dataHeader: PageHeader = { type: 0, uncompressed_page_size: dataBody.length, compressed_page_size: dataBody.length, data_page_header: { num_values: n, encoding: Encoding.RLE_DICTIONARY, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE } };
  const pages = cat(encodeThrift(writePageHeader, dictHeader), dictBody, encodeThrift(writePageHeader, dataHeader), dataBody);
  const schema = [{ name: 'schema', num_children: 1 }, { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: Type.BYTE_ARRAY, ...(utf8 ? { converted_type: ConvertedType.UTF8 } : {}) }];
  return oneColumnFile(schema, Type.BYTE_ARRAY, pages, n, n);
}

describe('dictionary entries gathered into one byte vector', () => {
  // 2,000 bytes × 2^17 = 262 MB of bytes from a 2 KB file (the default maxBytes of a small file is 128 MiB)
  const bytes = repeatedEntry(2000, 1 << 17);

  test('readRowGroupColumns: LIMIT_EXCEEDED naming maxBytes and the column (was: 262 MB gathered; 2 GB for 2^20 indices)', async () => {
    expect(bytes.length).toBeLessThan(2300);
    const f = await openParquet(bytes);
    const e = await typedError(() => f.readRowGroupColumns(0));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toMatch(/row group 0, column 'x': its values as one byte vector: 262144000 bytes would bring the read to \d+, over its maxBytes/);
  });

  test('iterateBatches in the columns form: LIMIT_EXCEEDED for a batch over maxBytes', async () => {
    const f = await openParquet(bytes);
    const e = await typedError(async () => {
      for await (const b of f.iterateBatches({ form: 'columns', batchSize: 100_000 })) void b;
    });
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toMatch(/column 'x': the batch's values as one byte vector: 200000000 bytes/);
  });

  test('batches are not added up: many batches of one row group, each well under maxBytes, read through (262 MB in all)', async () => {
    const f = await openParquet(bytes);
    let n = 0;
    for await (const b of f.iterateBatches({ form: 'columns', batchSize: 10_000 })) n += (b.columns.children[0] as unknown as { offsets: Int32Array }).offsets.length - 1;
    expect(n).toBe(1 << 17);
  });

  test('with maxBytes raised the same reads give every value', async () => {
    const small = repeatedEntry(300, 1 << 12);
    const f = await openParquet(small, { limits: { maxBytes: 2 ** 30 } });
    const v = (await f.readRowGroupColumns(0)).children[0] as unknown as { data: Uint8Array; offsets: Int32Array };
    expect(v.offsets.length).toBe((1 << 12) + 1);
    expect(v.data.length).toBe(300 << 12);
    expect(v.data.every((b) => b === 0x62)).toBe(true);
    let n = 0;
    for await (const b of f.iterateBatches({ form: 'columns', batchSize: 1000 })) n += (b.columns.children[0] as unknown as { offsets: Int32Array }).offsets.length - 1;
    expect(n).toBe(1 << 12);
  });
});

/**
 * DELTA_BINARY_PACKED of `n` int32 values `first, first + delta, …`: block size 128, 4 miniblocks, every miniblock of
 * bit width 0 (the deltas are all `delta`).
 */
function arithmetic(n: number, first: number, delta: number): Uint8Array {
  const zz = (v: number) => (v < 0 ? -2 * v - 1 : 2 * v);
  const blocks = Math.ceil((n - 1) / 128);
  return cat(varint(128), varint(4), varint(n), varint(zz(first)), ...Array.from({ length: blocks }, () => cat(varint(zz(delta)), new Uint8Array(4))));
}

describe('DELTA_BYTE_ARRAY values rebuilt from shared prefixes', () => {
  test('a page whose values share ever longer prefixes (value i is i + 1 bytes: n² / 2 in all) is LIMIT_EXCEEDED before the rebuild (was: 200 MB from a 22 KB file, 2 GB from 70 KB)', async () => {
    const n = 20_000;
    // prefix lengths 0, 1, 2, …; suffix lengths all 1; suffixes 'a'
    const body = cat(arithmetic(n, 0, 1), arithmetic(n, 1, 0), new Uint8Array(n).fill(0x61));
    const schema = [{ name: 'schema', num_children: 1 }, { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: Type.BYTE_ARRAY, converted_type: ConvertedType.UTF8 }];
    const bytes = oneColumnFile(schema, Type.BYTE_ARRAY, dataPage(body, n, { encoding: Encoding.DELTA_BYTE_ARRAY }), n, n);
    expect(bytes.length).toBeLessThan(25_000);
    const e = await typedError(async () => (await openParquet(bytes)).readRows());
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toMatch(/row group 0, column 'x', page 0: its values rebuilt: 200010000 bytes would bring the read to \d+, over its maxBytes/);
    // a smaller page of the same shape reads, every value exact
    const m = 300;
    const small = oneColumnFile(schema, Type.BYTE_ARRAY, dataPage(cat(arithmetic(m, 0, 1), arithmetic(m, 1, 0), new Uint8Array(m).fill(0x61)), m, { encoding: Encoding.DELTA_BYTE_ARRAY }), m, m);
    const rows = await (await openParquet(small)).readRows();
    expect(rows.map((r) => r['x'])).toEqual(Array.from({ length: m }, (_, i) => 'a'.repeat(i + 1)));
  });
});

describe("values: 'json' of a binary dictionary entry repeated in every row (QA helper-88 F3)", () => {
  // 2,000 bytes are 2,668 characters of base64: 100,000 texts would be 267 MB; one shared text is 2.7 KB
  const n = 100_000;
  const bytes = repeatedEntry(2000, n, false);
  const text = Buffer.from(new Uint8Array(2000).fill(0x62)).toString('base64');

  test('rows: one base64 text per entry, shared by the rows (was: one per row; 2^20 rows of a 64 KiB entry killed V8)', async () => {
    const f = await openParquet(bytes);
    const before = process.memoryUsage().heapUsed;
    const rows = await f.readRows({ values: 'json' });
    const grown = process.memoryUsage().heapUsed - before;
    expect(rows.length).toBe(n);
    for (let i = 0; i < n; i += 9973) expect(rows[i]!['x']).toBe(text);
    // the rows themselves are a few MB; 100,000 texts would be 267 MB
    expect(grown).toBeLessThan(100 * 2 ** 20);
  });

  test("columns with binary: 'values': the same", async () => {
    const f = await openParquet(bytes);
    const before = process.memoryUsage().heapUsed;
    const v = (await f.readRowGroupColumns(0, { values: 'json', binary: 'values' })).children[0] as unknown as { values: ArrayLike<unknown> };
    const grown = process.memoryUsage().heapUsed - before;
    expect(v.values.length).toBe(n);
    expect(v.values[n - 1]).toBe(text);
    expect(grown).toBeLessThan(100 * 2 ** 20);
  });
});

describe('limits of a batch read hold per batch (QA helper-88 F4)', () => {
  test('one row group of 1.5 million well-compressed rows: readRows is over maxRows, iterateBatches streams it (it refused it: the whole row group was charged)', async () => {
    const { writeParquet, field } = await import('../../parquet-writer/src/index.js');
    const n = 1_500_000;
    const id = new Int32Array(n).fill(7);
    const bytes = await writeParquet({ id: { kind: 'leaf', length: n, validity: null, values: id } as never }, { schema: { id: field.int32({ required: true }) }, rowGroupRows: n, pageIndex: false, compression: 'UNCOMPRESSED' });
    expect(bytes.length).toBeLessThan(100_000); // so the default maxRows is its minimum, 2^20
    const f = await openParquet(bytes);
    expect((await typedError(() => f.readRows())).code).toBe('LIMIT_EXCEEDED');
    let rows = 0;
    let columns = 0;
    for await (const b of f.iterateBatches({ batchSize: 100_000 })) rows += b.rows.length;
    for await (const b of f.iterateBatches({ batchSize: 100_000, form: 'columns' })) columns += b.columns.length;
    expect([rows, columns]).toEqual([n, n]);
    // a batch larger than the limit is still refused
    expect((await typedError(async () => {
      for await (const b of f.iterateBatches({ batchSize: 1_500_000, limits: { maxValues: 1_000_000 } })) void b;
    })).code).toBe('LIMIT_EXCEEDED');
  });
});
