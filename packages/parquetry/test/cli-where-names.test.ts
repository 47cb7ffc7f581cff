/**
 * `--where` column names by DuckDB's identifier rules (QA finding F5): a double-quoted name is one field, dots and all
 * (`"a.b"` is the top-level field named `a.b`), an unquoted dotted name is a struct path (`a.b` is field `b` of struct
 * `a`), and the two mix (`s."x.y"`). The file has both a top-level `a.b` and a struct `a{b}` with different values
 * (before, `--where` joined the names with dots and the reader refused `'a.b'` as ambiguous, so neither column could
 * be filtered). Each expression is checked against DuckDB's WHERE on the same file, `cat` and `count`, the file and
 * the file read as a dataset. `--columns`, `stats`, `pages` and `bloom` take column names by the same rules (before,
 * `--columns a.b` failed with the reader's AMBIGUOUS_COLUMN, and `stats` took the first of the two).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckdb, lit, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-where-names-'));
const file = path.join(dir, 'names.parquet');
const datasetDir = path.join(dir, 'ds');
const F = lit(file);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  // "a.b": 0..199 (null every 13th row); a.b: 1199..1000 (a null every 17th); s."x.y" and s.x: two more fields alike
  await db.run(`COPY (
    SELECT i::BIGINT AS id,
      CASE WHEN i % 13 = 5 THEN NULL ELSE i::INTEGER END AS "a.b",
      CASE WHEN i % 17 = 3 THEN NULL ELSE {'b': (1199 - i)::INTEGER} END AS a,
      {'x.y': (i % 7)::INTEGER, 'x': (i % 5)::INTEGER} AS s
    FROM range(200) t(i)
  ) TO ${F} (FORMAT parquet, ROW_GROUP_SIZE 50)`);
  fs.mkdirSync(datasetDir);
  fs.copyFileSync(file, path.join(datasetDir, 'part-0.parquet'));
});

async function duckIds(where: string): Promise<number[]> {
  const r = await (await duckdb()).runAndReadAll(`SELECT id FROM read_parquet(${F}, file_row_number = true) WHERE ${where} ORDER BY file_row_number`);
  return r.getRows().map((row) => Number(row[0]));
}

async function ourIds(target: string, where: string): Promise<number[]> {
  const r = await run('cat', target, '--columns', 'id', '--where', where);
  expect(r.err, where).toEqual([]);
  expect(r.code, where).toBe(0);
  const ids = r.out.map((l) => (JSON.parse(l) as { id: number }).id);
  const c = await run('count', target, '--where', where);
  expect(c.err, `count --where ${where}`).toEqual([]);
  expect(c.out, `count --where ${where}`).toEqual([String(ids.length)]);
  return ids;
}

const CASES = [
  '"a.b" = 6',
  'a.b = 1006',
  '"a.b" = 1006',
  'a.b = 6',
  '"a.b" < 20 and a.b > 1185',
  '"a.b" in (3, 17, 1003) or a.b in (3, 1017)',
  '"a.b" is null',
  'a.b is null',
  'not ("a.b" > 10) and a.b is not null',
  '"a"."b" between 1100 and 1105',
  '"a".b >= 1195',
  's."x.y" = 3 and s.x = 1',
  `"s"."x.y" = 0 and id < 50`,
  '6 = "a.b"',
];

describe('--where: quoted names are one field, unquoted dots are struct paths, as in DuckDB', () => {
  test('the file: a top-level "a.b" beside a struct a with a field b', async () => {
    expect((await (await duckdb()).runAndReadAll(`SELECT "a.b", a.b FROM read_parquet(${F}) WHERE id = 1`)).getRows()).toEqual([[1, 1198]]);
  });

  for (const where of CASES) {
    test(where, async () => {
      const want = await duckIds(where);
      expect(await ourIds(file, where)).toEqual(want);
      expect(await ourIds(datasetDir, where)).toEqual(want);
    });
  }

  test('the expressions select rows, and the two a.b columns select different ones', async () => {
    for (const where of CASES.slice(0, 2)) expect((await duckIds(where)).length).toBeGreaterThan(0);
    expect(await duckIds('"a.b" = 6')).not.toEqual(await duckIds('a.b = 1006'));
    expect(await duckIds('a.b = 1006')).toEqual([193]);
  });
});

describe('--where: names that are not there say how to write them', () => {
  const errors: [string, RegExp][] = [
    // a struct path where the field's own name has the dot: quote it
    ['s.x.y = 1', /^parquetry: --where at character 1 \("s\.x\.y = 1"\): no column 's\.x\.y' \(a quoted name is one field, dots and all; unquoted dots separate a struct's fields\): did you mean 's\."x\.y"'\?$/],
    // a quoted name where the dots separate struct fields
    ['"a.c" = 1', /^parquetry: --where at character 1 \("\\"a\.c\\" = 1"\): no column '"a\.c"'/],
    ['"s.x" = 1', /no column '"s\.x"' \(a quoted name is one field, dots and all; unquoted dots separate a struct's fields\): did you mean 's\.x'\?$/],
    ['"a" = 1', /'a' is a group; conditions take a leaf column: a\.b$/],
    ['"a.b" = \'x\'', /column '"a\.b"' \(INT32 INTEGER\) takes a whole number, not 'x'/],
    ['"a.b" = null', /write '"a\.b" is null' or 'is not null'/],
  ];
  test.each(errors)('%s', async (where, message) => {
    const r = await run('count', file, '--where', where);
    expect(r.out).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.err.length).toBe(1);
    expect(r.err[0]).toMatch(message);
  });
});

describe('--columns, stats, pages and bloom take names by the same rules', () => {
  test('--columns: "a.b" the top-level field, a.b the struct\'s, s."x.y" a struct field with a dot, as DuckDB selects them', async () => {
    const r = await run('cat', file, '-n', '3', '--columns', 'id,"a.b",a.b,s."x.y"');
    expect(r.err).toEqual([]);
    const rows = (await (await duckdb()).runAndReadAll(`SELECT id, "a.b", a.b AS ab, s."x.y" AS xy FROM read_parquet(${F}) ORDER BY id LIMIT 3`)).getRows();
    expect(r.out.map((l) => JSON.parse(l) as unknown)).toEqual(rows.map(([id, top, ab, xy]) => ({ id: Number(id), 'a.b': top, a: { b: ab }, s: { 'x.y': xy } })));
    const ds = await run('cat', datasetDir, '-n', '1', '--columns', '"a.b"');
    expect(ds.out).toEqual(['{"a.b":0}']);
  });

  test('stats: "a.b" and a.b are the two columns (before: both the first)', async () => {
    const top = await run('stats', file, '"a.b"', '--format', 'csv');
    const nested = await run('stats', file, 'a.b', '--format', 'csv');
    expect(top.err).toEqual([]);
    expect(nested.err).toEqual([]);
    const all = (r: { out: string[] }) => r.out.find((l) => l.startsWith('all,'))!;
    const [min, max] = (await (await duckdb()).runAndReadAll(`SELECT min("a.b")::VARCHAR, max("a.b")::VARCHAR FROM read_parquet(${F})`)).getRows()[0]! as string[];
    expect(all(top)).toContain(`,${min},${max},`);
    const [nmin, nmax] = (await (await duckdb()).runAndReadAll(`SELECT min(a.b)::VARCHAR, max(a.b)::VARCHAR FROM read_parquet(${F})`)).getRows()[0]! as string[];
    expect(all(nested)).toContain(`,${nmin},${nmax},`);
  });

  test('pages and bloom find a quoted name', async () => {
    for (const args of [['pages', file, '"a.b"'], ['bloom', file, 's."x.y"', '3']]) {
      const r = await run(...args);
      expect([args, r.code, r.err]).toEqual([args, 0, []]);
    }
  });

  const errors: [string[], RegExp][] = [
    [['cat', file, '--columns', 's.x.y'], /^parquetry: --columns: no column 's\.x\.y' \(a quoted name is one field, dots and all; unquoted dots separate a struct's fields\): did you mean 's\."x\.y"'\?$/],
    [['stats', file, '"s.x"'], /^parquetry: stats: no column '"s\.x"' \(a quoted name is one field, .*\): did you mean 's\.x'\?$/],
    [['cat', file, '--columns', 'id,"a.b'], /^parquetry: --columns: a quoted column name is not closed in '"a\.b'/],
    [['pages', file, 's.x.y'], /^parquetry: pages: no column 's\.x\.y' \(a quoted name is one field, .*did you mean 's\."x\.y"'\?$/],
  ];
  test.each(errors)('%j', async (args, message) => {
    const r = await run(...args);
    expect(r.out).toEqual([]);
    expect(r.err.length).toBe(1);
    expect(r.err[0]).toMatch(message);
  });
});

describe('--where: unquoted names in any script, as DuckDB takes them (QA helper-84 F10)', () => {
  const uni = path.join(dir, 'unicode.parquet');
  beforeAll(async () => {
    // größe and café in composed form (NFC), 名前, Ωμέγα, 𠀀 (a CJK letter beyond U+FFFF), a struct field straße
    await (await duckdb()).run(`COPY (
      SELECT i::BIGINT AS id, i::INTEGER AS größe, 'n' || (i % 3) AS 名前, i * 2 AS café, (i % 4)::INTEGER AS Ωμέγα,
        (i % 5)::INTEGER AS 𠀀, {'straße': (i % 6)::INTEGER} AS s, (i % 7)::INTEGER AS _x1, i AS "a😀"
      FROM range(60) t(i)
    ) TO ${lit(uni)} (FORMAT parquet, ROW_GROUP_SIZE 25)`);
  });

  const CASES = [
    'größe > 50',
    "名前 = 'n1' and größe < 20",
    'café between 10 and 20',
    'Ωμέγα = 3 and 𠀀 = 4',
    '𠀀 in (1, 2) and id < 20',
    's.straße = 5',
    'not (s.straße < 4) and _x1 = 0',
    '(größe < 5 or größe > 55) and 名前 is not null',
    '3 = Ωμέγα and café > 100',
    '"a😀" > 57',
  ];
  for (const where of CASES) {
    test(where, async () => {
      const r = await (await duckdb()).runAndReadAll(`SELECT id FROM read_parquet(${lit(uni)}, file_row_number = true) WHERE ${where} ORDER BY file_row_number`);
      const want = r.getRows().map((row) => Number(row[0]));
      expect(want.length).toBeGreaterThan(0);
      expect(await ourIds(uni, where)).toEqual(want);
    });
  }

  test('--columns takes them too', async () => {
    const r = await run('cat', uni, '-n', '1', '--columns', 'größe,名前,s.straße,𠀀');
    expect(r.err).toEqual([]);
    expect(r.out).toEqual(['{"größe":0,"名前":"n0","s":{"straße":0},"𠀀":0}']);
  });

  // syntax errors keep their messages; a character counts once, beyond U+FFFF too
  const errors: [string, RegExp][] = [
    ['grösse > 8', /^parquetry: --where at character 1 \("grösse > 8"\): no column 'grösse' \(did you mean 'größe'\?\)$/],
    ['3größe > 8', /^parquetry: --where at character 1 \("3größe > 8"\): '3g…' is neither a number nor a name$/],
    ['größe > 3 §', /^parquetry: --where at character 11 \("größe > 3 §"\): unexpected character '§' \(U\+00A7; a name with it takes double quotes: "…"\)$/],
    ['a😀 > 8', /^parquetry: --where at character 2 \("a😀 > 8"\): unexpected character '😀' \(U\+1F600; a name with it takes double quotes: "…"\)$/],
    ['𠀀 = 1 and 𠀀 = x', /^parquetry: --where at character 15 \("𠀀 = 1 and 𠀀 = x"\): expected a value, found 'x' \(text takes single quotes: 'x'\)$/],
    ['名前 = n1', /^parquetry: --where at character 6 \("名前 = n1"\): expected a value, found 'n1'/],
    ['größe >', /^parquetry: --where at character 8 \("größe >"\): expected a value after '>', found the end$/],
    // the quoted text is cut between characters, never inside one (30 UTF-16 units after the place: a surrogate pair's middle)
    [`a${'𠀀'.repeat(20)} = 1`, new RegExp(`^parquetry: --where at character 1 \\("a${'𠀀'.repeat(14)}…"\\): no column 'a${'𠀀'.repeat(20)}'`, 'u')],
    // (20 units before the place: a pair's middle too)
    [`名前 = '${'𠀀'.repeat(12)}' and _x1 =  y`, new RegExp(`^parquetry: --where at character 32 \\("…${'𠀀'.repeat(4)}' and _x1 =  y"\\): expected a value, found 'y'`, 'u')],
  ];
  test.each(errors)('%s', async (where, message) => {
    const r = await run('count', uni, '--where', where);
    expect(r.out).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.err.length).toBe(1);
    expect(r.err[0]).toMatch(message);
  });
});
