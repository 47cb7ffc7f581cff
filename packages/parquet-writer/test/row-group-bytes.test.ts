// rowGroupBytes holds for wide rows written in one call: the writer checks the limit between slices of rows, and sizes
// each slice from the bytes a row has taken so far, so a slice never carries a row group far past the limit. Before,
// slices were 8,192 rows (65,536 columnar) whatever their bytes: 4,000 rows of 13 KB with rowGroupBytes 1 MiB made
// one 50 MiB row group.
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet } from '../src/index.js';

const codecs = builtinCodecs();
let seed = 1;
/** A string of `n` pseudo-random hex digits (incompressible enough, and never repeated: no dictionary). */
function noise(n: number): string {
  let s = '';
  while (s.length < n) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    s += seed.toString(16).padStart(8, '0');
  }
  return s.slice(0, n);
}

const MiB = 1 << 20;

async function groups(bytes: Uint8Array): Promise<{ rows: number[]; sizes: number[] }> {
  const md = (await openParquet(bytes, { codecs })).metadata;
  return { rows: md.row_groups.map((g) => g.num_rows), sizes: md.row_groups.map((g) => g.total_compressed_size ?? 0) };
}

describe('rowGroupBytes with wide rows in one call', () => {
  const width = 13_000;
  const rows = Array.from({ length: 4_000 }, (_, i) => ({ id: i, s: noise(width) }));
  const schema = { id: field.int32({ required: true }), s: field.string({ required: true }) };

  test('rows: every row group holds about 1 MiB, none more than the limit and one row', async () => {
    const g = await groups(await writeParquet(rows, { schema, rowGroupBytes: MiB, compression: 'UNCOMPRESSED' }));
    expect(g.rows.reduce((a, b) => a + b, 0)).toBe(4_000);
    // 52 MB of strings in 1 MiB groups
    expect(g.rows.length).toBeGreaterThanOrEqual(45);
    for (const size of g.sizes) expect(size).toBeLessThan(MiB + 2 * width + 4096);
  });

  test('columnar input: the same bound', async () => {
    const enc = new TextEncoder();
    const parts = rows.map((r) => enc.encode(r.s));
    const offsets = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
    const data = new Uint8Array(offsets[parts.length]!);
    parts.forEach((p, i) => data.set(p, offsets[i]!));
    const columns = {
      id: { kind: 'leaf', length: rows.length, values: Int32Array.from(rows, (r) => r.id) },
      s: { kind: 'binary', length: rows.length, offsets, data },
    };
    const g = await groups(await writeParquet(columns as never, { schema, rowGroupBytes: MiB, compression: 'UNCOMPRESSED' }));
    expect(g.rows.reduce((a, b) => a + b, 0)).toBe(4_000);
    expect(g.rows.length).toBeGreaterThanOrEqual(45);
    for (const size of g.sizes) expect(size).toBeLessThan(MiB + 2 * width + 4096);
  });

  test('small rows keep whole slices and one row group; a streamed write of wide rows is bounded too', async () => {
    const small = Array.from({ length: 100_000 }, (_, i) => ({ id: i, s: String(i % 10) }));
    expect((await groups(await writeParquet(small, { schema }))).rows).toEqual([100_000]);
    const w = createWriter(memorySink(), { schema, rowGroupBytes: MiB, compression: 'UNCOMPRESSED' });
    for (let k = 0; k < 4; k++) await w.write(rows.slice(k * 1_000, (k + 1) * 1_000));
    const md = await w.close();
    for (const g of md.row_groups) expect(g.total_compressed_size ?? 0).toBeLessThan(MiB + 2 * width + 4096);
  });
});
