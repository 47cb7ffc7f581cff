/**
 * The table-driven readers (src/struct-table.ts + the generated tables) against the per-struct switch readers they
 * replaced (test/gen/read-switch.ts, generated from the same facts): for every struct and union, on valid encodings,
 * on mutated and truncated encodings and on random bytes, both give a deep-equal value with the same key order and
 * end position, or the same ParquetError (code, message and offset).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as pq from '@parquetry/thrift-compact';
import { ByteReader, CompactReader, CompactWriter, THRIFT_STRUCTS, THRIFT_UNIONS, decodeThrift, encodeThrift, isParquetError, type ThriftFieldInfo } from '@parquetry/thrift-compact';
import * as oracle from './gen/read-switch.js';

type Reader = (r: CompactReader) => unknown;
const ALL: Record<string, readonly ThriftFieldInfo[]> = { ...THRIFT_STRUCTS, ...THRIFT_UNIONS };
const names = Object.keys(ALL).sort();
const ENUMS = new Set(Object.keys(pq).filter((k) => `${k}Names` in pq && !k.endsWith('Names')));
const elemOf = (t: string) => t.slice(5, -1);
const tableReader = (name: string) => (pq as unknown as Record<string, Reader>)[`read${name}`]!;
const switchReader = (name: string) => (oracle as unknown as Record<string, Reader>)[`read${name}`]!;
const writer = (name: string) => (pq as unknown as Record<string, (w: CompactWriter, v: unknown) => void>)[`write${name}`]!;

type Outcome = { value: unknown; keys: string; end: number } | { code: string; message: string; offset: number | undefined };

/** Every object's keys in order, depth first, so property order (wire order) is compared too. */
function keyOrder(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(keyOrder).join(',')}]`;
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    return `{${Object.entries(v).map(([k, x]) => `${k}:${keyOrder(x)}`).join(',')}}`;
  }
  return '';
}

function outcome(read: Reader, bytes: Uint8Array): Outcome {
  try {
    const r = decodeThrift(read, bytes, 0, bytes.length, 100);
    return { value: r.value, keys: keyOrder(r.value), end: r.end };
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { code: e.code, message: e.message, offset: e.offset };
  }
}

function same(name: string, bytes: Uint8Array): Outcome {
  const a = outcome(tableReader(name), bytes);
  const b = outcome(switchReader(name), bytes);
  expect(a).toEqual(b);
  return a;
}

// random values of every struct (optional fields present or not; absent required fields come from the mutations)
const cache = new Map<string, fc.Arbitrary<unknown>>();
function arb(t: string): fc.Arbitrary<unknown> {
  if (t.startsWith('list<')) return fc.array(arb(elemOf(t)), { maxLength: 3 });
  if (ENUMS.has(t)) return fc.integer({ min: -2, max: 40 });
  switch (t) {
    case 'bool': return fc.boolean();
    case 'i8': return fc.integer({ min: -128, max: 127 });
    case 'i16': return fc.integer({ min: -32768, max: 32767 });
    case 'i32': return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'i64': return fc.maxSafeInteger();
    case 'double': return fc.double();
    case 'binary': return fc.uint8Array({ maxLength: 8 });
    case 'string': return fc.string({ maxLength: 6 });
  }
  const hit = cache.get(t);
  if (hit) return hit;
  const fields = ALL[t]!;
  const a = fields.length === 0 ? fc.constant({}) : fc.record(Object.fromEntries(fields.map((f) => [f.name, arb(f.type)])), {
          requiredKeys: fields.filter((f) => f.requiredness === 'required').map((f) => f.name),
        });
  cache.set(t, a);
  return a;
}

describe('table-driven readers = the per-struct switch readers', () => {
  test('every struct and union has both', () => {
    expect(names.length).toBeGreaterThan(50);
    for (const n of names) {
      expect(typeof tableReader(n)).toBe('function');
      expect(typeof switchReader(n)).toBe('function');
    }
  });

  test.each(names)('%s: encodings, mutations and truncations', (name) => {
    let values = 0;
    fc.assert(
      fc.property(
        arb(name),
        fc.array(fc.tuple(fc.nat(400), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(400),
        (value, muts, cut) => {
          const good = encodeThrift(writer(name), value);
          if ('value' in same(name, good)) values++;
          const bad = good.slice(0, Math.min(good.length, Math.max(1, cut)));
          for (const [i, b] of muts) if (i < bad.length) bad[i] = b;
          same(name, bad);
        },
      ),
      { numRuns: 150 },
    );
    // the property decoded real values, not only errors
    expect(values).toBeGreaterThan(0);
  });

  test.each(['FileMetaData', 'PageHeader', 'ColumnMetaData', 'SchemaElement', 'ColumnIndex', 'OffsetIndex'])('%s: random bytes', (name) => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
        same(name, b);
      }),
      { numRuns: 1500 },
    );
  });

  test('hand-built cases give the expected errors by name', () => {
    // PageHeader with only type: the first absent required field (by id) is uncompressed_page_size
    const r1 = same('PageHeader', new Uint8Array([0x15, 0x00, 0x00]));
    expect(r1).toMatchObject({ code: 'THRIFT_REQUIRED_FIELD', message: expect.stringContaining('PageHeader.uncompressed_page_size') });
    // FileMetaData.schema as a list of i32: wrong element type, named
    const r2 = same('FileMetaData', new Uint8Array([0x15, 0x02, 0x19, 0x15, 0x02, 0x00]));
    expect(r2).toMatchObject({ code: 'THRIFT_WRONG_TYPE', message: expect.stringContaining('FileMetaData.schema has element type i32, expected struct') });
    // an empty list of the wrong element type is accepted (nothing to misread)
    const r3 = same('OffsetIndex', new Uint8Array([0x19, 0x05, 0x00]));
    expect(r3).toMatchObject({ value: { page_locations: [] } });
    // a negative (long-form) field id is skipped as unknown
    const r4 = same('KeyValue', new Uint8Array([0x18, 0x01, 0x6b, 0x08, 0x01, 0x01, 0x61, 0x00]));
    expect(r4).toMatchObject({ value: { key: 'k' } });
    // lists of booleans are bytes on the wire; a set is accepted where a list is expected
    const r5 = same('ColumnIndex', new Uint8Array([0x1a, 0x21, 0x01, 0x02, 0x19, 0x08, 0x19, 0x08, 0x15, 0x02, 0x00]));
    expect(r5).toMatchObject({ value: { null_pages: [true, false], min_values: [], max_values: [], boundary_order: 1 } });
  });

  test('the reader state after a struct is the same (nested use through CompactReader)', () => {
    const w = new CompactWriter();
    pq.writeKeyValue(w, { key: 'a', value: 'b' });
    pq.writeKeyValue(w, { key: 'c' });
    const bytes = w.finish();
    const r = new CompactReader(new ByteReader(bytes));
    expect(pq.readKeyValue(r)).toEqual({ key: 'a', value: 'b' });
    expect(pq.readKeyValue(r)).toEqual({ key: 'c' });
    expect(r.cur.pos).toBe(bytes.length);
  });
});
