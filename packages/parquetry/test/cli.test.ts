/**
 * The `parquetry` command line on the sample file the project ships, against DuckDB reading the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, test } from 'vitest';
import { main, openFile } from '../src/node.js';

const sample = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/sample/sample.parquet');
let con: DuckDBConnection;
beforeAll(async () => {
  con = await (await DuckDBInstance.create(':memory:')).connect();
});

async function run(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, lines };
}
const duck = async (sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJS();

describe('parquetry CLI', () => {
  test('schema: one line per schema element, names, repetition and physical types as DuckDB reads them', async () => {
    const { code, lines } = await run('schema', sample);
    expect(code).toBe(0);
    const want = await duck(`SELECT name, type, repetition_type FROM parquet_schema('${sample}')`);
    expect(lines.length).toBe(want.length);
    expect(lines[0]).toBe(`message ${String(want[0]!.name)}`);
    for (let i = 1; i < want.length; i++) {
      const w = want[i]!;
      const words = lines[i]!.trim().split(' ');
      expect(words[0]).toBe(String(w.repetition_type).toLowerCase());
      expect(words[2]).toBe(String(w.name));
      if (w.type !== null) expect(words[1]).toBe(String(w.type));
    }
  });

  test('meta: row and row-group counts, and each chunk codec and sizes', async () => {
    const { code, lines } = await run('meta', sample);
    expect(code).toBe(0);
    const [f] = await duck(`SELECT num_rows, num_row_groups FROM parquet_file_metadata('${sample}')`);
    expect(lines[1]).toMatch(new RegExp(`^rows: ${f!.num_rows}, row groups: ${f!.num_row_groups},`));
    const chunks = await duck(`SELECT path_in_schema, compression, total_compressed_size, total_uncompressed_size FROM parquet_metadata('${sample}') ORDER BY row_group_id, column_id`);
    const chunkLines = lines.filter((l) => l.startsWith('  '));
    expect(chunkLines.length).toBe(chunks.length);
    chunks.forEach((c, i) => {
      expect(chunkLines[i]).toContain(`${String(c.path_in_schema).replaceAll(', ', '.')}: ${String(c.compression)} `);
      expect(chunkLines[i]).toContain(`${c.total_compressed_size} / ${c.total_uncompressed_size} bytes`);
    });
  });

  test('head: the first rows as JSON lines, equal to DuckDB', async () => {
    const { code, lines } = await run('head', sample, '-n', '3', '--columns', 'id,name,score,maybe,even');
    expect(code).toBe(0);
    const want = await duck(`SELECT id::VARCHAR AS id, name, score, maybe, even FROM '${sample}' LIMIT 3`);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(want);
    expect((await run('head', sample)).lines.length).toBe(10);
    expect((await run('head', sample, '-n', '0')).lines).toEqual([]);
  });

  test('count: the rows in the pages', async () => {
    const [c] = await duck(`SELECT count(*)::INTEGER AS n FROM '${sample}'`);
    expect(await run('count', sample)).toEqual({ code: 0, lines: [String(c!.n)] });
  });

  test('errors: usage (2), a missing file and a file that is not Parquet (1, with the error code)', async () => {
    expect((await run()).code).toBe(0);
    expect((await run('bogus', sample)).code).toBe(2);
    expect((await run('head', sample, '-n', 'x')).code).toBe(2);
    const missing = await run('schema', path.join(os.tmpdir(), 'no-such-file.parquet'));
    expect(missing.code).toBe(1);
    expect(missing.lines[0]).toMatch(/cannot open '.*no-such-file\.parquet'/);
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-')), 'bad.parquet');
    fs.writeFileSync(bad, 'PAR1 not a parquet file PAR1');
    const r = await run('meta', bad);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(/^parquetry: (NOT_PARQUET|CORRUPT_FOOTER): /);
  });

  test('openFile reads with every codec preset and closes its handle', async () => {
    const f = await openFile(sample);
    expect((await f.readRows({ rowEnd: 1 }))[0]).toMatchObject({ id: 0n, name: 'name-0' });
    await f.close();
  });
});
