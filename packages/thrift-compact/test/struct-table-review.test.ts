/**
 * Review of the table-driven struct reader against the compact protocol spec, with Apache Thrift writing the bytes:
 * random FileMetaData values (and ColumnIndex, for lists of booleans) with unknown fields of every wire type spliced
 * in at every depth — bools in the type nibble, i8, i16, i32, i64, double, binary, lists and sets (short and long
 * size forms, boolean elements), maps (empty, of scalars, of structs), nested structs holding unknown fields — under
 * field ids that force long-form headers (jumps over 15, negative ids, ids going down), and lists long enough for the
 * long size form. The table readers must give the value without the unknown fields, and the same as the per-struct
 * switch readers (test/gen/read-switch.ts). Also: the nesting limit on unknown structs, lists and maps, and UUID
 * fields (type 13, which Apache's JS writer lacks) by hand. Every footer of the upstream corpus (valid and bad_data)
 * gives the same value, end and error with both readers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import thrift from 'thrift';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as pq from '@parquetry/thrift-compact';
import { THRIFT_STRUCTS, THRIFT_UNIONS, decodeThrift, isParquetError, type CompactReader, type ThriftFieldInfo } from '@parquetry/thrift-compact';
import { CompactReader as SrcCompactReader } from '../src/compact-reader.js';
import { ByteReader as SrcByteReader } from '../src/cursor.js';
import * as oracle from './gen/read-switch.js';
import { REQUIRED_FLAG, readStruct, type FieldSpec, type StructSpec } from '../src/struct-table.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const { TCompactProtocol, TBufferedTransport, Thrift } = thrift as Any;
const T = Thrift.Type;
const thriftBig = thrift as unknown as { fromBigInt(v: bigint): unknown };

const ALL: Record<string, readonly ThriftFieldInfo[]> = { ...THRIFT_STRUCTS, ...THRIFT_UNIONS };
const ENUMS = new Set(Object.keys(pq).filter((k) => `${k}Names` in pq && !k.endsWith('Names')));
const elemOf = (t: string): string => t.slice(5, -1);
const sortedFields = (name: string): ThriftFieldInfo[] => [...ALL[name]!].sort((a, b) => a.id - b.id);
type Reader = (r: CompactReader) => unknown;
const tableReader = (name: string): Reader => (pq as unknown as Record<string, Reader>)[`read${name}`]!;
const switchReader = (name: string): Reader => (oracle as unknown as Record<string, Reader>)[`read${name}`]!;

function ttype(t: string): number {
  if (t.startsWith('list<')) return T.LIST;
  if (ENUMS.has(t)) return T.I32;
  switch (t) {
    case 'bool': return T.BOOL;
    case 'i8': return T.BYTE;
    case 'i16': return T.I16;
    case 'i32': return T.I32;
    case 'i64': return T.I64;
    case 'double': return T.DOUBLE;
    case 'binary':
    case 'string': return T.STRING;
    default: return T.STRUCT;
  }
}

/** A deterministic stream of choices (mulberry32), so one fast-check integer drives every splice. */
function chooser(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Writes one unknown value of a random wire type through Apache Thrift; `depth` bounds nested structs. */
function writeJunk(p: Any, pick: (n: number) => number, type: number, depth: number): void {
  switch (type) {
    case T.BOOL: return p.writeBool(pick(2) === 1);
    case T.BYTE: return p.writeByte(pick(256) - 128);
    case T.I16: return p.writeI16(pick(65536) - 32768);
    case T.I32: return p.writeI32(pick(2 ** 32) - 2 ** 31);
    case T.I64: return p.writeI64(thriftBig.fromBigInt(BigInt(pick(2 ** 32)) * BigInt(pick(2 ** 31)) * (pick(2) ? -1n : 1n)));
    case T.DOUBLE: return p.writeDouble(pick(1e9) / 7);
    case T.STRING: return p.writeString('x'.repeat(pick(20)));
    case T.LIST:
    case T.SET: {
      const et = [T.BOOL, T.I32, T.STRING, T.I64, T.STRUCT][pick(depth > 0 ? 5 : 4)]!;
      const n = pick(3) === 0 ? 15 + pick(10) : pick(15); // long and short size forms
      if (type === T.LIST) p.writeListBegin(et, n);
      else p.writeSetBegin(et, n);
      for (let i = 0; i < n; i++) writeJunk(p, pick, et, depth - 1);
      return type === T.LIST ? p.writeListEnd() : p.writeSetEnd();
    }
    case T.MAP: {
      const kt = [T.STRING, T.I32, T.BOOL][pick(3)]!;
      const vt = [T.BOOL, T.I64, T.STRING, T.STRUCT, T.LIST][pick(depth > 0 ? 5 : 3)]!;
      const n = pick(4);
      p.writeMapBegin(kt, vt, n);
      for (let i = 0; i < n; i++) {
        writeJunk(p, pick, kt, depth - 1);
        writeJunk(p, pick, vt, depth - 1);
      }
      return p.writeMapEnd();
    }
    default: {
      // a nested struct of unknown fields, some of them structs again
      p.writeStructBegin('junk');
      const k = pick(4);
      let id = 0;
      for (let i = 0; i < k; i++) {
        id += 1 + pick(40);
        const t = JUNK_TYPES[pick(depth > 0 ? JUNK_TYPES.length : JUNK_TYPES.length - 1)]!;
        p.writeFieldBegin('j', t, id);
        writeJunk(p, pick, t, depth - 1);
        p.writeFieldEnd();
      }
      p.writeFieldStop();
      return p.writeStructEnd();
    }
  }
}
const JUNK_TYPES = [T.BOOL, T.BYTE, T.I16, T.I32, T.I64, T.DOUBLE, T.STRING, T.LIST, T.SET, T.MAP, T.STRUCT];

/** Unknown field ids of a struct: far jumps, negative ids, and gaps between known ids. */
function junkId(name: string, pick: (n: number) => number): number {
  const known = new Set(ALL[name]!.map((f) => f.id));
  for (;;) {
    const r = pick(3);
    const id = r === 0 ? 20 + pick(3000) : r === 1 ? -1 - pick(300) : 1 + pick(40);
    if (!known.has(id)) return id;
  }
}

/** Apache Thrift encoding of `v`, with unknown fields spliced in before known fields and before each STOP. */
function writeDirty(p: Any, t: string, v: Any, pick: (n: number) => number, junk: boolean): void {
  if (t.startsWith('list<')) {
    const el = elemOf(t);
    p.writeListBegin(ttype(el), v.length);
    for (const e of v) writeDirty(p, el, e, pick, junk);
    return p.writeListEnd();
  }
  if (ENUMS.has(t)) return p.writeI32(v);
  switch (t) {
    case 'bool': return p.writeBool(v);
    case 'i8': return p.writeByte(v);
    case 'i16': return p.writeI16(v);
    case 'i32': return p.writeI32(v);
    case 'i64': return p.writeI64(thriftBig.fromBigInt(BigInt(v)));
    case 'double': return p.writeDouble(v);
    case 'binary': return p.writeBinary(Buffer.from(v));
    case 'string': return p.writeString(v);
  }
  p.writeStructBegin(t);
  const splice = (): void => {
    if (!junk) return;
    for (let k = pick(3) === 0 ? 1 + pick(2) : 0; k > 0; k--) {
      const type = JUNK_TYPES[pick(JUNK_TYPES.length)]!;
      p.writeFieldBegin('junk', type, junkId(t, pick));
      writeJunk(p, pick, type, 2);
      p.writeFieldEnd();
    }
  };
  for (const f of sortedFields(t)) {
    if (v[f.name] === undefined) continue;
    splice();
    p.writeFieldBegin(f.name, ttype(f.type), f.id);
    writeDirty(p, f.type, v[f.name], pick, junk);
    p.writeFieldEnd();
  }
  splice();
  p.writeFieldStop();
  p.writeStructEnd();
}

function apacheEncode(name: string, v: unknown, seed: number, junk: boolean): Uint8Array {
  let out: Buffer | undefined;
  const tr = new TBufferedTransport(undefined, (b: Buffer) => {
    out = out ? Buffer.concat([out, b]) : b;
  });
  writeDirty(new TCompactProtocol(tr), name, v, chooser(seed), junk);
  tr.flush();
  return new Uint8Array(out!);
}

// random values; lists of scalars up to 24 elements (the long size form starts at 15), lists of structs short
const cache = new Map<string, fc.Arbitrary<unknown>>();
function arb(t: string): fc.Arbitrary<unknown> {
  if (t.startsWith('list<')) {
    const el = elemOf(t);
    const scalar = ENUMS.has(el) || ['bool', 'i8', 'i16', 'i32', 'i64', 'double', 'binary', 'string'].includes(el);
    return fc.array(arb(el), { maxLength: scalar ? 24 : 2 });
  }
  if (ENUMS.has(t)) return fc.constantFrom(...Object.values((pq as Any)[t] as Record<string, number>));
  switch (t) {
    case 'bool': return fc.boolean();
    case 'i8': return fc.integer({ min: -128, max: 127 });
    case 'i16': return fc.integer({ min: -32768, max: 32767 });
    case 'i32': return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'i64': return fc.maxSafeInteger();
    case 'double': return fc.double({ noNaN: true }).map((d) => (Object.is(d, -0) ? 0 : d));
    case 'binary': return fc.uint8Array({ maxLength: 20 });
    case 'string': return fc.string({ unit: 'grapheme', maxLength: 10 });
  }
  const hit = cache.get(t);
  if (hit) return hit;
  const fields = sortedFields(t);
  let a: fc.Arbitrary<unknown>;
  if (t in THRIFT_UNIONS) a = fc.oneof(...fields.map((f) => arb(f.type).map((v) => ({ [f.name]: v }))));
  else if (fields.length === 0) a = fc.constant({});
  else {
    a = fc.record(Object.fromEntries(fields.map((f) => [f.name, arb(f.type)])), {
      requiredKeys: fields.filter((f) => f.requiredness === 'required').map((f) => f.name),
    });
  }
  cache.set(t, a);
  return a;
}

function both(name: string, bytes: Uint8Array): unknown {
  const a = decodeThrift(tableReader(name), bytes);
  const b = decodeThrift(switchReader(name), bytes);
  expect(a.end).toBe(bytes.length);
  expect(b).toEqual(a);
  return a.value;
}

describe('Apache-written footers with unknown fields of every type at every depth', () => {
  test.each(['FileMetaData', 'ColumnIndex', 'OffsetIndex', 'ColumnMetaData', 'SchemaElement', 'LogicalType', 'ColumnOrder', 'FileCryptoMetaData'])(
    '%s: the unknown fields are skipped, the value is the one written, table = switch reader',
    (name) => {
      let junkBytes = 0;
      fc.assert(
        fc.property(arb(name), fc.integer(), (value, seed) => {
          const clean = apacheEncode(name, value, seed, false);
          const dirty = apacheEncode(name, value, seed, true);
          junkBytes += dirty.length - clean.length;
          expect(both(name, clean)).toEqual(value);
          expect(both(name, dirty)).toEqual(value);
        }),
        { numRuns: name === 'FileMetaData' ? 60 : 150 },
      );
      // the splices really happened
      expect(junkBytes).toBeGreaterThan(1000);
    },
  );

  test('long size forms: 15..40 schema elements, row groups and booleans, written by Apache', () => {
    const se = arb('SchemaElement');
    const rg = arb('RowGroup');
    fc.assert(
      fc.property(fc.array(se, { minLength: 15, maxLength: 40 }), fc.array(rg, { minLength: 0, maxLength: 16 }), fc.array(fc.boolean(), { minLength: 15, maxLength: 300 }), fc.integer(), (schema, rowGroups, nullPages, seed) => {
        const fmd = { version: 2, schema, num_rows: 7, row_groups: rowGroups };
        const bytes = apacheEncode('FileMetaData', fmd, seed, true);
        expect(both('FileMetaData', bytes)).toEqual(fmd);
        const ci = { null_pages: nullPages, min_values: nullPages.map(() => new Uint8Array([1])), max_values: [], boundary_order: 0 };
        expect(both('ColumnIndex', apacheEncode('ColumnIndex', ci, seed, true))).toEqual(ci);
      }),
      { numRuns: 25 },
    );
  });
});

describe('hand-built: nesting limits and UUID fields', () => {
  /** The error code of the table reader, which the switch reader must give too. */
  const failure = (name: string, bytes: number[]): string => {
    const codes = [tableReader(name), switchReader(name)].map((read) => {
      try {
        decodeThrift(read, new Uint8Array(bytes));
        return 'no error';
      } catch (e) {
        return isParquetError(e) ? e.code : `untyped ${String(e)}`;
      }
    });
    expect(codes[1]).toBe(codes[0]);
    return codes[0]!;
  };
  // KeyValue { key: 'k', <unknown field 5: struct { field 1: struct { ... } }> }
  const nested = (depth: number): number[] => [0x18, 0x01, 0x6b, 0x4c, ...new Array<number>(depth - 1).fill(0x1c), ...new Array<number>(depth).fill(0x00), 0x00];
  const lists = (depth: number): number[] => [0x18, 0x01, 0x6b, 0x49, ...new Array<number>(depth - 1).fill(0x19), 0x09, 0x00];
  const maps = (depth: number): number[] => [0x18, 0x01, 0x6b, 0x4b, ...new Array<number[]>(depth - 1).fill([0x01, 0x5b, 0x00]).flat(), 0x00, 0x00];

  test('unknown structs, lists and maps nested up to the limit are skipped; one deeper is THRIFT_TOO_DEEP', () => {
    // the KeyValue itself is depth 1, so 63 more levels fit in the default limit of 64
    for (const [what, make] of [['structs', nested], ['lists', lists], ['maps', maps]] as const) {
      const ok = decodeThrift(tableReader('KeyValue'), new Uint8Array(make(63)));
      expect(ok.value, what).toEqual({ key: 'k' });
      expect(decodeThrift(switchReader('KeyValue'), new Uint8Array(make(63)))).toEqual(ok);
      expect(failure('KeyValue', make(64)), what).toBe('THRIFT_TOO_DEEP');
      // far deeper than the JS stack would allow without the limit: still a typed error
      expect(failure('KeyValue', make(200_000)), what).toBe('THRIFT_TOO_DEEP');
    }
  });

  test('an unknown UUID field (type 13, 16 bytes) is skipped; a truncated one is EOF', () => {
    const uuid = [0x4d, ...new Array<number>(16).fill(0xab)];
    expect(decodeThrift(tableReader('KeyValue'), new Uint8Array([0x18, 0x01, 0x6b, ...uuid, 0x18, 0x01, 0x76, 0x00])).value).toEqual({ key: 'k' });
    // after the UUID (id 5) a known field must use the long form (id 2 < 5): 0x08 then zigzag 2 = 4
    expect(decodeThrift(tableReader('KeyValue'), new Uint8Array([0x18, 0x01, 0x6b, ...uuid, 0x08, 0x04, 0x01, 0x76, 0x00])).value).toEqual({ key: 'k', value: 'v' });
    expect(failure('KeyValue', [0x18, 0x01, 0x6b, ...uuid.slice(0, 10)])).toBe('EOF');
  });
});

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing');
function parquetFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...parquetFiles(p));
    else if (/\.parquet(\.encrypted)?$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

describe.skipIf(!fs.existsSync(corpus))('corpus footers: table readers = switch readers', () => {
  test('every footer (data, shredded_variant, bad_data) decodes to the same value and end, or fails the same way', () => {
    const files = ['data', 'shredded_variant', 'bad_data'].flatMap((d) => parquetFiles(path.join(corpus, d)));
    expect(files.length).toBeGreaterThan(100);
    let decoded = 0;
    for (const file of files) {
      const bytes = new Uint8Array(fs.readFileSync(file));
      if (bytes.length < 12) continue;
      const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
      const end = bytes.length - 8;
      if (len > end) continue;
      const name = String.fromCharCode(...bytes.subarray(bytes.length - 4)) === 'PARE' ? 'FileCryptoMetaData' : 'FileMetaData';
      const outcome = (read: Reader): unknown => {
        try {
          return decodeThrift(read, bytes, end - len, end, 0);
        } catch (e) {
          if (!isParquetError(e)) throw e;
          return { code: e.code, message: e.message, offset: e.offset };
        }
      };
      const a = outcome(tableReader(name));
      expect(outcome(switchReader(name)), path.relative(corpus, file)).toEqual(a);
      if (a !== null && typeof a === 'object' && 'value' in a) decoded++;
    }
    expect(decoded).toBeGreaterThan(100);
  });
});

describe('the interpreter on tables parquet.thrift does not have (yet)', () => {
  test('a known field with an id of 32 or more does not count as a required field of id (id mod 32)', () => {
    // required i32 field 1, optional i32 field 33; the bytes hold only field 33 (long-form header: 0x05, zigzag 33 = 66)
    const fields: (FieldSpec | undefined)[] = [];
    fields[1] = ['a', 5 | REQUIRED_FLAG];
    fields[33] = ['b', 5];
    const spec: StructSpec = ['Wide', fields, 1 << 1];
    const read = (bytes: number[]): unknown => readStruct(new SrcCompactReader(new SrcByteReader(new Uint8Array(bytes))), spec);
    expect(read([0x15, 0x02, 0x05, 0x42, 0x04, 0x00])).toEqual({ a: 1, b: 2 });
    let code = 'no error';
    try {
      read([0x05, 0x42, 0x04, 0x00]);
    } catch (e) {
      code = isParquetError(e) ? e.code : `untyped ${String(e)}`;
    }
    expect(code).toBe('THRIFT_REQUIRED_FIELD');
  });
});
