// Every entry point of the package checks its options against its own list before reading or writing anything: a
// misspelt name is an error naming it, the nearest name and that entry point's list (not the reader's, the dataset's
// or the writer's), and a value outside its set is an error naming the option and what it takes.
import { tableFromArrays } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { errorOf, expectUnknown } from '../../../tools/testing/option-errors.mjs';
import { syncCodecs } from 'parquetry';
import { memoryStore, openDataset, writeDataset, type WritableDatasetStore } from '@parquetry/parquet-dataset';
import { openParquet } from '@parquetry/parquet-reader';
import { writeParquet, type ByteSink } from '@parquetry/parquet-writer';
import { arrowSchemaOf, arrowSchemaOfDataset, readArrowBatches, readArrowTable, readDatasetArrowBatches, readDatasetArrowTable, writeArrowDataset, writeArrowTable } from '../src/index.js';

const codecs = syncCodecs();

const file = await openParquet(await writeParquet([{ id: 1, s: 'a' }], { codecs }), { codecs });
const store = memoryStore();
await writeDataset([{ id: 1, y: 2024 }], store, { partitionBy: ['y'], codecs });
const dataset = await openDataset(store, { codecs });

const FILE_READ = ['columns', 'dictionary', 'arrowSchema', 'rowGroups', 'rowStart', 'rowEnd', 'filter', 'prune', 'onScan', 'batchSize', 'batchBytes'];
// value mappings the reads fix themselves (Arrow's layouts), and options of other entry points
const NOT_FILE_READ = ['int64', 'timestamps', 'binary', 'limits', 'form', 'codecs'];

describe('reads of a file', () => {
  test.each([
    ['readArrowTable', () => readArrowTable(file, { colums: ['id'] } as never)],
    ['readArrowBatches', () => readArrowBatches(file, { colums: ['id'] } as never)],
  ])('%s: its own list', async (where, run) => {
    expectUnknown(await errorOf(run), 'INVALID_ARGUMENT', `arrow: ${where}`, 'colums', 'columns', FILE_READ, NOT_FILE_READ);
  });

  test('a value mapping the read fixes is not taken; bad values name the option', async () => {
    expectUnknown(await errorOf(() => readArrowTable(file, { int64: 'number' } as never)), 'INVALID_ARGUMENT', 'arrow: readArrowTable', 'int64', undefined, FILE_READ, NOT_FILE_READ);
    const d = await errorOf(() => readArrowTable(file, { dictionary: 'yes' } as never));
    expect([d.code, d.message]).toEqual(['INVALID_ARGUMENT', "arrow: readArrowTable: option 'dictionary' must be true, false or an array of column paths, got 'yes'"]);
    const r = await errorOf(() => readArrowBatches(file, { rowStart: -1 }));
    expect(r.message).toBe("arrow: readArrowBatches: option 'rowStart' must be an integer ≥ 0, got -1");
    const a = await errorOf(() => readArrowTable(file, { arrowSchema: 1 } as never));
    expect(a.message).toBe("arrow: readArrowTable: option 'arrowSchema' must be true or false, got 1");
  });

  test('arrowSchemaOf: columns, dictionary, arrowSchema only', async () => {
    const e = await errorOf(() => arrowSchemaOf(file, { dictionnary: true } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'arrow: arrowSchemaOf', 'dictionnary', 'dictionary', ['columns', 'dictionary', 'arrowSchema'], ['rowGroups', 'filter', 'batchSize']);
    expectUnknown(await errorOf(() => arrowSchemaOf(file, { rowGroups: [0] } as never)), 'INVALID_ARGUMENT', 'arrow: arrowSchemaOf', 'rowGroups', undefined, ['columns'], ['rowGroups']);
  });
});

describe('reads of a dataset', () => {
  const DS_READ = ['columns', 'dictionary', 'arrowSchema', 'filter', 'prune', 'onScan', 'batchSize'];
  test.each([
    ['readDatasetArrowTable', () => readDatasetArrowTable(dataset, { batchSise: 2 } as never)],
    ['readDatasetArrowBatches', () => readDatasetArrowBatches(dataset, { batchSise: 2 } as never)],
  ])('%s: its own list', async (where, run) => {
    expectUnknown(await errorOf(run), 'INVALID_ARGUMENT', `arrow: ${where}`, 'batchSise', 'batchSize', DS_READ, ['rowGroups', 'rowStart', 'batchBytes', 'form', 'int64', 'partitioning']);
  });

  test('bad values and arrowSchemaOfDataset', async () => {
    const b = await errorOf(() => readDatasetArrowTable(dataset, { batchSize: 0 }));
    expect([b.code, b.message]).toEqual(['INVALID_ARGUMENT', "arrow: readDatasetArrowTable: option 'batchSize' must be an integer ≥ 1 or Infinity, got 0"]);
    const e = await errorOf(() => arrowSchemaOfDataset(dataset, { colums: ['id'] } as never));
    expectUnknown(e, 'INVALID_ARGUMENT', 'arrow: arrowSchemaOfDataset', 'colums', 'columns', ['columns', 'dictionary', 'arrowSchema'], ['filter', 'batchSize']);
  });
});

describe('writes', () => {
  const table = tableFromArrays({ id: Int32Array.from([1, 2]), y: Int32Array.from([1, 2]) });

  test('writeArrowTable: the writer options but schema inference and append; the sink aborted, nothing written', async () => {
    const e = await errorOf(() => writeArrowTable(table, { compresion: 'SNAPPY' } as never));
    expectUnknown(e, 'INVALID_OPTION', 'arrow: writeArrowTable', 'compresion', 'compression', ['compression', 'arrowSchema', 'schema', 'rowGroupRows', 'encryption'], ['infer', 'append', 'partitionBy']);
    expectUnknown(await errorOf(() => writeArrowTable(table, { infer: {} } as never)), 'INVALID_OPTION', 'arrow: writeArrowTable', 'infer', undefined, ['compression'], ['infer']);
    const events: string[] = [];
    const sink: ByteSink = { write: () => void events.push('write'), close: () => void events.push('close'), abort: () => void events.push('abort') };
    const s = await errorOf(() => writeArrowTable(table, sink, { schema: 'id int' } as never));
    expect([s.code, s.message]).toEqual(['INVALID_OPTION', "arrow: writeArrowTable: option 'schema' must be an Arrow Schema, got 'id int'"]);
    expect(events).toEqual(['abort']);
  });

  test('writeArrowDataset: the dataset writer options, before the store is touched', async () => {
    const untouchable: WritableDatasetStore = { location: 'untouchable/', list: () => Promise.reject(new Error('listed')), create: () => Promise.reject(new Error('created')) };
    const e = await errorOf(() => writeArrowDataset(table, untouchable, { partitonBy: ['y'] } as never));
    expectUnknown(e, 'INVALID_OPTION', 'arrow: writeArrowDataset', 'partitonBy', 'partitionBy', ['partitionBy', 'maxRowsPerFile', 'existing', 'compression', 'arrowSchema', 'schema'], ['infer', 'append', 'encryption', 'partitioning']);
    const x = await errorOf(() => writeArrowDataset(table, untouchable, { existing: 'overwrite' } as never));
    expect(x.message).toBe("arrow: writeArrowDataset: option 'existing' must be one of 'error', 'add', got 'overwrite'");
  });

  test('the options they take still write', async () => {
    const bytes = await writeArrowTable(table, { compression: 'SNAPPY', arrowSchema: true, schema: table.schema, codecs });
    expect((await readArrowTable(await openParquet(bytes, { codecs }), { dictionary: false, batchSize: 1 })).numRows).toBe(2);
    const out = memoryStore();
    const r = await writeArrowDataset(table, out, { partitionBy: ['y'], arrowSchema: false, codecs });
    expect(r.rows).toBe(2);
  });
});
