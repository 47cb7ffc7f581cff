// Consistency checks and budgets of the chunk decoder, on column chunks whose bytes are written here by hand from
// parquet.thrift (PageHeader through the compact protocol) and Encodings.md (PLAIN little-endian INT32, the RLE
// hybrid's run headers), independently of the page writer: a chunk must hold exactly its num_values levels and its
// row group's num_rows records; no page may claim more values than the chunk has left; page types outside the enum
// are corrupt; level streams must encode the levels a page claims before they are allocated; the read's budget is
// charged before each allocation.
import { Encoding, FieldRepetitionType, ConvertedType, Type, type ColumnMetaData } from '@parquetry/thrift-compact';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ChunkDecoder, ReadBudget, chunkValues, decodeColumnChunk, defaultLimits, type ChunkDecodeOptions } from '../src/index.js';
import { cat, plainPageV1, typedError } from './helpers.js';

const where = { rowGroup: 0, path: 'x', offset: 4 };
const flat: ColumnDescriptor = buildSchemaTree([
  { name: 'schema', num_children: 1 },
  { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: Type.INT32 },
]).columns[0]!;
/** `optional group a (LIST) { repeated group list { optional int32 element } }`: max def 3, max rep 1. */
const list: ColumnDescriptor = buildSchemaTree([
  { name: 'schema', num_children: 1 },
  { name: 'a', repetition_type: FieldRepetitionType.OPTIONAL, num_children: 1, converted_type: ConvertedType.LIST },
  { name: 'list', repetition_type: FieldRepetitionType.REPEATED, num_children: 1 },
  { name: 'element', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.INT32 },
]).columns[0]!;

const u32 = (n: number) => new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24]);
const plainInt32 = (vs: readonly number[]) => new Uint8Array(new Int32Array(vs).buffer);
const meta = (numValues: number, size: number): ColumnMetaData => ({
  type: Type.INT32,
  encodings: [Encoding.PLAIN],
  path_in_schema: ['x'],
  codec: 0,
  num_values: numValues,
  total_uncompressed_size: size,
  total_compressed_size: size,
  data_page_offset: 4,
});
/** The levels of V1 list pages: each level stream a 4-byte length and one RLE run per level (Encodings.md). */
function listBody(rep: readonly number[], def: readonly number[], values: readonly number[]): Uint8Array {
  const runs = (ls: readonly number[]) => cat(...ls.map((l) => new Uint8Array([2, l])));
  const r = runs(rep);
  const d = runs(def);
  return cat(u32(r.length), r, u32(d.length), d, plainInt32(values));
}

const decode = (bytes: Uint8Array, column: ColumnDescriptor, numValues: number, options: ChunkDecodeOptions) => decodeColumnChunk(bytes, column, meta(numValues, bytes.length), where, options);

describe('a chunk against its metadata', () => {
  test('a chunk holding its num_values and num_rows reads; its values are the bytes written', async () => {
    const bytes = cat(plainPageV1(plainInt32([1, 2, 3]), 3), plainPageV1(plainInt32([4, 5]), 2));
    const c = await decode(bytes, flat, 5, { numRows: 5 });
    expect(Array.from(chunkValues(c, flat) as Int32Array)).toEqual([1, 2, 3, 4, 5]);
  });

  test('pages holding fewer values than num_values (a page lost, or its num_values lowered) are CORRUPT_PAGE naming both counts', async () => {
    const bytes = cat(plainPageV1(plainInt32([1, 2, 3]), 3), plainPageV1(plainInt32([4, 5]), 2));
    const e = await typedError(() => decode(bytes, flat, 6, { numRows: 6 }));
    expect(e.code).toBe('CORRUPT_PAGE');
    expect(e.message).toContain("row group 0, column 'x'");
    expect(e.message).toContain('hold 5 values, its num_values says 6');
    // a page whose num_values says 1 where 3 values follow: 4 levels, not 5
    const lowered = cat(plainPageV1(plainInt32([1, 2, 3]), 1), plainPageV1(plainInt32([4, 5]), 2));
    expect((await typedError(() => decode(lowered, flat, 5, { numRows: 5 }))).message).toContain('hold 3 values, its num_values says 5');
  });

  test('a page claiming more values than the chunk has left is CORRUPT_PAGE before it is decoded', async () => {
    const bytes = cat(plainPageV1(plainInt32([1, 2, 3]), 3), plainPageV1(plainInt32([4, 5]), 1 << 26));
    const e = await typedError(() => decode(bytes, flat, 5, {}));
    expect(e.code).toBe('CORRUPT_PAGE');
    expect(e.message).toContain(`page 1 at byte`);
    expect(e.message).toContain(`claims ${1 << 26} values, but only 2 of the chunk's num_values are left`);
  });

  test("a flat column's num_values must equal the row group's num_rows", async () => {
    const bytes = plainPageV1(plainInt32([1, 2, 3]), 3);
    const e = await typedError(() => decode(bytes, flat, 3, { numRows: 2 ** 53 - 1 }));
    expect(e.code).toBe('ROW_COUNT_MISMATCH');
    expect(e.message).toContain(`num_values 3 of a column without repetition must equal the row group's num_rows ${2 ** 53 - 1}`);
  });

  test("a nested chunk's records must number num_rows, whether taken at once or a few at a time", async () => {
    // records [1, 2, 3] and [4]: rep 0 1 1 0, def 3 3 3 3
    const bytes = plainPageV1(listBody([0, 1, 1, 0], [3, 3, 3, 3], [1, 2, 3, 4]), 4);
    expect((await decode(bytes, list, 4, { numRows: 2 })).numLevels).toBe(4);
    for (const rows of [1, 3]) {
      const e = await typedError(() => decode(bytes, list, 4, { numRows: rows }));
      expect(e.code).toBe('ROW_COUNT_MISMATCH');
      expect(e.message).toContain(`hold 2 rows, the row group's num_rows says ${rows}`);
    }
    const dec = new ChunkDecoder(bytes, list, meta(4, bytes.length), where, { numRows: 3 });
    await dec.take(1);
    expect((await typedError(() => dec.take(5))).code).toBe('ROW_COUNT_MISMATCH');
    // without numRows (some pages of a chunk), nothing is claimed about the rows
    expect((await decode(bytes, list, 4, {})).numLevels).toBe(4);
  });

  test('page types outside the enum are CORRUPT_PAGE, never skipped', async () => {
    for (const type of [4, 5, 127, -1]) {
      const bytes = cat(plainPageV1(plainInt32([1, 2, 3]), 3), plainPageV1(plainInt32([4, 5]), 2, type));
      const e = await typedError(() => decode(bytes, flat, 5, {}));
      expect(e.code).toBe('CORRUPT_PAGE');
      expect(e.message).toContain(`page type ${type} is not one parquet.thrift defines`);
    }
  });

  test('property: any count changed in the metadata or a page header is an error, never another number of rows', async () => {
    const values = [7, 8, 9, 10, 11, 12];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: -3, max: 3 }), async (cut, which, delta) => {
        fc.pre(delta !== 0);
        // the row group still says 6 rows; one count (a page's num_values, or the chunk's) is changed
        const counts = [cut, values.length - cut];
        const chunkCount = which === 2 ? values.length + delta : values.length;
        if (which < 2) counts[which] = counts[which]! + delta;
        fc.pre(counts.every((c) => c >= 0) && chunkCount >= 0);
        const bytes = cat(plainPageV1(plainInt32(values.slice(0, cut)), counts[0]!), plainPageV1(plainInt32(values.slice(cut)), counts[1]!));
        const e = await typedError(() => decode(bytes, flat, chunkCount, { numRows: values.length }));
        expect(['CORRUPT_PAGE', 'ROW_COUNT_MISMATCH', 'ENCODING_TRUNCATED', 'ENCODING_ARGUMENT']).toContain(e.code);
      }),
      { numRuns: 200 },
    );
    // unchanged, it reads
    const bytes = cat(plainPageV1(plainInt32(values.slice(0, 2)), 2), plainPageV1(plainInt32(values.slice(2)), 4));
    expect((await decode(bytes, flat, 6, { numRows: 6 })).numLevels).toBe(6);
  });
});

describe('levels the bytes cannot hold', () => {
  test('a LIST page claiming 2^26 levels from a few bytes of runs fails before the level array is allocated', async () => {
    const n = 1 << 26;
    const bytes = plainPageV1(listBody([0, 1], [3, 3], [1, 2]), n);
    const t = performance.now();
    const e = await typedError(() => decode(bytes, list, n, {}));
    expect(e.code).toBe('ENCODING_TRUNCATED');
    expect(e.message).toContain(`claims ${n} repetition levels, its 4 bytes of repetition levels hold 2`);
    expect(performance.now() - t).toBeLessThan(1000);
  });

  test('one RLE run may hold them all: the levels are then what the metadata says, and the budget decides', async () => {
    const n = (1 << 23) + 8;
    // rep: one run of n zeros; def: one run of n zeros (every record null), no values
    const varint = (x: number) => {
      const out: number[] = [];
      for (; x >= 0x80; x = Math.floor(x / 128)) out.push((x & 0x7f) | 0x80);
      out.push(x);
      return new Uint8Array(out);
    };
    const rle = (v: number) => cat(varint(2 * n), new Uint8Array([v]));
    const body = cat(u32(rle(0).length), rle(0), u32(rle(0).length), rle(0));
    const bytes = plainPageV1(body, n);
    const budget = new ReadBudget(defaultLimits(bytes.length));
    const e = await typedError(() => decode(bytes, list, n, { numRows: n, budget }));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain(`${n} values would bring the read to ${n}, over its maxValues of ${1 << 23}`);
    expect(budget.values).toBe(0);
    // raised, it reads: one null record per level
    const raised = new ReadBudget(defaultLimits(bytes.length, { maxValues: n, maxBytes: 2 ** 30 }));
    const c = await decode(bytes, list, n, { numRows: n, budget: raised });
    expect(c.numLevels).toBe(n);
    expect(raised.values).toBe(n);
    // per level: a byte in each of the two level arrays, 4 bytes in each stream's Int32Array decoding scratch (a page
    // of more than 2^20 levels gets its own), 4 for the value it may hold
    expect(raised.bytes).toBe(n * 14);
  });
});

describe('the read budget', () => {
  test('values and bytes are charged per page, before the allocation, and the first page over is LIMIT_EXCEEDED', async () => {
    const bytes = cat(plainPageV1(plainInt32([1, 2, 3]), 3), plainPageV1(plainInt32([4, 5]), 2));
    const budget = new ReadBudget({ maxRows: 10, maxValues: 4, maxBytes: 1000 });
    const e = await typedError(() => decode(bytes, flat, 5, { budget }));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain("row group 0, column 'x', page 1: 2 values would bring the read to 5, over its maxValues of 4");
    expect(budget.values).toBe(3);
    // a take of records one page at a time: each page's values are charged before they are decoded
    const bytesBudget = new ReadBudget({ maxRows: 10, maxValues: 100, maxBytes: 19 });
    const batches = new ChunkDecoder(bytes, flat, meta(5, bytes.length), where, { numRows: 5, budget: bytesBudget });
    expect(chunkValues(await batches.take(3), flat)).toEqual(new Int32Array([1, 2, 3]));
    expect((await typedError(() => batches.take(2))).message).toContain('8 bytes would bring the read to 20, over its maxBytes of 19');
    const enough = new ReadBudget({ maxRows: 10, maxValues: 5, maxBytes: 20 });
    await decode(bytes, flat, 5, { budget: enough });
    expect([enough.values, enough.bytes]).toEqual([5, 20]);
  });

  test('a whole-chunk take charges its chunk-level arrays (sized by the levels num_values leaves) before allocating them', async () => {
    const bytes = cat(plainPageV1(plainInt32([1, 2, 3]), 3), plainPageV1(plainInt32([4, 5]), 2));
    // page 0 is decoded on its own (12 bytes); at page 1 the chunk's 5 INT32 values become one array of 20 bytes, of
    // which page 0's 12 were charged
    const bytesBudget = new ReadBudget({ maxRows: 10, maxValues: 100, maxBytes: 19 });
    const e = await typedError(() => decode(bytes, flat, 5, { budget: bytesBudget, numRows: 5 }));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain("row group 0, column 'x', page 1: 8 bytes would bring the read to 20, over its maxBytes of 19");
    expect(bytesBudget.bytes).toBe(12);
    const enough = new ReadBudget({ maxRows: 10, maxValues: 5, maxBytes: 20 });
    const chunk = await decode(bytes, flat, 5, { budget: enough, numRows: 5 });
    // both pages' values in one array, as one segment
    expect(chunk.segments.length).toBe(1);
    expect(chunkValues(chunk, flat)).toEqual(new Int32Array([1, 2, 3, 4, 5]));
    expect([enough.values, enough.bytes]).toEqual([5, 20]);
  });

  test('defaults: the larger of a floor and a multiple of the file size; a caller sets each limit', () => {
    expect(defaultLimits(153)).toEqual({ maxRows: 1 << 20, maxValues: 1 << 23, maxBytes: 128 * 2 ** 20 });
    expect(defaultLimits(100e6)).toEqual({ maxRows: 400e6, maxValues: 1600e6, maxBytes: 6400e6 });
    expect(defaultLimits(153, { maxBytes: Infinity })).toEqual({ maxRows: 1 << 20, maxValues: 1 << 23, maxBytes: Infinity });
  });
});

describe('levels are bytes', () => {
  /** `depth` nested optional groups around an optional int32: max definition level depth + 1. */
  const nested = (depth: number): ColumnDescriptor =>
    buildSchemaTree([
      { name: 'schema', num_children: 1 },
      ...Array.from({ length: depth }, (_, i) => ({ name: `g${i}`, repetition_type: FieldRepetitionType.OPTIONAL, num_children: 1 })),
      { name: 'x', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.INT32 },
    ]).columns[0]!;
  /** A V1 page of optional levels: each level one RLE run of width ceil(log2(max + 1)) (2 value bytes past 255). */
  const page = (defs: readonly number[], max: number, values: readonly number[]) => {
    const width = (32 - Math.clz32(max) + 7) >> 3;
    const runs = cat(...defs.map((d) => new Uint8Array([2, d & 0xff, d >>> 8].slice(0, 1 + width))));
    return plainPageV1(cat(u32(runs.length), runs, plainInt32(values)), defs.length);
  };

  test('a max definition level of 255 decodes into a Uint8Array; 256 is LIMIT_EXCEEDED naming the column', async () => {
    const c255 = nested(254);
    expect(c255.maxDef).toBe(255);
    const ok = await decode(page([255, 0, 254, 255], 255, [7, 8]), c255, 4, { numRows: 4 });
    expect(ok.def).toBeInstanceOf(Uint8Array);
    expect(Array.from(ok.def!)).toEqual([255, 0, 254, 255]);
    expect(Array.from(chunkValues(ok, c255) as Int32Array)).toEqual([7, 8]);
    const c256 = nested(255);
    expect(c256.maxDef).toBe(256);
    const e = await typedError(() => decode(page([256, 0], 256, [7]), c256, 2, { numRows: 2 }));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain("row group 0, column 'x': max definition level 256");
  });
});
