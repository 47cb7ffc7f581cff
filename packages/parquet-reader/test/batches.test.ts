// Batch iteration (`iterateBatches`): rows generated for random schemas, written by our writer with tiny pages and
// row groups, come back from the batches equal to the rows generated, and the columnar batches equal
// `readRowGroupColumns` (turned back into rows by an independent walk); row ranges, projections, filters and byte
// budgets; corrupt pages still fail typed and located. The corpus is read in batches by
// apps/conformance/test/batches.test.ts.
//
// The writer (and the gzip codec its random options may pick) are imported from their sources by path, for tests
// only: the reader does not depend on them (the writer depends on the reader for its own tests, so a declared
// dependency would be a cycle).
import { CompressionCodec, builtinCodecs, type CodecMap } from '@parquetry/parquet-codecs';
import { createGzipCodec } from '../../codec-gzip/src/index.js';
import { openParquet, type Filter, type ParquetFile, type ReadOptions } from '@parquetry/parquet-reader';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { writeParquet, type Row, type SchemaSpec, type WriterOptions } from '../../parquet-writer/src/index.js';
import { optionsArb, rowsArb, schemaArb } from '../../parquet-writer/test/arbitraries.js';
import { typedError } from './helpers.js';
import { batchRows, columnsBoth, same } from './batch-helpers.js';

const codecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec() };

// ---------------------------------------------------------------------------------------------------------------
// generated files

const runs = Number(process.env.PARQUETRY_PROPERTY_RUNS ?? '') || 150;

describe('random schemas written with tiny pages: batches equal the rows written', () => {
  test('rows and columns, any batch size', async () => {
    await fc.assert(
      fc.asyncProperty(
        schemaArb.chain((schema) => fc.record({ schema: fc.constant(schema), rows: rowsArb(schema, 1), options: optionsArb(schema), batchSize: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 6, max: 300 })) })),
        async ({ schema, rows, options, batchSize }) => {
          const bytes = await writeParquet(rows, { ...options, schema, codecs } as WriterOptions);
          const file = await openParquet(bytes, { codecs });
          const got = await batchRows(file, { batchSize });
          same(rows, got.rows, `batches of ${batchSize}`);
          const { whole, batched } = await columnsBoth(file, batchSize);
          same(whole, batched, `columnar batches of ${batchSize}`);
        },
      ),
      { numRuns: runs },
    );
  }, 120_000);
});

/** A file with nested columns, nulls and strings: 3 row groups of 400 rows, pages of at most 7 rows. */
async function sampleFile(extra: WriterOptions = {}): Promise<{ rows: Row[]; file: ParquetFile }> {
  const schema: SchemaSpec = {
    id: { type: 'int64', required: true },
    name: { type: 'string' },
    tags: { type: 'list', element: { type: 'string' } },
    point: { type: 'struct', fields: { x: { type: 'double' }, ys: { type: 'list', element: { type: 'int32' } } } },
  };
  const rows: Row[] = Array.from({ length: 1200 }, (_, i) => ({
    id: BigInt(i),
    name: i % 5 === 0 ? null : `name ${i % 37}`,
    tags: i % 7 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => (k === 1 && i % 3 === 0 ? null : `t${(i + k) % 11}`)),
    point: i % 11 === 0 ? null : { x: i / 2, ys: Array.from({ length: i % 6 }, (_, k) => i * k) },
  }));
  const bytes = await writeParquet(rows, { schema, rowGroupRows: 400, pageRows: 7, codecs, ...extra });
  return { rows, file: await openParquet(bytes, { codecs }) };
}

describe('options', () => {
  test('row ranges, projections and value mappings read as the whole read does', async () => {
    const { file } = await sampleFile();
    const variants: (ReadOptions & { batchSize: number })[] = [
      { batchSize: 33, rowStart: 390, rowEnd: 805 },
      { batchSize: 50, rowStart: 1199 },
      { batchSize: 64, rowEnd: 1 },
      { batchSize: 9, columns: ['point.ys', 'name'], int64: 'number' },
      { batchSize: 100, rowGroups: [2, 0], maps: 'object' },
    ];
    for (const o of variants) {
      const { batchSize, ...read } = o;
      same(await file.readRows(read), (await batchRows(file, o)).rows, JSON.stringify(o));
    }
    // batches start at the row range, then run in steps of the batch size within each row group
    const starts: number[] = [];
    for await (const b of file.iterateBatches({ batchSize: 100, rowStart: 350, rowEnd: 900 })) starts.push(b.rowStart, b.rowEnd);
    expect(starts).toEqual([350, 400, 400, 500, 500, 600, 600, 700, 700, 800, 800, 900]);
  });

  test('filters: exact per batch, on row-aligned columns and inside lists, in both forms', async () => {
    const { file } = await sampleFile();
    const filters: Filter[] = [
      { column: 'id', op: '<', value: 30n },
      { and: [{ column: 'name', op: 'in', values: ['name 3', 'name 4'] }, { column: 'point.x', op: '>', value: 100 }] },
      { column: 'name', op: 'is null' },
      { column: 'id', op: '>', value: 5000n },
    ];
    for (const filter of filters) {
      for (const batchSize of [1, 13, 10_000]) {
        same(await file.readRows({ filter }), (await batchRows(file, { filter, batchSize })).rows, `${JSON.stringify(filter, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}, ${batchSize}`);
        same(await file.readRows({ filter, columns: ['name'] }), (await batchRows(file, { filter, batchSize, columns: ['name'] })).rows, 'projected');
      }
      const { whole, batched } = await columnsBoth(file, 13, { filter });
      same(whole, batched, `columnar, ${JSON.stringify(filter, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`);
    }
  });

  test('a filter on a column inside a list is refused, as by the whole read', async () => {
    const { file } = await sampleFile();
    const filter: Filter = { column: 'tags.list.element', op: '=', value: 't3' };
    expect((await typedError(() => file.readRows({ filter }))).code).toBe('FILTER_UNSUPPORTED');
    for (const form of ['rows', 'columns'] as const) {
      const err = await typedError(async () => {
        for await (const _ of file.iterateBatches({ filter, form } as { filter: Filter; form: 'rows' })) void _;
      });
      expect(err.code).toBe('FILTER_UNSUPPORTED');
      expect(err.message).toContain('tags.list.element');
    }
  });

  test('batchBytes sizes batches from SizeStatistics: the byte budget over the decoded bytes per row', async () => {
    const { file, rows } = await sampleFile();
    // bytes per row of row group 0 from its footer, by the rule documented on batchBytes
    const g = file.metadata.row_groups[0]!;
    let bytes = 0;
    for (const [i, cc] of g.columns.entries()) {
      const col = file.schema.columns[i]!;
      const md = cc.meta_data!;
      expect(md.size_statistics).toBeDefined();
      bytes += md.num_values * ((col.maxDef > 0 ? 4 : 0) + (col.maxRep > 0 ? 4 : 0));
      // (no histogram for a max level of 0)
      const nonNull = col.maxDef === 0 ? md.num_values : md.size_statistics!.definition_level_histogram![col.maxDef]!;
      bytes += col.type === 6 ? md.size_statistics!.unencoded_byte_array_data_bytes! + 4 * nonNull : (col.type === 2 || col.type === 5 ? 8 : 4) * nonNull;
    }
    const perRow = bytes / g.num_rows;
    const budget = 2000;
    const expected = Math.floor(budget / perRow);
    expect(expected).toBeGreaterThan(1);
    const sizes: number[] = [];
    const got: Record<string, unknown>[] = [];
    for await (const b of file.iterateBatches({ batchBytes: budget, rowGroups: [0] })) {
      sizes.push(b.rows.length);
      got.push(...b.rows);
    }
    expect(sizes[0]).toBe(expected);
    same(rows.slice(0, 400), got, 'rows');
    // batchSize still caps the batch
    for await (const b of file.iterateBatches({ batchBytes: 1e9, batchSize: 17, rowGroups: [0] })) expect(b.rows.length).toBeLessThanOrEqual(17);
  });

  test('the bytes batches fetch are counted in the file\'s scan statistics, as data, as those of the whole read', async () => {
    const { file } = await sampleFile();
    const bytes = await file.source.read(0, file.source.byteLength);
    const a = await openParquet(bytes, { codecs });
    const b = await openParquet(bytes, { codecs });
    for await (const x of a.iterateBatches({ batchSize: 100 })) void x;
    await b.readRows();
    expect(a.scanStats().bytes.data).toBeGreaterThan(0);
    expect(a.scanStats().bytes.data).toBe(b.scanStats().bytes.data);
    expect(a.scanStats().requests.data).toBe(b.scanStats().requests.data);
  });

  test('bad batch sizes are INVALID_ARGUMENT', async () => {
    const { file } = await sampleFile();
    for (const batchSize of [0, -1, 1.5, NaN]) {
      const err = await typedError(async () => {
        for await (const _ of file.iterateBatches({ batchSize })) void _;
      });
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.message).toContain('batchSize');
    }
  });
});

describe('errors', () => {
  test('a corrupt page in a later row group: earlier batches arrive, then the same typed, located error as the whole read', async () => {
    const { file: good, rows } = await sampleFile({ compression: 'SNAPPY' });
    const bytes = (await good.source.read(0, good.source.byteLength)).slice();
    // the middle of row group 2's 'name' chunk (leaf 1): a data page body, its CRC32 no longer matches
    const md = good.metadata.row_groups[2]!.columns[1]!.meta_data!;
    const start = md.dictionary_page_offset ?? md.data_page_offset;
    bytes[start + Math.floor(md.total_compressed_size / 2)]! ^= 0x55;
    const file = await openParquet(bytes, { codecs });
    const whole = await typedError(() => file.readRows());
    const seen: Record<string, unknown>[] = [];
    const err = await typedError(async () => {
      for await (const b of file.iterateBatches({ batchSize: 50 })) seen.push(...b.rows);
    });
    expect(err).toEqual(whole);
    expect(['CHECKSUM_MISMATCH', 'CORRUPT_PAGE']).toContain(err.code);
    expect(err.message).toMatch(/^parquet-column: row group 2, column 'name', page \d+ at byte \d+: /);
    expect(err.offset).toBeGreaterThanOrEqual(start);
    // row groups 0 and 1 were read in full before the error, and row group 2 up to the corrupt page
    expect(seen.length).toBeGreaterThanOrEqual(800);
    same(rows.slice(0, seen.length), seen, 'rows before the error');
  });
});
