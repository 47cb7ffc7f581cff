/**
 * Byte cursors shared by every Parquetry package: a bounds-checked reader over a
 * `Uint8Array` and a growable writer. Varints follow the protobuf/Thrift ULEB128
 * form; 64-bit values travel as two 32-bit words (`lo`, `hi`) so that no BigInt is
 * created on hot paths.
 *
 * @module
 */
import { ParquetError } from './errors.js';

const TWO_32 = 4294967296;
const utf8 = /*#__PURE__*/ new TextDecoder('utf-8', { ignoreBOM: true }); // a leading U+FEFF is part of the value
const utf8enc = /*#__PURE__*/ new TextEncoder();

/**
 * A bounds-checked little-endian reader over a byte array.
 *
 * Every read checks the remaining length once and throws a {@link ParquetError}
 * (`code` `EOF` or `VARINT_TOO_LONG`) carrying the byte offset, never a RangeError.
 */
export class ByteReader {
  /** The underlying bytes. */
  readonly bytes: Uint8Array;
  /** Current read position (index into `bytes`). */
  pos: number;
  /** Exclusive end of the readable region. */
  readonly end: number;
  /** Low 32 bits (unsigned) of the last 64-bit value read by {@link ByteReader.uleb64} or {@link ByteReader.zigzag64}. */
  lo = 0;
  /** High 32 bits (signed for zigzag results) of the last 64-bit value read. */
  hi = 0;
  /** Added to `pos` in error messages, so that offsets refer to the whole file. */
  readonly baseOffset: number;
  private dv: DataView | undefined;

  /**
   * @param bytes - the bytes to read.
   * @param pos - first byte to read (default 0).
   * @param end - exclusive end (default `bytes.length`).
   * @param baseOffset - file offset of `bytes[0]`, used only in error messages.
   */
  constructor(bytes: Uint8Array, pos = 0, end = bytes.length, baseOffset = 0) {
    if (pos < 0 || end > bytes.length || pos > end) {
      throw new ParquetError('EOF', `thrift-compact: invalid cursor range [${pos}, ${end}) over ${bytes.length} bytes`, baseOffset + pos);
    }
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
    this.baseOffset = baseOffset;
  }

  /** Bytes left between `pos` and `end`. */
  get remaining(): number {
    return this.end - this.pos;
  }

  /**
   * Throws `EOF` unless `n` more bytes are available.
   * @param n - bytes needed.
   * @param what - what is being read, for the message.
   */
  need(n: number, what = 'value'): void {
    if (n > this.end - this.pos || n < 0) {
      throw new ParquetError(
        'EOF',
        `thrift-compact: truncated input reading ${what} at byte ${this.baseOffset + this.pos}: need ${n} bytes, ${this.end - this.pos} left`,
        this.baseOffset + this.pos,
      );
    }
  }

  /** Reads one unsigned byte. */
  u8(): number {
    if (this.pos >= this.end) this.need(1, 'byte');
    return this.bytes[this.pos++]!;
  }

  /** Reads one signed byte. */
  i8(): number {
    return (this.u8() << 24) >> 24;
  }

  /** Reads a 32-bit little-endian signed integer. */
  i32le(): number {
    this.need(4, 'int32');
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 4;
    return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
  }

  /**
   * Reads an unsigned LEB128 varint of at most 32 bits (5 bytes).
   * @throws ParquetError `VARINT_TOO_LONG` when it does not end within 5 bytes or exceeds 32 bits.
   */
  uleb32(): number {
    const b = this.bytes;
    let p = this.pos;
    const end = this.end;
    if (p < end) {
      const c = b[p]!;
      if (c < 0x80) {
        this.pos = p + 1;
        return c;
      }
    }
    let result = 0;
    let shift = 0;
    for (;;) {
      if (p >= end) {
        this.pos = p;
        this.need(1, 'varint');
      }
      const c = b[p++]!;
      if (shift === 28) {
        if (c > 0x0f) {
          throw new ParquetError('VARINT_TOO_LONG', `thrift-compact: varint at byte ${this.baseOffset + this.pos} exceeds 32 bits`, this.baseOffset + this.pos);
        }
        result += c * 268435456;
        break;
      }
      result |= (c & 0x7f) << shift;
      if (c < 0x80) break;
      shift += 7;
    }
    this.pos = p;
    return result >>> 0;
  }

  /** Reads a zigzag-encoded 32-bit varint (Thrift i16/i32). */
  zigzag32(): number {
    const v = this.uleb32();
    return (v >>> 1) ^ -(v & 1);
  }

  /**
   * Reads an unsigned LEB128 varint of up to 64 bits (10 bytes) into `lo`/`hi`.
   * @throws ParquetError `VARINT_TOO_LONG` when longer than 10 bytes or wider than 64 bits.
   */
  uleb64(): void {
    const b = this.bytes;
    const end = this.end;
    let p = this.pos;
    let lo = 0;
    let hi = 0;
    let i = 0;
    for (;;) {
      if (p >= end) {
        this.pos = p;
        this.need(1, 'varint');
      }
      const c = b[p++]!;
      const v = c & 0x7f;
      if (i < 4) lo |= v << (7 * i);
      else if (i === 4) {
        lo |= v << 28;
        hi = v >>> 4;
      } else if (i < 9) hi |= v << (7 * i - 32);
      else {
        // 10th byte carries only bit 63
        if (c > 1) {
          throw new ParquetError('VARINT_TOO_LONG', `thrift-compact: varint at byte ${this.baseOffset + this.pos} longer than 10 bytes or wider than 64 bits`, this.baseOffset + this.pos);
        }
        hi |= c << 31;
        break;
      }
      if (c < 0x80) break;
      i++;
    }
    this.pos = p;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /** Reads a zigzag-encoded 64-bit varint into `lo` (unsigned) / `hi` (signed). */
  zigzag64(): void {
    this.uleb64();
    const lo = this.lo;
    const hi = this.hi;
    const mask = -(lo & 1);
    this.lo = (((lo >>> 1) | (hi << 31)) ^ mask) >>> 0;
    this.hi = ((hi >>> 1) ^ mask) | 0;
  }

  /**
   * Reads a zigzag 64-bit varint as a safe JavaScript number.
   * @param what - field name for the error message.
   * @throws ParquetError `INT64_NOT_SAFE` when the value is outside ±(2^53 − 1).
   */
  zigzag64Number(what = 'i64'): number {
    const start = this.pos;
    this.zigzag64();
    const v = this.hi * TWO_32 + this.lo;
    if (!Number.isSafeInteger(v)) {
      throw new ParquetError(
        'INT64_NOT_SAFE',
        `thrift-compact: ${what} at byte ${this.baseOffset + start} is ${int64ToBigInt(this.lo, this.hi)}, outside the safe integer range`,
        this.baseOffset + start,
      );
    }
    return v;
  }

  /** Reads a little-endian IEEE 754 double. */
  f64(): number {
    this.need(8, 'double');
    const dv = (this.dv ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
    const v = dv.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Reads a little-endian IEEE 754 float. */
  f32(): number {
    this.need(4, 'float');
    const dv = (this.dv ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
    const v = dv.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /**
   * Returns a zero-copy view of the next `len` bytes and advances past them.
   * @param len - number of bytes; checked against the remaining length first.
   */
  view(len: number): Uint8Array {
    this.need(len, 'bytes');
    const p = this.pos;
    this.pos = p + len;
    return this.bytes.subarray(p, p + len);
  }

  /**
   * Reads `len` bytes as UTF-8 text.
   * @param len - number of bytes.
   */
  utf8(len: number): string {
    this.need(len, 'string');
    const b = this.bytes;
    const p = this.pos;
    // TextDecoder has a high fixed cost per call; short ASCII strings (column names, paths) are far
    // more common in footers, so build those directly
    if (len <= 48) {
      for (let i = p; i < p + len; i++) if (b[i]! >= 0x80) return this.utf8Slow(len);
      this.pos = p + len;
      // one call builds one flat string
      return String.fromCharCode.apply(null, b.subarray(p, p + len) as unknown as number[]);
    }
    return this.utf8Slow(len);
  }

  private utf8Slow(len: number): string {
    return utf8.decode(this.view(len));
  }
}

/**
 * A little-endian writer that grows its buffer by doubling.
 */
export class ByteWriter {
  /** The current buffer; only `[0, pos)` is meaningful. */
  buf: Uint8Array;
  /** Number of bytes written so far. */
  pos = 0;
  private dv: DataView;

  /** @param initialCapacity - starting buffer size in bytes. */
  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.dv = new DataView(this.buf.buffer);
  }

  /**
   * Makes room for at least `spare` more bytes after `pos`.
   * @param spare - number of bytes about to be written (not an absolute size).
   */
  ensureSpare(spare: number): void {
    const needed = this.pos + spare;
    if (needed <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < needed) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }

  /** Writes one byte. */
  u8(v: number): void {
    if (this.pos >= this.buf.length) this.ensureSpare(1);
    this.buf[this.pos++] = v;
  }

  /** Writes a 32-bit little-endian integer. */
  i32le(v: number): void {
    this.ensureSpare(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = v;
    b[p + 1] = v >>> 8;
    b[p + 2] = v >>> 16;
    b[p + 3] = v >>> 24;
    this.pos = p + 4;
  }

  /** Writes an unsigned 32-bit value as a LEB128 varint. */
  uleb32(v: number): void {
    this.ensureSpare(5);
    const b = this.buf;
    let p = this.pos;
    v >>>= 0;
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p;
  }

  /** Writes a signed 32-bit value zigzag-encoded. */
  zigzag32(v: number): void {
    this.uleb32(((v << 1) ^ (v >> 31)) >>> 0);
  }

  /**
   * Writes an unsigned 64-bit value given as two 32-bit words.
   * @param lo - low 32 bits.
   * @param hi - high 32 bits.
   */
  uleb64(lo: number, hi: number): void {
    this.ensureSpare(10);
    const b = this.buf;
    let p = this.pos;
    lo >>>= 0;
    hi >>>= 0;
    while (hi !== 0 || lo > 0x7f) {
      b[p++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    b[p++] = lo;
    this.pos = p;
  }

  /**
   * Writes a signed 64-bit value (two's complement words) zigzag-encoded.
   * @param lo - low 32 bits.
   * @param hi - high 32 bits (sign in bit 31).
   */
  zigzag64(lo: number, hi: number): void {
    const mask = hi >> 31;
    const zlo = ((lo << 1) ^ mask) >>> 0;
    const zhi = (((hi << 1) | (lo >>> 31)) ^ mask) >>> 0;
    this.uleb64(zlo, zhi);
  }

  /**
   * Writes a safe integer as a zigzag 64-bit varint.
   * @param v - an integer within ±(2^53 − 1).
   */
  zigzag64Number(v: number): void {
    const lo = v >>> 0;
    const hi = Math.floor(v / TWO_32) | 0;
    this.zigzag64(lo, hi);
  }

  /** Writes a little-endian IEEE 754 double. */
  f64(v: number): void {
    this.ensureSpare(8);
    this.dv.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** Writes a little-endian IEEE 754 float. */
  f32(v: number): void {
    this.ensureSpare(4);
    this.dv.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  /** Appends raw bytes. */
  bytes(src: Uint8Array): void {
    this.ensureSpare(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** Appends a string as UTF-8 bytes with no length prefix; returns the byte length. */
  utf8(s: string): number {
    this.ensureSpare(s.length * 3);
    const { written } = utf8enc.encodeInto(s, this.buf.subarray(this.pos));
    this.pos += written;
    return written;
  }

  /** Returns the written bytes (a view, not a copy). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/**
 * Combines two 32-bit words into a signed 64-bit BigInt (cold paths only).
 * @param lo - low 32 bits.
 * @param hi - high 32 bits.
 */
export function int64ToBigInt(lo: number, hi: number): bigint {
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}
