/**
 * The bloom-filter stage of the pruning pipeline, for `=` and `in` comparisons: a split-block bloom filter
 * (https://github.com/apache/parquet-format/blob/master/BloomFilter.md) answers "definitely absent" for a value's
 * PLAIN bytes; encrypted filters are two modules (Encryption.md module types 8, header, and 9, bitset).
 * Loaded with `import()` (see optional.ts) only when a read probes a bloom filter, so that a reader that never does
 * bundles neither this module nor `@parquetry/parquet-bloom` (an optional peer dependency).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import { SplitBlockBloomFilter, readBloomFilterData, bloomMightContainAny, hashValue, type BloomValue } from '@parquetry/parquet-bloom';
import { compareDecimals, compareValues, fromJsValues } from '@parquetry/parquet-column/filter-values';
import { convertNativeValues, type ValueOptions } from '@parquetry/parquet-column/decode';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, Type, decodeThrift, isParquetError, readBloomFilterHeader, type ColumnMetaData } from '@parquetry/thrift-compact';
import { columnKey } from './filter.js';
import { leafValues, type LeafFilter } from './prune.js';
import type { ScanContext } from './pipeline.js';
import type { CountingSource, KindRange, ScanStats } from './scan.js';

/** One physical value of a converted column value, as the bloom hash takes it. */
function first(v: ColumnValues): BloomValue | undefined {
  if (v instanceof Int32Array || v instanceof Float32Array || v instanceof Float64Array || v instanceof BigInt64Array) return v[0];
  if (v instanceof Uint8Array) return v[0] === 1;
  if ('offsets' in v) return v.data.subarray(v.offsets[0]!, v.offsets[1]!);
  if ('width' in v) return v.data.subarray(0, v.width);
  return undefined;
}

/**
 * The physical values whose bloom hashes an `=`/`in` comparison must probe, or undefined when the bloom filter
 * cannot decide it: columns whose value mapping is not one-to-one (INT96, FLOAT16, DECIMAL on BYTE_ARRAY whose
 * bytes need not be minimal, DECIMAL as numbers, INT64 as numbers beyond 2^53, sub-millisecond timestamps as
 * dates, strings holding U+FFFD, which invalid UTF-8 also decodes to). A value that does not convert to the
 * column's physical type and back to itself is skipped (no row can equal it), and a zero of a FLOAT/DOUBLE column
 * is probed as both +0 and -0.
 * @param leaf - the comparison.
 * @param column - the leaf column.
 * @param options - value mapping.
 * @param decimals - DECIMAL columns' keys (filter.ts `columnKey`; compared as decimals).
 * @returns the values to probe.
 */
export function bloomProbeValues(leaf: LeafFilter, column: ColumnDescriptor, options: ValueOptions, decimals: ReadonlySet<string>): BloomValue[] | undefined {
  const lt = column.node.logicalType;
  const t = column.type;
  if (t === Type.INT96 || lt?.FLOAT16) return undefined;
  const decimal = lt?.DECIMAL !== undefined;
  if (decimal && (options.decimals === 'number' || t === Type.BYTE_ARRAY)) return undefined;
  const unit = lt?.TIMESTAMP?.unit ?? lt?.TIME?.unit;
  if (options.timestamps === 'date' && unit !== undefined && unit.MILLIS === undefined) return undefined;
  const cmp = decimals.has(columnKey(leaf.column)) ? compareDecimals : compareValues;
  const out: BloomValue[] = [];
  for (const v of leafValues(leaf)) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'string' && v.includes('\uFFFD')) return undefined;
    if (options.int64 === 'number' && t === Type.INT64 && !decimal && !(typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'bigint' && v >= -(2n ** 53n) && v <= 2n ** 53n)) return undefined;
    let phys: ColumnValues;
    try {
      phys = fromJsValues([v], 0, 1, column);
    } catch (e) {
      if (isParquetError(e)) continue; // not a value of this column: no row equals it
      throw e;
    }
    const back = convertNativeValues(phys, column, options)[0];
    if (cmp(back, v) !== 0) {
      // converts to a different value: for an exact mapping no stored value equals it, but be conservative
      return undefined;
    }
    const p = first(phys);
    if (p === undefined) return undefined;
    out.push(p);
    if ((t === Type.FLOAT || t === Type.DOUBLE) && p === 0) out.push(Object.is(p, -0) ? 0 : -0);
  }
  return out;
}

/** A chunk's bloom filter, or the blocks of it that a read's values hash to. */
export interface BloomProbe {
  /**
   * Whether the chunk may hold one of the values.
   * @param values - values from {@link bloomProbeValues} (those the filter was read for).
   * @returns false when every value is definitely absent.
   */
  mayContain(values: readonly BloomValue[]): boolean;
}

/** A bloom filter a read wants. */
export interface BloomRequest {
  /** The chunk's metadata (`bloom_filter_offset`, `bloom_filter_length`). */
  md: ColumnMetaData;
  /** The leaf column. */
  column: ColumnDescriptor;
  /** Every value the read may probe (so that only their blocks need be fetched). */
  values: readonly BloomValue[];
  /** Decrypts a module of an encrypted column (8 header, 9 bitset). */
  decrypt: ((module: 8 | 9, bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
}

/** First guess at the size of a bloom filter header (ours are under 20 bytes; an encrypted one adds 32). */
const HEADER_GUESS = 256;
/** A header that does not decode within this many bytes is corrupt. */
const HEADER_LIMIT = 4096;
/** Filters up to this size are read whole; larger ones only in the 32-byte blocks the values hash to. */
const WHOLE_FILTER_BYTES = 8192;
/** Largest header accepted when its size is inferred from `bloom_filter_length`. */
const MAX_INFERRED_HEADER = 64;

const hash = /*#__PURE__*/ new Uint32Array(2);

function wholeProbe(filter: SplitBlockBloomFilter, column: ColumnDescriptor): BloomProbe {
  return { mayContain: (values) => bloomMightContainAny(filter, column.type, values) };
}

/** The block reads of a large plaintext filter whose length is known, or undefined to read it whole. */
function blockPlan(r: BloomRequest, off: number, len: number): { headerLen: number; numBytes: number; blocks: number[] } | undefined {
  // numBytes is a power of two, and the header is shorter than the smallest bitset
  const numBytes = 2 ** Math.floor(Math.log2(len));
  const headerLen = len - numBytes;
  if (numBytes <= WHOLE_FILTER_BYTES || headerLen <= 0 || headerLen > MAX_INFERRED_HEADER) return undefined;
  const blocks = new Set<number>();
  const shift = 32 - Math.log2(numBytes / 32);
  for (const v of r.values) {
    hashValue(r.column.type, v, hash);
    blocks.add(shift >= 32 ? 0 : hash[1]! >>> shift);
  }
  if (blocks.size * 32 * 8 > numBytes) return undefined;
  return { headerLen, numBytes, blocks: [...blocks].sort((a, b) => a - b) };
}

/** Whether a decoded header is the one {@link blockPlan} inferred, of a filter this reader can probe. */
function headerAgrees(bytes: Uint8Array, headerLen: number, numBytes: number): boolean {
  try {
    const { value: h, end } = decodeThrift(readBloomFilterHeader, bytes, 0, bytes.length, 0);
    return end === headerLen && h.numBytes === numBytes && h.algorithm.BLOCK !== undefined && h.hash.XXHASH !== undefined && h.compression.UNCOMPRESSED !== undefined;
  } catch (e) {
    if (isParquetError(e)) return false;
    throw e;
  }
}

/**
 * Fetches bloom filters in one coalesced fetch: a large plaintext filter whose `bloom_filter_length` is known only
 * as its header and the 32-byte blocks the read's values hash to (a split-block filter answers from one block per
 * value), the others whole; a filter without `bloom_filter_length` header first. Encrypted filters are decrypted
 * (header and bitset modules) and checked like plaintext ones.
 * @param io - the counting source.
 * @param stats - the read's statistics.
 * @param requests - the chunks' bloom filters.
 * @param limit - the end of the region filters may lie in (the footer offset).
 * @returns one probe per request (undefined when the chunk has no filter).
 * @throws ParquetError `BLOOM_BAD_OFFSET` for a filter outside the file, the `parquet-bloom` codes for a malformed
 *   filter, `CORRUPT_BLOOM`, and decryption errors.
 */
export async function readBloomFilters(io: CountingSource, stats: ScanStats, requests: readonly BloomRequest[], limit: number): Promise<(BloomProbe | undefined)[]> {
  const ranges: KindRange[] = [];
  const plans: ({ whole: number } | { header: number; blocks: Map<number, number>; headerLen: number; numBytes: number } | undefined)[] = [];
  for (const r of requests) {
    const off = r.md.bloom_filter_offset;
    const len = r.md.bloom_filter_length;
    checkBloomRange(r, limit);
    if (off === undefined || len === undefined) {
      plans.push(undefined);
      continue;
    }
    const plan = r.decrypt ? undefined : blockPlan(r, off, len);
    if (plan === undefined) {
      plans.push({ whole: ranges.push({ start: off, end: off + len, kind: 'bloom' }) - 1 });
      continue;
    }
    const header = ranges.push({ start: off, end: off + plan.headerLen, kind: 'bloom' }) - 1;
    const blocks = new Map<number, number>();
    for (const b of plan.blocks) {
      const at = off + plan.headerLen + b * 32;
      blocks.set(b, ranges.push({ start: at, end: at + 32, kind: 'bloom' }) - 1);
    }
    plans.push({ header, blocks, headerLen: plan.headerLen, numBytes: plan.numBytes });
  }
  const fetched = ranges.length > 0 ? await io.fetch(ranges, stats, 4096) : [];
  return Promise.all(
    requests.map(async (r, i): Promise<BloomProbe | undefined> => {
      const off = r.md.bloom_filter_offset;
      if (off === undefined) return undefined;
      const p = plans[i];
      if (p !== undefined && 'header' in p) {
        if (headerAgrees(fetched[p.header]!, p.headerLen, p.numBytes)) {
          const shift = 32 - Math.log2(p.numBytes / 32);
          const blocks = new Map([...p.blocks].map(([b, k]) => [b, SplitBlockBloomFilter.fromBitset(fetched[k]!)]));
          return {
            mayContain: (values) => {
              for (const v of values) {
                hashValue(r.column.type, v, hash);
                const block = blocks.get(hash[1]! >>> shift);
                // a value whose block was not read: no answer
                if (block === undefined || block.mightContainHash(hash[0]!, hash[1]!)) return true;
              }
              return false;
            },
          };
        }
        // not the header inferred: read the filter whole
        const [all] = await io.fetch([{ start: off, end: off + r.md.bloom_filter_length!, kind: 'bloom' }], stats);
        return wholeProbe(await plainBloom(new Region(io, stats, off, limit, all!), r), r.column);
      }
      const region = new Region(io, stats, off, limit, p !== undefined ? fetched[p.whole]! : undefined);
      return wholeProbe(await (r.decrypt ? decryptedBloom(region, r) : plainBloom(region, r)), r.column);
    }),
  );
}

/**
 * Checks a chunk's `bloom_filter_offset` and `bloom_filter_length` against the data region.
 * @throws ParquetError `BLOOM_BAD_OFFSET`.
 */
function checkBloomRange(r: BloomRequest, limit: number): void {
  const off = r.md.bloom_filter_offset;
  const len = r.md.bloom_filter_length;
  const path = r.column.pathString;
  if (off !== undefined && !(Number.isSafeInteger(off) && off >= 4 && off < limit)) {
    throw new ParquetError('BLOOM_BAD_OFFSET', `parquet-reader: column '${path}': bloom_filter_offset ${off} is outside the data region [4, ${limit})`, off);
  }
  if (off !== undefined && len !== undefined && !(Number.isSafeInteger(len) && len > 0 && off + len <= limit)) {
    throw new ParquetError('BLOOM_BAD_OFFSET', `parquet-reader: column '${path}': bloom filter [${off}, ${off + len}) is outside the data region [4, ${limit})`, off);
  }
}

/**
 * Reads one column chunk's whole bloom filter, decrypted when the column is encrypted (`ParquetFile.bloomFilter`).
 * @param ctx - the file's scan context.
 * @param rowGroup - row group ordinal (checked by the caller).
 * @param column - leaf column ordinal (checked by the caller).
 * @returns the filter, or undefined when the chunk has none.
 * @throws ParquetError `BLOOM_BAD_OFFSET` for a filter outside the data region, the `parquet-bloom` codes for a
 *   malformed filter, `CORRUPT_BLOOM`, the source's errors and decryption errors.
 */
export async function readChunkBloomFilter(ctx: ScanContext, rowGroup: number, column: number): Promise<SplitBlockBloomFilter | undefined> {
  const md = await ctx.chunkMeta(rowGroup, column);
  const dec = ctx.decrypt(rowGroup, column);
  const r: BloomRequest = { md, column: ctx.schema.columns[column]!, values: [], decrypt: dec && ((m, b) => dec(m, 0, b)) };
  const off = md.bloom_filter_offset;
  if (off === undefined) return undefined;
  checkBloomRange(r, ctx.footerOffset);
  const len = md.bloom_filter_length;
  const bytes = len === undefined ? undefined : (await ctx.io.fetch([{ start: off, end: off + len, kind: 'bloom' }], undefined))[0];
  const region = new Region(ctx.io, undefined, off, ctx.footerOffset, bytes);
  return r.decrypt ? decryptedBloom(region, r) : plainBloom(region, r);
}

/** Bytes from a file offset on: the filter's bytes when its length is known, else fetched as needed. */
class Region {
  private bytes: Uint8Array | undefined;
  /** Whether the bytes are the filter's whole extent (its `bloom_filter_length` is known). */
  readonly known: boolean;
  constructor(
    private readonly io: CountingSource,
    private readonly stats: ScanStats | undefined,
    readonly offset: number,
    private readonly limit: number,
    bytes: Uint8Array | undefined,
  ) {
    this.bytes = bytes;
    this.known = bytes !== undefined;
  }
  /** The first `n` bytes (fewer at the end of the region or of a known extent). */
  async upTo(n: number): Promise<Uint8Array> {
    if (this.known) return this.bytes!.subarray(0, Math.min(n, this.bytes!.length));
    const want = Math.min(n, this.limit - this.offset);
    const have = this.bytes?.length ?? 0;
    if (have >= want) return this.bytes!.subarray(0, want);
    const [more] = await this.io.fetch([{ start: this.offset + have, end: this.offset + want, kind: 'bloom' }], this.stats);
    const b = new Uint8Array(want);
    if (this.bytes) b.set(this.bytes);
    b.set(more!, have);
    this.bytes = b;
    return b;
  }
}

async function plainBloom(region: Region, r: BloomRequest): Promise<SplitBlockBloomFilter> {
  let want = HEADER_GUESS;
  for (;;) {
    const prefix = await region.upTo(want);
    let end: number;
    let numBytes: number;
    try {
      const h = decodeThrift(readBloomFilterHeader, prefix, 0, prefix.length, region.offset);
      end = h.end;
      numBytes = h.value.numBytes;
    } catch (e) {
      if (isParquetError(e) && !region.known && prefix.length === want && want < HEADER_LIMIT) {
        want *= 4;
        continue;
      }
      throw wrapBloom(e, r, region.offset);
    }
    const all = await region.upTo(end + Math.max(0, numBytes));
    try {
      return readBloomFilterData(all, 0, all.length, { baseOffset: region.offset }).filter;
    } catch (e) {
      throw wrapBloom(e, r, region.offset);
    }
  }
}

/** The length prefix of an encrypted module at `at`. */
function moduleLength(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

async function decryptedBloom(region: Region, r: BloomRequest): Promise<SplitBlockBloomFilter> {
  const fail = (what: string): never => {
    throw new ParquetError('CORRUPT_BLOOM', `parquet-reader: column '${r.column.pathString}': encrypted bloom filter at byte ${region.offset}: ${what}`, region.offset);
  };
  let b = await region.upTo(HEADER_GUESS);
  if (b.length < 4) fail('truncated header module');
  const hLen = 4 + moduleLength(b, 0);
  b = await region.upTo(hLen + 4);
  if (b.length < hLen + 4) fail(`header module of ${hLen} bytes runs past the data region`);
  const header = await r.decrypt!(8, b.subarray(0, hLen));
  const bLen = 4 + moduleLength(b, hLen);
  b = await region.upTo(hLen + bLen);
  if (b.length < hLen + bLen) fail(`bitset module of ${bLen} bytes runs past the data region`);
  const bitset = await r.decrypt!(9, b.subarray(hLen, hLen + bLen));
  // the decrypted header and bitset read as a plaintext filter (header checks, bitset length); parquet-java pads the
  // header module's plaintext with zeros after the struct, so only the struct is kept
  let headerEnd: number;
  try {
    headerEnd = decodeThrift(readBloomFilterHeader, header, 0, header.length, 0).end;
  } catch (e) {
    throw wrapBloom(e, r, region.offset);
  }
  const plain = new Uint8Array(headerEnd + bitset.length);
  plain.set(header.subarray(0, headerEnd));
  plain.set(bitset, headerEnd);
  try {
    const d = readBloomFilterData(plain, 0, plain.length, { baseOffset: region.offset });
    if (d.end !== plain.length) fail(`the bitset module holds ${bitset.length} bytes, the header declares ${d.header.numBytes}`);
    return d.filter;
  } catch (e) {
    throw wrapBloom(e, r, region.offset);
  }
}

function wrapBloom(e: unknown, r: BloomRequest, offset: number): unknown {
  if (!isParquetError(e) || e.message.includes(`column '${r.column.pathString}'`)) return e;
  return new ParquetError(e.code, `parquet-reader: column '${r.column.pathString}': bloom filter at byte ${offset}: ${e.message}`, e.offset ?? offset, { cause: e });
}
