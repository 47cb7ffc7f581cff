/**
 * Level streams of data pages
 * (https://github.com/apache/parquet-format/blob/master/README.md#data-pages and
 * https://github.com/apache/parquet-format/blob/master/Encodings.md, "Run Length Encoding /
 * Bit-Packing Hybrid" and "Bit-packed (Deprecated)"): data page V1 stores each level stream
 * as the RLE hybrid behind a 4-byte little-endian length (or, deprecated, MSB-first
 * BIT_PACKED with no length); data page V2 stores the raw hybrid, its byte length in the
 * page header. The bit width is that of the maximum level; a maximum of 0 stores nothing.
 *
 * @module
 */
import { Encoding, ParquetError, isParquetError } from '@parquetry/thrift-compact';
import { bitWidthOf, decodeBitPacked, decodeRleHybrid } from '@parquetry/parquet-encodings/read';

/**
 * Bit width of a level stream.
 * @param maxLevel - the column's max definition or repetition level.
 * @returns `ceil(log2(maxLevel + 1))`.
 */
export function levelBitWidth(maxLevel: number): number {
  return bitWidthOf(maxLevel);
}

/**
 * Checks that levels lie in `[0, maxLevel]`.
 * @param out - the levels.
 * @param outPos - first index.
 * @param count - number of levels.
 * @param maxLevel - the max level.
 * @param what - which levels, for the message.
 * @throws ParquetError `INVALID_LEVELS` naming the first level out of range.
 */
export function checkMax(out: Int32Array, outPos: number, count: number, maxLevel: number, what: string): void {
  for (let i = outPos, e = outPos + count; i < e; i++) {
    const v = out[i]!;
    if (v > maxLevel || v < 0) {
      throw new ParquetError('INVALID_LEVELS', `parquet-levels: ${what} level ${v >>> 0} at index ${i - outPos} of the page is above the max ${maxLevel}`);
    }
  }
}

/** Runs a decoder, prefixing its ParquetError with which level stream failed (same code and offset). */
function withContext<T>(what: string, pos: number, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isParquetError(e)) throw new ParquetError(e.code, `parquet-levels: ${what} levels at byte ${pos}: ${e.message}`, e.offset, { cause: e });
    throw e;
  }
}

function checkArgs(out: Int32Array | Uint8Array, outPos: number, count: number, maxLevel: number): void {
  if (!(count >= 0 && outPos >= 0 && outPos + count <= out.length) || !(maxLevel >= 0 && maxLevel <= (out instanceof Uint8Array ? MAX_BYTE_LEVEL : 0x7fffffff))) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-levels: cannot decode ${count} levels (max ${maxLevel}) into ${out.length} slots at ${outPos}${out instanceof Uint8Array && maxLevel > MAX_BYTE_LEVEL ? ` of a Uint8Array (levels above ${MAX_BYTE_LEVEL} need an Int32Array)` : ''}`);
  }
}

/** The largest max level whose levels a `Uint8Array` holds. */
const MAX_BYTE_LEVEL = 255;

/** Levels of this many entries at most keep their decoding scratch for the next page (4 bytes each). */
const KEEP_SCRATCH = 1 << 20;
let scratch = new Int32Array(0);

/**
 * The `Int32Array` a level stream is decoded into: `out` itself, or for a `Uint8Array` a scratch array (reused from
 * page to page up to {@link KEEP_SCRATCH} levels), copied into `out` by {@link narrow} once checked.
 */
function wide(out: Int32Array | Uint8Array, count: number): Int32Array {
  if (out instanceof Int32Array) return out;
  if (count > KEEP_SCRATCH) return new Int32Array(count);
  if (scratch.length < count) scratch = new Int32Array(Math.max(count, Math.min(KEEP_SCRATCH, 2 * scratch.length)));
  return scratch;
}

/** Copies levels decoded by way of {@link wide} (checked to be in 0..255) into `out`. */
function narrow(out: Int32Array | Uint8Array, w: Int32Array, outPos: number, count: number): void {
  if (w !== out) out.set(w.subarray(0, count), outPos);
}

/**
 * How many levels an RLE / bit-packing hybrid stream can hold, judged from its run headers alone (one step per run,
 * nothing decoded): an RLE run holds its count, a bit-packed run 8 levels per group of `bitWidth` bytes present
 * (a truncated last run what its bytes hold). A reader checks a page's level count against it before it allocates
 * the level array, so a few bytes cannot make it allocate for levels they do not encode.
 * @param src - the bytes.
 * @param pos - position of the first run header.
 * @param end - exclusive end of the stream.
 * @param bitWidth - the levels' bit width (1..32).
 * @param count - the levels wanted: the scan stops once it has found that many.
 * @returns the levels the stream holds, at most `count` (the scan stops there), fewer when it ends first.
 */
export function rleHybridCapacity(src: Uint8Array, pos: number, end: number, bitWidth: number, count: number): number {
  if (end > src.length) end = src.length;
  const byteWidth = (bitWidth + 7) >> 3;
  let covered = 0;
  let p = pos;
  while (covered < count && p < end) {
    let header = 0;
    let shift = 0;
    for (;;) {
      if (p >= end || shift > 28) return covered;
      const b = src[p++]!;
      header += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    if (header % 2 === 0) {
      if (end - p < byteWidth) return covered;
      p += byteWidth;
      covered += header / 2;
    } else {
      const bytes = ((header - 1) / 2) * bitWidth;
      if (bytes > end - p) return covered + Math.floor(((end - p) * 8) / bitWidth);
      p += bytes;
      covered += ((header - 1) / 2) * 8;
    }
  }
  return Math.min(covered, count);
}

/**
 * Checks that a data page's level stream can hold `count` levels before anything is allocated for them: an RLE
 * stream needs runs covering them ({@link rleHybridCapacity}), a deprecated BIT_PACKED stream `ceil(count · width
 * / 8)` bytes.
 * @param src - the page bytes.
 * @param pos - position of the stream (data page V1 RLE: its 4-byte length).
 * @param end - exclusive end of the stream (data page V1: of the page).
 * @param maxLevel - the column's max level of this kind (0: nothing to check).
 * @param count - the page's `num_values`.
 * @param encoding - `Encoding.RLE` with a 4-byte length (data page V1), `Encoding.BIT_PACKED`, or `'v2'` for the raw
 *   hybrid of data page V2 (`end` is then the end of the stream).
 * @param what - `'definition'` or `'repetition'`, for messages.
 * @throws ParquetError `ENCODING_TRUNCATED` naming the level count and what the bytes hold.
 */
export function checkLevelCapacity(src: Uint8Array, pos: number, end: number, maxLevel: number, count: number, encoding: number | 'v2', what = 'definition'): void {
  if (maxLevel === 0 || count === 0) return;
  const bw = bitWidthOf(maxLevel);
  let held: number;
  let bytes: number;
  if (encoding === Encoding.BIT_PACKED) {
    bytes = Math.max(0, end - pos);
    held = Math.floor((bytes * 8) / bw);
  } else if (encoding === 'v2') {
    bytes = Math.max(0, end - pos);
    held = rleHybridCapacity(src, pos, end, bw, count);
  } else {
    // data page V1 RLE (another encoding is refused by the decoder with its own message)
    if (encoding !== Encoding.RLE || end - pos < 4 || pos < 0) return;
    const len = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
    if (len > end - pos - 4) return;
    bytes = len;
    held = rleHybridCapacity(src, pos + 4, pos + 4 + len, bw, count);
  }
  if (held < count) {
    throw new ParquetError('ENCODING_TRUNCATED', `parquet-levels: the page claims ${count} ${what} levels, its ${bytes} bytes of ${what} levels hold ${held}`, pos);
  }
}

/**
 * Decodes a data page V1 level stream.
 *
 * @param src - the page bytes (decompressed).
 * @param pos - position of the stream (the 4-byte length for RLE).
 * @param end - exclusive end of the page.
 * @param maxLevel - the column's max level of this kind; 0 means the stream is absent (levels are all 0).
 * @param out - receives `count` levels at `outPos`: an `Int32Array`, or a `Uint8Array` when `maxLevel` is at most 255
 *   (decoded by way of a reused `Int32Array` scratch, then copied).
 * @param outPos - first index of `out`.
 * @param count - number of levels (the page's `num_values`).
 * @param encoding - `Encoding.RLE` (default) or the deprecated `Encoding.BIT_PACKED`.
 * @param what - `'definition'` or `'repetition'`, for messages.
 * @returns the position after the stream.
 * @throws ParquetError `ENCODING_TRUNCATED` (from the decoder) when the stream or its length runs past `end`,
 *   `INVALID_LEVELS` when a level is above `maxLevel`, `ENCODING_UNSUPPORTED` for another level encoding,
 *   `INVALID_ARGUMENT` when `out` cannot hold `count` levels at `outPos` or is a `Uint8Array` for a max level over 255.
 */
export function decodeLevelsV1(
  src: Uint8Array, pos: number, end: number, maxLevel: number, out: Int32Array | Uint8Array, outPos: number, count: number,
  encoding: number = Encoding.RLE, what = 'definition',
): number {
  checkArgs(out, outPos, count, maxLevel);
  if (maxLevel === 0) {
    out.fill(0, outPos, outPos + count);
    return pos;
  }
  const bw = bitWidthOf(maxLevel);
  const w = wide(out, count);
  const at = w === out ? outPos : 0;
  let next: number;
  if (encoding === Encoding.RLE) {
    if (end - pos < 4 || pos < 0) {
      throw new ParquetError('ENCODING_TRUNCATED', `parquet-levels: ${what} levels: 4-byte length at byte ${pos} runs past the page end ${end}`, pos);
    }
    const len = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
    if (len > end - pos - 4) {
      throw new ParquetError('ENCODING_TRUNCATED', `parquet-levels: ${what} levels: length ${len} at byte ${pos} runs past the page end ${end}`, pos);
    }
    withContext(what, pos, () => decodeRleHybrid(src, pos + 4, pos + 4 + len, bw, w, at, count));
    next = pos + 4 + len;
  } else if (encoding === Encoding.BIT_PACKED) {
    next = withContext(what, pos, () => decodeBitPacked(src, pos, end, bw, w, at, count));
  } else {
    throw new ParquetError('ENCODING_UNSUPPORTED', `parquet-levels: ${what} levels use encoding ${encoding}, expected RLE (3) or BIT_PACKED (4)`, pos);
  }
  // the decoders give values of `bw` bits only (an RLE value wider is ENCODING_CORRUPT): a max of 2^bw - 1 (1, 3, 7,
  // …: every optional column's max 1) cannot be exceeded, so only the other maxima need the pass over the levels
  if (maxLevel !== 2 ** bw - 1) checkMax(w, at, count, maxLevel, what);
  narrow(out, w, outPos, count);
  return next;
}

/**
 * Decodes a data page V2 level stream (raw RLE hybrid of a known byte length).
 *
 * @param src - the page bytes (levels are never compressed in V2).
 * @param pos - position of the stream.
 * @param byteLength - `definition_levels_byte_length` or `repetition_levels_byte_length` from the header.
 * @param maxLevel - the column's max level of this kind; 0 means absent.
 * @param out - receives `count` levels at `outPos`: an `Int32Array`, or a `Uint8Array` when `maxLevel` is at most 255
 *   (decoded by way of a reused `Int32Array` scratch, then copied).
 * @param outPos - first index of `out`.
 * @param count - number of levels (the page's `num_values`).
 * @param what - `'definition'` or `'repetition'`, for messages.
 * @returns `pos + byteLength`.
 * @throws ParquetError `ENCODING_TRUNCATED` when `byteLength` runs past the input or the runs end before `count`
 *   levels, `INVALID_LEVELS` when a level is above `maxLevel` or a non-zero byte length is given for max 0,
 *   `INVALID_ARGUMENT` as {@link decodeLevelsV1}.
 */
export function decodeLevelsV2(
  src: Uint8Array, pos: number, byteLength: number, maxLevel: number, out: Int32Array | Uint8Array, outPos: number, count: number, what = 'definition',
): number {
  checkArgs(out, outPos, count, maxLevel);
  if (!(byteLength >= 0 && pos >= 0 && byteLength <= src.length - pos)) {
    throw new ParquetError('ENCODING_TRUNCATED', `parquet-levels: ${what} levels: byte length ${byteLength} at byte ${pos} runs past the page (${src.length} bytes)`, pos);
  }
  if (maxLevel === 0) {
    if (byteLength !== 0) throw new ParquetError('INVALID_LEVELS', `parquet-levels: ${what} levels have byte length ${byteLength} but the max level is 0`, pos);
    out.fill(0, outPos, outPos + count);
    return pos;
  }
  const bw = bitWidthOf(maxLevel);
  const w = wide(out, count);
  const at = w === out ? outPos : 0;
  withContext(what, pos, () => decodeRleHybrid(src, pos, pos + byteLength, bw, w, at, count));
  if (maxLevel !== 2 ** bw - 1) checkMax(w, at, count, maxLevel, what);
  narrow(out, w, outPos, count);
  return pos + byteLength;
}

/**
 * Decodes a deprecated BIT_PACKED level stream (MSB first, `ceil(count · width / 8)` bytes, no length).
 * @param src - the page bytes.
 * @param pos - position of the stream.
 * @param end - exclusive end of the page.
 * @param maxLevel - the column's max level of this kind.
 * @param out - receives `count` levels at `outPos`: an `Int32Array`, or a `Uint8Array` when `maxLevel` is at most 255
 *   (decoded by way of a reused `Int32Array` scratch, then copied).
 * @param outPos - first index of `out`.
 * @param count - number of levels.
 * @returns the position after the stream.
 * @throws ParquetError as {@link decodeLevelsV1}.
 */
export function decodeLevelsBitPacked(src: Uint8Array, pos: number, end: number, maxLevel: number, out: Int32Array | Uint8Array, outPos: number, count: number): number {
  return decodeLevelsV1(src, pos, end, maxLevel, out, outPos, count, Encoding.BIT_PACKED);
}
