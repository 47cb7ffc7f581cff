// The umbrella's entry points check their options against their own lists before opening, loading or writing
// anything: a misspelt name is an error naming it (with the umbrella's function), the nearest name and that entry
// point's list, and a value outside its set is an error naming the option and what it takes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { errorOf, expectUnknown } from '../../../tools/testing/option-errors.mjs';
import { allCodecs, appendParquet, createWriter, memorySink, memoryStore, openDataset, openParquet, readCodecs, writeCodecs, writeDataset, writeParquet, type WritableDatasetStore } from 'parquetry';
import { createFileWriter, openDataset as openLocalDataset, openFile, writeDataset as writeLocalDataset, writeFile } from 'parquetry/node';

const untouchable: WritableDatasetStore & { list(): Promise<never> } = {
  location: 'untouchable/',
  list: () => Promise.reject(new Error('listed')),
  create: () => Promise.reject(new Error('created')),
};
const readable = { location: 'untouchable/', list: () => Promise.reject(new Error('listed')), open: () => Promise.reject(new Error('opened')), get: () => Promise.reject(new Error('fetched')) };

describe('codec presets', () => {
  test.each([
    ['allCodecs', 'INVALID_OPTION', () => allCodecs({ zstdLvl: 3 } as never), ['gzipLevel', 'zstdLevel', 'brotliQuality'], ['zstdWasm']],
    ['readCodecs', 'INVALID_ARGUMENT', () => readCodecs({ zstdLvl: 3 } as never), ['gzipLevel', 'zstdLevel', 'brotliQuality', 'zstdWasm'], []],
    ['writeCodecs', 'INVALID_OPTION', () => writeCodecs({ zstdLvl: 3 } as never), ['gzipLevel', 'zstdLevel', 'brotliQuality', 'zstdWasm'], []],
  ] as const)('%s: its own list', async (where, code, run, takes, notTaken) => {
    expectUnknown(await errorOf(run), code, `parquetry: ${where}`, 'zstdLvl', 'zstdLevel', takes, notTaken);
  });

  test('values of the wrong kind', async () => {
    const l = await errorOf(() => writeCodecs({ gzipLevel: '9' } as never));
    expect([l.code, l.message]).toEqual(['INVALID_OPTION', "parquetry: writeCodecs: option 'gzipLevel' must be an integer, got '9'"]);
    const w = await errorOf(() => readCodecs({ zstdWasm: 42 } as never));
    expect([w.code, w.message]).toEqual(['INVALID_ARGUMENT', "parquetry: readCodecs: option 'zstdWasm' must be a URL (a string or a URL) or the bytes (an ArrayBuffer or a Uint8Array), got 42"]);
    expect(() => readCodecs({ zstdWasm: new URL('https://example.com/zstd.wasm'), zstdLevel: 3 })).not.toThrow();
  });
});

describe('files', () => {
  test('openParquet and openFile: the reader open options', async () => {
    const e = await errorOf(() => openParquet(new Uint8Array(0), { tailGess: 8 } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquetry: openParquet', 'tailGess', 'tailGuess', ['codecs', 'tailGuess', 'decryption'], ['columns', 'partitioning']);
    const f = await errorOf(() => openFile('/no/such/file.parquet', { codec: {} } as never));
    expectUnknown(f, 'INVALID_ARGUMENT', 'parquetry: openFile', 'codec', 'codecs', ['codecs'], ['sync']);
  });

  test('writeParquet, createWriter, appendParquet: the writer options (appendParquet without append)', async () => {
    const e = await errorOf(() => writeParquet([{ a: 1 }], { compresion: 'ZSTD' } as never));
    expectUnknown(e, 'INVALID_OPTION', 'parquetry: writeParquet', 'compresion', 'compression', ['compression', 'append', 'schema'], ['partitionBy', 'sync']);
    const c = await errorOf(() => createWriter(memorySink(), { rowGroupRow: 1 } as never));
    expectUnknown(c, 'INVALID_OPTION', 'parquetry: createWriter', 'rowGroupRow', 'rowGroupRows', ['rowGroupRows'], []);
    const bytes = await writeParquet([{ a: 1 }]);
    const a = await errorOf(() => appendParquet(bytes, [{ a: 2 }], { append: {} } as never));
    expectUnknown(a, 'INVALID_OPTION', 'parquetry: appendParquet', 'append', undefined, ['compression'], ['append']);
    const v = await errorOf(() => writeParquet([{ a: 1 }], { checksum: 'yes' } as never));
    expect(v.message).toBe("parquetry: writeParquet: option 'checksum' must be true or false, got 'yes'");
  });

  test('writeFile and createFileWriter: the writer options but append, and sync; nothing created', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-umbrella-opts-'));
    try {
      const e = await errorOf(() => writeFile(path.join(dir, 'a.parquet'), [{ a: 1 }], { synch: false } as never));
      expectUnknown(e, 'INVALID_OPTION', 'parquetry: writeFile', 'synch', 'sync', ['sync', 'compression'], ['append']);
      const c = await errorOf(() => createFileWriter(path.join(dir, 'b.parquet'), { sync: 'no' } as never));
      expect(c.message).toBe("parquetry: createFileWriter: option 'sync' must be true or false, got 'no'");
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('datasets', () => {
  test('openDataset (both entries): the dataset options, before the store or the files are looked at', async () => {
    const e = await errorOf(() => openDataset(readable, { partitoning: false } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'parquetry: openDataset', 'partitoning', 'partitioning', ['partitioning', 'schema', 'summary', 'concurrency', 'codecs'], ['rowGroups', 'columns']);
    const s = await errorOf(() => openDataset(readable, { schema: 'unoin' } as never));
    expect(s.message).toContain("parquetry: openDataset: option 'schema' must be 'union', 'first'");
    const n = await errorOf(() => openLocalDataset(['/no/such/file.parquet'], { concurrency: 0 }));
    expect([n.code, n.message]).toEqual(['INVALID_ARGUMENT', "parquetry: openDataset: option 'concurrency' must be an integer ≥ 1, got 0"]);
  });

  test('writeDataset (both entries): the dataset writer options, before any codec is loaded or the store touched', async () => {
    const e = await errorOf(() => writeDataset([{ a: 1 }], untouchable, { partitonBy: ['a'], compression: 'BROTLI' } as never));
    expectUnknown(e, 'INVALID_OPTION', 'parquetry: writeDataset', 'partitonBy', 'partitionBy', ['partitionBy', 'compression', 'maxRowsPerFile'], ['append', 'encryption']);
    const n = await errorOf(() => writeLocalDataset([{ a: 1 }], '/no/such/dir', { existing: 'replace' } as never));
    expect([n.code, n.message]).toEqual(['INVALID_OPTION', "parquetry: writeDataset: option 'existing' must be one of 'error', 'add', got 'replace'"]);
  });

  test('the options they take still work', async () => {
    const store = memoryStore();
    await writeDataset([{ a: 1, y: 1 }], store, { partitionBy: ['y'], compression: 'ZSTD' });
    expect(await (await openDataset(store, { concurrency: 2, partitioning: 'hive' })).readRows()).toEqual([{ a: 1, y: 1n }]);
  });
});
