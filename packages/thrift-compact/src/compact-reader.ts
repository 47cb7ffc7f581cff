/**
 * Thrift compact protocol reader.
 *
 * Spec: https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
 * A field header is one byte `dddd tttt` (field-id delta 1–15, compact type) or, when
 * the delta is 0, the type byte followed by a zigzag i16 field id. Booleans in
 * struct fields live in the header's type nibble (1 = true, 2 = false).
 *
 * @module
 */
import { ByteReader } from './cursor.js';
import { ParquetError } from './errors.js';

/** Compact-protocol wire types (the low nibble of a field header). */
export const CompactType = {
  STOP: 0,
  BOOL_TRUE: 1,
  BOOL_FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
  UUID: 13,
} as const;
/** A compact-protocol wire type. */
export type CompactType = (typeof CompactType)[keyof typeof CompactType];

const TYPE_NAMES = ['stop', 'bool', 'bool', 'byte', 'i16', 'i32', 'i64', 'double', 'binary', 'list', 'set', 'map', 'struct', 'uuid'];

/** Default limit on struct/container nesting, far above anything parquet.thrift needs. */
export const DEFAULT_MAX_DEPTH = 64;

/**
 * Reads Thrift compact-protocol values from a {@link ByteReader}.
 * Generated Parquet readers call only this class.
 */
export class CompactReader {
  /** The byte cursor being read. */
  readonly cur: ByteReader;
  /** Wire type of the field whose header was read last by {@link CompactReader.fieldBegin}. */
  fieldType = 0;
  /** Element wire type of the list/set opened last by {@link CompactReader.listBegin}. */
  elemType = 0;
  /** Key and value wire types of the map opened last by {@link CompactReader.mapBegin}. */
  keyType = 0;
  /** Value wire type of the map opened last. */
  valueType = 0;
  private lastFieldId = 0;
  private readonly idStack: number[] = [];
  private inField = false;
  private readonly maxDepth: number;
  private depth = 0;

  /**
   * @param cur - the cursor to read from.
   * @param maxDepth - maximum nesting of structs and containers.
   */
  constructor(cur: ByteReader, maxDepth = DEFAULT_MAX_DEPTH) {
    this.cur = cur;
    this.maxDepth = maxDepth;
  }

  /** Byte offset in the whole input of the cursor position (for messages). */
  get offset(): number {
    return this.cur.baseOffset + this.cur.pos;
  }

  private fail(code: string, msg: string): never {
    throw new ParquetError(code, `thrift-compact: ${msg} at byte ${this.offset}`, this.offset);
  }

  private enter(): void {
    if (++this.depth > this.maxDepth) this.fail('THRIFT_TOO_DEEP', `nesting deeper than ${this.maxDepth}`);
  }

  /** Enters a struct (saves the field-id context). */
  structBegin(): void {
    this.enter();
    this.idStack.push(this.lastFieldId);
    this.lastFieldId = 0;
    this.inField = false;
  }

  /** Leaves a struct (restores the field-id context). */
  structEnd(): void {
    this.depth--;
    this.lastFieldId = this.idStack.pop() ?? 0;
    this.inField = false;
  }

  /**
   * Reads the next field header.
   * @returns the field id, or 0 at the STOP marker. The wire type is left in `fieldType`.
   */
  fieldBegin(): number {
    const b = this.cur.u8();
    const type = b & 0x0f;
    if (type === 0) {
      this.fieldType = 0;
      return 0;
    }
    if (type > 13) this.fail('THRIFT_BAD_TYPE', `unknown compact type ${type}`);
    const delta = b >>> 4;
    let id: number;
    if (delta !== 0) id = this.lastFieldId + delta;
    else {
      id = this.cur.zigzag32();
      if (id > 32767 || id < -32768) this.fail('THRIFT_BAD_FIELD_ID', `field id ${id} out of i16 range`);
    }
    if (id === 0) this.fail('THRIFT_BAD_FIELD_ID', 'field id 0');
    this.lastFieldId = id;
    this.fieldType = type;
    this.inField = true;
    return id;
  }

  /**
   * Whether the current field has wire type `type` (booleans accept either nibble, lists accept sets).
   * @param type - the expected compact type.
   */
  is(type: number): boolean {
    const t = this.fieldType;
    return t === type || (type === 1 && t === 2) || (type === 9 && t === 10);
  }

  /**
   * Throws unless the current field has wire type `type` (booleans accept either nibble).
   * @param type - the expected compact type.
   * @param struct - struct name for the message.
   * @param field - field name for the message.
   */
  expect(type: number, struct: string, field: string): void {
    if (this.is(type)) return;
    const t = this.fieldType;
    this.fail('THRIFT_WRONG_TYPE', `${struct}.${field} has wire type ${TYPE_NAMES[t] ?? t}, expected ${TYPE_NAMES[type]}`);
  }

  /** Reads a boolean: from the field header inside a struct, else one byte (1 = true). */
  bool(): boolean {
    if (this.inField) {
      this.inField = false;
      return this.fieldType === CompactType.BOOL_TRUE;
    }
    return this.cur.u8() === 1;
  }

  /** Reads a signed byte (Thrift i8). */
  byte(): number {
    this.inField = false;
    return this.cur.i8();
  }

  /** Reads a zigzag i16. */
  i16(): number {
    this.inField = false;
    const v = this.cur.zigzag32();
    if (v > 32767 || v < -32768) this.fail('THRIFT_RANGE', `i16 value ${v} out of range`);
    return v;
  }

  /** Reads a zigzag i32. */
  i32(): number {
    this.inField = false;
    return this.cur.zigzag32();
  }

  /**
   * Reads a zigzag i64 as a safe integer.
   * @throws ParquetError `INT64_NOT_SAFE` beyond ±(2^53 − 1).
   */
  i64(): number {
    this.inField = false;
    return this.cur.zigzag64Number();
  }

  /** Reads a zigzag i64 exactly, as a BigInt (cold paths). */
  i64BigInt(): bigint {
    this.inField = false;
    this.cur.zigzag64();
    return BigInt.asIntN(64, (BigInt(this.cur.hi >>> 0) << 32n) | BigInt(this.cur.lo));
  }

  /** Reads a little-endian double. */
  double(): number {
    this.inField = false;
    return this.cur.f64();
  }

  /** Reads a length-prefixed byte string as a zero-copy view. */
  binary(): Uint8Array {
    this.inField = false;
    const len = this.cur.uleb32();
    if (len > this.cur.remaining) this.fail('THRIFT_BAD_LENGTH', `binary length ${len} exceeds the ${this.cur.remaining} bytes left`);
    return this.cur.view(len);
  }

  /** Reads a length-prefixed UTF-8 string. */
  string(): string {
    this.inField = false;
    const len = this.cur.uleb32();
    if (len > this.cur.remaining) this.fail('THRIFT_BAD_LENGTH', `string length ${len} exceeds the ${this.cur.remaining} bytes left`);
    return this.cur.utf8(len);
  }

  /** Reads a 16-byte UUID. */
  uuid(): Uint8Array {
    this.inField = false;
    return this.cur.view(16);
  }

  /**
   * Opens a list or set.
   * @returns the element count (bounded by the bytes left); the element type is left in `elemType`.
   */
  listBegin(): number {
    this.inField = false;
    this.enter();
    const b = this.cur.u8();
    let size = b >>> 4;
    this.elemType = b & 0x0f;
    if (size === 15) size = this.cur.uleb32();
    // every element takes at least one byte, so a larger count cannot be honest
    if (size > this.cur.remaining) this.fail('THRIFT_BAD_LENGTH', `list of ${size} elements exceeds the ${this.cur.remaining} bytes left`);
    if (size > 0 && (this.elemType === 0 || this.elemType > 13)) this.fail('THRIFT_BAD_TYPE', `unknown list element type ${this.elemType}`);
    return size;
  }

  /**
   * Checks the element type of the list just opened.
   * @param type - expected compact element type.
   * @param what - `Struct.field` for the message.
   */
  expectElem(type: number, what: string): void {
    const t = this.elemType;
    if (t === type || (type === 1 && t === 2)) return;
    this.fail('THRIFT_WRONG_TYPE', `${what} has element type ${TYPE_NAMES[t] ?? t}, expected ${TYPE_NAMES[type]}`);
  }

  /** Closes a list or set. */
  listEnd(): void {
    this.depth--;
  }

  /**
   * Opens a map.
   * @returns the entry count; key and value types are left in `keyType`/`valueType`.
   */
  mapBegin(): number {
    this.inField = false;
    this.enter();
    const size = this.cur.uleb32();
    if (size === 0) {
      this.keyType = 0;
      this.valueType = 0;
      return 0;
    }
    const kv = this.cur.u8();
    this.keyType = kv >>> 4;
    this.valueType = kv & 0x0f;
    if (size * 2 > this.cur.remaining) this.fail('THRIFT_BAD_LENGTH', `map of ${size} entries exceeds the ${this.cur.remaining} bytes left`);
    if (this.keyType === 0 || this.keyType > 13 || this.valueType === 0 || this.valueType > 13) {
      this.fail('THRIFT_BAD_TYPE', `unknown map key/value types ${this.keyType}/${this.valueType}`);
    }
    return size;
  }

  /** Closes a map. */
  mapEnd(): void {
    this.depth--;
  }

  /**
   * Skips one value of the given wire type, at any depth (unknown fields).
   * @param type - the compact wire type of the value.
   */
  skip(type: number): void {
    switch (type) {
      case CompactType.BOOL_TRUE:
      case CompactType.BOOL_FALSE:
        this.bool();
        return;
      case CompactType.BYTE:
        this.byte();
        return;
      case CompactType.I16:
      case CompactType.I32:
        this.inField = false;
        this.cur.uleb32();
        return;
      case CompactType.I64:
        this.inField = false;
        this.cur.uleb64();
        return;
      case CompactType.DOUBLE:
        this.double();
        return;
      case CompactType.BINARY:
        this.binary();
        return;
      case CompactType.UUID:
        this.uuid();
        return;
      case CompactType.LIST:
      case CompactType.SET: {
        const n = this.listBegin();
        const et = this.elemType;
        for (let i = 0; i < n; i++) this.skip(et);
        this.listEnd();
        return;
      }
      case CompactType.MAP: {
        const n = this.mapBegin();
        const kt = this.keyType;
        const vt = this.valueType;
        for (let i = 0; i < n; i++) {
          this.skip(kt);
          this.skip(vt);
        }
        this.mapEnd();
        return;
      }
      case CompactType.STRUCT: {
        this.structBegin();
        while (this.fieldBegin() !== 0) this.skip(this.fieldType);
        this.structEnd();
        return;
      }
      default:
        this.fail('THRIFT_BAD_TYPE', `cannot skip unknown compact type ${type}`);
    }
  }

  /**
   * Throws `THRIFT_REQUIRED_FIELD` for a required field that was absent.
   * @param struct - struct name.
   * @param field - field name.
   */
  missing(struct: string, field: string): never {
    this.fail('THRIFT_REQUIRED_FIELD', `required field ${struct}.${field} is missing`);
  }
}
