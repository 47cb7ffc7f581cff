/**
 * Streaming value encoders for a writer: feed value batches with `put`, ask `estimatedSize()` to decide where to cut
 * a page, `flush` one page's values and go on with the same (reused) buffers. The bytes of every flush equal those
 * of the one-shot encoder of the encoding on the concatenated values (Encodings.md,
 * https://github.com/apache/parquet-format/blob/master/Encodings.md, and AlpEncoding.md).
 *
 * - PLAIN, BYTE_STREAM_SPLIT, RLE (BOOLEAN) encode as values arrive; `estimatedSize()` is exact.
 * - DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY buffer values (or lengths and suffixes) and
 *   keep running block statistics; `estimatedSize()` is exact (see `delta-encoders.ts`).
 * - ALP encodes every complete vector of 1024 values as soon as it is complete; `estimatedSize()` is exact for
 *   those and estimates the open vector (see {@link createValueEncoder}).
 *
 * @module
 */
import { ByteWriter, Encoding, EncodingNames, Type, TypeNames } from '@parquetry/thrift-compact';
import { encodeAlpDouble, encodeAlpFloat } from './alp.js';
import { encodeByteStreamSplit } from './byte-stream-split.js';
import { DeltaBinaryPackedEncoder, DeltaByteArrayEncoder, DeltaLengthByteArrayEncoder } from './delta-encoders.js';
import { checkBatch, growBytes, growInt32, ulebLen, valueWidth } from './encoder-input.js';
import { encodingError } from './errors.js';
import type { ByteArrays, ColumnDescriptor, ColumnValues, FixedLenByteArrays } from './types.js';

/**
 * A per-column-chunk encoder of one encoding: buffers values across `put` calls and writes one page's worth
 * of encoded values per `flush`.
 */
export interface ValueEncoder {
  /** The parquet.thrift `Encoding` number written. */
  readonly encoding: Encoding;
  /** Number of values buffered since the last flush. */
  readonly count: number;
  /**
   * Appends `values[start, end)` (BYTE_ARRAY: values `start … end − 1` by their offsets, which need not start at 0).
   * @param values - the batch, in the column's form (see {@link ColumnValues}).
   * @param start - first value.
   * @param end - exclusive end.
   * @throws ParquetError `ENCODING_ARGUMENT` when the values are not in the column's form or the range is invalid
   *   (the encoder is then unchanged).
   */
  put(values: ColumnValues, start: number, end: number): void;
  /**
   * Bytes `flush` would write now; cheap enough to call after every batch.
   * @returns the exact size, or for ALP an estimate (see {@link createValueEncoder}).
   */
  estimatedSize(): number;
  /**
   * Writes the encoding of every buffered value (what the one-shot encoder writes for them) and empties the encoder;
   * its buffers are kept for the next page.
   * @param w - receives the bytes (appended at `w.pos`).
   */
  flush(w: ByteWriter): void;
  /**
   * What {@link ValueEncoder.flush} would write, without copying it: a view of the encoder's buffer, valid until the
   * next `put`, and the encoder emptied as `flush` empties it. Encoders that do not keep the page's encoding whole
   * in one buffer do not have it (or return undefined, changing nothing): use `flush`.
   * @returns the page's encoded values, or undefined.
   */
  take?(): Uint8Array | undefined;
}

/** The bytes of a typed-array batch, as a view. */
function bytesOf(v: Exclude<ColumnValues, ByteArrays | FixedLenByteArrays | Uint8Array>): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

/** Appends the raw little-endian bytes of fixed-width values; PLAIN and BYTE_STREAM_SPLIT write them at flush. */
class FixedWidthEncoder implements ValueEncoder {
  private buf = new Uint8Array(256);
  private n = 0;
  constructor(
    readonly encoding: Encoding,
    private readonly type: number,
    private readonly width: number,
  ) {}
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch(EncodingNames[this.encoding] ?? 'encoder', values, this.type, this.width, start, end);
    const k = this.width;
    const src = 'width' in values ? values.data : bytesOf(values as Exclude<ColumnValues, ByteArrays | FixedLenByteArrays | Uint8Array>);
    const len = this.n * k;
    this.buf = growBytes(this.buf, len, len + (end - start) * k);
    this.buf.set(src.subarray(start * k, end * k), len);
    this.n += end - start;
  }
  estimatedSize(): number {
    return this.n * this.width;
  }
  flush(w: ByteWriter): void {
    const bytes = this.buf.subarray(0, this.n * this.width);
    if (this.encoding === Encoding.BYTE_STREAM_SPLIT) encodeByteStreamSplit(bytes, this.n, this.width, w);
    else w.bytes(bytes);
    this.n = 0;
  }
  take(): Uint8Array | undefined {
    if (this.encoding === Encoding.BYTE_STREAM_SPLIT) return undefined;
    const bytes = this.buf.subarray(0, this.n * this.width);
    this.n = 0;
    return bytes;
  }
}

/** PLAIN BOOLEAN: values are bit-packed (LSB first) as they arrive. */
class PlainBooleanEncoder implements ValueEncoder {
  readonly encoding = Encoding.PLAIN;
  private bits = new Uint8Array(64);
  private n = 0;
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('PLAIN BOOLEAN', values, Type.BOOLEAN, 0, start, end);
    const v = values as Uint8Array;
    let c = this.n;
    const bits = (this.bits = growBytes(this.bits, (c + 7) >>> 3, (c + end - start + 7) >>> 3));
    let i = start;
    // up to a byte boundary one value at a time, then 8 values per byte without a branch per value
    // ((x | -x) >>> 31 is 1 for any non-zero byte x, 0 for 0)
    for (; i < end && (c & 7) !== 0; i++, c++) if (v[i] !== 0) bits[c >>> 3] = bits[c >>> 3]! | (1 << (c & 7));
    for (const end8 = end - 7; i < end8; i += 8, c += 8) {
      const x0 = v[i]!, x1 = v[i + 1]!, x2 = v[i + 2]!, x3 = v[i + 3]!, x4 = v[i + 4]!, x5 = v[i + 5]!, x6 = v[i + 6]!, x7 = v[i + 7]!;
      bits[c >>> 3] =
        ((x0 | -x0) >>> 31) | (((x1 | -x1) >>> 31) << 1) | (((x2 | -x2) >>> 31) << 2) | (((x3 | -x3) >>> 31) << 3) |
        (((x4 | -x4) >>> 31) << 4) | (((x5 | -x5) >>> 31) << 5) | (((x6 | -x6) >>> 31) << 6) | (((x7 | -x7) >>> 31) << 7);
    }
    for (; i < end; i++, c++) if (v[i] !== 0) bits[c >>> 3] = bits[c >>> 3]! | (1 << (c & 7));
    this.n = c;
  }
  estimatedSize(): number {
    return (this.n + 7) >>> 3;
  }
  flush(w: ByteWriter): void {
    const nb = (this.n + 7) >>> 3;
    w.bytes(this.bits.subarray(0, nb));
    this.bits.fill(0, 0, nb);
    this.n = 0;
  }
}

/** PLAIN BYTE_ARRAY: 4-byte length + bytes per value, written into the page buffer as values arrive. */
class PlainByteArrayEncoder implements ValueEncoder {
  readonly encoding = Encoding.PLAIN;
  private buf = new Uint8Array(1024);
  private len = 0;
  private n = 0;
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('PLAIN BYTE_ARRAY', values, Type.BYTE_ARRAY, 0, start, end);
    const { offsets, data } = values as ByteArrays;
    let p = this.len;
    const b = (this.buf = growBytes(this.buf, p, p + 4 * (end - start) + (offsets[end]! - offsets[start]!)));
    // short values move 4 bytes at a time through DataViews (unaligned word access, no view object per value)
    const bv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const sv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = start; i < end; i++) {
      const a = offsets[i]!;
      const len = offsets[i + 1]! - a;
      bv.setInt32(p, len, true);
      p += 4;
      if (len <= 64) {
        let k = 0;
        for (const l4 = len - 3; k < l4; k += 4) bv.setInt32(p + k, sv.getInt32(a + k, true), true);
        for (; k < len; k++) b[p + k] = data[a + k]!;
      } else b.set(data.subarray(a, a + len), p);
      p += len;
    }
    this.len = p;
    this.n += end - start;
  }
  estimatedSize(): number {
    return this.len;
  }
  flush(w: ByteWriter): void {
    w.bytes(this.buf.subarray(0, this.len));
    this.len = 0;
    this.n = 0;
  }
  take(): Uint8Array {
    const bytes = this.buf.subarray(0, this.len);
    this.len = 0;
    this.n = 0;
    return bytes;
  }
}

/** Largest run one RLE run header carries in `encodeRleHybrid` (longer runs are split). */
const MAX_RUN = 0x3fffffff;

/** Bytes of RLE runs covering `run` values of one value byte. */
function rleRunsLen(run: number): number {
  const full = Math.floor(run / MAX_RUN);
  const rest = run - full * MAX_RUN;
  return full * (ulebLen(2 * MAX_RUN) + 1) + (rest > 0 ? ulebLen(2 * rest) + 1 : 0);
}

/** Bytes of one bit-packed run of `n` values at width 1. */
function packedRunLen(n: number): number {
  if (n === 0) return 0;
  const groups = (n + 7) >>> 3;
  return ulebLen(2 * groups + 1) + groups;
}

/**
 * RLE (BOOLEAN data pages): 4-byte length + RLE / bit-packing hybrid at width 1, made run by run with the rules of
 * `encodeRleHybrid` (a run of 8 or more equal values becomes an RLE run once the bit-packed values before it are
 * padded to a multiple of 8 from it, if 8 or more remain; everything else is one bit-packed run). Closed runs are
 * written as they end; the pending bit-packed values are kept packed, so memory is one bit per value.
 */
class RleBooleanEncoder implements ValueEncoder {
  readonly encoding = Encoding.RLE;
  private readonly out = new ByteWriter(256);
  private bits = new Uint8Array(64);
  private pn = 0;
  private runV = 0;
  private runL = 0;
  private n = 0;
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('RLE BOOLEAN', values, Type.BOOLEAN, 0, start, end);
    const v = values as Uint8Array;
    let i = start;
    while (i < end) {
      const b = v[i] !== 0 ? 1 : 0;
      let j = i + 1;
      if (b === 1) while (j < end && v[j] !== 0) j++;
      else while (j < end && v[j] === 0) j++;
      if (this.runL > 0 && b === this.runV) this.runL += j - i;
      else {
        if (this.runL > 0) this.closeRun();
        this.runV = b;
        this.runL = j - i;
      }
      i = j;
    }
    this.n += end - start;
  }
  /** Ends the open run: an RLE run (after padding the pending values to a multiple of 8), or pending values. */
  private closeRun(): void {
    const v = this.runV;
    const run = this.runL;
    this.runL = 0;
    if (run >= 8) {
      const pad = (8 - (this.pn & 7)) & 7;
      if (run - pad >= 8) {
        this.pend(v, pad);
        this.writePacked();
        const out = this.out;
        for (let left = run - pad; left > 0; ) {
          const take = left > MAX_RUN ? MAX_RUN : left;
          out.uleb32(2 * take);
          out.u8(v);
          left -= take;
        }
        return;
      }
    }
    this.pend(v, run);
  }
  private pend(v: number, k: number): void {
    const p = this.pn;
    const bits = (this.bits = growBytes(this.bits, (p + 7) >>> 3, (p + k + 7) >>> 3));
    if (v === 1) for (let c = p; c < p + k; c++) bits[c >>> 3] = bits[c >>> 3]! | (1 << (c & 7));
    this.pn = p + k;
  }
  private writePacked(): void {
    if (this.pn === 0) return;
    const groups = (this.pn + 7) >>> 3;
    this.out.uleb32(2 * groups + 1);
    this.out.bytes(this.bits.subarray(0, groups));
    this.bits.fill(0, 0, groups);
    this.pn = 0;
  }
  estimatedSize(): number {
    const run = this.runL;
    const p = this.pn;
    let tail = packedRunLen(p + run);
    if (run >= 8) {
      const pad = (8 - (p & 7)) & 7;
      if (run - pad >= 8) tail = packedRunLen(p + pad) + rleRunsLen(run - pad);
    }
    return 4 + this.out.pos + tail;
  }
  flush(w: ByteWriter): void {
    if (this.runL > 0) this.closeRun();
    this.writePacked();
    w.i32le(this.out.pos);
    w.bytes(this.out.finish());
    this.out.pos = 0;
    this.n = 0;
  }
}

/** ALP vector size written (log2 10: 1024 values, the one-shot encoder's default). */
const ALP_LOG = 10;
const ALP_VECTOR = 1 << ALP_LOG;

/**
 * ALP (FLOAT, DOUBLE): every complete vector of 1024 values is encoded as soon as it is complete (by the one-shot
 * encoder, as a page of whole vectors whose vector bytes are kept); the open vector is encoded at flush. The page is
 * then the header, the offsets of all vectors and the vectors in order: the one-shot encoder's bytes, since each
 * vector is encoded independently of the others.
 */
class AlpEncoder implements ValueEncoder {
  readonly encoding = Encoding.ALP;
  /** Values of the open vector (raw bytes). */
  private raw = new Uint8Array(256);
  private pending = 0;
  /** Encoded complete vectors, back to back, and where each starts. */
  private vec = new Uint8Array(1024);
  private vecLen = 0;
  private starts = new Int32Array(16);
  private done = 0;
  private readonly scratch = new ByteWriter(1024);
  private readonly width: number;
  constructor(private readonly type: number) {
    this.width = type === Type.FLOAT ? 4 : 8;
  }
  get count(): number {
    return this.done * ALP_VECTOR + this.pending;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('ALP', values, this.type, this.width, start, end);
    const k = this.width;
    const src = bytesOf(values as Float32Array | Float64Array);
    const have = this.pending * k;
    this.raw = growBytes(this.raw, have, have + (end - start) * k);
    this.raw.set(src.subarray(start * k, end * k), have);
    this.pending += end - start;
    const whole = this.pending >>> ALP_LOG;
    if (whole === 0) return;
    // encode the complete vectors as one page; keep its vectors and where each starts
    const s = this.encodePage(whole * ALP_VECTOR);
    const at = 7 + 4 * whole;
    const body = s.buf.subarray(at, s.pos);
    this.vec = growBytes(this.vec, this.vecLen, this.vecLen + body.length);
    this.vec.set(body, this.vecLen);
    this.starts = growInt32(this.starts, this.done, this.done + whole);
    const b = s.buf;
    for (let v = 0; v < whole; v++) {
      const q = 7 + 4 * v;
      const off = b[q]! | (b[q + 1]! << 8) | (b[q + 2]! << 16) | (b[q + 3]! << 24);
      this.starts[this.done + v] = this.vecLen + off - 4 * whole;
    }
    this.vecLen += body.length;
    this.done += whole;
    const used = whole * ALP_VECTOR * k;
    this.raw.copyWithin(0, used, this.pending * k);
    this.pending -= whole * ALP_VECTOR;
  }
  /** Encodes the first `n` pending values as a page into the scratch writer. */
  private encodePage(n: number): ByteWriter {
    const s = this.scratch;
    s.pos = 0;
    if (this.width === 4) encodeAlpFloat(new Float32Array(this.raw.buffer, this.raw.byteOffset, n), 0, n, s, ALP_LOG);
    else encodeAlpDouble(new Float64Array(this.raw.buffer, this.raw.byteOffset, n), 0, n, s, ALP_LOG);
    return s;
  }
  /**
   * Exact for complete vectors; the open vector (< 1024 values) counts the average bytes per value of the complete
   * vectors, or before the first is complete its PLAIN size plus a vector header.
   */
  estimatedSize(): number {
    const vectors = this.done + (this.pending > 0 ? 1 : 0);
    let open = 0;
    if (this.pending > 0) {
      open = this.done > 0 ? Math.ceil((this.vecLen * this.pending) / (this.done * ALP_VECTOR)) : this.pending * this.width + (this.width === 4 ? 9 : 13);
    }
    return 7 + 4 * vectors + this.vecLen + open;
  }
  flush(w: ByteWriter): void {
    const p = this.pending;
    const vectors = this.done + (p > 0 ? 1 : 0);
    let last = this.scratch.buf.subarray(0, 0);
    if (p > 0) {
      const s = this.encodePage(p);
      last = s.buf.subarray(11, s.pos);
    }
    w.ensureSpare(7 + 4 * vectors + this.vecLen + last.length);
    w.u8(0);
    w.u8(0);
    w.u8(ALP_LOG);
    w.i32le(this.count);
    for (let v = 0; v < this.done; v++) w.i32le(4 * vectors + this.starts[v]!);
    if (p > 0) w.i32le(4 * vectors + this.vecLen);
    w.bytes(this.vec.subarray(0, this.vecLen));
    w.bytes(last);
    this.vecLen = 0;
    this.done = 0;
    this.pending = 0;
  }
}

/**
 * Creates the streaming encoder of an encoding for a column chunk.
 *
 * `estimatedSize()` is exact for every encoding but ALP: PLAIN, BYTE_STREAM_SPLIT and RLE count the bytes already
 * laid out; DELTA_BINARY_PACKED (and the lengths inside DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY) measure each
 * 128-value block's minimum delta and per-miniblock maxima, which fix its miniblock bit widths. ALP is exact for the
 * complete 1024-value vectors; the open vector (< 1024 values) is estimated from the average bytes per value of the
 * complete ones, or before the first completes as its PLAIN size plus a vector header, so the page estimate is off by
 * less than one vector (ALP's worst case, exceptions plus 32-bit packing, is 2.5× PLAIN for FLOAT, 2.25× for DOUBLE).
 *
 * @param encoding - the parquet.thrift `Encoding` number: PLAIN (every type), RLE (BOOLEAN), DELTA_BINARY_PACKED
 *   (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY), DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY),
 *   BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY), ALP (FLOAT, DOUBLE).
 * @param column - the column's physical type (and `typeLength` for FIXED_LEN_BYTE_ARRAY).
 * @returns an empty encoder.
 * @throws ParquetError `ENCODING_UNSUPPORTED` when the encoding is not streamable or not defined for the type
 *   (dictionary encodings: use {@link DictionaryEncoder}), `ENCODING_ARGUMENT` for a FIXED_LEN_BYTE_ARRAY column
 *   without a positive type length.
 */
export function createValueEncoder(encoding: number, column: ColumnDescriptor): ValueEncoder {
  const t = column.type;
  const what = `createValueEncoder: encoding ${EncodingNames[encoding] ?? encoding}`;
  const width = valueWidth(what, column);
  switch (encoding) {
    case Encoding.PLAIN:
      if (t === Type.BOOLEAN) return new PlainBooleanEncoder();
      if (t === Type.BYTE_ARRAY) return new PlainByteArrayEncoder();
      return new FixedWidthEncoder(Encoding.PLAIN, t, width);
    case Encoding.RLE:
      if (t === Type.BOOLEAN) return new RleBooleanEncoder();
      break;
    case Encoding.DELTA_BINARY_PACKED:
      if (t === Type.INT32 || t === Type.INT64) return new DeltaBinaryPackedEncoder(t);
      break;
    case Encoding.DELTA_LENGTH_BYTE_ARRAY:
      if (t === Type.BYTE_ARRAY) return new DeltaLengthByteArrayEncoder();
      break;
    case Encoding.DELTA_BYTE_ARRAY:
      if (t === Type.BYTE_ARRAY || t === Type.FIXED_LEN_BYTE_ARRAY) return new DeltaByteArrayEncoder(t, width);
      break;
    case Encoding.BYTE_STREAM_SPLIT:
      if (t === Type.FLOAT || t === Type.DOUBLE || t === Type.INT32 || t === Type.INT64 || t === Type.FIXED_LEN_BYTE_ARRAY) {
        return new FixedWidthEncoder(Encoding.BYTE_STREAM_SPLIT, t, width);
      }
      break;
    case Encoding.ALP:
      if (t === Type.FLOAT || t === Type.DOUBLE) return new AlpEncoder(t);
      break;
  }
  throw encodingError('ENCODING_UNSUPPORTED', `${what} has no streaming encoder for physical type ${TypeNames[t] ?? t}`);
}
