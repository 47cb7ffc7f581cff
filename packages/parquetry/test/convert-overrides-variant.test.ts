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
  fs.writeFileSync(input, '{"id":1,"s":{"when":"[1,2]"}}\n{"id":2,"s":{"when":"{\\"a\\":\\"y\\"}"}}\n{"id":3,"late":"z"}\n');

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
      expect((await f.readRows()).map((row) => (row['s'] as { when: unknown } | null)?.when ?? null)).toEqual(['[1,2]', '{"a":"y"}', null]);
    } finally {
      await f.close();
    }
  });

  test('a nested json field is checked like a top-level one: text that is not JSON is INVALID_VALUE and no output is left (it was written, and DuckDB refused the file)', async () => {
    const bad = at('bad-nested.ndjson');
    fs.writeFileSync(bad, '{"id":1,"s":{"when":"[1]"}}\n{"id":2,"s":null}\n{"id":3,"s":{"when":"{bad"}}\n');
    const r = await run('convert', bad, at('c.parquet'), '--type', 's.when=json');
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^parquetry: INVALID_VALUE: .*line 3.*column 's\.when': the string "\{bad" is not JSON text/);
    expect(fs.existsSync(at('c.parquet'))).toBe(false);
  });

  test('a nested field given a type gets its strings converted (a date)', async () => {
    const dated = at('dated.ndjson');
    fs.writeFileSync(dated, '{"s":{"d":"2024-02-29"}}\n{"s":{"d":null}}\n{"s":{}}\n');
    const r = await run('convert', dated, at('d.parquet'), '--type', 's.d=date');
    expect(r).toEqual({ code: 0, err: [] });
    const f = await openFile(at('d.parquet'));
    try {
      expect((await f.readRows({ dates: 'date' })).map((row) => (row['s'] as { d: Date | null }).d?.toISOString() ?? null)).toEqual(['2024-02-29T00:00:00.000Z', null, null]);
    } finally {
      await f.close();
    }
  });
});

describe('convert --type naming a top-level column no row has (helper-82\'s note)', () => {
  const input = at('top.ndjson');
  fs.writeFileSync(input, '{"id":1,"type":"a"}\n{"id":2,"type":"b"}\n{"id":3,"type":"c","late":null}\n');

  for (const [what, file, argv] of [
    ['NDJSON', input, []],
    ['a JSON array', at('top.json'), []],
    ['NDJSON with a small sample', input, ['--sample', '1']],
  ] as [string, string, string[]][]) {
    test(`${what}: a misspelt --type column is UNKNOWN_COLUMN naming the nearest column, and no output is left`, async () => {
      if (file.endsWith('.json')) fs.writeFileSync(file, JSON.stringify([{ id: 1, type: 'a' }, { id: 2, type: 'b' }]));
      const out = at(`typo-${what.length}.parquet`);
      const r = await run('convert', file, out, ...argv, '--type', 'typ=string');
      expect(r.code).toBe(1);
      expect(r.err).toEqual(["parquetry: UNKNOWN_COLUMN: --type names 'typ', which no row of the input has (did you mean 'type'?); the output is not written"]);
      expect(fs.existsSync(out)).toBe(false);
    });
  }

  test('a --type column some row has, even only after the sample and only as null, is kept', async () => {
    const r = await run('convert', input, at('late.parquet'), '--sample', '2', '--type', 'late=int32');
    expect(r).toEqual({ code: 0, err: [] });
    const f = await openFile(at('late.parquet'));
    try {
      expect((await f.readRows()).map((row) => row['late'])).toEqual([null, null, null]);
    } finally {
      await f.close();
    }
  });

  test('a --schema file may list columns the input lacks (a whole schema): they are added as nulls', async () => {
    const schema = at('schema.json');
    fs.writeFileSync(schema, JSON.stringify({ id: { type: 'int64' }, type: { type: 'string' }, extra: { type: 'double' } }));
    const r = await run('convert', input, at('schema.parquet'), '--schema', schema);
    expect(r).toEqual({ code: 0, err: [] });
    const f = await openFile(at('schema.parquet'));
    try {
      expect(f.schema.columns.map((c) => c.path.join('.'))).toEqual(['id', 'type', 'late', 'extra']);
      expect((await f.readRows()).map((row) => row['extra'])).toEqual([null, null, null]);
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
