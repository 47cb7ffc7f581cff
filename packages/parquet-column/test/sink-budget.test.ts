// The chunk-level byte-array arrays of a whole-chunk take reserve bytes ahead of the pages decoded so far, sized by
// the chunk's num_values (an untrusted count) times the bytes per level seen. That reservation must not escape the
// read's budget: every array the decode allocates is either covered by the chunk's own bytes (its pages are in
// memory already) or charged. Chunks written by hand (PageHeader through the compact protocol, PLAIN BYTE_ARRAY:
// 4-byte little-endian length + bytes), allocations observed through a Uint8Array subclass standing in for the global.
import { Encoding, FieldRepetitionType, Type, type ColumnMetaData } from '@parquetry/thrift-compact';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { describe, expect, test } from 'vitest';
import { ReadBudget, chunkValues, decodeColumnChunk, type ChunkDecodeOptions, type DecodedChunk } from '../src/index.js';
import { cat, plainPageV1, typedError } from './helpers.js';

const where = { rowGroup: 0, path: 's', offset: 4 };
const strings: ColumnDescriptor = buildSchemaTree([
  { name: 'schema', num_children: 1 },
  { name: 's', repetition_type: FieldRepetitionType.REQUIRED, type: Type.BYTE_ARRAY },
]).columns[0]!;

/** PLAIN BYTE_ARRAY values: each a 4-byte little-endian length, then its bytes. */
function plainBytes(values: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(values.reduce((n, v) => n + 4 + v.length, 0));
  const dv = new DataView(out.buffer);
  let at = 0;
  for (const v of values) {
    dv.setUint32(at, v.length, true);
    out.set(v, at + 4);
    at += 4 + v.length;
  }
  return out;
}
const meta = (numValues: number, size: number): ColumnMetaData => ({
  type: Type.BYTE_ARRAY,
  encodings: [Encoding.PLAIN],
  path_in_schema: ['s'],
  codec: 0,
  num_values: numValues,
  total_uncompressed_size: size,
  total_compressed_size: size,
  data_page_offset: 4,
});

/** Runs `f` with `new Uint8Array(n)` recorded: the largest n asked for. */
async function largestAllocation<T>(f: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; largest: number }> {
  const Real = globalThis.Uint8Array;
  let largest = 0;
  class Recorded extends Real {
    constructor(...args: unknown[]) {
      super(...(args as []));
      if (typeof args[0] === 'number' && args[0] > largest) largest = args[0];
    }
  }
  globalThis.Uint8Array = Recorded as unknown as Uint8ArrayConstructor;
  try {
    return { result: await f(), error: undefined, largest };
  } catch (e) {
    return { result: undefined, error: e, largest };
  } finally {
    globalThis.Uint8Array = Real;
  }
}

describe('the byte-array reservation of a whole-chunk take and the read budget', () => {
  // one long value, then many empty ones: bytes per level seen at the second page predict ~n times the first value
  const n = 1_000_000;
  const first = new Uint8Array(4096).fill(0x61);
  const bytes = cat(plainPageV1(plainBytes([first]), 1), plainPageV1(plainBytes(Array.from({ length: n - 1 }, () => new Uint8Array(0))), n - 1));
  const decode = (options: ChunkDecodeOptions): Promise<DecodedChunk> => decodeColumnChunk(bytes, strings, meta(n, bytes.length), where, options);

  test('every array allocated is within the chunk\'s bytes or charged to the budget', async () => {
    const budget = new ReadBudget({ maxRows: Infinity, maxValues: Infinity, maxBytes: Infinity });
    const { result, error, largest } = await largestAllocation(() => decode({ numRows: n, budget }));
    expect(error).toBeUndefined();
    // the values read are the bytes written
    const values = chunkValues(result!, strings) as { offsets: Int32Array; data: Uint8Array };
    expect(values.offsets.length).toBe(n + 1);
    expect(values.offsets[1]).toBe(4096);
    expect(values.offsets[n]).toBe(4096);
    expect(values.data.subarray(0, 4096).every((b) => b === 0x61)).toBe(true);
    expect(largest).toBeLessThanOrEqual(bytes.length + budget.bytes);
  });

  test('a budget that cannot hold the reservation is LIMIT_EXCEEDED, not an uncharged allocation', async () => {
    const budget = new ReadBudget({ maxRows: Infinity, maxValues: Infinity, maxBytes: 16 * 2 ** 20 });
    const { error, largest } = await largestAllocation(() => decode({ numRows: n, budget }));
    if (error === undefined) expect(largest).toBeLessThanOrEqual(bytes.length + budget.bytes);
    else {
      const e = await typedError(() => Promise.reject(error));
      expect(e.code).toBe('LIMIT_EXCEEDED');
      expect(e.message).toContain("row group 0, column 's', page 1");
      expect(budget.bytes).toBeLessThanOrEqual(16 * 2 ** 20);
    }
  });

  test('without numRows (no chunk-level arrays) the same chunk reads within a small budget', async () => {
    const budget = new ReadBudget({ maxRows: Infinity, maxValues: Infinity, maxBytes: 16 * 2 ** 20 });
    const c = await decode({ budget });
    expect(c.numValues).toBe(n);
  });
});

describe('charges of the chunk-level arrays name the page they happen at', () => {
  const optional: ColumnDescriptor = buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'x', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.INT32 },
  ]).columns[0]!;
  /** A V1 page of an optional INT32 column: definition levels (4-byte length, one RLE run per level), PLAIN values. */
  function optionalPage(defs: readonly number[], values: readonly number[]): Uint8Array {
    const runs = cat(...defs.map((d) => new Uint8Array([2, d])));
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, runs.length, true);
    return plainPageV1(cat(len, runs, new Uint8Array(new Int32Array(values).buffer)), defs.length);
  }

  test('the definition levels allocated when the first null arrives (page 2), not where the arrays started (page 1)', async () => {
    const bytes = cat(optionalPage([1, 1], [1, 2]), optionalPage([1, 1], [3, 4]), optionalPage([1, 0], [5]));
    const m = { ...meta(6, bytes.length), type: Type.INT32, path_in_schema: ['x'] };
    // page 0: 2 levels (a byte each) and 2 values (10 bytes); page 1: the chunk's 6 values (24 bytes, 10 of them page
    // 0's); page 2: the chunk's 6 definition levels (6 bytes) — 30 in all
    const enough = new ReadBudget({ maxRows: 10, maxValues: 10, maxBytes: 30 });
    const c = await decodeColumnChunk(bytes, optional, m, { ...where, path: 'x' }, { numRows: 6, budget: enough });
    expect(c.def).toBeInstanceOf(Uint8Array);
    expect(Array.from(c.def!)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(Array.from(chunkValues(c, optional) as Int32Array)).toEqual([1, 2, 3, 4, 5]);
    expect(enough.bytes).toBe(30);
    const budget = new ReadBudget({ maxRows: 10, maxValues: 10, maxBytes: 29 });
    const e = await typedError(() => decodeColumnChunk(bytes, optional, m, { ...where, path: 'x' }, { numRows: 6, budget }));
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain("row group 0, column 'x', page 2: 6 bytes would bring the read to 30, over its maxBytes of 29");
  });
});
