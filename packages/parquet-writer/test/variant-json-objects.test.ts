// VARIANT columns written from JSON data: a plain object is a Variant object whatever its keys, so
// {"type":"decimal","value":"12.5"} and {"type":"uuid","value":"…"} are written as objects of two keys, read back as such
// by our reader and by DuckDB, unshredded and shredded (before the fix they were written as a decimal and a UUID).
// Only the writer's public API is used, so these tests run against the code before the fix too.
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import { field, type FieldSpec } from '../src/index.js';
import { codecs, UUID, variantFiles } from './variant-peer.js';

const { write, duck } = variantFiles('parquet-writer-variant-json-');

describe('JSON objects shaped like typed values are written as objects', () => {
  const json = [`{"type":"decimal","value":"12.5"}`, `{"type":"uuid","value":"${UUID}"}`];
  const schemas: [string, FieldSpec][] = [
    ['unshredded', field.variant()],
    ['shredded as a decimal', field.variant({ shredding: field.decimal(9, 1) })],
    ['shredded as a uuid', field.variant({ shredding: field.uuid() })],
    ['shredded as an object of type and value', field.variant({ shredding: field.struct({ type: field.string(), value: field.string() }) })],
  ];
  test.each(schemas)('%s: our reader and DuckDB read objects of two keys', async (_name, spec) => {
    const values = json.map((j) => JSON.parse(j) as Record<string, unknown>);
    const { bytes, file } = await write(values.map((v) => ({ v })), { v: spec });
    const back = (await (await openParquet(bytes, { codecs })).readRows()).map((r) => r['v']);
    expect(back).toEqual(values);
    expect(back.map((v) => Object.getPrototypeOf(v) === Object.prototype)).toEqual([true, true]); // not typed values
    const d = await duck(file);
    expect(d.map((r) => r.t)).toEqual(['OBJECT(type, value)', 'OBJECT(type, value)']);
    expect(d.map((r) => JSON.parse(r.j) as unknown)).toEqual(values);
  });
});
