// The writer's options are checked name by name before anything is written: a misspelt option at any level (the
// file's, a column's, a bloom filter's, content-defined chunking's, a sort key's, inference's, encryption's) is
// INVALID_OPTION naming it and the nearest known name — before, `dataPageSize: 1024` or
// `columns: { id: { encodnig: 'DELTA_BINARY_PACKED' } }` wrote a file with the defaults without a word.
import { describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
import { Encoding } from '@parquetry/thrift-compact';
import { field, inferSchema, writeParquet, type WriterOptions } from '../src/index.js';

const schema = { id: field.int64({ required: true }), s: field.string() };
const rows = [
  { id: 1n, s: 'a' },
  { id: 2n, s: 'b' },
];
const write = (o: Record<string, unknown>) => writeParquet(rows, { schema, compression: 'UNCOMPRESSED', ...o } as WriterOptions);
const rejects = async (o: Record<string, unknown>, message: string | RegExp) => {
  const err = await write(o).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ name: 'ParquetError', code: 'INVALID_OPTION' });
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
};

describe('writer options', () => {
  test('a misspelt file option: the nearest name', async () => {
    await rejects({ dataPageSize: 1024 }, /^parquet-writer: options: unknown option 'dataPageSize' \(did you mean 'pageSize'\?\); it takes encoding, dictionary, compression, /);
    await rejects({ rowGroupSize: 10 }, /unknown option 'rowGroupSize' \(did you mean 'rowGroupRows'\?\)/);
    await rejects({ statistic: false }, /unknown option 'statistic' \(did you mean 'statistics'\?\)/);
    await rejects({ compresion: 'GZIP' }, /unknown option 'compresion' \(did you mean 'compression'\?\)/);
    await rejects({ keyValueMetaData: { a: 'b' } }, /unknown option 'keyValueMetaData' \(did you mean 'keyValueMetadata'\?\)/);
  });

  test('a misspelt option inside columns, bloomFilter, contentDefinedChunking, sortingColumns, infer, encryption', async () => {
    await rejects({ columns: { id: { encodnig: 'DELTA_BINARY_PACKED' } } }, "parquet-writer: columns option 'id': unknown option 'encodnig' (did you mean 'encoding'?); it takes encoding, dictionary, compression, statistics, keyValueMetadata, bloomFilter");
    await rejects({ columns: { id: { bloomFilter: { fp: 0.1 } } } }, /^parquet-writer: option bloomFilter: unknown option 'fp' \(did you mean 'fpp'\?\); it takes ndv, fpp, maxBytes$/);
    await rejects({ bloomFilter: 'yes' }, "parquet-writer: options: option 'bloomFilter' must be true, false or an object of { ndv, fpp, maxBytes }, got 'yes'");
    await rejects({ contentDefinedChunking: { minChunk: 1 } }, /option contentDefinedChunking: unknown option 'minChunk' \(did you mean 'minChunkSize'\?\)/);
    await rejects({ sortingColumns: [{ column: 'id', desc: true }] }, /^parquet-writer: sortingColumns\[0\]: unknown option 'desc' \(did you mean 'descending'\?\)/);
    await rejects({ sortingColumns: 'id' }, /option 'sortingColumns' must be an array of \{ column, descending, nullsFirst \}, got 'id'/);
    await rejects({ columns: ['id'] }, /option 'columns' must be an object of column options by dotted path, got an array/);
    await rejects({ checksum: 'no' }, /option 'checksum' must be true or false, got 'no'/);
    await rejects({ createdBy: 5 }, /option 'createdBy' must be a string, got 5/);
    await expect(writeParquet(rows, { infer: { sampleSise: 10 } } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringMatching(/^parquet-writer: option infer: unknown option 'sampleSise' \(did you mean 'sampleSize'\?\)/),
    });
    await rejects({ encryption: { footerKey: new Uint8Array(16), plainTextFooter: true } }, /^parquet-crypto: encryption: unknown option 'plainTextFooter' \(did you mean 'plaintextFooter'\?\)/);
    await rejects({ encryption: { footerKey: new Uint8Array(16), columnKeys: { id: { keyMetaData: new Uint8Array(1), key: new Uint8Array(16) } } } }, /^parquet-crypto: encryption columnKeys 'id': unknown option 'keyMetaData' \(did you mean 'keyMetadata'\?\)/);
    // the key's bytes where { key } belongs: said so, not "unknown option '0'"
    await rejects({ encryption: { footerKey: new Uint8Array(16), columnKeys: { id: new Uint8Array(16) } } }, "parquet-crypto: encryption columnKeys 'id': give { key } (and keyMetadata if any), not the key's bytes themselves: columnKeys: { 'id': { key } }");
  });

  test('key/value metadata takes strings only: nothing is coerced (5 was written as "5", an object as "[object Object]")', async () => {
    await rejects({ keyValueMetadata: { x: 5 } }, "parquet-writer: options: option 'keyValueMetadata' must be an object of string values (its key 'x' has 5), got an object");
    await rejects({ keyValueMetadata: { ok: 'a', y: null } }, /its key 'y' has null/);
    await rejects({ keyValueMetadata: { w: { o: 1 } } }, /its key 'w' has an object/);
    await rejects({ keyValueMetadata: ['a'] }, /must be an object of string values, got an array/);
    await rejects({ columns: { s: { keyValueMetadata: { q: 1n } } } }, /columns option 's': option 'keyValueMetadata' must be an object of string values \(its key 'q' has/);
    const md = (await openParquet(await write({ keyValueMetadata: { a: '1', b: '' } }))).metadata;
    expect(md.key_value_metadata).toEqual([{ key: 'a', value: '1' }, { key: 'b', value: '' }]);
  });

  test('values a name check lets through but the writer cannot use: typed INVALID_OPTION before anything is written (QA: raw TypeErrors or silent acceptance)', async () => {
    await rejects({ compression: null }, /option 'compression' must be a codec name .*, got null/);
    await rejects({ codecs: { 1: 5 } }, 'parquet-writer: options: codecs[1] must be a codec object (with a compress method to write with it), got 5');
    await rejects({ codecs: { 1: { compress: 'no' } } }, /codecs\[1\] must be a codec object/);
    await rejects({ checkSorting: true }, 'parquet-writer: options: checkSorting checks the order sortingColumns declares, and no sortingColumns are given');
    await rejects({ contentDefinedChunking: { minChunkSize: 5000, maxChunkSize: 100 } }, 'parquet-writer: options: contentDefinedChunking minChunkSize (5000) must be less than maxChunkSize (100)');
    await rejects({ append: { metadata: {}, dataEnd: 4 } }, /^parquet-writer: options: append must be the target appendTarget\(bytes\) or appendFileSink\(path\)\.append gives/);
    await rejects({ pageSize: '100' }, "parquet-writer: option pageSize must be a positive integer, got '100'");
    await rejects({ columns: { s: { bloomFilter: { maxBytes: 100 } } } }, /option 'maxBytes' must be a power of two of at least 32/);
    await rejects({ bloomFilter: { fpp: 1.5 } }, /option 'fpp' must be a false-positive probability between 0 and 1/);
    // and the valid neighbours still write
    await write({ columns: { s: { bloomFilter: { maxBytes: 64, fpp: 0.01 } } }, contentDefinedChunking: { minChunkSize: 100, maxChunkSize: 5000 }, checkSorting: true, sortingColumns: [{ column: 'id' }] });
  });

  test('inferSchema: an unknown option is INVALID_ARGUMENT, as its other option errors', () => {
    expect(() => inferSchema(rows, { sample: 1 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^parquet-writer: inferSchema options: unknown option 'sample'/) }));
  });

  test('valid options at every level write as asked', async () => {
    const bytes = await write({
      pageSize: 1024,
      statistics: true,
      columns: { id: { encoding: 'DELTA_BINARY_PACKED', dictionary: false, bloomFilter: { fpp: 0.05 } }, s: { bloomFilter: true } },
      contentDefinedChunking: false,
      sortingColumns: [{ column: 'id', descending: false, nullsFirst: false }],
      keyValueMetadata: { k: 'v' },
      pageVersion: undefined,
    });
    const f = await openParquet(bytes);
    expect(await f.readRows()).toEqual(rows);
    expect(f.metadata.row_groups[0]!.columns[0]!.meta_data!.encodings).toContain(Encoding.DELTA_BINARY_PACKED);
    expect(f.metadata.key_value_metadata).toEqual([{ key: 'k', value: 'v' }]);
  });
});
