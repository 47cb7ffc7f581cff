/**
 * Thrift compact protocol writer (the inverse of {@link CompactReader}).
 * It writes short-form field headers whenever the id delta is 1–15, and the
 * short list header for fewer than 15 elements, as Apache Thrift does.
 *
 * @module
 */
import { ByteWriter } from './cursor.js';
import { CompactType } from './compact-reader.js';

const utf8enc = /*#__PURE__*/ new TextEncoder();

/** Writes Thrift compact-protocol values into a growable {@link ByteWriter}. */
export class CompactWriter {
  /** The byte writer being filled. */
  readonly out: ByteWriter;
  private lastFieldId = 0;
  private readonly idStack: number[] = [];

  /** @param out - destination; a new one is created when omitted. */
  constructor(out: ByteWriter = new ByteWriter()) {
    this.out = out;
  }

  /** Opens a struct. */
  structBegin(): void {
    this.idStack.push(this.lastFieldId);
    this.lastFieldId = 0;
  }

  /** Writes the STOP marker and closes the struct. */
  structEnd(): void {
    this.out.u8(0);
    this.lastFieldId = this.idStack.pop() ?? 0;
  }

  /**
   * Writes a field header.
   * @param type - compact wire type (for booleans pass BOOL_TRUE or BOOL_FALSE: the value lives here).
   * @param id - field id (1–32767).
   */
  fieldBegin(type: number, id: number): void {
    const delta = id - this.lastFieldId;
    if (delta > 0 && delta <= 15) this.out.u8((delta << 4) | type);
    else {
      this.out.u8(type);
      this.out.zigzag32(id);
    }
    this.lastFieldId = id;
  }

  /**
   * Writes a boolean struct field (value folded into the header).
   * @param id - field id.
   * @param v - the value.
   */
  boolField(id: number, v: boolean): void {
    this.fieldBegin(v ? CompactType.BOOL_TRUE : CompactType.BOOL_FALSE, id);
  }

  /** Writes a boolean list element (1 = true, 2 = false, as Apache Thrift writes). */
  bool(v: boolean): void {
    this.out.u8(v ? 1 : 2);
  }

  /** Writes a signed byte. */
  byte(v: number): void {
    this.out.u8(v & 0xff);
  }

  /** Writes a zigzag i16. */
  i16(v: number): void {
    this.out.zigzag32(v);
  }

  /** Writes a zigzag i32. */
  i32(v: number): void {
    this.out.zigzag32(v);
  }

  /** Writes a safe integer as a zigzag i64. */
  i64(v: number): void {
    this.out.zigzag64Number(v);
  }

  /** Writes a BigInt as a zigzag i64. */
  i64BigInt(v: bigint): void {
    const u = BigInt.asUintN(64, v);
    this.out.zigzag64(Number(u & 0xffffffffn), Number(u >> 32n));
  }

  /** Writes a little-endian double. */
  double(v: number): void {
    this.out.f64(v);
  }

  /** Writes a length-prefixed byte string. */
  binary(v: Uint8Array): void {
    this.out.uleb32(v.length);
    this.out.bytes(v);
  }

  /** Writes a length-prefixed UTF-8 string. */
  string(v: string): void {
    this.binary(utf8enc.encode(v));
  }

  /** Writes a 16-byte UUID. */
  uuid(v: Uint8Array): void {
    this.out.bytes(v);
  }

  /**
   * Writes a list or set header.
   * @param elemType - compact element type.
   * @param size - number of elements that follow.
   */
  listBegin(elemType: number, size: number): void {
    if (size < 15) this.out.u8((size << 4) | elemType);
    else {
      this.out.u8(0xf0 | elemType);
      this.out.uleb32(size);
    }
  }

  /**
   * Writes a map header.
   * @param keyType - compact key type.
   * @param valueType - compact value type.
   * @param size - number of entries that follow.
   */
  mapBegin(keyType: number, valueType: number, size: number): void {
    this.out.uleb32(size);
    if (size > 0) this.out.u8((keyType << 4) | valueType);
  }

  /** Returns the bytes written so far (a view). */
  finish(): Uint8Array {
    return this.out.finish();
  }
}
