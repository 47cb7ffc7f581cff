// The reader's options are checked before anything is read: a misspelt name (`colums`, `limt`) or a value outside
// its set (`timestamps: 'Date'`, `rowStart: -5`) is INVALID_ARGUMENT naming it — before, each was ignored and the read
// returned every column, every row, or the default mapping without a word. Valid options read as before.
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { fetchSource, openParquet, type ParquetFile } from '../src/index.js';

const rows = Array.from({ length: 50 }, (_, i) => ({ id: BigInt(i), ts: BigInt(i) * 1000n, s: `s${i}` }));
let file: ParquetFile;
const open = async () =>
  (file ??= await openParquet(
    await writeParquet(rows, { schema: { id: field.int64({ required: true }), ts: field.timestamp('micros'), s: field.string() }, compression: 'UNCOMPRESSED' }),
  ));

const rejects = async (p: () => Promise<unknown>, message: string | RegExp) => {
  const err = await p().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ name: 'ParquetError', code: 'INVALID_ARGUMENT' });
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
};

describe('read options', () => {
  test('a misspelt name: the nearest option, not a read of everything', async () => {
    const f = await open();
    await rejects(() => f.readRows({ colums: ['id'] } as never), /^parquet-reader: options of a read: unknown option 'colums' \(did you mean 'columns'\?\); it takes columns, rowGroups, rowStart, rowEnd, /);
    await rejects(() => f.readRows({ limt: 2 } as never), /unknown option 'limt'; it takes /);
    await rejects(() => f.readRowGroupColumns(0, { rowsEnd: 3 } as never), /unknown option 'rowsEnd' \(did you mean 'rowEnd'\?\)/);
    await rejects(async () => {
      for await (const _ of f.iterateRowGroups({ columns: ['id'], filter: { column: 'id', op: '=', value: 1n }, prunes: false } as never)) void _;
    }, /unknown option 'prunes' \(did you mean 'prune'\?\)/);
    await rejects(async () => {
      for await (const _ of f.iterateBatches({ batchsize: 10 } as never)) void _;
    }, /unknown option 'batchsize' \(did you mean 'batchSize'\?\)/);
    await rejects(() => f.statistics(0, 'id', { value: 'json' } as never), /^parquet-reader: statistics: unknown option 'value' \(did you mean 'values'\?\)/);
  });

  test('a value outside its set', async () => {
    const f = await open();
    await rejects(() => f.readRows({ timestamps: 'Date' } as never), "parquet-reader: options of a read: option 'timestamps' must be one of 'bigint', 'date', got 'Date'");
    await rejects(() => f.readRows({ values: 'JSON' } as never), /option 'values' must be one of 'native', 'json', got 'JSON'/);
    await rejects(() => f.readRows({ rowStart: -5 }), /option 'rowStart' must be an integer ≥ 0, got -5/);
    await rejects(() => f.readRows({ rowEnd: '3' } as never), /option 'rowEnd' must be an integer ≥ 0, got '3'/);
    await rejects(() => f.readRows({ prune: 'no' } as never), /option 'prune' must be true, false or an object of \{ statistics, dictionary, bloom, pageIndex \}, each true or false, got 'no'/);
    await rejects(() => f.readRows({ prune: { bloomFilter: false } } as never), "parquet-reader: options of a read: option 'prune' must be true, false or an object of { statistics, dictionary, bloom, pageIndex }, each true or false, got an object");
    await rejects(() => f.readRows({ prune: { bloom: 'no' } } as never), /option 'prune' must be true, false or an object of/);
    await rejects(
      () => f.readRows({ limits: { maxRow: 1 } } as never),
      "parquet-reader: options of a read: option 'limits' must be an object of { maxRows, maxValues, maxBytes }, got an object",
    );
    await rejects(() => f.readRows({ onScan: true } as never), /option 'onScan' must be a function, got true/);
    await rejects(() => f.readRowGroupColumns(0, { booleans: 'bit' } as never), /option 'booleans' must be one of 'values', 'bits', got 'bit'/);
    await rejects(async () => {
      for await (const _ of f.iterateBatches({ batchSize: 0 })) void _;
    }, /^parquet-reader: batchSize must be a positive integer, got 0$/);
    await rejects(async () => {
      for await (const _ of f.iterateBatches({ form: 'column' } as never)) void _;
    }, /option 'form' must be one of 'rows', 'columns', got 'column'/);
  });

  test('valid options read as before', async () => {
    const f = await open();
    expect(await f.readRows({ columns: ['id'], rowStart: 2, rowEnd: 4, timestamps: 'date', prune: { bloom: false }, limits: { maxRows: 100 }, values: 'native', rowStart2: undefined } as never).catch((e: Error) => e.message)).toMatch(
      /unknown option 'rowStart2'/,
    );
    expect(await f.readRows({ columns: ['id'], rowStart: 2, rowEnd: 4, timestamps: 'date', prune: { bloom: false }, limits: { maxRows: 100 }, values: 'native' })).toEqual([{ id: 2n }, { id: 3n }]);
    expect(await f.readRows({ columns: ['ts'], rowEnd: 1, timestamps: 'date' })).toEqual([{ ts: new Date(0) }]);
    let batches = 0;
    for await (const b of f.iterateBatches({ batchSize: 20, form: 'rows', prune: true })) batches += b.rows.length > 0 ? 1 : 0;
    expect(batches).toBe(3);
  });
});

describe('openParquet and fetchSource options', () => {
  test('openParquet: a misspelt name or a wrong value', async () => {
    const bytes = await writeParquet(rows.slice(0, 3), { schema: { id: field.int64({ required: true }) }, compression: 'UNCOMPRESSED' });
    await rejects(() => openParquet(bytes, { verifyChecksum: false } as never), /^parquet-reader: openParquet: unknown option 'verifyChecksum' \(did you mean 'verifyChecksums'\?\)/);
    await rejects(() => openParquet(bytes, { decription: {} } as never), /unknown option 'decription' \(did you mean 'decryption'\?\)/);
    await rejects(() => openParquet(bytes, { tailGuess: -1 }), "parquet-reader: openParquet: option 'tailGuess' must be an integer ≥ 1, got -1");
    await rejects(() => openParquet(bytes, { limits: { maxByte: 10 } } as never), /^parquet-reader: openParquet: option 'limits' must be an object of \{ maxRows, maxValues, maxBytes \}/);
    await rejects(() => openParquet(bytes, { limits: { maxBytes: 0 } }), /^parquet-column: limits.maxBytes must be a positive number \(Infinity for no limit\), got 0$/);
    // decryption properties are checked when a file needs them (the decryption code loads then)
    expect((await openParquet(bytes, { verifyChecksums: false, tailGuess: 8, limits: { maxBytes: Infinity } })).metadata.num_rows).toBe(3);
  });

  test('fetchSource: a misspelt name is INVALID_OPTION, before any request', async () => {
    let requests = 0;
    const fetch = (async () => {
      requests++;
      return new Response(null, { status: 500 });
    }) as typeof globalThis.fetch;
    const err = await fetchSource('http://localhost/x.parquet', { fetch, retrys: 0 } as never).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INVALID_OPTION', message: "parquet-reader: fetchSource: unknown option 'retrys' (did you mean 'retries'?); it takes byteLength, headers, fetch, tailGuess, signal, timeout, retries, retryDelay, maxRetryDelay, maxWholeBody, detectChanges, checkMagic" });
    expect(requests).toBe(0);
  });
});
