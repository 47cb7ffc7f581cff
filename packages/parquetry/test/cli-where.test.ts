/**
 * `--where` against DuckDB's WHERE on the same DuckDB-written file: the rows `cat --where` prints and the number
 * `count --where` prints equal DuckDB's for comparison operators, and/or/not, IN, BETWEEN, IS [NOT] NULL, strings
 * with quotes, timestamps (local and UTC) and dates written as ISO text, decimals, doubles, booleans and struct
 * fields (dotted paths). The --where syntax is SQL's for these, so each expression is given to both unchanged (the
 * few that are not SQL carry their DuckDB spelling). A property test builds random and/or/not trees of such
 * predicates and compares the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckIds as duckIdsOf, duckdb, lit, ourIds as ourIdsOf, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-where-'));
const file = path.join(dir, 'w.parquet');
const F = lit(file);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  // UTC, so that DuckDB reads zone-less text for the TIMESTAMPTZ column as UTC, as --where does
  await db.run("SET TimeZone = 'UTC'");
  await db.run(`COPY (
    SELECT i::BIGINT AS id,
      CASE WHEN i % 11 = 0 THEN NULL WHEN i % 5 = 0 THEN 'it''s ' || (i % 13) ELSE 'n' || (i % 13) END AS name,
      TIMESTAMP '2024-01-01' + to_seconds(i * 3601) + to_microseconds(i) AS ts,
      TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i * 7200) AS tstz,
      DATE '2023-12-25' + (i // 10)::INTEGER AS d,
      CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 37 - 5000) / 100)::DECIMAL(10, 2) END AS price,
      ((i % 17) * 0.5 - 3)::DOUBLE AS f,
      (i % 3 = 0) AS flag,
      CASE WHEN i % 9 = 0 THEN NULL ELSE {'a': (i % 23)::INTEGER, 'b': CASE WHEN i % 4 = 0 THEN NULL ELSE 'b' || (i % 6) END} END AS s,
      (i % 100)::SMALLINT AS small
    FROM range(3000) t(i)
  ) TO ${F} (FORMAT parquet, ROW_GROUP_SIZE 1024)`);
});

/** The ids DuckDB selects with a WHERE clause from the test file. */
const duckIds = (where: string): Promise<number[]> => duckIdsOf(file, where);
/** The ids `cat --where` prints from the test file. */
const ourIds = (where: string): Promise<number[]> => ourIdsOf(file, where);

/** [our --where, DuckDB's WHERE] — one string when the text is the same SQL for both. */
const CASES: (string | [string, string])[] = [
  'id = 5',
  'id != 5 and id < 20',
  'id <> 7 and id <= 12',
  ['id == 9', 'id = 9'],
  'id > 2990',
  '2990 <= id',
  '-1 < id and id < 3',
  "name = 'it''s 5'",
  "name in ('n1', 'it''s 0', 'zz')",
  "name not in ('n1', 'n2') and id < 40",
  'name is null',
  'name is not null and id < 30',
  "name > 'n5'",
  "name = 'N1'",
  "ts >= '2024-01-10 00:00:00' and ts < '2024-01-11'",
  "ts = '2024-01-01 01:00:01.000001'",
  ["ts = '2024-01-01T01:00:01.000001'", "ts = '2024-01-01 01:00:01.000001'"],
  ["ts > timestamp '2024-04-01 10:00:00'", "ts > TIMESTAMP '2024-04-01 10:00:00'"],
  ["tstz between '2024-01-05T00:00:00Z' and '2024-01-06T00:00:00Z'", "tstz between '2024-01-05 00:00:00+00' and '2024-01-06 00:00:00+00'"],
  "tstz > '2024-03-01 12:00:00+02:00'",
  "tstz <= '2024-01-02'",
  "d = '2024-01-01'",
  ["d < date '2023-12-27'", "d < DATE '2023-12-27'"],
  "d between '2024-02-01' and '2024-02-03'",
  'price > 10.5',
  'price between -1 and 1',
  'price = -50',
  'price = 0.37',
  'price is null',
  'f < -2.5 or f = 4',
  'f >= 4.5',
  'flag = true and small < 10',
  'flag = false and id between 10 and 20',
  's.a = 3',
  "s.b = 'b1' and id < 100",
  's.b is null and id < 50',
  's.a is not null and s.a > 20',
  'not (id > 10) and id >= 0',
  "not (name = 'n1') and id < 40",
  'not (price > 0) and id < 200',
  '(id < 10 or id > 2990) and not (small in (1, 2, 3))',
  'id between 100 and 110 and not (price is null)',
  'id not between 5 and 2995',
  'ID > 10 AND id < 15 OR name IS NULL AND id < 40'.replace('ID', 'id'),
  'small in (1, 2) or (flag = true and id > 2980)',
];

describe('--where equals DuckDB WHERE', () => {
  for (const c of CASES) {
    const [ours, sql] = typeof c === 'string' ? [c, c] : c;
    test(ours, async () => {
      const want = await duckIds(sql);
      expect(await ourIds(ours)).toEqual(want);
    });
  }

  test('the expressions select rows (no case is vacuous across the set)', async () => {
    let nonEmpty = 0;
    for (const c of CASES) if ((await duckIds(typeof c === 'string' ? c : c[1])).length > 0) nonEmpty++;
    expect(nonEmpty).toBeGreaterThanOrEqual(CASES.length - 3);
  });

  test('head and tail with --where take the first and last matching rows', async () => {
    const want = await duckIds("name in ('n3', 'n4') and s.a > 5");
    const head = await run('head', file, '-n', '7', '--columns', 'id', '--where', "name in ('n3', 'n4') and s.a > 5");
    expect(head.out.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(want.slice(0, 7));
    const tail = await run('tail', file, '-n', '7', '--columns', 'id', '--where', "name in ('n3', 'n4') and s.a > 5");
    expect(tail.out.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(want.slice(-7));
    const off = await run('tail', file, '-n', '3', '--offset', '2', '--columns', 'id', '--where', "name in ('n3', 'n4') and s.a > 5");
    expect(off.out.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(want.slice(-5, -2));
  });

  test('property: random and/or/not trees of predicates select the rows DuckDB selects', async () => {
    const atoms = fc.oneof(
      fc.tuple(fc.constantFrom('=', '!=', '<', '<=', '>', '>='), fc.integer({ min: -5, max: 3005 })).map(([op, v]) => `id ${op} ${v}`),
      fc.tuple(fc.constantFrom('=', '<', '>='), fc.integer({ min: 0, max: 12 })).map(([op, v]) => `name ${op} 'n${v}'`),
      fc.subarray(['n1', 'n2', "it''s 5", "it''s 0", 'x'], { minLength: 1 }).map((vs) => `name in (${vs.map((v) => `'${v}'`).join(', ')})`),
      fc.constantFrom('name is null', 'name is not null', 'price is null', 's.b is null', 's.a is not null', 'flag = true', 'flag = false'),
      fc.tuple(fc.constantFrom('<', '>='), fc.integer({ min: -5000, max: 6000 })).map(([op, v]) => `price ${op} ${(v / 100).toFixed(2)}`),
      fc.tuple(fc.constantFrom('<', '>'), fc.integer({ min: 0, max: 240 })).map(([op, h]) => `ts ${op} '${new Date(Date.UTC(2024, 0, 1) + h * 3600 * 1000 * 12).toISOString().slice(0, 19).replace('T', ' ')}'`),
      fc.tuple(fc.constantFrom('<=', '>'), fc.integer({ min: 0, max: 300 })).map(([op, k]) => `d ${op} '${new Date(Date.UTC(2023, 11, 25) + k * 86400000).toISOString().slice(0, 10)}'`),
      fc.tuple(fc.constantFrom('=', '<', '>'), fc.integer({ min: 0, max: 22 })).map(([op, v]) => `s.a ${op} ${v}`),
      fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: 0, max: 8 })).map(([lo, w]) => `f between ${lo / 2} and ${(lo + w) / 2}`),
    );
    const tree: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atoms,
        fc.tuple(tie('e'), fc.constantFrom('and', 'or'), tie('e')).map(([a, op, b]) => `(${a} ${op} ${b})`),
        tie('e').map((a) => `not (${a})`),
      ),
    })).e;
    await fc.assert(
      fc.asyncProperty(tree, async (where) => {
        expect(await ourIds(where)).toEqual(await duckIds(where));
      }),
      { numRuns: 60 },
    );
  });
});
