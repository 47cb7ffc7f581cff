/**
 * The Arrow-layout value forms of a decoded chunk that columnar reads take: byte arrays as one offsets + bytes pair with
 * dictionary indices resolved, booleans packed one bit per value, INTEGER(8/16/32) columns as typed arrays of their
 * width. A module of its own (the `@parquetry/parquet-column/columnar` entry), apart from values.ts, which every read
 * uses: a bundler places every module an entry can reach in that entry's initial load once a lazy chunk uses it, and
 * only columnar reads (a reader's lazy columnar part) use these.
 * @module
 */
import type { ByteArrays, ColumnValues } from '@parquetry/parquet-encodings';
import type { BooleanBits, ColumnDescriptor } from '@parquetry/parquet-levels';
import { Type } from '@parquetry/thrift-compact';
import type { DecodedChunk } from './column-chunk.js';
import type { ValueOptions } from './to-js.js';
import { MAX_BINARY_BYTES, checkOffsetRange } from './values.js';

/**
 * A BYTE_ARRAY chunk's non-null values as one offsets + bytes pair, dictionary indices resolved, with one
 * allocation for all bytes (the single plain segment is returned as it is, without a copy).
 * @param segments - the chunk's value segments (indices must already be checked against the dictionary).
 * @param dictionary - the chunk's dictionary, when some segment holds indices.
 * @param numValues - total number of values.
 * @param where - the chunk, for messages.
 * @param charge - called before the bytes are allocated with the count of bytes taken from the dictionary (a read's
 *   budget: dictionary entries repeated by their indices can hold far more bytes than the file, 2,000 bytes 2^20
 *   times from a 2 KB file; bytes copied from plain pages are already counted as the pages'), and throws to refuse
 *   them.
 * @returns offsets and bytes.
 * @throws ParquetError `VALUE_TOO_LARGE` when the values hold more bytes than 32-bit offsets address; what `charge`
 *   throws (`LIMIT_EXCEEDED`).
 */
export function chunkByteArrays(
  segments: readonly ({ indices: Int32Array; values?: undefined } | { values: ColumnValues; indices?: undefined })[],
  dictionary: ColumnValues | undefined,
  numValues: number,
  where?: string,
  charge?: (bytes: number) => void,
): ByteArrays {
  if (segments.length === 1 && segments[0]!.values) return segments[0]!.values as ByteArrays;
  const dict = dictionary as ByteArrays | undefined;
  let lens: Int32Array | undefined;
  let padded: Int32Array | undefined;
  if (dict !== undefined && segments.every((s) => s.indices !== undefined)) {
    // every value from a dictionary of short entries: offsets and bytes in one pass, into bytes sized by the longest
    // entry (at most PAD_STRIDE per value), trimmed after
    lens = entryLengths(dict);
    padded = paddedEntries(dict, lens);
    if (padded.length > 0) {
      let longest = 0;
      for (let j = 0; j < lens.length; j++) if (lens[j]! > longest) longest = lens[j]!;
      if (longest * numValues <= MAX_BINARY_BYTES) {
        charge?.(longest * numValues);
        return gatherAll(segments as readonly { indices: Int32Array }[], lens, padded, longest * numValues, numValues, longest);
      }
    }
  }
  // first pass: the offsets (sized from the dictionary's lengths and the pages' offsets), and the total
  const offsets = new Int32Array(numValues + 1);
  let k = 0;
  let at = 0;
  let fromDictionary = 0;
  for (const s of segments) {
    if (s.indices) {
      lens ??= entryLengths(dict!);
      const from = at;
      at = indexOffsets(s.indices, lens, offsets, k, at);
      fromDictionary += at - from;
      k += s.indices.length;
    } else {
      const so = (s.values as ByteArrays).offsets;
      const m = so.length - 1;
      const base = so[0]!;
      for (let i = 1; i <= m; i++) offsets[k + i] = at + so[i]! - base;
      k += m;
      at += so[m]! - base;
    }
  }
  // (offsets past 2^31 wrapped above: they are dropped with the error)
  checkOffsetRange(at, where);
  const bytes = at;
  if (fromDictionary > 0) charge?.(fromDictionary);
  // room for a value's last 4-byte word to run past the end (the dictionary gather writes whole words)
  const data = new Uint8Array(bytes + 16);
  k = 0;
  at = 0;
  for (const s of segments) {
    if (s.indices) {
      const idx = s.indices;
      padded ??= paddedEntries(dict!, lens!);
      if (padded.length > 0) gatherPadded(idx, lens!, padded, data, at);
      else gatherLong(idx, dict!, data, at);
      k += idx.length;
      at = offsets[k]!;
    } else {
      const { offsets: so, data: sd } = s.values as ByteArrays;
      const m = so.length - 1;
      data.set(sd.subarray(so[0]!, so[m]!), at);
      k += m;
      at = offsets[k]!;
    }
  }
  return { offsets, data: data.subarray(0, bytes) };
}

/** The byte length of each dictionary entry. */
function entryLengths(dict: ByteArrays): Int32Array {
  const o = dict.offsets;
  const lens = new Int32Array(o.length - 1);
  for (let j = 0; j < lens.length; j++) lens[j] = o[j + 1]! - o[j]!;
  return lens;
}

/** Writes the end offsets of the values `idx` selects from `offsets[k + 1]` on, starting at byte `at`; returns the end. */
function indexOffsets(idx: Int32Array, lens: Int32Array, offsets: Int32Array, k: number, at: number): number {
  for (let i = 0; i < idx.length; i++) {
    at += lens[idx[i]!]!;
    offsets[k + i + 1] = at;
  }
  return at;
}

/** Largest entry {@link paddedEntries} pads, and the most entries it pads. */
const PAD_STRIDE = 16;
const MAX_PADDED_ENTRIES = 65536;

/**
 * The dictionary's entries at a stride of {@link PAD_STRIDE} bytes, zero-padded, as 32-bit words (a value is then
 * copied as whole words, without a look at where its bytes end); empty when an entry is longer or there are too many.
 */
function paddedEntries(dict: ByteArrays, lens: Int32Array): Int32Array {
  const n = lens.length;
  if (n > MAX_PADDED_ENTRIES) return new Int32Array(0);
  for (let j = 0; j < n; j++) if (lens[j]! > PAD_STRIDE) return new Int32Array(0);
  const words = new Int32Array(n * (PAD_STRIDE >> 2));
  const bytes = new Uint8Array(words.buffer);
  const { offsets, data } = dict;
  for (let j = 0; j < n; j++) bytes.set(data.subarray(offsets[j]!, offsets[j + 1]!), j * PAD_STRIDE);
  return words;
}

/**
 * Copies the dictionary entries `idx` selects into `data` from byte `at`, as the four 4-byte words of each padded
 * entry whatever its length (the words past a value's end are overwritten by the values after it: `data` has
 * {@link PAD_STRIDE} bytes of slack after its end). No branch on the length: with entries of mixed lengths, a
 * branch per word is mispredicted often.
 */
function gatherPadded(idx: Int32Array, lens: Int32Array, padded: Int32Array, data: Uint8Array, at: number): void {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i]!;
    const w = j << 2;
    dv.setInt32(at, padded[w]!, true);
    dv.setInt32(at + 4, padded[w + 1]!, true);
    dv.setInt32(at + 8, padded[w + 2]!, true);
    dv.setInt32(at + 12, padded[w + 3]!, true);
    at += lens[j]!;
  }
}

/**
 * Offsets and bytes of values that all come from a dictionary of padded short entries, in one pass over the indices.
 * @param bound - the most bytes the values can take (the longest entry times their number).
 * @param longest - the longest entry's length (at most {@link PAD_STRIDE}): each value is copied as that many
 *   bytes rounded up to whole 4-byte words (3 words for entries of up to 12 bytes, 2 for up to 8, ...).
 */
function gatherAll(segments: readonly { indices: Int32Array }[], lens: Int32Array, padded: Int32Array, bound: number, numValues: number, longest: number): ByteArrays {
  const offsets = new Int32Array(numValues + 1);
  const data = new Uint8Array(bound + PAD_STRIDE);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const words = (longest + 3) >> 2;
  // one loop per word count, each a function of its own (one function of four loops would be compiled for the first
  // it runs and thrown back at the next); fewer words, fewer stores: 4.9 → 3.9 ns per value of up to 8 bytes
  const gather = words <= 1 ? gather1 : words === 2 ? gather2 : words === 3 ? gather3 : gather4;
  let at = 0;
  let k = 1;
  for (const s of segments) {
    at = gather(s.indices, lens, padded, dv, offsets, k, at);
    k += s.indices.length;
  }
  // much of the bound unused (entries of very different lengths): a copy of the bytes used, the bound dropped
  return { offsets, data: data.length - at > (at >> 2) + 4096 ? data.slice(0, at) : data.subarray(0, at) };
}

/*
 * The loops of gatherAll: value i is entry idx[i]'s first words of its padded copy, written at byte `at` whatever the
 * entry's length (no branch on it; the words past its end are overwritten by the next value, and `data` has
 * PAD_STRIDE bytes of slack), and its end offset goes to offsets[k + i]. Each returns the byte after the last value.
 */

function gather1(idx: Int32Array, lens: Int32Array, padded: Int32Array, dv: DataView, offsets: Int32Array, k: number, at: number): number {
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i]!;
    dv.setInt32(at, padded[j << 2]!, true);
    at += lens[j]!;
    offsets[k + i] = at;
  }
  return at;
}

function gather2(idx: Int32Array, lens: Int32Array, padded: Int32Array, dv: DataView, offsets: Int32Array, k: number, at: number): number {
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i]!;
    const w = j << 2;
    dv.setInt32(at, padded[w]!, true);
    dv.setInt32(at + 4, padded[w + 1]!, true);
    at += lens[j]!;
    offsets[k + i] = at;
  }
  return at;
}

function gather3(idx: Int32Array, lens: Int32Array, padded: Int32Array, dv: DataView, offsets: Int32Array, k: number, at: number): number {
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i]!;
    const w = j << 2;
    dv.setInt32(at, padded[w]!, true);
    dv.setInt32(at + 4, padded[w + 1]!, true);
    dv.setInt32(at + 8, padded[w + 2]!, true);
    at += lens[j]!;
    offsets[k + i] = at;
  }
  return at;
}

function gather4(idx: Int32Array, lens: Int32Array, padded: Int32Array, dv: DataView, offsets: Int32Array, k: number, at: number): number {
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i]!;
    const w = j << 2;
    dv.setInt32(at, padded[w]!, true);
    dv.setInt32(at + 4, padded[w + 1]!, true);
    dv.setInt32(at + 8, padded[w + 2]!, true);
    dv.setInt32(at + 12, padded[w + 3]!, true);
    at += lens[j]!;
    offsets[k + i] = at;
  }
  return at;
}

/** Copies the dictionary entries `idx` selects into `data` from byte `at` (any entry length). */
function gatherLong(idx: Int32Array, dict: ByteArrays, data: Uint8Array, at: number): void {
  const { offsets: doff, data: ddata } = dict;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const sv = new DataView(ddata.buffer, ddata.byteOffset, ddata.byteLength);
  const room = data.length;
  const dlen = ddata.length;
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i]!;
    const a = doff[j]!;
    const len = doff[j + 1]! - a;
    if (len <= 64 && at + len + 3 < room && a + len + 3 < dlen) {
      // 4-byte moves; the bytes past this value are overwritten by the next one (copied in order)
      for (let b = 0; b < len; b += 4) dv.setInt32(at + b, sv.getInt32(a + b, true), true);
    } else if (len < 16) {
      for (let b = 0; b < len; b++) data[at + b] = ddata[a + b]!;
    } else data.set(ddata.subarray(a, a + len), at);
    at += len;
  }
}

/**
 * Options of {@link columnarValues}: the raw, Arrow-layout forms a columnar read may ask for (a reader's
 * `readRowGroupColumns` and column batches take them; its row reads, filters and `values: 'json'` reads do not).
 */
export interface ColumnarValueOptions {
  /**
   * BOOLEAN columns: `'values'` (default) one `boolean` per value; `'bits'` packed one bit per value, least
   * significant bit first ({@link BooleanBits}: Arrow's boolean layout), without a JavaScript value per value.
   */
  booleans?: 'values' | 'bits';
  /**
   * INT32 columns annotated INTEGER(8, 16 or 32): `'number'` (default) as the value mapping gives them (`Int32Array`
   * for signed ones, `Float64Array` for unsigned ones); `'typed'` as the typed array of their width and signedness
   * (`Int8Array`, `Uint8Array`, `Int16Array`, `Uint16Array`, `Int32Array`, `Uint32Array`: the 32-bit ones are the
   * decoded `Int32Array` itself or a `Uint32Array` view of it, no copy; 8 and 16 bits keep the low bits of a stored
   * value out of their range, as a cast to that width does).
   */
  integers?: 'number' | 'typed';
}

/** Typed arrays {@link columnarValues} gives INTEGER(8/16/32) columns. */
export type IntegerArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/**
 * Packs `n` bytes of `src` (0 = false, anything else = true) into `out` from bit `k`, least significant bit first;
 * `out` must be zero from bit `k` on. Eight values per output byte once `k` is byte-aligned.
 */
function packBits(src: Uint8Array, n: number, out: Uint8Array, k: number): void {
  let i = 0;
  for (; i < n && (k & 7) !== 0; i++, k++) out[k >> 3]! |= (-src[i]! >>> 31) << (k & 7);
  const full = i + ((n - i) & ~7);
  for (; i < full; i += 8, k += 8) {
    // -b >>> 31 is 1 for any non-zero byte, 0 for 0
    out[k >> 3] =
      (-src[i]! >>> 31) | ((-src[i + 1]! >>> 31) << 1) | ((-src[i + 2]! >>> 31) << 2) | ((-src[i + 3]! >>> 31) << 3) |
      ((-src[i + 4]! >>> 31) << 4) | ((-src[i + 5]! >>> 31) << 5) | ((-src[i + 6]! >>> 31) << 6) | ((-src[i + 7]! >>> 31) << 7);
  }
  for (; i < n; i++, k++) out[k >> 3]! |= (-src[i]! >>> 31) << (k & 7);
}

/**
 * A BOOLEAN chunk's non-null values packed one bit per value (Arrow's layout), page after page: the pages' decoded
 * bytes are packed eight at a time into one buffer, without a `boolean` per value.
 * @param chunk - a decoded BOOLEAN chunk (dictionary indices must already be checked against the dictionary).
 * @returns the bits and their count (`chunk.numValues`).
 */
export function chunkBooleanBits(chunk: DecodedChunk): BooleanBits {
  const n = chunk.numValues;
  const bits = new Uint8Array((n + 7) >> 3);
  let k = 0;
  for (const s of chunk.segments) {
    let v: Uint8Array;
    if (s.indices) {
      // not written by any known writer (the spec has no boolean dictionary use), but readable
      const dict = chunk.dictionary as Uint8Array;
      const idx = s.indices;
      v = new Uint8Array(idx.length);
      for (let i = 0; i < idx.length; i++) v[i] = dict[idx[i]!]!;
    } else v = s.values as Uint8Array;
    const m = Math.min(v.length, n - k);
    packBits(v, m, bits, k);
    k += m;
  }
  return { bits, count: n };
}

/** The INTEGER annotation's width and signedness of an INT32 column, if it has one of 8, 16 or 32 bits. */
export function integerKind(column: ColumnDescriptor): { bits: number; signed: boolean } | undefined {
  const it = column.type === Type.INT32 ? column.node.logicalType?.INTEGER : undefined;
  if (!it || (it.bitWidth !== 8 && it.bitWidth !== 16 && it.bitWidth !== 32)) return undefined;
  return { bits: it.bitWidth, signed: it.isSigned };
}

/**
 * An INTEGER(8/16/32) chunk's non-null values as the typed array of the annotation's width and signedness.
 * @param chunk - a decoded INT32 chunk (dictionary indices must already be checked against the dictionary).
 * @param column - its column (INTEGER-annotated).
 * @returns the values: the decoded `Int32Array` (or a `Uint32Array` view of it) for 32 bits when the chunk is one
 *   plain run, else one new array.
 */
export function chunkIntegers(chunk: DecodedChunk, column: ColumnDescriptor): IntegerArray {
  const kind = integerKind(column) ?? { bits: 32, signed: true };
  const segs = chunk.segments;
  let all: Int32Array;
  if (segs.length === 1 && segs[0]!.values) all = segs[0]!.values as Int32Array;
  else {
    all = new Int32Array(chunk.numValues);
    const dict = chunk.dictionary as Int32Array | undefined;
    let k = 0;
    for (const s of segs) {
      if (s.indices) {
        const idx = s.indices;
        for (let i = 0; i < idx.length && k < all.length; i++) all[k++] = dict![idx[i]!]!;
      } else {
        const v = s.values as Int32Array;
        const m = Math.min(v.length, all.length - k);
        all.set(m === v.length ? v : v.subarray(0, m), k);
        k += m;
      }
    }
  }
  switch (kind.bits) {
    case 8: return kind.signed ? new Int8Array(all) : new Uint8Array(all);
    case 16: return kind.signed ? new Int16Array(all) : new Uint16Array(all);
    default: return kind.signed ? all : new Uint32Array(all.buffer, all.byteOffset, all.length);
  }
}

/**
 * Whether {@link columnarValues} gives `column` a raw form under `options` (rather than the value mapping's).
 * @param column - the leaf column.
 * @param options - the raw forms asked for.
 * @returns true for a BOOLEAN column under `booleans: 'bits'` and an INTEGER(8/16/32) column under `integers: 'typed'`.
 */
export function hasColumnarForm(column: ColumnDescriptor, options: ColumnarValueOptions): boolean {
  if (column.type === Type.BOOLEAN) return options.booleans === 'bits';
  return options.integers === 'typed' && integerKind(column) !== undefined;
}

/**
 * A chunk's non-null values in the raw form a columnar read asked for (see {@link ColumnarValueOptions}), or
 * `undefined` when the options ask for none for this column (convert it with `convertChunk` then).
 * @param chunk - a decoded chunk.
 * @param column - its column.
 * @param options - the raw forms asked for.
 * @returns packed booleans, an integer typed array, or `undefined`.
 */
export function columnarValues(chunk: DecodedChunk, column: ColumnDescriptor, options: ColumnarValueOptions): BooleanBits | IntegerArray | undefined {
  if (!hasColumnarForm(column, options)) return undefined;
  return column.type === Type.BOOLEAN ? chunkBooleanBits(chunk) : chunkIntegers(chunk, column);
}
