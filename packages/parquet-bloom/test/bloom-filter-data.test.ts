import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError, Type, type ColumnMetaData } from '@parquetry/thrift-compact';
import {
  readBloomFilterData,
  readColumnBloomFilter,
  readColumnBloomFilterSync,
  serializeBloomFilter,
  type BloomByteSource,
} from '../src/bloom-filter-data.js';
import { SplitBlockBloomFilter } from '../src/sbbf.js';

function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return out;
}
const zz32 = (n: number): number[] => uleb(((n << 1) ^ (n >> 31)) >>> 0);
/** A union holding member `id` (an empty struct), in compact protocol bytes, as field `delta` 1 of its parent. */
const union = (id: number): number[] => [0x1c, (id << 4) | 0x0c, 0x00, 0x00];

/** A BloomFilterHeader written by hand from the compact protocol spec. */
function header(numBytes: number, alg = 1, hash = 1, comp = 1, extra: number[] = []): number[] {
  return [0x15, ...zz32(numBytes), ...union(alg), ...union(hash), ...union(comp), ...extra, 0x00];
}

function expectCode(fn: () => unknown, code: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(isParquetError(err), `expected ParquetError ${code}, got ${String(err)}`).toBe(true);
  expect((err as { code: string }).code).toBe(code);
}
async function expectCodeAsync(p: Promise<unknown>, code: string): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isParquetError(err), `expected ParquetError ${code}, got ${String(err)}`).toBe(true);
  expect((err as { code: string }).code).toBe(code);
}

function meta(offset: number | undefined, length: number | undefined): ColumnMetaData {
  const m: ColumnMetaData = {
    type: Type.BYTE_ARRAY,
    encodings: [0],
    path_in_schema: ['a', 'b'],
    codec: 0,
    num_values: 1,
    total_uncompressed_size: 1,
    total_compressed_size: 1,
    data_page_offset: 4,
  };
  if (offset !== undefined) m.bloom_filter_offset = offset;
  if (length !== undefined) m.bloom_filter_length = length;
  return m;
}

function source(bytes: Uint8Array, reads: [number, number][] = []): BloomByteSource {
  return {
    byteLength: bytes.length,
    read: async (start, end) => {
      reads.push([start, end]);
      return bytes.slice(start, end);
    },
  };
}

describe('bloom filter data (header + bitset)', () => {
  test('serializeBloomFilter writes the header bytes of the compact protocol, then the bitset', () => {
    const f = new SplitBlockBloomFilter(32);
    f.insertInt32(42);
    const bytes = serializeBloomFilter(f);
    // numBytes 32 -> zigzag 64; BLOCK, XXHASH, UNCOMPRESSED each a union with member 1 = {}.
    expect([...bytes.subarray(0, 15)]).toEqual([0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00]);
    expect(bytes.subarray(15)).toEqual(f.bitset());
    expect([...serializeBloomFilter(new SplitBlockBloomFilter(1024)).subarray(0, 16)]).toEqual(header(1024));
  });

  test('round trip, from any position, with the end reported', () => {
    const f = SplitBlockBloomFilter.forNdv(1000, 0.01);
    for (let i = 0; i < 1000; i++) f.insertInt64(i, -i);
    const data = serializeBloomFilter(f);
    const buf = new Uint8Array(data.length + 10);
    buf.set(data, 7);
    const r = readBloomFilterData(buf, 7);
    expect(r.end).toBe(7 + data.length);
    expect(r.header.numBytes).toBe(f.numBytes);
    expect(r.header.algorithm.BLOCK).toEqual({});
    expect(r.filter.words).toEqual(f.words);
    for (let i = 0; i < 1000; i++) expect(r.filter.mightContainInt64(i, -i)).toBe(true);
  });

  test('bad sizes -> BLOOM_BAD_SIZE', () => {
    for (const n of [0, -32, 16, 48, 1000, 0x7fffffff, 1 << 30]) {
      expectCode(() => readBloomFilterData(new Uint8Array([...header(n), ...new Uint8Array(64)])), 'BLOOM_BAD_SIZE');
    }
    // within the spec but above a caller's cap
    expectCode(() => readBloomFilterData(new Uint8Array([...header(2048), ...new Uint8Array(2048)]), 0, undefined, { maxBytes: 1024 }), 'BLOOM_BAD_SIZE');
  });

  test('unknown algorithm / hash / compression -> BLOOM_UNSUPPORTED', () => {
    const bits = new Array<number>(32).fill(0);
    expectCode(() => readBloomFilterData(new Uint8Array([...header(32, 2), ...bits])), 'BLOOM_UNSUPPORTED');
    expectCode(() => readBloomFilterData(new Uint8Array([...header(32, 1, 2), ...bits])), 'BLOOM_UNSUPPORTED');
    expectCode(() => readBloomFilterData(new Uint8Array([...header(32, 1, 1, 3), ...bits])), 'BLOOM_UNSUPPORTED');
    expect(readBloomFilterData(new Uint8Array([...header(32), ...bits])).filter.numBytes).toBe(32);
  });

  test('truncated bitset -> EOF; truncated or incomplete header -> thrift-compact errors', () => {
    expectCode(() => readBloomFilterData(new Uint8Array([...header(1024), ...new Uint8Array(1023)])), 'EOF');
    const full = new Uint8Array([...header(64), ...new Uint8Array(64)]);
    expectCode(() => readBloomFilterData(full, 0, full.length - 1), 'EOF');
    expectCode(() => readBloomFilterData(full.subarray(0, 5)), 'EOF');
    expectCode(() => readBloomFilterData(new Uint8Array([0x15, 0x40, 0x00])), 'THRIFT_REQUIRED_FIELD');
  });

  test('the old murmur3 form (bloom_filter.bin-style: raw int32 size, no thrift) is rejected with a ParquetError', () => {
    const legacy = new Uint8Array(1036);
    new DataView(legacy.buffer).setInt32(0, 1024, true);
    let err: unknown;
    try {
      readBloomFilterData(legacy);
    } catch (e) {
      err = e;
    }
    expect(isParquetError(err)).toBe(true);
  });

  test('random and mutated inputs only ever throw ParquetError', () => {
    const f = SplitBlockBloomFilter.forNdv(50, 0.01);
    const good = serializeBloomFilter(f);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.array(fc.tuple(fc.nat(good.length - 1), fc.nat(255)), { maxLength: 4 }), (junk, muts) => {
        for (const input of [junk, good.map((b, i) => muts.find(([at]) => at === i)?.[1] ?? b)]) {
          try {
            readBloomFilterData(input, 0, input.length, { maxBytes: 1 << 16 });
          } catch (e) {
            if (!isParquetError(e)) throw e;
          }
        }
      }),
      { numRuns: 400, seed: 42 },
    );
  });
});

describe('locating a column chunk filter', () => {
  const f = SplitBlockBloomFilter.forNdv(300, 0.01);
  for (let i = 0; i < 300; i++) f.insertBytes(new TextEncoder().encode(`v${i}`), 0, `v${i}`.length);
  const data = serializeBloomFilter(f);
  const file = new Uint8Array(100 + data.length + 50);
  file.set(data, 100);

  test('with bloom_filter_length: one read of exactly that range', async () => {
    const reads: [number, number][] = [];
    const g = await readColumnBloomFilter(source(file, reads), meta(100, data.length));
    expect(g?.words).toEqual(f.words);
    expect(reads).toEqual([[100, 100 + data.length]]);
    expect(readColumnBloomFilterSync(file, meta(100, data.length))?.words).toEqual(f.words);
  });

  test('without bloom_filter_length: header first, then numBytes of bitset', async () => {
    const reads: [number, number][] = [];
    const g = await readColumnBloomFilter(source(file, reads), meta(100, undefined));
    expect(g?.words).toEqual(f.words);
    expect(reads.length).toBe(2);
    expect(reads[1]).toEqual([100 + data.length - f.numBytes, 100 + data.length]);
    expect(readColumnBloomFilterSync(file, meta(100, undefined))?.words).toEqual(f.words);
  });

  test('a header longer than the first guess (unknown extra field) is re-read with a longer prefix', async () => {
    const big = [0x18, ...uleb(300), ...new Array<number>(300).fill(7)]; // field 5: binary of 300 bytes
    const bytes = new Uint8Array([...new Uint8Array(10), ...header(f.numBytes, 1, 1, 1, big), ...f.bitset()]);
    const reads: [number, number][] = [];
    const g = await readColumnBloomFilter(source(bytes, reads), meta(10, undefined));
    expect(g?.words).toEqual(f.words);
    expect(reads.length).toBeGreaterThan(2);
  });

  test('no bloom_filter_offset -> undefined; offsets outside the file -> BLOOM_BAD_OFFSET; short file -> EOF', async () => {
    expect(await readColumnBloomFilter(source(file), meta(undefined, undefined))).toBeUndefined();
    expect(readColumnBloomFilterSync(file, meta(undefined, undefined))).toBeUndefined();
    await expectCodeAsync(readColumnBloomFilter(source(file), meta(file.length, undefined)), 'BLOOM_BAD_OFFSET');
    await expectCodeAsync(readColumnBloomFilter(source(file), meta(-1, undefined)), 'BLOOM_BAD_OFFSET');
    await expectCodeAsync(readColumnBloomFilter(source(file), meta(100, file.length)), 'BLOOM_BAD_OFFSET');
    expectCode(() => readColumnBloomFilterSync(file, meta(100, 0)), 'BLOOM_BAD_OFFSET');
    await expectCodeAsync(readColumnBloomFilter(source(file), meta(100, 20)), 'EOF');
    const cut = file.subarray(0, 100 + data.length - 1);
    await expectCodeAsync(readColumnBloomFilter(source(cut), meta(100, undefined)), 'EOF');
    expectCode(() => readColumnBloomFilterSync(cut, meta(100, undefined)), 'EOF');
  });
});
