/**
 * The writer's dictionary for one column chunk (Encodings.md, "Dictionary Encoding (PLAIN_DICTIONARY = 2 and
 * RLE_DICTIONARY = 8)":
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#dictionary-encoding-plain_dictionary--2-and-rle_dictionary--8).
 *
 * Values are interned into an open-addressing hash table (linear probing, load ≤ 1/2, doubled when full) over typed
 * arrays, with one loop per representation: INT32 and FLOAT as one 32-bit word, INT64 and DOUBLE as two words,
 * BYTE_ARRAY hashed over its bytes and compared a 4-byte word at a time (through DataViews: no per-value views),
 * INT96 and FIXED_LEN_BYTE_ARRAY the same at a fixed width.
 * Keys are exact bits, so -0 and 0 and every NaN payload are distinct entries (as `buildDictionary` does).
 * BYTE_ARRAY entries are stored PLAIN-encoded (4-byte length + bytes), so the dictionary page body is a single copy.
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { encodeDictionaryIndices } from './dictionary.js';
import { checkBatch, growBytes, valueWidth } from './encoder-input.js';
import { encodingError } from './errors.js';
import { bitWidthOf } from './rle-hybrid.js';
import type { ByteArrays, ColumnDescriptor, ColumnValues, FixedLenByteArrays } from './types.js';

const EMPTY = -1;
const WORD32 = 0;
const WORD64 = 1;
const BYTES = 2;
const FIXED = 3;
/** Largest hash table (entries are at most half of it). */
const MAX_SLOTS = 1 << 28;

/** Hash of one 32-bit word (its top bits pick the slot). */
function hash32(k: number): number {
  return Math.imul(k ^ (k >>> 16), 0x9e3779b1);
}

/** Hash of a 64-bit value given as two words. */
function hash64(lo: number, hi: number): number {
  const x = lo ^ Math.imul(hi ^ (hi >>> 16), 0x85ebca6b);
  return Math.imul(x ^ (x >>> 15), 0x9e3779b1);
}

/**
 * Hash of the bytes `[a, a + len)` of `d` (`v` is a DataView over the same bytes): 4-byte little-endian words read
 * unaligned, the last word overlapping the one before it when `len` is not a multiple of 4 (no byte-by-byte tail,
 * no read past the value), each mixed in with a multiply and a shift, then a final avalanche. Any function of the
 * bytes would do: the dictionary's entry order does not depend on it.
 */
function hashBytes(d: Uint8Array, v: DataView, a: number, len: number): number {
  let h = Math.imul(len, 0x9e3779b1);
  if (len >= 4) {
    const last = a + len - 4;
    for (let p = a; p < last; p += 4) {
      h = Math.imul(h ^ v.getInt32(p, true), 0x85ebca6b);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ v.getInt32(last, true), 0xc2b2ae35);
  } else if (len > 0) {
    let k = d[a]!;
    if (len > 1) k |= d[a + 1]! << 8;
    if (len > 2) k |= d[a + 2]! << 16;
    h = Math.imul(h ^ k, 0xc2b2ae35);
  }
  h = Math.imul(h ^ (h >>> 15), 0x9e3779b1);
  return h ^ (h >>> 16);
}

/** Whether `x[s, s + len)` equals `y[a, a + len)` (`xv`, `yv`: DataViews over them), compared a word at a time. */
function sameBytes(x: Uint8Array, xv: DataView, s: number, y: Uint8Array, yv: DataView, a: number, len: number): boolean {
  if (len >= 4) {
    const l = len - 4;
    for (let k = 0; k < l; k += 4) if (xv.getInt32(s + k, true) !== yv.getInt32(a + k, true)) return false;
    return xv.getInt32(s + l, true) === yv.getInt32(a + l, true);
  }
  for (let k = 0; k < len; k++) if (x[s + k] !== y[a + k]) return false;
  return true;
}

/** DataView over exactly the bytes of `b`. */
function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * The dictionary of one column chunk (every physical type but BOOLEAN): interns values, hands out their indices,
 * and writes the dictionary page body. It spans pages: the writer encodes each data page's indices with
 * {@link DictionaryEncoder.encodeIndices} and writes {@link DictionaryEncoder.flushDictionary} once, before them.
 * For a size limit with fallback, the writer checks {@link DictionaryEncoder.byteSize} after each batch and switches
 * the rest of the chunk to a {@link createValueEncoder} encoder once it passes the limit (indices handed out stay valid).
 */
export class DictionaryEncoder {
  private readonly type: number;
  private readonly kind: number;
  /** Bytes per value (0 for BYTE_ARRAY). */
  private readonly width: number;
  private n = 0;
  /**
   * Slot → entry index, or EMPTY. It starts at 1024 slots: a low-cardinality column's few entries then rarely share
   * a probe sequence (16 strings: 16 -> 12 ns per value against 64 slots, the mispredicted probes gone).
   */
  private slots = new Int32Array(1024).fill(EMPTY);
  private shift = 32 - 10;
  /** WORD32: one word per entry; WORD64: two. */
  private keys: Int32Array<ArrayBuffer>;
  /** BYTES / FIXED: each entry's hash. */
  private hashes: Int32Array;
  /** BYTES: where each entry's bytes start in `data`, and their length. */
  private starts: Int32Array;
  private lens: Int32Array;
  /**
   * BYTES: each entry's first, second (entries of 9 to 12 bytes) and last 4-byte words: entries of 4 to 12 bytes are
   * hashed and compared by them alone.
   */
  private firstWords: Int32Array;
  private midWords: Int32Array;
  private lastWords: Int32Array;
  /** BYTES: entries PLAIN-encoded back to back; FIXED: entries back to back. */
  private data: Uint8Array<ArrayBuffer>;
  private dataLen = 0;

  /**
   * @param column - the column's physical type (and `typeLength` for FIXED_LEN_BYTE_ARRAY).
   * @throws ParquetError `ENCODING_UNSUPPORTED` for BOOLEAN (or an unknown type), `ENCODING_ARGUMENT` for a
   *   FIXED_LEN_BYTE_ARRAY column without a positive type length.
   */
  constructor(column: ColumnDescriptor) {
    this.type = column.type;
    if (column.type === Type.BOOLEAN) throw encodingError('ENCODING_UNSUPPORTED', 'DictionaryEncoder: BOOLEAN columns are not dictionary encoded');
    this.width = valueWidth('DictionaryEncoder', column);
    const t = column.type;
    this.kind = t === Type.INT32 || t === Type.FLOAT ? WORD32 : t === Type.INT64 || t === Type.DOUBLE ? WORD64 : t === Type.BYTE_ARRAY ? BYTES : FIXED;
    const cap = this.slots.length >>> 1;
    this.keys = new Int32Array(this.kind === WORD32 ? cap : this.kind === WORD64 ? 2 * cap : 0);
    this.hashes = new Int32Array(this.kind >= BYTES ? cap : 0);
    this.starts = new Int32Array(this.kind === BYTES ? cap : 0);
    this.lens = new Int32Array(this.kind === BYTES ? cap : 0);
    this.firstWords = new Int32Array(this.kind === BYTES ? cap : 0);
    this.midWords = new Int32Array(this.kind === BYTES ? cap : 0);
    this.lastWords = new Int32Array(this.kind === BYTES ? cap : 0);
    this.data = new Uint8Array(this.kind === BYTES ? 1024 : this.kind === FIXED ? cap * this.width : 0);
  }

  /** Number of entries. */
  get size(): number {
    return this.n;
  }

  /** Bytes of the dictionary page body (the PLAIN encoding of the entries), exact. */
  get byteSize(): number {
    switch (this.kind) {
      case WORD32: return 4 * this.n;
      case WORD64: return 8 * this.n;
      case BYTES: return this.dataLen;
      default: return this.n * this.width;
    }
  }

  /**
   * Interns `values[start, end)` (BYTE_ARRAY: values `start … end − 1` by their offsets) and writes each one's
   * dictionary index to `out[outPos …]`. New values get the next index, in first-seen order.
   * @param values - the values, in the column's form (see {@link ColumnValues}).
   * @param start - first value.
   * @param end - exclusive end.
   * @param out - receives `end − start` indices.
   * @param outPos - first index of `out` to fill.
   * @throws ParquetError `ENCODING_ARGUMENT` when the values are not in the column's form, the range is invalid or
   *   `out` is too small (nothing is interned then), or the dictionary outgrows 2^27 entries or 2 GiB.
   */
  put(values: ColumnValues, start: number, end: number, out: Int32Array, outPos: number): void {
    checkBatch('DictionaryEncoder', values, this.type, this.width, start, end);
    if (!(out instanceof Int32Array && Number.isInteger(outPos) && outPos >= 0 && outPos + (end - start) <= out.length)) {
      throw encodingError('ENCODING_ARGUMENT', `DictionaryEncoder: ${end - start} indices do not fit an output of ${(out as { length?: number } | null)?.length} at ${outPos}`);
    }
    switch (this.kind) {
      case WORD32: {
        const v = values as Int32Array | Float32Array;
        this.putWord32(v instanceof Int32Array ? v : new Int32Array(v.buffer, v.byteOffset, v.length), start, end, out, outPos);
        break;
      }
      case WORD64: {
        const v = values as BigInt64Array | Float64Array;
        this.putWord64(new Int32Array(v.buffer, v.byteOffset, 2 * v.length), start, end, out, outPos);
        break;
      }
      case BYTES: {
        const v = values as ByteArrays;
        this.putBytes(v.offsets, v.data, start, end, out, outPos);
        break;
      }
      default:
        this.putFixed((values as FixedLenByteArrays).data, start, end, out, outPos);
    }
  }

  private putWord32(src: Int32Array, start: number, end: number, out: Int32Array, o: number): void {
    let slots = this.slots;
    let keys = this.keys;
    let shift = this.shift;
    let mask = slots.length - 1;
    let n = this.n;
    for (let i = start; i < end; i++) {
      const k = src[i]!;
      let h = hash32(k) >>> shift;
      let e = slots[h]!;
      while (e !== EMPTY && keys[e] !== k) {
        h = (h + 1) & mask;
        e = slots[h]!;
      }
      if (e === EMPTY) {
        e = n;
        keys[n] = k;
        slots[h] = n++;
        if (n === keys.length) {
          this.n = n;
          this.grow();
          slots = this.slots;
          keys = this.keys;
          shift = this.shift;
          mask = slots.length - 1;
        }
      }
      out[o++] = e;
    }
    this.n = n;
  }

  private putWord64(src: Int32Array, start: number, end: number, out: Int32Array, o: number): void {
    let slots = this.slots;
    let keys = this.keys;
    let shift = this.shift;
    let mask = slots.length - 1;
    let n = this.n;
    for (let i = start; i < end; i++) {
      const lo = src[2 * i]!;
      const hi = src[2 * i + 1]!;
      let h = hash64(lo, hi) >>> shift;
      let e = slots[h]!;
      while (e !== EMPTY && (keys[2 * e] !== lo || keys[2 * e + 1] !== hi)) {
        h = (h + 1) & mask;
        e = slots[h]!;
      }
      if (e === EMPTY) {
        e = n;
        keys[2 * n] = lo;
        keys[2 * n + 1] = hi;
        slots[h] = n++;
        if (2 * n === keys.length) {
          this.n = n;
          this.grow();
          slots = this.slots;
          keys = this.keys;
          shift = this.shift;
          mask = slots.length - 1;
        }
      }
      out[o++] = e;
    }
    this.n = n;
  }

  private putBytes(offsets: Int32Array, src: Uint8Array, start: number, end: number, out: Int32Array, o: number): void {
    let slots = this.slots;
    let shift = this.shift;
    let mask = slots.length - 1;
    let hashes = this.hashes;
    let starts = this.starts;
    let lens = this.lens;
    let firstWords = this.firstWords;
    let midWords = this.midWords;
    let lastWords = this.lastWords;
    let data = this.data;
    let dv = viewOf(data);
    const sv = viewOf(src);
    let n = this.n;
    for (let i = start; i < end; i++) {
      const a = offsets[i]!;
      const len = offsets[i + 1]! - a;
      let hv: number;
      let e: number;
      let h: number;
      let w0 = 0;
      let w1 = 0;
      let w2 = 0;
      if (len >= 4 && len <= 8) {
        // 4 to 8 bytes: two words (overlapping below 8) hold the whole value: hashed and compared by them alone
        w0 = sv.getInt32(a, true);
        w2 = sv.getInt32(a + len - 4, true);
        const x = Math.imul(w0 ^ len, 0x85ebca6b);
        const y = Math.imul(x ^ (x >>> 15) ^ w2, 0xc2b2ae35);
        hv = Math.imul(y ^ (y >>> 13), 0x9e3779b1);
        hv ^= hv >>> 16;
        h = hv >>> shift;
        e = slots[h]!;
        while (e !== EMPTY && (firstWords[e] !== w0 || lastWords[e] !== w2 || lens[e] !== len)) {
          h = (h + 1) & mask;
          e = slots[h]!;
        }
      } else if (len > 8 && len <= 12) {
        // 9 to 12 bytes: three words (the last overlapping the middle one below 12), the same way
        w0 = sv.getInt32(a, true);
        w1 = sv.getInt32(a + 4, true);
        w2 = sv.getInt32(a + len - 4, true);
        const x = Math.imul(w0 ^ len, 0x85ebca6b);
        const y = Math.imul(x ^ (x >>> 15) ^ w1, 0xc2b2ae35);
        const z = Math.imul(y ^ (y >>> 13) ^ w2, 0x85ebca6b);
        hv = Math.imul(z ^ (z >>> 15), 0x9e3779b1);
        hv ^= hv >>> 16;
        h = hv >>> shift;
        e = slots[h]!;
        while (e !== EMPTY && (firstWords[e] !== w0 || lastWords[e] !== w2 || midWords[e] !== w1 || lens[e] !== len)) {
          h = (h + 1) & mask;
          e = slots[h]!;
        }
      } else {
        hv = hashBytes(src, sv, a, len);
        h = hv >>> shift;
        e = slots[h]!;
        while (e !== EMPTY) {
          if (hashes[e] === hv && lens[e] === len && sameBytes(data, dv, starts[e]!, src, sv, a, len)) break;
          h = (h + 1) & mask;
          e = slots[h]!;
        }
      }
      if (e === EMPTY) {
        let p = this.dataLen;
        const grown = growBytes(data, p, p + 4 + len);
        if (grown !== data) {
          data = this.data = grown;
          dv = viewOf(data);
        }
        dv.setInt32(p, len, true);
        p += 4;
        if (len < 32) for (let k = 0; k < len; k++) data[p + k] = src[a + k]!;
        else data.set(src.subarray(a, a + len), p);
        this.dataLen = p + len;
        e = n;
        starts[n] = p;
        lens[n] = len;
        hashes[n] = hv;
        firstWords[n] = w0;
        midWords[n] = w1;
        lastWords[n] = w2;
        slots[h] = n++;
        if (n === hashes.length) {
          this.n = n;
          this.grow();
          slots = this.slots;
          shift = this.shift;
          mask = slots.length - 1;
          hashes = this.hashes;
          starts = this.starts;
          lens = this.lens;
          firstWords = this.firstWords;
          midWords = this.midWords;
          lastWords = this.lastWords;
        }
      }
      out[o++] = e;
    }
    this.n = n;
  }

  private putFixed(src: Uint8Array, start: number, end: number, out: Int32Array, o: number): void {
    const w = this.width;
    let slots = this.slots;
    let shift = this.shift;
    let mask = slots.length - 1;
    let hashes = this.hashes;
    let data = this.data;
    let dv = viewOf(data);
    const sv = viewOf(src);
    let n = this.n;
    for (let i = start; i < end; i++) {
      const a = i * w;
      const hv = hashBytes(src, sv, a, w);
      let h = hv >>> shift;
      let e = slots[h]!;
      while (e !== EMPTY) {
        if (hashes[e] === hv && sameBytes(data, dv, e * w, src, sv, a, w)) break;
        h = (h + 1) & mask;
        e = slots[h]!;
      }
      if (e === EMPTY) {
        const p = n * w;
        for (let k = 0; k < w; k++) data[p + k] = src[a + k]!;
        e = n;
        hashes[n] = hv;
        slots[h] = n++;
        if (n === hashes.length) {
          this.n = n;
          this.grow();
          slots = this.slots;
          shift = this.shift;
          mask = slots.length - 1;
          hashes = this.hashes;
          data = this.data;
          dv = viewOf(data);
        }
      }
      out[o++] = e;
    }
    this.n = n;
  }

  /** Doubles the table and the entry arrays and re-inserts every entry (hashes are recomputed or kept). */
  private grow(): void {
    const size = this.slots.length * 2;
    if (size > MAX_SLOTS) throw encodingError('ENCODING_ARGUMENT', `DictionaryEncoder: more than ${MAX_SLOTS / 2} entries`);
    const cap = size >>> 1;
    const slots = new Int32Array(size).fill(EMPTY);
    const shift = 32 - Math.log2(size);
    const mask = size - 1;
    const n = this.n;
    const kind = this.kind;
    if (kind === WORD32 || kind === WORD64) {
      const keys = new Int32Array(kind === WORD32 ? cap : 2 * cap);
      keys.set(this.keys.subarray(0, kind === WORD32 ? n : 2 * n));
      this.keys = keys;
    } else {
      const hashes = new Int32Array(cap);
      hashes.set(this.hashes.subarray(0, n));
      this.hashes = hashes;
      if (kind === BYTES) {
        const starts = new Int32Array(cap);
        starts.set(this.starts.subarray(0, n));
        this.starts = starts;
        const lens = new Int32Array(cap);
        lens.set(this.lens.subarray(0, n));
        this.lens = lens;
        const firstWords = new Int32Array(cap);
        firstWords.set(this.firstWords.subarray(0, n));
        this.firstWords = firstWords;
        const midWords = new Int32Array(cap);
        midWords.set(this.midWords.subarray(0, n));
        this.midWords = midWords;
        const lastWords = new Int32Array(cap);
        lastWords.set(this.lastWords.subarray(0, n));
        this.lastWords = lastWords;
      } else this.data = growBytes(this.data, n * this.width, cap * this.width);
    }
    const keys = this.keys;
    const hashes = this.hashes;
    for (let e = 0; e < n; e++) {
      const hv = kind === WORD32 ? hash32(keys[e]!) : kind === WORD64 ? hash64(keys[2 * e]!, keys[2 * e + 1]!) : hashes[e]!;
      let h = hv >>> shift;
      while (slots[h] !== EMPTY) h = (h + 1) & mask;
      slots[h] = e;
    }
    this.slots = slots;
    this.shift = shift;
  }

  /**
   * The entries in index order, in the column's value form (a copy).
   * @returns INT32 → `Int32Array`, INT64 → `BigInt64Array`, FLOAT → `Float32Array`, DOUBLE → `Float64Array`,
   *   BYTE_ARRAY → {@link ByteArrays}, INT96 / FIXED_LEN_BYTE_ARRAY → {@link FixedLenByteArrays}.
   */
  entries(): ColumnValues {
    const n = this.n;
    switch (this.type) {
      case Type.INT32: return this.keys.slice(0, n);
      case Type.FLOAT: return new Float32Array(this.keys.slice(0, n).buffer);
      case Type.INT64: return new BigInt64Array(this.keys.slice(0, 2 * n).buffer);
      case Type.DOUBLE: return new Float64Array(this.keys.slice(0, 2 * n).buffer);
      case Type.BYTE_ARRAY: {
        const offsets = new Int32Array(n + 1);
        const data = new Uint8Array(this.dataLen - 4 * n);
        let t = 0;
        for (let e = 0; e < n; e++) {
          const s = this.starts[e]!;
          const len = this.lens[e]!;
          data.set(this.data.subarray(s, s + len), t);
          t += len;
          offsets[e + 1] = t;
        }
        return { offsets, data };
      }
      default:
        return { width: this.width, data: this.data.slice(0, n * this.width) };
    }
  }

  /**
   * Byte length of one BYTE_ARRAY entry (without its 4-byte PLAIN length prefix); 0 for other types.
   * @param index - an entry index below {@link DictionaryEncoder.size}.
   * @returns the entry's length in bytes.
   */
  valueLength(index: number): number {
    return this.kind === BYTES ? this.lens[index]! : 0;
  }

  /**
   * The entries at `indices[0, count)`, in the column's value form, without copying the whole dictionary (for the
   * values of one page, or the distinct entries it uses).
   * @param indices - entry indices, each below {@link DictionaryEncoder.size}.
   * @param count - number of indices to use.
   * @returns the gathered values (a new array).
   * @throws ParquetError `ENCODING_ARGUMENT` for an index outside the dictionary.
   */
  gather(indices: Int32Array, count: number): ColumnValues {
    const n = this.n;
    for (let i = 0; i < count; i++) {
      if (indices[i]! >>> 0 >= n) throw encodingError('ENCODING_ARGUMENT', `DictionaryEncoder.gather: index ${indices[i]} (position ${i}) is outside the dictionary of ${n} entries`);
    }
    switch (this.kind) {
      case WORD32: {
        const out = new Int32Array(count);
        const keys = this.keys;
        for (let i = 0; i < count; i++) out[i] = keys[indices[i]!]!;
        return this.type === Type.FLOAT ? new Float32Array(out.buffer) : out;
      }
      case WORD64: {
        const out = new Int32Array(2 * count);
        const keys = this.keys;
        for (let i = 0; i < count; i++) {
          const k = indices[i]! << 1;
          out[2 * i] = keys[k]!;
          out[2 * i + 1] = keys[k + 1]!;
        }
        return this.type === Type.DOUBLE ? new Float64Array(out.buffer) : new BigInt64Array(out.buffer);
      }
      case BYTES: {
        const offsets = new Int32Array(count + 1);
        let total = 0;
        for (let i = 0; i < count; i++) total += this.lens[indices[i]!]!;
        const data = new Uint8Array(total);
        const src = this.data;
        let t = 0;
        for (let i = 0; i < count; i++) {
          const e = indices[i]!;
          const s = this.starts[e]!;
          const len = this.lens[e]!;
          if (len < 32) for (let k = 0; k < len; k++) data[t + k] = src[s + k]!;
          else data.set(src.subarray(s, s + len), t);
          t += len;
          offsets[i + 1] = t;
        }
        return { offsets, data };
      }
      default: {
        const w = this.width;
        const data = new Uint8Array(count * w);
        const src = this.data;
        for (let i = 0; i < count; i++) data.set(src.subarray(indices[i]! * w, indices[i]! * w + w), i * w);
        return { width: w, data };
      }
    }
  }

  /**
   * Writes the dictionary page body: the entries PLAIN-encoded, {@link DictionaryEncoder.byteSize} bytes.
   * @param w - receives the bytes.
   */
  flushDictionary(w: ByteWriter): void {
    const k = this.kind;
    if (k === WORD32 || k === WORD64) w.bytes(new Uint8Array(this.keys.buffer, this.keys.byteOffset, this.byteSize));
    else w.bytes(this.data.subarray(0, this.byteSize));
  }

  /**
   * The bit width of data-page indices for a dictionary of `dictSize` entries: that of `dictSize − 1`, but at least 1.
   * (The spec allows 0 for a single entry, which parquet-java writes; DuckDB, Arrow C++ and arrow-rs write 1, which
   * every reader accepts.)
   * @param dictSize - number of dictionary entries.
   * @returns 1–31.
   */
  static indexBitWidth(dictSize: number): number {
    return dictSize <= 2 ? 1 : bitWidthOf(dictSize - 1);
  }

  /**
   * Encodes a data page's dictionary indices: one bit-width byte ({@link DictionaryEncoder.indexBitWidth}) and the
   * RLE / bit-packing hybrid (via `encodeDictionaryIndices`).
   * @param indices - the indices.
   * @param start - first index.
   * @param count - number of indices.
   * @param dictSize - number of dictionary entries (the indices must lie in `[0, dictSize)`).
   * @param w - receives the bytes.
   * @throws ParquetError `DICTIONARY_INDEX` for an index outside the dictionary, `ENCODING_ARGUMENT` for a bad range
   *   or size.
   */
  static encodeIndices(indices: Int32Array, start: number, count: number, dictSize: number, w: ByteWriter): void {
    if (!(indices instanceof Int32Array && Number.isInteger(start) && Number.isInteger(count) && start >= 0 && count >= 0 && start + count <= indices.length)) {
      throw encodingError('ENCODING_ARGUMENT', `DictionaryEncoder.encodeIndices: invalid range of ${count} indices at ${start}`);
    }
    if (!(Number.isInteger(dictSize) && dictSize >= 0 && dictSize <= 0x7fffffff)) {
      throw encodingError('ENCODING_ARGUMENT', `DictionaryEncoder.encodeIndices: invalid dictionary size ${dictSize}`);
    }
    for (let i = start; i < start + count; i++) {
      if (indices[i]! >>> 0 >= dictSize) {
        throw encodingError('DICTIONARY_INDEX', `DictionaryEncoder.encodeIndices: index ${indices[i]} at ${i} outside a dictionary of ${dictSize} entries`);
      }
    }
    encodeDictionaryIndices(indices, start, count, w, DictionaryEncoder.indexBitWidth(dictSize));
  }
}
