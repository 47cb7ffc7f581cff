// The incremental chunk decoder against chunks built by hand from the spec: a list column (optional list of
// optional values: max definition level 3, max repetition level 1) whose records are shredded here by the rules of
// README.md "Nested encoding", its levels written as RLE runs of one value each and its values PLAIN or
// dictionary-encoded (Encodings.md), cut into data pages at arbitrary level positions, so records span pages. Every
// take must return exactly the next records' levels and values, whatever the page boundaries.
import { CompressionCodec, builtinCodecs, snappyCodec, type CodecMap } from '@parquetry/parquet-codecs';
import { snappyWasmAvailable } from '../../parquet-codecs/src/snappy.js';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { ConvertedType, Encoding, FieldRepetitionType, Type, type ColumnMetaData } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ChunkDecoder, chunkValues, dataPageV1, dataPageV2, decodeColumnChunk, dictionaryPage, pageHeaderBytes, type DecodedChunk, type WrittenPage } from '../src/index.js';
import { typedError } from './helpers.js';

type Value = number | string;
type Rec = (Value | null)[] | null;
type Phys = typeof Type.INT32 | typeof Type.BYTE_ARRAY;

/** `optional group a (LIST) { repeated group list { optional <type> element } }`. */
function listColumn(type: Phys): ColumnDescriptor {
  return buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'a', repetition_type: FieldRepetitionType.OPTIONAL, num_children: 1, converted_type: ConvertedType.LIST },
    { name: 'list', repetition_type: FieldRepetitionType.REPEATED, num_children: 1 },
    { name: 'element', repetition_type: FieldRepetitionType.OPTIONAL, type, ...(type === Type.BYTE_ARRAY ? { converted_type: ConvertedType.UTF8 } : {}) },
  ]).columns[0]!;
}

/** Dremel levels of the records, by hand: null → (0,0); [] → (0,1); element i → (i ? 1 : 0, null ? 2 : 3). */
function shred(records: readonly Rec[]): { rep: number[]; def: number[]; values: Value[]; recordOf: number[] } {
  const rep: number[] = [];
  const def: number[] = [];
  const values: Value[] = [];
  const recordOf: number[] = [];
  records.forEach((r, k) => {
    if (r === null || r.length === 0) {
      rep.push(0);
      def.push(r === null ? 0 : 1);
      recordOf.push(k);
      return;
    }
    r.forEach((v, i) => {
      rep.push(i === 0 ? 0 : 1);
      def.push(v === null ? 2 : 3);
      recordOf.push(k);
      if (v !== null) values.push(v);
    });
  });
  return { rep, def, values, recordOf };
}

const cat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u32 = (n: number): Uint8Array => new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24]);
/** RLE-hybrid: one RLE run (header `1 << 1`) per level, its value in one byte (bit widths here are at most 8). */
const rleRuns = (levels: readonly number[]): Uint8Array => new Uint8Array(levels.flatMap((l) => [2, l]));
const utf8 = new TextEncoder();
const plain = (type: Type, values: readonly Value[]): Uint8Array =>
  cat(values.map((v) => (type === Type.INT32 ? u32(v as number) : cat([u32(utf8.encode(v as string).length), utf8.encode(v as string)]))));

interface Built {
  bytes: Uint8Array;
  meta: ColumnMetaData;
  /** Level position where each data page starts. */
  pageStarts: number[];
  /** Byte position of each data page header within the chunk. */
  pageAt: number[];
}

/**
 * A column chunk of the records, cut into data pages at `cuts` (level positions), values PLAIN or dictionary-encoded
 * per page, data page V1 or V2 per page.
 */
function buildChunk(type: Phys, records: readonly Rec[], cuts: readonly number[], dictPages: readonly boolean[], v2: readonly boolean[], codec: CompressionCodec = CompressionCodec.UNCOMPRESSED): Built {
  const { rep, def } = shred(records);
  const opts = { codec, codecs: builtinCodecs() };
  const dict = [...new Set(shred(records).values)];
  const useDict = dictPages.some(Boolean);
  const pages: WrittenPage[] = [];
  if (useDict) pages.push(dictionaryPage(dict.length, plain(type, dict), opts));
  const bounds = [0, ...cuts, rep.length];
  const pageStarts: number[] = [];
  for (let p = 0; p + 1 < bounds.length; p++) {
    const [a, b] = [bounds[p]!, bounds[p + 1]!];
    pageStarts.push(a);
    const r = rep.slice(a, b);
    const d = def.slice(a, b);
    // the non-null values of these levels
    const vals: Value[] = [];
    let vi = def.slice(0, a).filter((x) => x === 3).length;
    for (const x of d) if (x === 3) vals.push(shred(records).values[vi++]!);
    const dictionary = useDict && (dictPages[p % dictPages.length] ?? false);
    const encoded = dictionary ? cat([new Uint8Array([8]), new Uint8Array(vals.flatMap((v) => [2, dict.indexOf(v)]))]) : plain(type, vals);
    const encoding = dictionary ? Encoding.RLE_DICTIONARY : Encoding.PLAIN;
    if (v2[p % v2.length]) {
      const rl = rleRuns(r);
      pages.push(dataPageV2({ numValues: b - a, numNulls: b - a - vals.length, numRows: r.filter((x) => x === 0).length, encoding, levels: cat([rl, rleRuns(d)]), repetitionLength: rl.length, values: encoded }, opts));
    } else {
      const rl = rleRuns(r);
      const dl = rleRuns(d);
      pages.push(dataPageV1({ numValues: b - a, encoding, body: cat([u32(rl.length), rl, u32(dl.length), dl, encoded]) }, opts));
    }
  }
  const parts: Uint8Array[] = [];
  const pageAt: number[] = [];
  let at = 0;
  for (const pg of pages) {
    const h = pageHeaderBytes(pg.header);
    if (pg.header.data_page_header || pg.header.data_page_header_v2) pageAt.push(at);
    parts.push(h, pg.body);
    at += h.length + pg.body.length;
  }
  const bytes = cat(parts);
  const meta: ColumnMetaData = {
    type,
    encodings: [Encoding.PLAIN, Encoding.RLE],
    path_in_schema: ['a', 'list', 'element'],
    codec,
    num_values: rep.length,
    total_uncompressed_size: bytes.length,
    total_compressed_size: bytes.length,
    data_page_offset: 4,
    ...(useDict ? { dictionary_page_offset: 4 } : {}),
  };
  return { bytes, meta, pageStarts, pageAt };
}

const where = { rowGroup: 3, path: 'a.list.element', offset: 1000 };

/** Physical values of a decoded chunk as JS values (strings for BYTE_ARRAY). */
function valuesOf(chunk: DecodedChunk, column: ColumnDescriptor): Value[] {
  const v = chunkValues(chunk, column);
  if ('offsets' in v) {
    const out: string[] = [];
    for (let i = 0; i + 1 < v.offsets.length; i++) out.push(new TextDecoder().decode(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));
    return out;
  }
  return Array.from(v as Int32Array);
}

/** The levels and values of records `from` to `to`, by hand. */
function expectedSlice(records: readonly Rec[], from: number, to: number) {
  const s = shred(records.slice(from, to));
  return { rep: s.rep, def: s.def, values: s.values };
}

function actualOf(chunk: DecodedChunk, column: ColumnDescriptor) {
  return {
    rep: Array.from(chunk.rep ?? []),
    def: chunk.def ? Array.from(chunk.def) : new Array<number>(chunk.numLevels).fill(column.maxDef),
    values: valuesOf(chunk, column),
  };
}

const recordArb = (type: Phys): fc.Arbitrary<Rec> => {
  const value: fc.Arbitrary<Value> = type === Type.INT32 ? fc.integer({ min: -5, max: 20 }) : fc.constantFrom('a', 'bb', 'ccc', 'ü', '', 'long value number one');
  return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: fc.array(fc.option(value, { freq: 4, nil: null }), { maxLength: 9 }) });
};

/** Records, page cuts at any level position (inside records too), per-page encodings and versions. */
const caseArb = fc.constantFrom<Phys>(Type.INT32, Type.BYTE_ARRAY).chain((type) =>
  fc.array(recordArb(type), { minLength: 1, maxLength: 60 }).chain((records) => {
    const levels = shred(records).rep.length;
    return fc.record({
      type: fc.constant(type),
      records: fc.constant(records),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, levels - 1) }), { maxLength: Math.min(12, levels - 1) }).map((c) => c.filter((x) => x < levels).sort((a, b) => a - b)),
      dictPages: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      v2: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
      takes: fc.array(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 70 })), { minLength: 1, maxLength: 30 }),
      skips: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
      snappy: fc.boolean(),
    });
  }),
);

describe('ChunkDecoder', () => {
  test('a record spanning three pages is taken whole, in one batch, and the pages after it stay undecoded', async () => {
    const column = listColumn(Type.INT32);
    // record 1 has 7 elements; pages cut at levels 3 and 6 put it across pages 0, 1 and 2
    const records: Rec[] = [[1, 2], [3, 4, null, 5, 6, 7, 8], [9], null, [], [10]];
    const cuts = [3, 6, 10];
    const built = buildChunk(Type.INT32, records, cuts, [false], [false]);
    const dec = new ChunkDecoder(built.bytes, column, built.meta, where);
    const first = await dec.take(1);
    expect(dec.lastRows).toBe(1);
    expect(actualOf(first, column)).toEqual({ rep: [0, 1], def: [3, 3], values: [1, 2] });
    // the first record ends inside page 0, at record 1's start: page 1 is not needed to know that
    expect(dec.dataPages).toBe(1);
    const second = await dec.take(1);
    expect(dec.lastRows).toBe(1);
    expect(actualOf(second, column)).toEqual({ rep: [0, 1, 1, 1, 1, 1, 1], def: [3, 3, 2, 3, 3, 3, 3], values: [3, 4, 5, 6, 7, 8] });
    // its end is known at record 2's start (level 9, on page 2); page 3 (levels 10..) is still unread
    expect(dec.dataPages).toBe(3);
    const rest = await dec.take(100);
    expect(dec.lastRows).toBe(4);
    expect(actualOf(rest, column)).toEqual({ rep: [0, 0, 0, 0], def: [3, 0, 1, 3], values: [9, 10] });
    expect(await dec.atEnd()).toBe(true);
    expect((await dec.take(5)).numLevels).toBe(0);
    expect(dec.lastRows).toBe(0);
    expect(dec.rowsTaken).toBe(6);
  });

  test('any sequence of takes and skips returns exactly the next records, wherever the pages are cut', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ type, records, cuts, dictPages, v2, takes, skips, snappy }) => {
        const column = listColumn(type);
        // compressed pages are decompressed into a buffer the decoders share (for pages whose values are copied out)
        const built = buildChunk(type, records, cuts, dictPages, v2, snappy ? CompressionCodec.SNAPPY : CompressionCodec.UNCOMPRESSED);
        const opts = { codecs: builtinCodecs() };
        // the whole chunk at once
        const whole = await decodeColumnChunk(built.bytes, column, built.meta, where, { ...opts, numRows: records.length });
        expect(actualOf(whole, column)).toEqual(expectedSlice(records, 0, records.length));
        expect(whole.pages).toBe(cuts.length + 1);
        // a whole chunk (numRows given) of pages of one kind (all dictionary-encoded, or all PLAIN INT32) is one array
        // of values or indices, decoded page after page into it, not one per page; a run of pages is not
        const run = await decodeColumnChunk(built.bytes, column, built.meta, where, opts);
        expect(actualOf(run, column)).toEqual(expectedSlice(records, 0, records.length));
        expect(run.segments.length).toBe(cuts.length + 1);
        const pagesUsed = cuts.length + 1;
        const kinds = new Set(Array.from({ length: pagesUsed }, (_, p) => dictPages.some(Boolean) && (dictPages[p % dictPages.length] ?? false)));
        if (whole.numValues > 0 && kinds.size === 1 && (type === Type.INT32 || kinds.has(true))) expect(whole.segments.length).toBe(1);
        // in batches
        const dec = new ChunkDecoder(built.bytes, column, built.meta, where, opts);
        const taken: [DecodedChunk, number, number][] = [];
        let at = 0;
        let k = 0;
        while (at < records.length) {
          const n = takes[k % takes.length]!;
          if (skips[k % skips.length] && k % 3 === 2) {
            expect(await dec.skip(n)).toBe(Math.min(n, records.length - at));
          } else {
            const got = await dec.take(n);
            expect(dec.lastRows).toBe(Math.min(n, records.length - at));
            expect(actualOf(got, column)).toEqual(expectedSlice(records, at, at + n));
            expect(got.dictionary === undefined).toBe(!dictPages.some(Boolean));
            taken.push([got, at, n]);
          }
          at = Math.min(records.length, at + n);
          k++;
        }
        expect(await dec.atEnd()).toBe(true);
        expect(dec.rowsTaken).toBe(records.length);
        // what was handed out stays valid after the pages after it were decompressed (into the shared buffer), and
        // after two decoders ran at once (one of them then decompresses into buffers of its own)
        await Promise.all([decodeColumnChunk(built.bytes, column, built.meta, where, opts), decodeColumnChunk(built.bytes, column, built.meta, where, opts)]);
        expect(actualOf(whole, column)).toEqual(expectedSlice(records, 0, records.length));
        for (const [got, from, n] of taken) expect(actualOf(got, column)).toEqual(expectedSlice(records, from, from + n));
      }),
      { numRuns: 300 },
    );
  });

  test('PLAIN byte-array pages of SNAPPY chunks split in the kernel (byteArrays) decode as with the TypeScript loop', async () => {
    expect(await snappyWasmAvailable()).toBe(true);
    // the SNAPPY codec with its byteArrays counted, and one without it (a spread copy: the TypeScript loop)
    let splits = 0;
    type Split = (raw: Uint8Array, pos: number, end: number, count: number) => unknown;
    const own = (snappyCodec as typeof snappyCodec & { byteArrays: Split }).byteArrays;
    const counted = { ...snappyCodec };
    Object.defineProperty(counted, 'byteArrays', { value: (raw: Uint8Array, pos: number, end: number, count: number) => (splits++, own(raw, pos, end, count)) });
    const withSplit: CodecMap = { [CompressionCodec.SNAPPY]: counted };
    const without: CodecMap = { [CompressionCodec.SNAPPY]: { ...snappyCodec } };
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ type, records, cuts, dictPages, v2, takes }) => {
        const column = listColumn(type);
        const built = buildChunk(type, records, cuts, dictPages, v2, CompressionCodec.SNAPPY);
        for (const codecs of [withSplit, without]) {
          // a run of pages (each page's values its own), the whole chunk, and batches
          const run = await decodeColumnChunk(built.bytes, column, built.meta, where, { codecs });
          expect(actualOf(run, column)).toEqual(expectedSlice(records, 0, records.length));
          const whole = await decodeColumnChunk(built.bytes, column, built.meta, where, { codecs, numRows: records.length });
          expect(actualOf(whole, column)).toEqual(expectedSlice(records, 0, records.length));
          const dec = new ChunkDecoder(built.bytes, column, built.meta, where, { codecs });
          for (let at = 0, k = 0; at < records.length; k++) {
            const n = takes[k % takes.length]!;
            expect(actualOf(await dec.take(n), column)).toEqual(expectedSlice(records, at, at + n));
            at = Math.min(records.length, at + n);
          }
        }
      }),
      { numRuns: 200 },
    );
    expect(splits).toBeGreaterThan(50);
  });

  test('a truncated PLAIN byte-array page of a SNAPPY chunk fails as the TypeScript loop reports it', async () => {
    expect(await snappyWasmAvailable()).toBe(true);
    const column = listColumn(Type.BYTE_ARRAY);
    // one V1 page whose values section ends inside the last value (its RLE levels say 3 values)
    const opts = { codec: CompressionCodec.SNAPPY, codecs: builtinCodecs() };
    const rl = rleRuns([0, 1, 1]);
    const dl = rleRuns([3, 3, 3]);
    const values = plain(Type.BYTE_ARRAY, ['abc', 'defgh', 'ijklmnop']);
    const pg = dataPageV1({ numValues: 3, encoding: Encoding.PLAIN, body: cat([u32(rl.length), rl, u32(dl.length), dl, values.subarray(0, values.length - 2)]) }, opts);
    const bytes = cat([pageHeaderBytes(pg.header), pg.body]);
    const meta = { type: Type.BYTE_ARRAY, encodings: [], path_in_schema: ['a', 'list', 'element'], codec: CompressionCodec.SNAPPY, num_values: 3, total_compressed_size: bytes.length, total_uncompressed_size: 0, data_page_offset: 4 } as ColumnMetaData;
    const errOf = (codecs: CodecMap) => typedError(() => decodeColumnChunk(bytes, column, meta, where, { codecs }));
    const split = await errOf({ [CompressionCodec.SNAPPY]: snappyCodec });
    expect(split.code).toBe('ENCODING_TRUNCATED');
    expect(split).toEqual(await errOf({ [CompressionCodec.SNAPPY]: { ...snappyCodec } }));
  });

  test('levelsDecoded counts the levels of the pages decoded; nextRepetition names the level a take would start at', async () => {
    const column = listColumn(Type.INT32);
    // the record of the first test, across pages 0-2 (cuts at levels 3, 6 and 10: pages of 3, 3, 4 and 3 levels)
    const records: Rec[] = [[1, 2], [3, 4, null, 5, 6, 7, 8], [9], null, [], [10]];
    const built = buildChunk(Type.INT32, records, [3, 6, 10], [false], [false]);
    const dec = new ChunkDecoder(built.bytes, column, built.meta, where);
    expect(dec.levelsDecoded).toBe(0);
    expect(await dec.nextRepetition()).toBe(0);
    expect(dec.levelsDecoded).toBe(3);
    await dec.take(1);
    expect(await dec.nextRepetition()).toBe(0);
    await dec.take(1);
    expect(dec.levelsDecoded).toBe(10);
    await dec.take(Infinity);
    expect(dec.levelsDecoded).toBe(13);
    expect(await dec.nextRepetition()).toBeUndefined();
    // decoding from page 1 (a page that starts inside record 1, at repetition level 1)
    const fromPage1 = new ChunkDecoder(built.bytes.subarray(built.pageAt[1]!), column, built.meta, where, { firstDataPage: 1 });
    expect(await fromPage1.nextRepetition()).toBe(1);
    expect(fromPage1.levelsDecoded).toBe(3);
  });

  test('take(Infinity) after some takes returns the rest; a non-repeated column takes one level per record', async () => {
    const column = buildSchemaTree([
      { name: 'schema', num_children: 1 },
      { name: 'x', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.INT32 },
    ]).columns[0]!;
    // two V1 pages: [1, null, 3] and [null, 5]; definition levels only
    const opts = { codec: CompressionCodec.SNAPPY, codecs: builtinCodecs() };
    const page = (defs: number[], vals: number[]) => {
      const dl = rleRuns(defs);
      return dataPageV1({ numValues: defs.length, encoding: Encoding.PLAIN, body: cat([u32(dl.length), dl, ...vals.map(u32)]) }, opts);
    };
    const pages = [page([1, 0, 1], [1, 3]), page([0, 1], [5])];
    const bytes = cat(pages.flatMap((p) => [pageHeaderBytes(p.header), p.body]));
    const meta = { type: Type.INT32, encodings: [], path_in_schema: ['x'], codec: CompressionCodec.SNAPPY, num_values: 5, total_compressed_size: bytes.length, total_uncompressed_size: 0, data_page_offset: 4 } as ColumnMetaData;
    const dec = new ChunkDecoder(bytes, column, meta, where, { codecs: builtinCodecs() });
    const a = await dec.take(2);
    expect([Array.from(a.def!), valuesOf(a, column)]).toEqual([[1, 0], [1]]);
    const b = await dec.take(Infinity);
    expect(dec.lastRows).toBe(3);
    expect([Array.from(b.def!), valuesOf(b, column)]).toEqual([[1, 0, 1], [3, 5]]);
  });

  test('a corrupt page fails the take that reaches it, located at its page ordinal and file offset; earlier takes succeed', async () => {
    const column = listColumn(Type.INT32);
    const records: Rec[] = Array.from({ length: 30 }, (_, i) => [i, i + 1, i + 2]);
    const built = buildChunk(Type.INT32, records, [20, 40, 60], [false], [false], CompressionCodec.SNAPPY);
    const bytes = built.bytes.slice();
    // a byte inside page 2's body: its CRC32 no longer matches
    bytes[built.pageAt[3]! - 3]! ^= 0xff;
    const dec = new ChunkDecoder(bytes, column, built.meta, where, { codecs: builtinCodecs() });
    expect(actualOf(await dec.take(6), column)).toEqual(expectedSlice(records, 0, 6));
    const err = await typedError(() => dec.take(10));
    expect(err.code).toBe('CHECKSUM_MISMATCH');
    expect(err.message).toContain(`row group 3, column 'a.list.element', page 2 at byte ${1000 + built.pageAt[2]!}`);
    expect(err.offset).toBe(1000 + built.pageAt[2]!);
    // the whole-chunk decode reports the same error
    expect(await typedError(() => decodeColumnChunk(bytes, column, built.meta, where, { codecs: builtinCodecs() }))).toEqual(err);
  });

  test('a dictionary index past the dictionary is DICTIONARY_INDEX, located', async () => {
    const column = listColumn(Type.BYTE_ARRAY);
    const records: Rec[] = [['a', 'bb'], ['a']];
    const built = buildChunk(Type.BYTE_ARRAY, records, [], [true], [false]);
    // the last index byte (value 0 for 'a') becomes 9: past the 2-entry dictionary
    const bytes = built.bytes.slice();
    bytes[bytes.length - 1] = 9;
    const meta = { ...built.meta };
    const dec = new ChunkDecoder(bytes, column, meta, where, { verifyChecksums: false });
    const err = await typedError(() => dec.take(1));
    expect(err.code).toBe('DICTIONARY_INDEX');
    expect(err.message).toContain(`page 0 at byte ${1000 + built.pageAt[0]!}`);
  });
});

describe('a whole chunk of 8- and 4-byte numbers decoded into one array', () => {
  /** PLAIN little-endian bytes of INT64 (bigint), FLOAT or DOUBLE values (Encodings.md), written with a DataView. */
  function plainNumbers(type: Type, vs: readonly (number | bigint)[]): Uint8Array {
    const width = type === Type.FLOAT ? 4 : 8;
    const out = new Uint8Array(vs.length * width);
    const dv = new DataView(out.buffer);
    vs.forEach((v, i) => {
      if (type === Type.INT64) dv.setBigInt64(i * width, v as bigint, true);
      else if (type === Type.FLOAT) dv.setFloat32(i * width, v as number, true);
      else dv.setFloat64(i * width, v as number, true);
    });
    return out;
  }
  const numberCase = fc.constantFrom<Type>(Type.INT64, Type.FLOAT, Type.DOUBLE).chain((type) => {
    const value: fc.Arbitrary<number | bigint> =
      type === Type.INT64 ? fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) : type === Type.FLOAT ? fc.float({ noDefaultInfinity: true, noNaN: true }) : fc.double({ noNaN: true });
    return fc.record({
      type: fc.constant(type),
      // an optional column: null or one of 6 distinct values (a dictionary of 6)
      dict: fc.uniqueArray(value, { minLength: 6, maxLength: 6, comparator: (a, b) => Object.is(a, b) }),
      picks: fc.array(fc.option(fc.integer({ min: 0, max: 5 }), { nil: null, freq: 4 }), { minLength: 1, maxLength: 80 }),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: 79 }), { maxLength: 6 }),
      dictPages: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
      snappy: fc.boolean(),
    });
  });

  test('values, nulls and page kinds as written; one segment when every page is PLAIN or every page dictionary-encoded', async () => {
    await fc.assert(
      fc.asyncProperty(numberCase, async ({ type, dict, picks, cuts, dictPages, snappy }) => {
        const column = buildSchemaTree([
          { name: 'schema', num_children: 1 },
          { name: 'x', repetition_type: FieldRepetitionType.OPTIONAL, type },
        ]).columns[0]!;
        const codec = snappy ? CompressionCodec.SNAPPY : CompressionCodec.UNCOMPRESSED;
        const opts = { codec, codecs: builtinCodecs() };
        const n = picks.length;
        const bounds = [0, ...cuts.filter((c) => c < n).sort((a, b) => a - b), n];
        const useDict = dictPages.some(Boolean);
        const pages: WrittenPage[] = useDict ? [dictionaryPage(dict.length, plainNumbers(type, dict), opts)] : [];
        const kinds: boolean[] = [];
        for (let p = 0; p + 1 < bounds.length; p++) {
          const slice = picks.slice(bounds[p], bounds[p + 1]);
          const dl = rleRuns(slice.map((k) => (k === null ? 0 : 1)));
          const present = slice.filter((k): k is number => k !== null);
          const isDict = useDict && (dictPages[p % dictPages.length] ?? false);
          kinds.push(isDict);
          const values = isDict ? cat([new Uint8Array([8]), new Uint8Array(present.flatMap((k) => [2, k]))]) : plainNumbers(type, present.map((k) => dict[k]!));
          pages.push(dataPageV1({ numValues: slice.length, encoding: isDict ? Encoding.RLE_DICTIONARY : Encoding.PLAIN, body: cat([u32(dl.length), dl, values]) }, opts));
        }
        const bytes = cat(pages.flatMap((pg) => [pageHeaderBytes(pg.header), pg.body]));
        const meta = { type, encodings: [], path_in_schema: ['x'], codec, num_values: n, total_compressed_size: bytes.length, total_uncompressed_size: 0, data_page_offset: 4, ...(useDict ? { dictionary_page_offset: 4 } : {}) } as ColumnMetaData;
        const chunk = await decodeColumnChunk(bytes, column, meta, where, { codecs: builtinCodecs(), numRows: n });
        const expected = picks.filter((k): k is number => k !== null).map((k) => dict[k]!);
        // FLOAT values as float32 round them (fc.float gives float32 values already)
        expect(Array.from(chunkValues(chunk, column) as ArrayLike<number | bigint>)).toEqual(expected);
        expect(chunk.def ? Array.from(chunk.def) : new Array<number>(n).fill(1)).toEqual(picks.map((k) => (k === null ? 0 : 1)));
        if (expected.length > 0 && new Set(kinds).size === 1) expect(chunk.segments.length).toBe(1);
      }),
      { numRuns: 200 },
    );
  });
});
