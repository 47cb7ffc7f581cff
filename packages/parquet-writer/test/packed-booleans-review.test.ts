// Found in the review of the columnar writer: a leaf vector of packed booleans (`packed: true`, Arrow's one bit per
// slot, what readRowGroupColumns(…, { booleans: 'bits' }) gives) was shredded as if each byte were one value — an
// error for most inputs ("3 leaf values for 20 slots"), other booleans when the bit buffer was longer than needed and
// its bytes all 0 or 1. Now the bits are unpacked: read → writeColumns → read gives the rows back, over several
// 65,536-row slices, for required, optional and list-element booleans; a bit buffer too short is INVALID_VECTOR.
import { openParquet } from '@parquetry/parquet-reader';
import type { LeafVector } from '@parquetry/parquet-levels';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../src/index.js';

const schema = { r: field.boolean({ required: true }), o: field.boolean(), l: field.list(field.boolean()) };

describe('packed boolean vectors as writer input', () => {
  test('read with booleans: bits → writeColumns → the same rows (140,000 rows: three slices)', async () => {
    const rows = Array.from({ length: 140_000 }, (_, i) => ({
      r: (i * 7) % 3 === 0,
      o: i % 5 === 0 ? null : i % 2 === 0,
      l: i % 11 === 0 ? null : Array.from({ length: i % 4 }, (_, j) => ((i + j) % 3 === 0 ? null : (i + j) % 2 === 0)),
    }));
    const f = await openParquet(await writeParquet(rows, { schema, compression: 'UNCOMPRESSED' }));
    const sv = await f.readRowGroupColumns(0, { booleans: 'bits' });
    expect((sv.children[0] as LeafVector).packed).toBe(true);
    const g = await openParquet(await writeParquet(sv, { schema: f.schema, compression: 'UNCOMPRESSED' }));
    expect(await g.readRows()).toEqual(rows);
  }, 60_000);

  test('a bit buffer longer than needed whose bytes are all 0 or 1 gives the bits, not the bytes', async () => {
    // slots 0 and 8 true: bits [1, 1] — read as bytes that would be [true, true, false, …]
    const values = Array.from({ length: 16 }, (_, i) => i === 0 || i === 8);
    const f = await openParquet(await writeParquet(values.map((r) => ({ r })), { schema: { r: field.boolean({ required: true }) }, compression: 'UNCOMPRESSED' }));
    const sv = await f.readRowGroupColumns(0, { booleans: 'bits' });
    const leaf = sv.children[0] as LeafVector;
    const bits = new Uint8Array(64);
    bits.set(leaf.values as Uint8Array);
    expect(Array.from(bits.subarray(0, 2))).toEqual([1, 1]);
    const g = await openParquet(await writeParquet({ r: { ...leaf, values: bits } }, { schema: f.schema, compression: 'UNCOMPRESSED' }));
    expect((await g.readRows()).map((x) => x.r)).toEqual(values);
  });

  test('the same vector written twice with its bits changed in between gives the new booleans', async () => {
    const values = Array.from({ length: 30 }, (_, i) => i % 3 === 0);
    const f = await openParquet(await writeParquet(values.map((r) => ({ r })), { schema: { r: field.boolean({ required: true }) }, compression: 'UNCOMPRESSED' }));
    const leaf = (await f.readRowGroupColumns(0, { booleans: 'bits' })).children[0] as LeafVector;
    const bits = (leaf.values as Uint8Array).slice();
    const vec = { ...leaf, values: bits };
    const first = await openParquet(await writeParquet({ r: vec }, { schema: f.schema, compression: 'UNCOMPRESSED' }));
    expect((await first.readRows()).map((x) => x.r)).toEqual(values);
    for (let i = 0; i < bits.length; i++) bits[i] = ~bits[i]! & 0xff;
    const second = await openParquet(await writeParquet({ r: vec }, { schema: f.schema, compression: 'UNCOMPRESSED' }));
    expect((await second.readRows()).map((x) => x.r)).toEqual(values.map((x) => !x));
  });

  test('fewer bytes than the slots need is INVALID_VECTOR', async () => {
    const f = await openParquet(await writeParquet(Array.from({ length: 20 }, (_, i) => ({ r: i % 2 === 0 })), { schema: { r: field.boolean({ required: true }) }, compression: 'UNCOMPRESSED' }));
    const leaf = (await f.readRowGroupColumns(0, { booleans: 'bits' })).children[0] as LeafVector;
    const err = await writeParquet({ r: { ...leaf, values: new Uint8Array(2) } }, { schema: f.schema, compression: 'UNCOMPRESSED' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isParquetError(err) && err.code).toBe('INVALID_VECTOR');
    expect(String((err as Error).message)).toContain('2 bytes of packed booleans for 20 slots');
  });
});
