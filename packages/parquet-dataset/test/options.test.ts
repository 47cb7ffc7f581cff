/**
 * Every entry point of the package checks its options against its own list before anything is listed, fetched or
 * written: a misspelt name is an error naming it, the nearest name and that entry point's list (not the reader's or
 * the writer's), and a value outside its set is an error naming the option and what it takes.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { errorOf, expectUnknown } from '../../../tools/testing/option-errors.mjs';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { memoryStore, openDataset, urlStore, writeDataset, type DatasetStore, type WritableDatasetStore } from '../src/index.js';
import { directoryStore, openDataset as openLocal } from '../src/node.js';

const codecs = builtinCodecs();

/** A store that fails any request: an options error must come first. */
const untouchable: DatasetStore & WritableDatasetStore = {
  location: 'untouchable/',
  list: () => Promise.reject(new Error('listed')),
  open: () => Promise.reject(new Error('opened')),
  get: () => Promise.reject(new Error('fetched')),
  create: () => Promise.reject(new Error('created')),
};

const OPEN_OWN = ['partitioning', 'schema', 'summary', 'concurrency', 'codecs', 'tailGuess', 'decryption'];
const READ_OWN = ['columns', 'filter', 'rowStart', 'rowEnd', 'limits', 'onScan', 'int64', 'binary'];

async function dataset() {
  const store = memoryStore();
  await writeDataset([{ id: 1, y: 2024 }, { id: 2, y: 2025 }], store, { partitionBy: ['y'], codecs });
  return openDataset(store, { codecs });
}

describe('openDataset', () => {
  test('a misspelt option names the nearest and openDataset list, before the store is listed', async () => {
    const e = await errorOf(() => openDataset(untouchable, { partitoning: false } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquet-dataset: openDataset', 'partitoning', 'partitioning', OPEN_OWN, ['rowGroups', 'columns', 'maxPageValuess']);
    const c = await errorOf(() => openDataset(untouchable, { concurency: 2 } as never));
    expectUnknown(c, 'INVALID_ARGUMENT', 'parquet-dataset: openDataset', 'concurency', 'concurrency', OPEN_OWN, []);
  });

  test.each([
    ['schema', 'unoin', "option 'schema' must be 'union', 'first', a SchemaElement list or a schema tree, got 'unoin'"],
    ['concurrency', -1, "option 'concurrency' must be an integer ≥ 1, got -1"],
    ['concurrency', 1.5, "option 'concurrency' must be an integer ≥ 1, got 1.5"],
    ['partitioning', 'hvie', "option 'partitioning' must be 'hive', false or { types }"],
    ['partitioning', { types: { y: 'int' } }, "option 'partitioning' must be 'hive', false or { types } (a type per key: int32, int64, double, boolean, date, string), got an object"],
    ['partitioning', { type: { y: 'int64' } }, "option 'partitioning' must be 'hive', false or { types }"],
    ['summary', 'yes', "option 'summary' must be true or false, got 'yes'"],
  ])('%s: %j is refused', async (name, value, message) => {
    const e = await errorOf(() => openDataset(untouchable, { [name]: value }));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toContain(`parquet-dataset: openDataset: ${message}`);
  });

  test('the values it takes still open', async () => {
    const store = memoryStore();
    await writeDataset([{ id: 1, y: 2024 }], store, { partitionBy: ['y'], codecs });
    for (const options of [{ schema: 'first' as const, concurrency: 1, partitioning: 'hive' as const }, { partitioning: { types: { y: 'string' as const } }, summary: false }, { partitioning: false as const }]) {
      const ds = await openDataset(store, { codecs, ...options });
      expect((await ds.readRows()).length).toBe(1);
    }
  });

  test('the Node entry checks before looking at local files', async () => {
    const e = await errorOf(() => openLocal(['/no/such/file.parquet'], { partitoning: false } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquet-dataset: openDataset', 'partitoning', 'partitioning', OPEN_OWN, ['rowGroups']);
    const d = await errorOf(() => openLocal('/no/such/dir', { schema: 'unoin' } as never));
    expect(d.message).toContain("parquet-dataset: openDataset: option 'schema' must be");
  });

  test("a file's errors name it below the store's location", async () => {
    const store = memoryStore({ 'x=1/f.parquet': new Uint8Array(64) });
    const e = await errorOf(() => openDataset(store, { codecs }));
    expect(e.message).toContain("(in 'memory/x=1/f.parquet')");
  });
});

describe("a dataset's reads", () => {
  test('readRows: its own list, without rowGroups', async () => {
    const ds = await dataset();
    const e = await errorOf(() => ds.readRows({ filtr: { column: 'id', op: '=', value: 1 } } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquet-dataset: readRows', 'filtr', 'filter', READ_OWN, ['rowGroups', 'batchSize', 'form', 'partitioning']);
    const l = await errorOf(() => ds.readRows({ limt: 1 } as never));
    expectUnknown(l, 'INVALID_ARGUMENT', 'parquet-dataset: readRows', 'limt', undefined, READ_OWN, ['rowGroups']);
    const g = await errorOf(() => ds.readRows({ rowGroups: [0] } as never));
    expectUnknown(g, 'INVALID_ARGUMENT', 'parquet-dataset: readRows', 'rowGroups', undefined, READ_OWN, ['rowGroups']);
    const v = await errorOf(() => ds.readRows({ int64: 'Number' } as never));
    expect([v.code, v.message]).toEqual(['INVALID_ARGUMENT', "parquet-dataset: readRows: option 'int64' must be one of 'bigint', 'number', got 'Number'"]);
  });

  test('iterateRowGroups: its own list', async () => {
    const ds = await dataset();
    const e = await errorOf(() => ds.iterateRowGroups({ colums: ['id'] } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquet-dataset: iterateRowGroups', 'colums', 'columns', READ_OWN, ['rowGroups', 'batchSize']);
    const v = await errorOf(() => ds.iterateRowGroups({ rowStart: -1 }));
    expect([v.code, v.message]).toEqual(['INVALID_ARGUMENT', "parquet-dataset: iterateRowGroups: option 'rowStart' must be an integer ≥ 0, got -1"]);
  });

  test('iterateBatches: its own list, with batchSize and form', async () => {
    const ds = await dataset();
    const e = await errorOf(() => ds.iterateBatches({ batchSise: 1 } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquet-dataset: iterateBatches', 'batchSise', 'batchSize', [...READ_OWN, 'batchSize', 'form'], ['rowGroups', 'batchBytes']);
    const f = await errorOf(() => ds.iterateBatches({ form: 'colums' } as never));
    expect(f.message).toBe("parquet-dataset: iterateBatches: option 'form' must be one of 'rows', 'columns', got 'colums'");
    // a batch of 0 rows (before: a read of partition columns alone never ended)
    const z = await errorOf(() => ds.iterateBatches({ batchSize: 0, columns: ['y'] }));
    expect(z.message).toBe("parquet-dataset: iterateBatches: option 'batchSize' must be an integer ≥ 1 or Infinity, got 0");
    let n = 0;
    for await (const b of ds.iterateBatches({ batchSize: Infinity, columns: ['y'] })) n += b.rows.length;
    expect(n).toBe(2);
  });
});

describe('writeDataset and the stores', () => {
  test('writeDataset: its own list (the writer options but append and encryption), before the store is touched', async () => {
    const e = await errorOf(() => writeDataset([{ a: 1 }], untouchable, { partitonBy: ['a'] } as never));
    expectUnknown(e, 'INVALID_OPTION', 'parquet-dataset: writeDataset', 'partitonBy', 'partitionBy', ['partitionBy', 'maxRowsPerFile', 'maxBytesPerFile', 'summary', 'basename', 'existing', 'compression', 'schema', 'rowGroupRows'], ['append', 'encryption', 'partitioning']);
    const c = await errorOf(() => writeDataset([{ a: 1 }], untouchable, { compresion: 'ZSTD' } as never));
    expectUnknown(c, 'INVALID_OPTION', 'parquet-dataset: writeDataset', 'compresion', 'compression', ['partitionBy', 'compression'], ['append']);
    for (const [name, value, message] of [
      ['existing', 'replace', "option 'existing' must be one of 'error', 'add', got 'replace'"],
      ['maxRowsPerFile', 0, "option 'maxRowsPerFile' must be an integer ≥ 1, got 0"],
      ['partitionBy', 'a', "option 'partitionBy' must be an array of top-level column names, got 'a'"],
      ['summary', 1, "option 'summary' must be true or false, got 1"],
    ] as const) {
      const v = await errorOf(() => writeDataset([{ a: 1 }], untouchable, { [name]: value }));
      expect([v.code, v.message]).toEqual(['INVALID_OPTION', `parquet-dataset: writeDataset: ${message}`]);
    }
    const a = await errorOf(() => writeDataset([{ a: 1 }], untouchable, { append: {} } as never));
    expectUnknown(a, 'INVALID_OPTION', 'parquet-dataset: writeDataset', 'append', undefined, ['partitionBy'], ['append']);
  });

  test('the Node writeDataset checks before creating the directory', async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'pq-opts-')), 'out');
    const { writeDataset: writeLocal } = await import('../src/node.js');
    const e = await errorOf(() => writeLocal([{ a: 1 }], dir, { maxRowsPerFle: 1 } as never));
    expectUnknown(e, 'INVALID_OPTION', 'parquet-dataset: writeDataset', 'maxRowsPerFle', 'maxRowsPerFile', ['maxRowsPerFile'], []);
    await expect(readdir(dir)).rejects.toThrow();
    await rm(path.dirname(dir), { recursive: true });
  });

  test('urlStore and directoryStore', async () => {
    const u = await errorOf(() => urlStore('https://example.com/data/', { tailGess: 10 } as never));
    expectUnknown(u, 'INVALID_OPTION', 'parquet-dataset: urlStore', 'tailGess', 'tailGuess', ['headers', 'fetch', 'tailGuess'], ['codecs', 'timeout']);
    const t = await errorOf(() => urlStore('https://example.com/data/', { tailGuess: 0 }));
    expect(t.message).toBe("parquet-dataset: urlStore: option 'tailGuess' must be an integer ≥ 1, got 0");
    const d = await errorOf(() => directoryStore(os.tmpdir(), { synch: false } as never));
    expectUnknown(d, 'INVALID_OPTION', 'parquet-dataset: directoryStore', 'synch', 'sync', ['sync'], []);
    const s = await errorOf(() => directoryStore(os.tmpdir(), { sync: 'no' } as never));
    expect(s.message).toBe("parquet-dataset: directoryStore: option 'sync' must be true or false, got 'no'");
  });
});

