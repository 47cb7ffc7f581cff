/**
 * The `/read` entry leaves the JSON-safe mapping out (so that a reader's bundle holds it in a lazy chunk): under
 * `values: 'json'` its conversions throw VALUE_MAPPING_UNAVAILABLE until the main entry's `jsonMapping` is installed,
 * then give what the mapping's spec asks. This file imports the `/read` entry only, so the main entry has not run.
 */
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { FieldRepetitionType, Type, type FileMetaData, type LogicalType } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { columnStatistics, convertValues, installJsonMapping } from '../src/read.js';
import { typedError } from './helpers.js';

function leaf(type: Type, logicalType?: LogicalType): ColumnDescriptor {
  return buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'ts', repetition_type: FieldRepetitionType.REQUIRED, type, ...(logicalType ? { logicalType } : {}) },
  ]).columns[0]!;
}
const ts = leaf(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: { MICROS: {} } } });
// 2024-02-29T12:30:45.123456Z in microseconds since the epoch (Date.UTC(2024, 1, 29, 12, 30, 45, 123) * 1000 + 456)
const micros = BigInt(Date.UTC(2024, 1, 29, 12, 30, 45, 123)) * 1000n + 456n;
const le64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, v, true);
  return b;
};

describe("the /read entry and values: 'json'", () => {
  test('VALUE_MAPPING_UNAVAILABLE naming the column before the mapping is installed; native values still convert', async () => {
    const e = await typedError(() => convertValues(BigInt64Array.of(micros), ts, { values: 'json' }));
    expect(e.code).toBe('VALUE_MAPPING_UNAVAILABLE');
    expect(e.message).toContain("column 'ts'");
    expect(Array.from(convertValues(BigInt64Array.of(micros), ts))).toEqual([micros]);
  });

  test('after installing the main entry’s mapping: ISO-8601 values and statistics', async () => {
    // the main entry's json module, loaded as the reader's lazy chunk loads it
    const { jsonMapping } = await import('../src/json.js');
    installJsonMapping(jsonMapping);
    expect(Array.from(convertValues(BigInt64Array.of(micros, -1n), ts, { values: 'json' }))).toEqual(['2024-02-29T12:30:45.123456Z', '1969-12-31T23:59:59.999999Z']);
    const metadata = { version: 2, schema: [], num_rows: 2, row_groups: [] } as unknown as FileMetaData;
    const stats = columnStatistics(metadata, ts, { type: Type.INT64, encodings: [], path_in_schema: ['ts'], codec: 0, num_values: 2, total_uncompressed_size: 0, total_compressed_size: 0, data_page_offset: 4, statistics: { min_value: le64(-1n), max_value: le64(micros), null_count: 0 } }, { values: 'json' });
    expect(stats).toMatchObject({ min: '1969-12-31T23:59:59.999999Z', max: '2024-02-29T12:30:45.123456Z' });
  });
});
