/**
 * The per-column `columns` option and value encodings a column's type cannot take.
 *
 * - A path of `columns` that names no column or group of the schema (a typo such as `City` for `city`) is
 *   `UNKNOWN_COLUMN` naming the path and the nearest column path; before, it was silently ignored. Every form that
 *   worked keeps working: a leaf path, a group path (every leaf under it), a list or map path, the longer path winning.
 * - An encoding the column's physical type cannot take names the column, its physical type and the types the
 *   encoding takes (`INVALID_OPTION`); before: `createValueEncoder: encoding DELTA_BYTE_ARRAY has no streaming
 *   encoder for physical type INT32`, without the column.
 */
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { buildSchemaTree } from '@parquetry/parquet-levels';
import { openParquet } from '@parquetry/parquet-reader';
import { CompressionCodec, Encoding } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { resolveOptions, type WriteOptions } from '../src/options.js';
import { field, schemaElements, writeParquet, type SchemaSpec } from '../src/index.js';

const schema: SchemaSpec = {
  city: field.string(),
  id: field.int32(),
  g: field.struct({ x: field.double(), y: field.struct({ z: field.int64() }) }),
  tags: field.list(field.string()),
  m: field.map(field.string(), field.int32()),
};
const columns = buildSchemaTree(schemaElements(schema)).columns;
const checkColumns = (c: NonNullable<WriteOptions['columns']>) => () => resolveOptions({ columns: c }).checkColumns(columns);

describe('columns option paths', () => {
  test('every form that names a column or group is accepted', () => {
    for (const path of ['city', 'g', 'g.x', 'g.y', 'g.y.z', 'tags', 'tags.list', 'tags.list.element', 'm', 'm.key_value', 'm.key_value.key', 'm.key_value.value']) {
      expect(checkColumns({ [path]: { compression: 'ZSTD' } }), path).not.toThrow();
    }
  });

  test.each([
    ['City', 'city'],
    ['g.X', 'g.x'],
    ['g.y.zz', 'g.y.z'],
    ['tags.element', 'tags.list.element'],
    ['m.value', 'm.key_value.value'],
    ['g.y.z.w', 'g.y.z'],
    ['nope', 'g'],
  ])("'%s' is UNKNOWN_COLUMN naming '%s' as the nearest path", (path, near) => {
    expect(checkColumns({ city: { compression: 'GZIP' }, [path]: { compression: 'ZSTD' } })).toThrow(
      expect.objectContaining({
        code: 'UNKNOWN_COLUMN',
        message: expect.stringContaining(`parquet-writer: columns option: '${path}' is not a column or group of the schema (nearest: '${near}')`),
      }),
    );
  });

  // the writer checks the paths: writer.ts's Engine calls ResolvedOptions.checkColumns(tree.columns)
  test('writeParquet: a typo in a columns path is UNKNOWN_COLUMN', async () => {
    await expect(writeParquet([{ city: 'x' }], { schema: { city: field.string() }, columns: { City: { compression: 'ZSTD' } } })).rejects.toMatchObject({
      code: 'UNKNOWN_COLUMN',
      message: expect.stringContaining("'City' is not a column or group of the schema (nearest: 'city')"),
    });
  });

  test('the paths that worked still apply: leaf, group, list, longer path wins', async () => {
    const bytes = await writeParquet([{ city: 'a', id: 1, g: { x: 1, y: { z: 2n } }, tags: ['t'], m: new Map([['k', 1]]) }], {
      schema,
      columns: { city: { compression: 'LZ4' }, g: { compression: 'LZ4_RAW' }, 'g.y.z': { compression: 'UNCOMPRESSED' }, tags: { compression: 'LZO' }, 'm.key_value.value': { compression: 'UNCOMPRESSED' } },
    });
    const f = await openParquet(bytes, { codecs: builtinCodecs() });
    const codecs = Object.fromEntries(f.metadata.row_groups[0]!.columns.map((c) => [c.meta_data!.path_in_schema.join('.'), c.meta_data!.codec]));
    expect(codecs).toEqual({
      city: CompressionCodec.LZ4,
      id: CompressionCodec.SNAPPY,
      'g.x': CompressionCodec.LZ4_RAW,
      'g.y.z': CompressionCodec.UNCOMPRESSED,
      'tags.list.element': CompressionCodec.LZO,
      'm.key_value.key': CompressionCodec.SNAPPY,
      'm.key_value.value': CompressionCodec.UNCOMPRESSED,
    });
  });
});

test('a column whose name has a dot is reached by its dotted path (before: never matched)', async () => {
  const dotted = buildSchemaTree(schemaElements({ 'x.y': field.string(), n: field.int32() })).columns;
  expect(() => resolveOptions({ columns: { 'x.y': {} } }).checkColumns(dotted)).not.toThrow();
  const f = await openParquet(await writeParquet([{ 'x.y': 'v', n: 1 }], { schema: { 'x.y': field.string(), n: field.int32() }, columns: { 'x.y': { compression: 'UNCOMPRESSED' } } }), { codecs: builtinCodecs() });
  expect(f.metadata.row_groups[0]!.columns.map((c) => c.meta_data!.codec)).toEqual([CompressionCodec.UNCOMPRESSED, CompressionCodec.SNAPPY]);
});

describe('an encoding the column type cannot take', () => {
  test.each([
    ['DELTA_BYTE_ARRAY', { id: field.int32() }, { id: 1 }, "column 'id': encoding DELTA_BYTE_ARRAY cannot write its physical type INT32 (DELTA_BYTE_ARRAY takes BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY)"],
    ['DELTA_BINARY_PACKED', { s: field.string() }, { s: 'x' }, "column 's': encoding DELTA_BINARY_PACKED cannot write its physical type BYTE_ARRAY (DELTA_BINARY_PACKED takes INT32, INT64)"],
    ['ALP', { n: field.int64() }, { n: 1n }, "column 'n': encoding ALP cannot write its physical type INT64 (ALP takes FLOAT, DOUBLE)"],
    ['RLE', { d: field.double() }, { d: 1 }, "column 'd': encoding RLE cannot write its physical type DOUBLE (RLE takes BOOLEAN)"],
    ['BYTE_STREAM_SPLIT', { b: field.boolean() }, { b: true }, "column 'b': encoding BYTE_STREAM_SPLIT cannot write its physical type BOOLEAN (BYTE_STREAM_SPLIT takes FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY)"],
  ] as const)('%s: INVALID_OPTION naming the column, its type and the types the encoding takes', async (encoding, spec, row, message) => {
    const err = await writeParquet([row], { schema: spec, columns: { [Object.keys(spec)[0]!]: { encoding } } }).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining(`parquet-writer: ${message}`) });
    expect((err as Error).message).toContain('{ encoding: … }');
    expect((err as Error & { cause?: { code?: string } }).cause?.code).toBe('ENCODING_UNSUPPORTED');
  });

  test('a file-level encoding names the first column that cannot take it', async () => {
    await expect(writeParquet([{ id: 1, s: 'x' }], { encoding: 'DELTA_BYTE_ARRAY' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining("column 'id': encoding DELTA_BYTE_ARRAY cannot write its physical type INT32"),
    });
  });

  test('encodings the type takes still write', async () => {
    const bytes = await writeParquet([{ id: 1, s: 'x' }], { columns: { id: { encoding: 'DELTA_BINARY_PACKED', dictionary: false }, s: { encoding: 'DELTA_BYTE_ARRAY', dictionary: false } } });
    const f = await openParquet(bytes, { codecs: builtinCodecs() });
    expect(f.metadata.row_groups[0]!.columns.map((c) => c.meta_data!.encodings.includes(c.meta_data!.path_in_schema[0] === 'id' ? Encoding.DELTA_BINARY_PACKED : Encoding.DELTA_BYTE_ARRAY))).toEqual([true, true]);
    expect(await f.readRows()).toEqual([{ id: 1, s: 'x' }]);
  });
});
