/**
 * emptyColumnarValues against the reader: for every kind of leaf column the writer makes (each physical type under
 * each logical annotation it writes) and every combination of the options that choose a columnar value form, a real
 * all-null column read with `readRowGroupColumns` comes out in the container emptyColumnarValues gives (same class,
 * same length, same contents: zeros, nulls, zero offsets).
 */
import { describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import type { ColumnarVector } from '@parquetry/parquet-levels';
import { field, writeParquet, type FieldSpec } from '../../parquet-writer/src/index.js';
import { openParquet } from '../../parquet-reader/src/index.js';
import { emptyColumnarValues, type ColumnarFormOptions, type ColumnarValuesForm } from '../src/index.js';

/** One optional leaf of every physical type × annotation the writer writes. */
const columns: Record<string, FieldSpec> = {
  boolean: field.boolean(),
  int32: field.int32(),
  int64: field.int64(),
  float: field.float(),
  double: field.double(),
  string: field.string(),
  binary: field.binary(),
  json: field.json(),
  bson: field.bson(),
  enum: field.enum(),
  uuid: field.uuid(),
  float16: field.float16(),
  date: field.date(),
  interval: field.interval(),
  int96: field.int96(),
  i8: field.int(8, true),
  u8: field.int(8, false),
  i16: field.int(16, true),
  u16: field.int(16, false),
  i32: field.int(32, true),
  u32: field.int(32, false),
  i64: field.int(64, true),
  u64: field.int(64, false),
  dec32: field.decimal(7, 2, { physical: 'int32' }),
  dec64: field.decimal(15, 3, { physical: 'int64' }),
  decFixed: field.decimal(20, 4, { physical: 'fixed' }),
  decBinary: field.decimal(30, 5, { physical: 'binary' }),
  tsMillis: field.timestamp('millis'),
  tsMicros: field.timestamp('micros', { utc: false }),
  tsNanos: field.timestamp('nanos'),
  timeMillis: field.time('millis'),
  timeMicros: field.time('micros'),
  timeNanos: field.time('nanos'),
  fixed: field.fixed(5),
  geometry: field.geometry(),
  geography: field.geography(),
};

/** Every combination of the options that decide a leaf's columnar form (2^9 = 512). */
function allOptions(): ColumnarFormOptions[] {
  const axes: [keyof ColumnarFormOptions, readonly string[]][] = [
    ['booleans', ['values', 'bits']],
    ['integers', ['number', 'typed']],
    ['binary', ['vector', 'values']],
    ['int64', ['bigint', 'number']],
    ['timestamps', ['bigint', 'date']],
    ['dates', ['number', 'date']],
    ['decimals', ['string', 'number']],
    ['strings', ['string', 'bytes']],
    ['values', ['native', 'json']],
  ];
  let out: Record<string, string>[] = [{}];
  for (const [k, vs] of axes) out = out.flatMap((o) => vs.map((v) => ({ ...o, [k]: v })));
  return out as ColumnarFormOptions[];
}

/** A vector's values as a comparable description: the container kind, its class, and its contents. */
function describeVector(v: ColumnarVector): unknown {
  if (v.kind === 'binary') return { form: 'binary', offsets: Array.from(v.offsets), bytes: v.data.length };
  if (v.kind !== 'leaf') throw new Error(`a leaf expected, got ${v.kind}`);
  if (v.packed) return { form: 'bits', bytes: Array.from(v.values as Uint8Array).slice(0, (v.length + 7) >> 3) };
  return { form: 'values', class: v.values.constructor.name, values: Array.from(v.values) };
}

/** The same description of emptyColumnarValues' container. */
function describeForm(v: ColumnarValuesForm): unknown {
  if ('offsets' in v) return { form: 'binary', offsets: Array.from(v.offsets), bytes: v.data.length };
  if ('bits' in v) return { form: 'bits', bytes: Array.from(v.bits) };
  return { form: 'values', class: v.constructor.name, values: Array.from(v) };
}

describe('emptyColumnarValues', () => {
  test('gives the container a columnar read of an all-null column gives, for every column kind and option', async () => {
    const rows = 11; // not a multiple of 8: the packed bits' last byte is partial
    const bytes = await writeParquet(Array.from({ length: rows }, () => ({})), { schema: columns });
    const file = await openParquet(bytes, { codecs: builtinCodecs() });
    const tree = file.schema;
    const seen = new Set<string>();
    for (const options of allOptions()) {
      const v = await file.readRowGroupColumns(0, options);
      expect(v.children.length).toBe(Object.keys(columns).length);
      for (const child of v.children) {
        const f = child.field;
        if (f.kind !== 'leaf') throw new Error('a leaf expected');
        const column = tree.columns[f.column]!;
        const mine = emptyColumnarValues(column, rows, options);
        expect(describeForm(mine), `${column.pathString} under ${JSON.stringify(options)}`).toEqual(describeVector(child));
        const d = describeVector(child) as { form: string; class?: string };
        seen.add(d.class ?? d.form);
      }
    }
    // the test reaches every kind of container
    expect([...seen].sort()).toEqual(
      ['Array', 'BigInt64Array', 'BigUint64Array', 'Float32Array', 'Float64Array', 'Int16Array', 'Int32Array', 'Int8Array', 'Uint16Array', 'Uint32Array', 'Uint8Array', 'binary', 'bits'].sort(),
    );
  });
});
