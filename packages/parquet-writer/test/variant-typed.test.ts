// VARIANT typed values: branded values (the factories, or values as the reader returns them) are written as their
// Variant types (DuckDB agrees), and every typed type round-trips write → read → write, shredded or not, with the same
// bytes. (Plain objects of the same shapes: variant-json-objects.test.ts.)
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import {
  field,
  isVariantTyped,
  variantDate,
  variantDecimal,
  variantTime,
  variantTimestamp,
  variantUuid,
  type FieldSpec,
  type VariantValue,
} from '../src/index.js';
import { codecs, UUID, variantFiles } from './variant-peer.js';

const { write, duck, conn } = variantFiles('parquet-writer-variant-typed-');

async function readBack(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  return (await openParquet(bytes, { codecs })).readRows();
}

/** `v` with typed values marked by an enumerable key, so `toEqual` tells a typed value from a plain object. */
const marked = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(marked);
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return v;
  const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marked(x)]));
  return isVariantTyped(v) ? { typed: o } : { object: o };
};

describe('typed values', () => {
  // [name, value, DuckDB's variant_typeof unshredded / shredded, a shredding that takes the value as typed_value]
  const typed: [string, VariantValue, string, string, FieldSpec][] = [
    ['date', variantDate(19000), 'DATE', 'DATE', field.date()],
    ['timestamp us utc', variantTimestamp(1_700_000_000_123_456n), 'TIMESTAMP_MICROS_TZ', 'TIMESTAMP_MICROS_TZ', field.timestamp('micros')],
    ['timestamp us ntz', variantTimestamp(-5n, 'us', false), 'TIMESTAMP_MICROS', 'TIMESTAMP_MICROS', field.timestamp('micros', { utc: false })],
    // DuckDB 1.5 has no nanosecond timestamp with time zone: it reads Variant type 18 as its microsecond one
    ['timestamp ns utc', variantTimestamp(1_700_000_000_123_456_789n, 'ns', true), 'TIMESTAMP_MICROS_TZ', 'TIMESTAMP_MICROS_TZ', field.timestamp('nanos')],
    ['timestamp ns ntz', variantTimestamp(7n, 'ns', false), 'TIMESTAMP_NANOS', 'TIMESTAMP_NANOS', field.timestamp('nanos', { utc: false })],
    ['time', variantTime(3_600_000_000n), 'TIME_MICROS', 'TIME_MICROS', field.time('micros')],
    ['uuid', variantUuid(UUID), 'UUID', 'UUID', field.uuid()],
    // unshredded: the smallest decimal that holds it; shredded: the typed_value column's DECIMAL(9, 2)
    ['decimal', variantDecimal('-12.50'), 'DECIMAL(4, 2)', 'DECIMAL(9, 2)', field.decimal(9, 2)],
  ];

  test.each(typed)('%s: written as the Variant type (DuckDB agrees); write → read → write keeps it, unshredded and shredded', async (_name, value, duckType, duckShredded, shredding) => {
    const rows = [{ v: value, s: value, o: { x: value, y: [value] } }];
    const schema = {
      v: field.variant(),
      s: field.variant({ shredding }),
      o: field.variant({ shredding: field.struct({ x: shredding, y: field.list(shredding) }) }),
    };
    const first = await write(rows, schema);
    const back = await readBack(first.bytes);
    expect(marked(back)).toEqual(marked(rows));
    const second = await write(back, schema);
    const again = await readBack(second.bytes);
    expect(marked(again)).toEqual(marked(rows));
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    for (const file of [first.file, second.file]) {
      const r = await conn().runAndReadAll(
        `select variant_typeof(v) as v, variant_typeof(s) as s, variant_typeof(variant_extract(o, 'x')) as x from read_parquet('${file}')`,
      );
      expect(r.getRowObjectsJson()).toEqual([{ v: duckType, s: duckShredded, x: duckShredded }]);
    }
  });
});
