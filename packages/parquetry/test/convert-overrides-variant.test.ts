/**
 * `parquetry convert` from JSON: --type/--schema paths go to inferSchema's overrides, which must name columns of the
 * sampled rows (a misspelt nested path is UNKNOWN_COLUMN with a hint for the command line, not an all-null field),
 * while a top-level column the sample lacks is still added (a key first seen after --sample); and a VARIANT column
 * given by --type keeps JSON objects shaped like typed values ({"type":"decimal","value":"12.5"}) as objects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main, openFile } from '../src/node.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-convert-overrides-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const at = (name: string): string => path.join(dir, name);

async function run(...argv: string[]): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const code = await main(argv, () => {}, { error: (l) => err.push(l) });
  return { code, err };
}

describe('convert --type paths', () => {
  const input = at('rows.ndjson');
  fs.writeFileSync(input, '{"id":1,"s":{"when":"x"}}\n{"id":2,"s":{"when":"y"}}\n{"id":3,"late":"z"}\n');

  test('a nested path the sample does not have is UNKNOWN_COLUMN naming the nearest path, and no output is left', async () => {
    const r = await run('convert', input, at('a.parquet'), '--type', 's.wen=string');
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^parquetry: UNKNOWN_COLUMN: .*override 's\.wen' names no column: struct 's' has no field 'wen' in the 3 rows inspected \(its fields: when; .*did you mean 's\.when'\? — with the CLI: a --type\/--schema path below the top level must be in the first 10000 rows \(--sample\)/);
    expect(fs.existsSync(at('a.parquet'))).toBe(false);
  });

  test('a nested path the sample has, and a top-level column first seen after --sample, are given types', async () => {
    const r = await run('convert', input, at('b.parquet'), '--sample', '2', '--type', 's.when=json', '--type', 'late=string');
    expect(r).toEqual({ code: 0, err: [] });
    const f = await openFile(at('b.parquet'));
    try {
      expect(f.schema.columns.map((c) => c.path.join('.'))).toEqual(['id', 's.when', 'late']);
      expect((await f.readRows()).map((row) => row['late'])).toEqual([null, null, 'z']);
    } finally {
      await f.close();
    }
  });
});

describe('convert to a VARIANT column', () => {
  test('JSON objects shaped like typed values stay objects', async () => {
    const input = at('v.ndjson');
    const values = [{ type: 'decimal', value: '12.5' }, { type: 'uuid', value: 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56' }, { type: 'date', days: 3 }];
    fs.writeFileSync(input, values.map((v) => JSON.stringify({ v })).join('\n') + '\n');
    expect((await run('convert', input, at('v.parquet'), '--type', 'v={"type":"variant"}')).code).toBe(0);
    const f = await openFile(at('v.parquet'));
    try {
      expect((await f.readRows()).map((row) => row['v'])).toEqual(values);
      expect((await f.readRows({ values: 'json' })).map((row) => row['v'])).toEqual(values);
    } finally {
      await f.close();
    }
  });
});
