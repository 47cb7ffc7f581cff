/**
 * Differential tests against the Apache `thrift` npm package's TCompactProtocol: random values of every
 * parquet.thrift struct and union, encoded by us and decoded by Apache Thrift, and the reverse.
 * The reference codec below is driven by the same field table (THRIFT_STRUCTS/THRIFT_UNIONS), but all its
 * wire work is done by Apache Thrift.
 */
import thrift from 'thrift';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as pq from '@parquetry/thrift-compact';
import { THRIFT_STRUCTS, THRIFT_UNIONS, decodeThrift, encodeThrift, type ThriftFieldInfo } from '@parquetry/thrift-compact';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const { TCompactProtocol, TBufferedTransport, Thrift } = thrift as Any;
const T = Thrift.Type;
const thriftBig = thrift as unknown as { fromBigInt(v: bigint): unknown; toBigInt(v: unknown): bigint };

const ALL: Record<string, readonly ThriftFieldInfo[]> = { ...THRIFT_STRUCTS, ...THRIFT_UNIONS };
const ENUMS = new Set(Object.keys(pq).filter((k) => `${k}Names` in pq && !k.endsWith('Names')));
const isUnion = (name: string) => name in THRIFT_UNIONS;
const sortedFields = (name: string) => [...ALL[name]!].sort((a, b) => a.id - b.id);
const elemOf = (t: string) => t.slice(5, -1);

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

// ---- reference encoder/decoder over Apache Thrift
function refWriteValue(p: Any, t: string, v: Any): void {
  if (t.startsWith('list<')) {
    const el = elemOf(t);
    p.writeListBegin(ttype(el), v.length);
    for (const e of v) refWriteValue(p, el, e);
    p.writeListEnd();
    return;
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
  for (const f of sortedFields(t)) {
    if (v[f.name] === undefined) continue;
    p.writeFieldBegin(f.name, ttype(f.type), f.id);
    refWriteValue(p, f.type, v[f.name]);
    p.writeFieldEnd();
  }
  p.writeFieldStop();
  p.writeStructEnd();
}

function refEncode(name: string, v: unknown): Uint8Array {
  let out: Buffer | undefined;
  const tr = new TBufferedTransport(undefined, (b: Buffer) => {
    out = out ? Buffer.concat([out, b]) : b;
  });
  refWriteValue(new TCompactProtocol(tr), name, v);
  tr.flush();
  return new Uint8Array(out!);
}

function refReadValue(p: Any, t: string): Any {
  if (t.startsWith('list<')) {
    const el = elemOf(t);
    const { size } = p.readListBegin();
    const a = [];
    // Apache Thrift 0.24's JS readBool mis-reads list elements (it expects an object from readByte), so list
    // booleans are read as the byte they are on the wire: 1 = true, 2 = false.
    for (let i = 0; i < size; i++) a.push(el === 'bool' ? p.readByte() === 1 : refReadValue(p, el));
    p.readListEnd();
    return a;
  }
  if (ENUMS.has(t)) return p.readI32();
  switch (t) {
    case 'bool': return p.readBool();
    case 'i8': return p.readByte();
    case 'i16': return p.readI16();
    case 'i32': return p.readI32();
    case 'i64': return Number(thriftBig.toBigInt(p.readI64()));
    case 'double': return p.readDouble();
    case 'binary': return new Uint8Array(p.readBinary());
    case 'string': return p.readString();
  }
  const byId = new Map(ALL[t]!.map((f) => [f.id, f]));
  const v: Record<string, unknown> = {};
  p.readStructBegin();
  for (;;) {
    const { ftype, fid } = p.readFieldBegin();
    if (ftype === T.STOP) break;
    const f = byId.get(fid);
    if (f && ttype(f.type) === ftype) v[f.name] = refReadValue(p, f.type);
    else p.skip(ftype);
    p.readFieldEnd();
  }
  p.readStructEnd();
  return v;
}

function refDecode(name: string, bytes: Uint8Array): unknown {
  const tr = new TBufferedTransport();
  tr.inBuf = Buffer.from(bytes);
  tr.writeCursor = bytes.length;
  return refReadValue(new TCompactProtocol(tr), name);
}

// ---- random values of every struct
const arbCache = new Map<string, fc.Arbitrary<unknown>>();
function arb(t: string): fc.Arbitrary<unknown> {
  if (t.startsWith('list<')) return fc.array(arb(elemOf(t)), { maxLength: 4 });
  if (ENUMS.has(t)) return fc.constantFrom(...Object.values((pq as Any)[t] as Record<string, number>));
  switch (t) {
    case 'bool': return fc.boolean();
    case 'i8': return fc.integer({ min: -128, max: 127 });
    case 'i16': return fc.integer({ min: -32768, max: 32767 });
    case 'i32': return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'i64': return fc.maxSafeInteger();
    // Apache Thrift's JS writeDouble turns -0 into +0 and canonicalises NaN payloads; keep to values it encodes exactly
    case 'double': return fc.double({ noNaN: true }).map((d) => (Object.is(d, -0) ? 0 : d));
    case 'binary': return fc.uint8Array({ maxLength: 24 });
    case 'string': return fc.string({ unit: 'grapheme', maxLength: 12 });
  }
  const cached = arbCache.get(t);
  if (cached) return cached;
  const fields = sortedFields(t);
  let a: fc.Arbitrary<unknown>;
  if (isUnion(t)) a = fc.oneof(...fields.map((f) => arb(f.type).map((v) => ({ [f.name]: v }))));
  else if (fields.length === 0) a = fc.constant({});
  else {
    const model = Object.fromEntries(fields.map((f) => [f.name, arb(f.type)]));
    a = fc.record(model, { requiredKeys: fields.filter((f) => f.requiredness === 'required').map((f) => f.name) });
  }
  arbCache.set(t, a);
  return a;
}

const names = Object.keys(ALL).sort();
const numRuns = (name: string) => (['FileMetaData', 'RowGroup', 'ColumnChunk', 'ColumnMetaData'].includes(name) ? 40 : 120);

describe('differential vs Apache Thrift TCompactProtocol', () => {
  test('covers every struct and union of the model', () => {
    expect(names.length).toBeGreaterThan(50);
    for (const n of names) {
      expect(typeof (pq as Any)[`read${n}`]).toBe('function');
      expect(typeof (pq as Any)[`write${n}`]).toBe('function');
    }
  });

  test.each(names)('%s: ours -> theirs and theirs -> ours, byte-identical', (name) => {
    const read = (pq as Any)[`read${name}`];
    const write = (pq as Any)[`write${name}`];
    fc.assert(
      fc.property(arb(name), (value) => {
        const ours = encodeThrift(write, value);
        const theirs = refEncode(name, value);
        expect(ours).toEqual(theirs);
        expect(refDecode(name, ours)).toEqual(value);
        const back = decodeThrift(read, theirs);
        expect(back.value).toEqual(value);
        expect(back.end).toBe(theirs.length);
      }),
      { numRuns: numRuns(name) },
    );
  });
});
