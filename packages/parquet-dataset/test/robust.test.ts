/**
 * Bad input gives ParquetErrors, never a TypeError or RangeError: random byte flips and truncations of a `_metadata`
 * summary and of a data file (fast-check), summaries that do not say which file holds a row group; and local file
 * lists given by path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { ParquetError } from '@parquetry/thrift-compact';
import { field } from '@parquetry/parquet-writer';
import { decodeSummary, encodeSummary, memoryStore, openDataset, summaryFiles, writeDataset } from '../src/index.js';
import { openDataset as openNode } from '../src/node.js';

const codecs = builtinCodecs();
const schema = { id: field.int32({ required: true }), g: field.string(), v: field.double() };
const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, g: ['a', 'b', 'c'][i % 3]!, v: i / 2 }));

async function base(): Promise<Map<string, Uint8Array>> {
  const store = memoryStore();
  await writeDataset(rows, store, { schema, partitionBy: ['g'], maxRowsPerFile: 50, summary: true });
  return store.files;
}

/** Runs a read; returns 'ok' or the ParquetError code, and fails on any other error. */
async function outcome(files: Map<string, Uint8Array>): Promise<string> {
  try {
    const ds = await openDataset(memoryStore(new Map(files)), { codecs });
    await ds.readRows({ filter: { column: 'id', op: '<', value: 120 } });
    for await (const b of ds.iterateBatches({ form: 'columns', batchSize: 33 })) void b;
    return 'ok';
  } catch (e) {
    if (e instanceof ParquetError) return e.code;
    throw e;
  }
}

describe('corrupt input', () => {
  test('byte flips and truncations of _metadata or of a data file: a ParquetError or a correct read', async () => {
    const files = await base();
    const names = [...files.keys()].filter((n) => n !== '_common_metadata');
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), fc.option(fc.nat(), { nil: undefined }), async (name, flips, cut) => {
        const b = new Uint8Array(files.get(name)!);
        for (const [at, x] of flips) b[at % b.length] = b[at % b.length]! ^ x;
        const changed = new Map(files);
        changed.set(name, cut === undefined ? b : b.subarray(0, cut % b.length));
        seen.add(await outcome(changed));
      }),
      { numRuns: 150 },
    );
    // the flips both broke reads (with codes) and left some readable: the property was exercised both ways
    expect(seen.has('ok')).toBe(true);
    expect(seen.size).toBeGreaterThan(2);
  });

  test('a _metadata row group without file_path, or naming two files, is CORRUPT_SUMMARY', async () => {
    const files = await base();
    const meta = await decodeSummary(files.get('_metadata')!);
    const noPath = { ...meta, row_groups: meta.row_groups.map((rg, i) => (i === 1 ? { ...rg, columns: rg.columns.map(({ file_path: _f, ...c }) => c) } : rg)) };
    expect(() => summaryFiles(noPath)).toThrow(expect.objectContaining({ code: 'CORRUPT_SUMMARY' }));
    const two = { ...meta, row_groups: meta.row_groups.map((rg, i) => (i === 0 ? { ...rg, columns: rg.columns.map((c, k) => (k === 1 ? { ...c, file_path: 'other.parquet' } : c)) } : rg)) };
    const changed = new Map(files);
    changed.set('_metadata', encodeSummary(two));
    expect(await outcome(changed)).toBe('CORRUPT_SUMMARY');
  });
});

describe('local files by path', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-paths-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  test('a list of paths: partitions from the paths, rows as from the directory; a missing file is NOT_FOUND', async () => {
    const res = await writeDataset(rows, memoryStore(), { schema, partitionBy: ['g'], maxRowsPerFile: 100 });
    const store = memoryStore();
    await writeDataset(rows, store, { schema, partitionBy: ['g'], maxRowsPerFile: 100 });
    const paths: string[] = [];
    for (const [p, b] of store.files) {
      const full = path.join(dir, ...p.split('/'));
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, b);
      paths.push(full);
    }
    expect(paths.length).toBe(res.files.length);
    const ds = await openNode(paths, { codecs });
    expect(ds.partitions).toEqual([{ name: 'g', type: 'string' }]);
    const byDir = await openNode(dir, { codecs });
    const sort = (r: Record<string, unknown>[]) => [...r].sort((a, b) => (a.id as number) - (b.id as number));
    expect(sort(await ds.readRows())).toEqual(sort(await byDir.readRows()));
    await expect(openNode([path.join(dir, 'nope.parquet')], { codecs })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
