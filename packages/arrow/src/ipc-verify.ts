/**
 * A structural check of an Arrow IPC `Schema` message before apache-arrow reads it. apache-arrow's flatbuffer
 * accessors do not check bounds: an offset or length past the buffer reads `undefined` as 0 or NaN, and a vector length
 * of 2^31 from a damaged `ARROW:schema` value makes it loop (or allocate) until the process dies. Like the flatbuffers
 * verifiers Arrow C++ and arrow-rs run before reading a message, this walks every table, string and vector the schema
 * reader reaches and checks that it lies inside the bytes, with the nesting depth and the number of tables visited
 * bounded as Arrow C++ bounds its verifier (128 deep, 8 table visits per byte; a table shared by several offsets counts at
 * each visit, so the reader's own walk is bounded by the same number).
 *
 * Layouts (Message.fbs, Schema.fbs of the Arrow format; vtable slots 4, 6, 8, ... in order of declaration):
 * - Message: version (short), header_type (ubyte), header (table), bodyLength (long), custom_metadata ([KeyValue]).
 * - Schema: endianness (short), fields ([Field]), custom_metadata ([KeyValue]), features ([long]).
 * - Field: name (string), nullable (bool), type_type (ubyte), type (table), dictionary (DictionaryEncoding),
 *   children ([Field]), custom_metadata ([KeyValue]).
 * - KeyValue: key, value (strings). DictionaryEncoding: id (long), indexType (Int), isOrdered (bool), kind (short).
 * - Type tables: scalars only, but for Timestamp's timezone (string) and Union's typeIds ([int]).
 *
 * @module
 */

/** Deepest nesting of tables accepted (the Message is at depth 1), as Arrow C++ verifies a message. */
const MAX_DEPTH = 128;
/** MessageHeader.Schema. */
const HEADER_SCHEMA = 1;
/** Type.Timestamp and Type.Union: the type tables with an offset field. */
const TYPE_TIMESTAMP = 10;
const TYPE_UNION = 14;

/** Why a message was refused (becomes the message of the caller's error). */
export class IpcSchemaInvalid extends Error {}

/** The walk over one buffer. */
class Walk {
  private readonly dv: DataView;
  private readonly len: number;
  private tablesLeft: number;

  constructor(private readonly bytes: Uint8Array) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.len = bytes.length;
    // as Arrow C++ bounds its verifier: 8 table visits per byte (a writer's distinct tables take 4 bytes or more each;
    // tables shared by several offsets count at every visit, as the reader walks them again)
    this.tablesLeft = 8 * bytes.length;
  }

  fail(what: string, at: number): never {
    throw new IpcSchemaInvalid(`${what} at byte ${at} of the ${this.len}-byte flatbuffer`);
  }

  private need(at: number, size: number, what: string): void {
    if (!(at >= 0 && size >= 0 && at + size <= this.len)) this.fail(`${what} (${size} bytes) runs past the end`, at);
  }

  private u32(at: number, what: string): number {
    this.need(at, 4, what);
    return this.dv.getUint32(at, true);
  }

  /**
   * The table at `t`: its vtable and body inside the buffer.
   * @returns a reader of its fields' positions (0 for a field not present).
   */
  table(t: number, depth: number, what: string): (slot: number, size: number) => number {
    if (--this.tablesLeft < 0) this.fail(`more table visits than the message's size allows (at ${what})`, t);
    if (depth > MAX_DEPTH) this.fail(`tables nested more than ${MAX_DEPTH} deep (at ${what})`, t);
    this.need(t, 4, `${what} table`);
    const vt = t - this.dv.getInt32(t, true);
    this.need(vt, 4, `${what} vtable`);
    const vsize = this.dv.getUint16(vt, true);
    const tsize = this.dv.getUint16(vt + 2, true);
    if (vsize < 4 || (vsize & 1) !== 0) this.fail(`${what} vtable of ${vsize} bytes`, vt);
    this.need(vt, vsize, `${what} vtable`);
    this.need(t, tsize, `${what} table`);
    return (slot, size) => {
      if (slot >= vsize) return 0;
      const off = this.dv.getUint16(vt + slot, true);
      if (off === 0) return 0;
      if (off + size > tsize) this.fail(`${what} field of ${size} bytes at offset ${off} outside its ${tsize}-byte table`, t);
      return t + off;
    };
  }

  /** The position an offset field at `at` points to (0 when the field is absent). */
  private target(at: number, what: string): number {
    if (at === 0) return 0;
    const to = at + this.u32(at, what);
    this.need(to, 4, what);
    return to;
  }

  string(at: number, what: string): void {
    const s = this.target(at, what);
    if (s !== 0) this.need(s + 4, this.u32(s, what) + 1, `${what} string`);
  }

  /** A vector of `size`-byte elements: its count, or 0 when absent. */
  vector(at: number, size: number, what: string): { at: number; count: number } {
    const v = this.target(at, what);
    if (v === 0) return { at: 0, count: 0 };
    const count = this.u32(v, what);
    if (count > (this.len - v - 4) / size) this.fail(`${what} vector of ${count} elements runs past the end`, v);
    return { at: v + 4, count };
  }

  /** A vector of tables, each checked by `each`. */
  tables(at: number, what: string, each: (t: number) => void): void {
    const { at: v, count } = this.vector(at, 4, what);
    for (let i = 0; i < count; i++) each(this.target(v + 4 * i, what));
  }

  keyValues(at: number, depth: number): void {
    this.tables(at, 'custom_metadata', (t) => {
      const f = this.table(t, depth, 'KeyValue');
      this.string(f(4, 4), 'KeyValue.key');
      this.string(f(6, 4), 'KeyValue.value');
    });
  }

  field(t: number, depth: number): void {
    const f = this.table(t, depth, 'Field');
    this.string(f(4, 4), 'Field.name');
    f(6, 1);
    const typeAt = f(8, 1);
    const typeType = typeAt === 0 ? 0 : this.bytes[typeAt]!;
    const type = this.target(f(10, 4), 'Field.type');
    if (type !== 0) {
      const tf = this.table(type, depth + 1, 'Field.type');
      if (typeType === TYPE_TIMESTAMP) this.string(tf(6, 4), 'Timestamp.timezone');
      if (typeType === TYPE_UNION) this.vector(tf(6, 4), 4, 'Union.typeIds');
    }
    const dict = this.target(f(12, 4), 'Field.dictionary');
    if (dict !== 0) {
      const d = this.table(dict, depth + 1, 'DictionaryEncoding');
      const index = this.target(d(6, 4), 'DictionaryEncoding.indexType');
      if (index !== 0) this.table(index, depth + 2, 'DictionaryEncoding.indexType');
    }
    this.tables(f(14, 4), 'Field.children', (c) => this.field(c, depth + 1));
    this.keyValues(f(16, 4), depth + 1);
  }

  message(): void {
    const m = this.table(this.u32(0, 'root offset'), 1, 'Message');
    const headerType = m(6, 1);
    if (headerType === 0 || this.bytes[headerType] !== HEADER_SCHEMA) this.fail(`a message of header type ${headerType === 0 ? 0 : this.bytes[headerType]}, not a Schema (1)`, 0);
    const header = this.target(m(8, 4), 'Message.header');
    if (header === 0) this.fail('a Schema message without its schema', 0);
    this.keyValues(m(12, 4), 2);
    const s = this.table(header, 2, 'Schema');
    this.tables(s(6, 4), 'Schema.fields', (t) => this.field(t, 3));
    this.keyValues(s(8, 4), 3);
    this.vector(s(10, 4), 8, 'Schema.features');
  }
}

/**
 * Checks the structure of an IPC `Schema` message: optional continuation token (`0xFFFFFFFF`), the flatbuffer's
 * length, then the flatbuffer.
 * @param message - the message's bytes.
 * @throws IpcSchemaInvalid naming what lies outside the bytes, or a nesting or size bound passed.
 */
export function verifyIpcSchema(message: Uint8Array): void {
  const dv = new DataView(message.buffer, message.byteOffset, message.byteLength);
  if (message.length < 8) throw new IpcSchemaInvalid(`a message of ${message.length} bytes`);
  const start = dv.getUint32(0, true) === 0xffffffff ? 8 : 4;
  if (start === 8 && message.length < 12) throw new IpcSchemaInvalid(`a message of ${message.length} bytes`);
  const size = dv.getUint32(start - 4, true);
  if (size > message.length - start) throw new IpcSchemaInvalid(`a metadata length of ${size} bytes where ${message.length - start} follow`);
  new Walk(message.subarray(start, start + size)).message();
}
