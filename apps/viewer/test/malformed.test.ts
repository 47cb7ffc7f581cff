/**
 * Malformed input: every file of the corpus's bad_data/, and random byte flips and truncations of good files, either
 * fail to open with a ParquetError or give a layout whose segments still tile the file (what could not be read is
 * in `details.errors` / `layout.problems`) — never a TypeError or RangeError. And the Blob source over Node's Blob.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bufferSource } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { blobSource } from '../src/blob-source.js';
import { loadFileLayout } from '../src/load.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const shared = path.resolve(repo, '../shared/parquet-testing');

async function outcome(bytes: Uint8Array): Promise<'opened' | string> {
  try {
    const { layout } = await loadFileLayout(bufferSource(bytes));
    expect(layout.segments[0]?.start).toBe(0);
    for (let i = 1; i < layout.segments.length; i++) expect(layout.segments[i]!.start).toBe(layout.segments[i - 1]!.end);
    expect(layout.segments.at(-1)?.end).toBe(bytes.length);
    return 'opened';
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return e.code;
  }
}

const badFiles = fs.existsSync(path.join(shared, 'bad_data')) ? fs.readdirSync(path.join(shared, 'bad_data')).filter((f) => f.endsWith('.parquet')) : [];

describe('malformed files', () => {
  test('bad_data is there', () => {
    expect(badFiles.length).toBeGreaterThan(5);
  });

  test.each(badFiles)('bad_data/%s: a ParquetError or a tiling layout', async (name) => {
    const result = await outcome(new Uint8Array(fs.readFileSync(path.join(shared, 'bad_data', name))));
    expect(typeof result).toBe('string');
  });

  test('random byte flips and truncations of good files', async () => {
    const goods = ['alltypes_tiny_pages.parquet', 'data_index_bloom_encoding_stats.parquet', 'nested_structs.rust.parquet', 'datapage_v2.snappy.parquet'].map((f) => new Uint8Array(fs.readFileSync(path.join(shared, 'data', f))));
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: goods.length - 1 }), fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.option(fc.double({ min: 0, max: 1, noNaN: true })), async (k, flips, cut) => {
        const good = goods[k]!;
        const bytes = good.slice(0, cut === null ? good.length : Math.floor(good.length * cut));
        for (const [at, v] of flips) if (bytes.length > 0) bytes[Math.min(bytes.length - 1, Math.floor(at * bytes.length))] = v;
        await outcome(bytes);
      }),
      { numRuns: 150 },
    );
  });
});

describe('blobSource', () => {
  test('reads slices of a Blob; a range outside it is OUT_OF_BOUNDS', async () => {
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 255);
    const src = blobSource(new Blob([data]));
    expect(src.byteLength).toBe(1000);
    expect(await src.read(10, 20)).toEqual(data.subarray(10, 20));
    expect(await src.read(1000, 1000)).toEqual(new Uint8Array(0));
    for (const [a, b] of [[-1, 5], [5, 1001], [6, 5], [0.5, 2]] as const) {
      await expect(src.read(a, b)).rejects.toMatchObject({ name: 'ParquetError', code: 'OUT_OF_BOUNDS' });
    }
  });

  test('a file opened through a Blob has the layout of the same bytes in memory', async () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(repo, 'fixtures/sample/sample.parquet')));
    const a = await loadFileLayout(blobSource(new Blob([bytes])));
    const b = await loadFileLayout(bufferSource(bytes));
    expect(a.layout.segments).toEqual(b.layout.segments);
    expect(a.layout.segments.filter((s) => s.kind === 'data-page' || s.kind === 'dictionary-page')).toHaveLength(11);
  });
});
