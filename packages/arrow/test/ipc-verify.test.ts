// The structural check of `ARROW:schema` messages (src/ipc-verify.ts): messages apache-arrow writes pass and read back;
// every one-byte damage of such a message is either read or refused as INVALID_ARROW_SCHEMA, promptly (before the check,
// the fuzzer's `arrow` entry found damaged values that made apache-arrow's reader loop until the process ran out of
// memory); the bounds on vector lengths, nesting depth and table visits each refuse what passes them; and a file whose
// stored schema is refused is still read, with the types its Parquet schema gives.
import {
  Binary,
  Bool,
  Dictionary,
  Field,
  FixedSizeBinary,
  Float64,
  Int32,
  Int64,
  List,
  Map_,
  Schema,
  Struct,
  TimeUnit,
  Timestamp,
  Utf8,
  type DataType,
} from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { ARROW_SCHEMA_KEY, arrowSchemaOf, decodeArrowSchema, encodeArrowSchema } from '../src/index.js';
import { verifyIpcSchema } from '../src/ipc-verify.js';

const md = (entries: Record<string, string>): Map<string, string> => new Map(Object.entries(entries));

/** A schema touching every table the check walks: nesting, a dictionary, a time zone, key/value metadata at both levels. */
function richSchema(): Schema {
  const point = new Struct([new Field('x', new Float64(), false), new Field('y', new Float64(), true)]);
  return new Schema(
    [
      new Field('id', new Int64(), false, md({ 'PARQUET:field_id': '1' })),
      new Field('name', new Utf8(), true),
      new Field('ts', new Timestamp(TimeUnit.MICROSECOND, 'Europe/Paris'), true),
      new Field('category', new Dictionary(new Utf8(), new Int32(), 7, true), true),
      new Field('tags', new List(new Field('item', new Utf8(), true)), true),
      new Field('points', new List(new Field('item', point, true)), true),
      new Field('attrs', new Map_(new Field('entries', new Struct([new Field('key', new Utf8(), false), new Field('value', new Int32(), true)]), false) as never), true),
      new Field('digest', new FixedSizeBinary(16), true),
      new Field('blob', new Binary(), true),
      new Field('flag', new Bool(), true),
    ],
    md({ origin: 'ipc-verify test', 'pandas-ish': '{"a": 1}' }),
  );
}

/** The message bytes of an `ARROW:schema` value. */
function messageOf(schema: Schema): Uint8Array {
  return Uint8Array.from(atob(encodeArrowSchema(schema)), (c) => c.charCodeAt(0));
}

const toValue = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** Struct fields nested `depth` deep around one Int32. */
function nested(depth: number): Schema {
  let f: Field = new Field('leaf', new Int32(), true);
  for (let i = 0; i < depth; i++) f = new Field(`s${i}`, new Struct([f]), true);
  return new Schema([f]);
}

/** The code of what `f` throws, or 'ok'. */
function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? `not a ParquetError: ${String(e)}`;
  }
}

describe('messages apache-arrow writes', () => {
  test('pass the check and read back with every field, type and metadata entry', () => {
    const schema = richSchema();
    const bytes = messageOf(schema);
    expect(() => verifyIpcSchema(bytes)).not.toThrow();
    const back = decodeArrowSchema(toValue(bytes));
    expect(back.fields.map((f) => `${f.name}: ${String(f.type as DataType)} ${f.nullable}`)).toEqual(schema.fields.map((f) => `${f.name}: ${String(f.type as DataType)} ${f.nullable}`));
    expect([...back.metadata]).toEqual([...schema.metadata]);
    expect(back.fields[0]!.metadata.get('PARQUET:field_id')).toBe('1');
    expect((back.fields[2]!.type as Timestamp).timezone).toBe('Europe/Paris');
    expect((back.fields[3]!.type as Dictionary).id).toBe(7);
  });

  test('nested 120 structs deep pass (the bound is 128 tables, as Arrow C++ verifies)', () => {
    const back = decodeArrowSchema(encodeArrowSchema(nested(120)));
    let f = back.fields[0]!;
    let depth = 0;
    while (f.type instanceof Struct) {
      f = f.type.children[0]!;
      depth++;
    }
    expect([depth, f.name]).toEqual([120, 'leaf']);
  });
});

describe('damaged messages', () => {
  test('every byte of a message set to 0x00, 0xff, 0x7f, 0x80 or flipped: read or INVALID_ARROW_SCHEMA, never a hang or another error', () => {
    const bytes = messageOf(richSchema());
    const seen = new Map<string, number>();
    const t0 = performance.now();
    for (let i = 0; i < bytes.length; i++) {
      for (const v of [0x00, 0xff, 0x7f, 0x80, bytes[i]! ^ 0x01, bytes[i]! ^ 0x40]) {
        const damaged = bytes.slice();
        damaged[i] = v;
        const r = outcome(() => decodeArrowSchema(toValue(damaged)));
        seen.set(r, (seen.get(r) ?? 0) + 1);
      }
    }
    expect([...seen.keys()].sort()).toEqual(['INVALID_ARROW_SCHEMA', 'ok']);
    // both outcomes are common: bytes of names and scalars read, offsets and lengths refused
    expect(seen.get('ok')!).toBeGreaterThan(bytes.length);
    expect(seen.get('INVALID_ARROW_SCHEMA')!).toBeGreaterThan(bytes.length);
    // about 6 x 1,000 reads: a few milliseconds each at most
    expect(performance.now() - t0).toBeLessThan(60_000);
  });

  test('a vector length of 2^31 - 1 is refused by the check, naming the vector', () => {
    // the fields vector's count (3) is the only aligned u32 equal to 3 whose change the check reports as Schema.fields
    const bytes = messageOf(new Schema([new Field('a', new Int32()), new Field('b', new Int32()), new Field('c', new Int32())]));
    const dv = new DataView(bytes.buffer);
    const messages: string[] = [];
    for (let at = 8; at + 4 <= bytes.length; at += 4) {
      if (dv.getUint32(at, true) !== 3) continue;
      const damaged = bytes.slice();
      new DataView(damaged.buffer).setUint32(at, 0x7fffffff, true);
      try {
        verifyIpcSchema(damaged);
      } catch (e) {
        messages.push((e as Error).message);
      }
    }
    expect(messages.some((m) => m.startsWith('Schema.fields vector of 2147483647 elements runs past the end'))).toBe(true);
    expect(() => decodeArrowSchema(toValue(bytes))).not.toThrow();
  });

  test('a metadata length past the message, a message under 8 bytes and a header other than a Schema are refused', () => {
    const bytes = messageOf(richSchema());
    const long = bytes.slice();
    new DataView(long.buffer).setUint32(4, bytes.length, true);
    expect(() => verifyIpcSchema(long)).toThrow(/metadata length of \d+ bytes where \d+ follow/);
    expect(() => verifyIpcSchema(bytes.subarray(0, 7))).toThrow(/a message of 7 bytes/);
    expect(outcome(() => decodeArrowSchema(toValue(bytes.subarray(0, 7))))).toBe('INVALID_ARROW_SCHEMA');
  });

  test('tables nested past 128 are refused (130 structs: 132 tables with the Message and the Schema)', () => {
    const bytes = messageOf(nested(130));
    expect(() => verifyIpcSchema(bytes)).toThrow(/tables nested more than 128 deep/);
    expect(outcome(() => decodeArrowSchema(toValue(bytes)))).toBe('INVALID_ARROW_SCHEMA');
  });

  test('tables shared by many offsets count at every visit: fields whose children repeat one field 16 times, 10 deep, are refused', () => {
    // 16^9 visits from under 1 KB; the same shape with 1 child per field is 10 visits and passes
    expect(() => verifyIpcSchema(sharedChildren(1, 10))).not.toThrow();
    const shared = sharedChildren(16, 10);
    expect(shared.length).toBeLessThan(1024);
    expect(() => verifyIpcSchema(shared)).toThrow(/more table visits than the message's size allows/);
  });
});

/**
 * A hand-made message: Message -> Schema -> one top field F0; field Fi's children vector holds `k` offsets, all of
 * them to F(i+1), down to F(d-1), which has no children.
 */
function sharedChildren(k: number, d: number): Uint8Array {
  const buf = new Uint8Array(256 + d * (16 + 4 * k));
  const dv = new DataView(buf.buffer);
  let at = 4;
  const alloc = (n: number): number => {
    const p = at;
    at += (n + 3) & ~3;
    return p;
  };
  // a vtable: its size, the table's size, then each slot's field offset (0: absent)
  const vtable = (tsize: number, slots: number[]): number => {
    const p = alloc(4 + 2 * slots.length);
    dv.setUint16(p, 4 + 2 * slots.length, true);
    dv.setUint16(p + 2, tsize, true);
    slots.forEach((o, i) => dv.setUint16(p + 4 + 2 * i, o, true));
    return p;
  };
  const table = (vt: number, tsize: number): number => {
    const p = alloc(tsize);
    dv.setInt32(p, p - vt, true);
    return p;
  };
  const ref = (from: number, to: number): void => dv.setUint32(from, to - from, true);
  const vMessage = vtable(12, [0, 4, 8]); // header_type at +4, header at +8
  const vSchema = vtable(8, [0, 4]); // fields at +4
  const vField = vtable(8, [0, 0, 0, 0, 0, 4]); // children at +4
  const vLeaf = vtable(4, []);
  const message = table(vMessage, 12);
  dv.setUint32(0, message, true);
  buf[message + 4] = 1;
  const schema = table(vSchema, 8);
  ref(message + 8, schema);
  // offsets point forward only: each field, then its children vector, then the next field
  const top = alloc(8);
  dv.setUint32(top, 1, true);
  ref(schema + 4, top);
  let field = table(vField, 8);
  ref(top + 4, field);
  for (let i = 1; i < d; i++) {
    const v = alloc(4 + 4 * k);
    const next = table(i < d - 1 ? vField : vLeaf, i < d - 1 ? 8 : 4);
    dv.setUint32(v, k, true);
    for (let j = 0; j < k; j++) ref(v + 4 + 4 * j, next);
    ref(field + 4, v);
    field = next;
  }
  return frame(buf.subarray(0, at));
}

/** A flatbuffer framed as an IPC message: continuation token, length, bytes. */
function frame(flatbuffer: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + flatbuffer.length);
  new DataView(out.buffer).setUint32(0, 0xffffffff, true);
  new DataView(out.buffer).setUint32(4, flatbuffer.length, true);
  out.set(flatbuffer, 8);
  return out;
}

describe('a file whose stored schema is refused', () => {
  test('is read with the types of its Parquet schema', async () => {
    const bytes = messageOf(nested(130));
    const file = await writeParquet([{ id: 1n }, { id: 2n }], { schema: { id: field.int64() }, keyValueMetadata: { [ARROW_SCHEMA_KEY]: toValue(bytes) } });
    const f = await openParquet(file);
    expect(String(arrowSchemaOf(f))).toBe(String(new Schema([new Field('id', new Int64(), true)])));
  });
});
