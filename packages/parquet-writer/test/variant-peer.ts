// VARIANT files written to a temporary directory and read back by DuckDB (variant-json-objects and variant-typed).
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { afterAll, beforeAll } from 'vitest';
import { writeParquet, type FieldSpec } from '../src/index.js';

/** The codecs the files are written and read with. */
export const codecs = builtinCodecs();
/** A UUID for the tests' values. */
export const UUID = 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56';

/**
 * A temporary directory and a DuckDB connection for one test file (made in beforeAll, removed in afterAll).
 * @param prefix - the directory's name prefix.
 * @returns `write` (rows to a file, its bytes and path), `duck` (DuckDB's type and JSON text of column `v`, row by
 *   row) and `conn` (the connection, once beforeAll ran).
 */
export function variantFiles(prefix: string): {
  write: (rows: Record<string, unknown>[], schema: Record<string, FieldSpec>) => Promise<{ bytes: Uint8Array; file: string }>;
  duck: (file: string) => Promise<{ t: string; j: string }[]>;
  conn: () => DuckDBConnection;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let conn: DuckDBConnection | undefined;
  beforeAll(async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return {
    write: async (rows, schema) => {
      const bytes = await writeParquet(rows, { schema, codecs });
      const file = path.join(dir, `${n++}.parquet`);
      fs.writeFileSync(file, bytes);
      return { bytes, file };
    },
    duck: async (file) => {
      const r = await conn!.runAndReadAll(`select variant_typeof(v) as t, v::JSON as j from read_parquet('${file}')`);
      return r.getRowObjectsJson() as { t: string; j: string }[];
    },
    conn: () => conn!,
  };
}
