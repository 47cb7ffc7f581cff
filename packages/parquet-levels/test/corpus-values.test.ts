// Real level streams: the nested/legacy corpus files' pages decoded with this package's level
// decoders, assembled, and compared row by row with DuckDB's reading of the same file. And the
// bad_data files whose levels are broken, which must fail with a typed error.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { isParquetError } from '@parquetry/thrift-compact';
import { assembleColumnar, assembleRecords, buildSchemaTree, validateColumnLevels, validateRowCounts } from '../src/index.js';
import type { ColumnData } from '../src/index.js';
import { HAVE_CORPUS, footer, lenientFooter, testing } from './corpus.js';
import { readChunk } from './page-harness.js';
import { rowOf } from './helpers.js';

/** Our records in DuckDB's JSON row form: maps as [{key, value}], bigint as strings. */
function duckJson(v: unknown): unknown {
  if (v instanceof Map) return [...v].map(([key, value]) => ({ key: duckJson(key), value: duckJson(value) }));
  if (Array.isArray(v)) return v.map(duckJson);
  if (typeof v === 'bigint') return String(v);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, duckJson(x)]));
  return v;
}

function readFile(rel: string): { rows: Record<string, unknown>[]; columnarRows: unknown[] } {
  const { bytes, meta } = footer(rel);
  const schema = buildSchemaTree(meta.schema);
  const rows: Record<string, unknown>[] = [];
  const columnarRows: unknown[] = [];
  for (const rg of meta.row_groups) {
    const cols: ColumnData[] = schema.columns.map((c) => readChunk(bytes, rg.columns[c.index]!, c));
    rows.push(...assembleRecords(schema, cols, { numRows: rg.num_rows }));
    const vec = assembleColumnar(schema, cols, { numRows: rg.num_rows });
    for (let i = 0; i < vec.length; i++) columnarRows.push(rowOf(vec, i));
  }
  return { rows, columnarRows };
}

const good = ['old_list_structure', 'repeated_no_annotation', 'repeated_primitive_no_list', 'incorrect_map_schema', 'nested_lists.snappy', 'nested_maps.snappy', 'nullable.impala', 'nonnullable.impala', 'null_list', 'list_columns'];

describe.skipIf(!HAVE_CORPUS)('corpus levels assembled vs DuckDB', () => {
  let con: DuckDBConnection;
  beforeAll(async () => {
    con = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(() => con?.closeSync());

  test.each(good)('%s', async (f) => {
    const file = path.join(testing, 'data', `${f}.parquet`);
    const { rows, columnarRows } = readFile(`data/${f}.parquet`);
    const r = await con.runAndReadAll(`SELECT * FROM '${file.replaceAll("'", "''")}'`);
    const duck = r.getRowObjectsJson();
    const expected = JSON.parse(JSON.stringify(duck));
    expect(JSON.parse(JSON.stringify(rows.map(duckJson)))).toEqual(expected);
    expect(JSON.parse(JSON.stringify(columnarRows.map(duckJson)))).toEqual(expected);
  });

  test('map_no_value: key-only map assembles to keys with null values', () => {
    const { rows } = readFile('data/map_no_value.parquet');
    expect(rows.length).toBe(3);
    for (const row of rows) {
      const m = row.my_map as Map<unknown, unknown>;
      const keysOnly = row.my_map_no_v as Map<unknown, unknown>;
      // the writer stored the same keys in both maps and the same numbers in my_list
      expect([...keysOnly.keys()]).toEqual([...m.keys()]);
      expect([...keysOnly.values()].every((v) => v === null)).toBe(true);
      expect(row.my_list).toEqual([...m.keys()]);
    }
  });
});

/** Every column chunk of every row group, each checked on its own: typed errors collected. */
function checkAllColumns(rel: string): { errors: { code: string; message: string }[]; footerError?: string } {
  let footerError: string | undefined;
  let src: { bytes: Uint8Array; schema: import('@parquetry/thrift-compact').SchemaElement[]; rowGroups: { num_rows: number; columns: import('@parquetry/thrift-compact').ColumnChunk[] }[] };
  try {
    const { bytes, meta } = footer(rel);
    src = { bytes, schema: meta.schema, rowGroups: meta.row_groups };
  } catch (e) {
    if (!isParquetError(e)) throw e;
    footerError = `${e.code}: ${e.message}`;
    src = lenientFooter(rel); // reach the pages anyway
  }
  const schema = buildSchemaTree(src.schema);
  const errors: { code: string; message: string }[] = [];
  for (const rg of src.rowGroups) {
    const rows: number[] = [];
    const cols = [];
    for (const c of schema.columns) {
      try {
        const data = readChunk(src.bytes, rg.columns[c.index]!, c);
        rows.push(validateColumnLevels(c, data));
        cols.push(c);
      } catch (e) {
        if (!isParquetError(e)) throw e;
        errors.push({ code: e.code, message: e.message });
      }
    }
    try {
      validateRowCounts(cols, rows, rg.num_rows);
    } catch (e) {
      if (!isParquetError(e)) throw e;
      errors.push({ code: e.code, message: e.message });
    }
  }
  return footerError === undefined ? { errors } : { errors, footerError };
}

describe.skipIf(!HAVE_CORPUS)('bad_data files with broken levels: typed errors, never a crash', () => {
  test('ARROW-GH-45185: a column chunk that starts with repetition level 1', () => {
    const { errors } = checkAllColumns('bad_data/ARROW-GH-45185.parquet');
    expect(errors.map((e) => e.code)).toEqual(['INVALID_LEVELS']);
    expect(errors[0]!.message).toMatch(/'x\.list\.element': first repetition level is 1, expected 0/);
    expect(() => readFile('bad_data/ARROW-GH-45185.parquet')).toThrow(/first repetition level/);
  });

  test('ARROW-RS-GH-6229-LEVELS: a page claiming 21 levels whose repetition stream holds 1', () => {
    const { errors } = checkAllColumns('bad_data/ARROW-RS-GH-6229-LEVELS.parquet');
    expect(errors.length).toBe(1);
    expect(errors[0]!.code).toBe('ENCODING_TRUNCATED');
    expect(errors[0]!.message).toMatch(/^parquet-levels: repetition levels at byte 0: .*truncated/);
  });

  test('ARROW-GH-41321: corrupt level streams in several columns', () => {
    const { errors, footerError } = checkAllColumns('bad_data/ARROW-GH-41321.parquet');
    expect(footerError).toBeUndefined();
    const fromLevels = errors.filter((e) => e.message.startsWith('parquet-levels: definition levels'));
    expect(fromLevels.length).toBeGreaterThanOrEqual(3);
    console.log(`ARROW-GH-41321: ${errors.length} typed errors:\n${errors.map((e) => `  ${e.code}: ${e.message}`).join('\n')}`);
  });

  test('ARROW-GH-41317: corrupt footer (strict reader) and a corrupt page header behind it', () => {
    const { errors, footerError } = checkAllColumns('bad_data/ARROW-GH-41317.parquet');
    expect(footerError).toMatch(/^THRIFT_WRONG_TYPE/);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    console.log(`ARROW-GH-41317: footer ${footerError}; pages: ${errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`);
  });
});
