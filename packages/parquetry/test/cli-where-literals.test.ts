/**
 * `--where` number literals cast to their column's type as DuckDB casts them (QA helper-86 F4): on a FLOAT column
 * DuckDB types `19.99` a DECIMAL and `3` an integer and casts them to FLOAT, so `x = 19.99` holds on the stored float
 * 19.99 and `x < 19.99` compares float(x) < float(19.99); a literal with an exponent (`1.999e1`) is a DOUBLE, against
 * which the float is widened (and `x = 1.999e1` holds on no float). The library's filter compares a number as a
 * double (pyarrow's rule, reading.md); the CLI rounds such a literal to float32 before it builds the filter.
 *
 * The file holds, for each literal, the float nearest to it and its two neighbouring floats (and the same values in a
 * DOUBLE column, where nothing is rounded); each expression is given to DuckDB's WHERE unchanged. Literals have at most
 * seven significant digits: beyond that DuckDB's DECIMAL → FLOAT cast is not correctly rounded (it divides
 * float(unscaled) by float(10^scale), or adds the parts), and it may pick the float next to the nearest one.
 *
 * On a DECIMAL column a literal with an exponent (`dec > 1e20`, QA helper-86 F5) was passed on as it was, and the
 * reader, which takes a decimal as digits with a sign and a point, refused the filter: the command failed with a usage
 * error. It is now written out exactly (`1e20` → `100000000000000000000`) and compared exactly, as every other literal
 * on a DECIMAL column is. DuckDB types such a literal DOUBLE and compares the decimal cast to a double: the two agree
 * on DECIMAL(9,2) and on DECIMAL(30,2) values that are distinct as doubles from the literals (checked against DuckDB
 * here), and differ where the decimal has more digits than a double holds (`dec30 = 3.7e18` holds on
 * 3700000000000000000.37 in DuckDB, not here; checked separately).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckIds, duckdb, lit, ourIds, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-where-literals-'));
const floats = path.join(dir, 'floats.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The float32 next to `f` towards +∞ (`step` 1) or -∞ (`step` -1). */
function nextFloat(f: number, step: 1 | -1): number {
  const a = new Float32Array([f]);
  const u = new Int32Array(a.buffer);
  if (f === 0) return step * 2 ** -149;
  u[0] = u[0]! + (f > 0 ? step : -step);
  return a[0]!;
}

const decimals = path.join(dir, 'decimals.parquet');

const FLOAT_LITERALS = ['19.99', '0.1', '-2.5', '0.3', '100.05', '-0.7', '16777217', '1234567', '3.402823', '0.0001234', '7'];

beforeAll(async () => {
  const values = FLOAT_LITERALS.flatMap((l) => {
    const f = Math.fround(Number(l));
    return [nextFloat(f, -1), f, nextFloat(f, 1)];
  });
  // each value as its double's text, read as a DOUBLE (exact) and cast to FLOAT (exact: it is a float)
  const rows = values.map((v, i) => `(${i}, '${String(v)}'::DOUBLE)`).join(', ');
  await (await duckdb()).run(`COPY (SELECT id::BIGINT AS id, v::FLOAT AS x, v AS y FROM (VALUES ${rows}) t(id, v)) TO ${lit(floats)} (FORMAT parquet, ROW_GROUP_SIZE 8)`);
  // dec9: -50.00 + 0.37 i (INT32); dec30: (i - 150) * 3.7e18 + 0.37 (FIXED_LEN_BYTE_ARRAY), -5.55e20 … 5.51e20
  await (await duckdb()).run(`COPY (
    SELECT i::BIGINT AS id,
      CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 37 - 5000) / 100)::DECIMAL(9, 2) END AS dec9,
      CASE WHEN i % 11 = 0 THEN NULL ELSE ((i - 150)::DECIMAL(30, 2) * 3700000000000000000 + 0.37)::DECIMAL(30, 2) END AS dec30
    FROM range(300) t(i)
  ) TO ${lit(decimals)} (FORMAT parquet, ROW_GROUP_SIZE 64)`);
});

describe('--where: a number literal compared with a FLOAT column is cast to FLOAT, as in DuckDB (QA helper-86 F4)', () => {
  test('x = 19.99 holds on the stored float 19.99 (one row), as in DuckDB', async () => {
    expect(await duckIds(floats, 'x = 19.99')).toEqual([1]);
    expect(await ourIds(floats, 'x = 19.99')).toEqual([1]);
  });

  for (const l of FLOAT_LITERALS) {
    for (const op of ['=', '!=', '<', '<=', '>', '>=']) {
      const where = `x ${op} ${l}`;
      test(where, async () => expect(await ourIds(floats, where)).toEqual(await duckIds(floats, where)));
    }
  }

  const MORE = [
    'x in (19.99, 0.1, 7, -2.5)',
    'x not in (19.99, 0.3)',
    'x between 0.1 and 19.99',
    'x not between -0.7 and 0.3',
    '19.99 <= x',
    '0.1 > x',
    'x = -19.99 or x = +0.1',
    'not (x < 0.3)',
    // the value printed for the float 19.99 (cat prints the double it widens to)
    'x = 19.989999771118164',
    // a literal with an exponent is a DOUBLE: the float is widened, and the literal 1.999e1 is no float
    'x = 1.999e1',
    'x < 1.999e1 and x > 19',
    'x = 1e-1',
    'x >= 1E-1 and x <= 0.1',
    // a DOUBLE column is compared as doubles
    'y = 19.99',
    'y < 19.99 and y > 19',
    'y in (0.1, 0.3, 7)',
  ];
  for (const where of MORE) {
    test(where, async () => expect(await ourIds(floats, where)).toEqual(await duckIds(floats, where)));
  }

  test('the literals select rows near them (the cases are not vacuous)', async () => {
    expect(await duckIds(floats, 'x = 0.1')).toEqual([4]);
    expect(await duckIds(floats, 'x < 0.1 and x > 0.09')).toEqual([3]);
    expect(await duckIds(floats, 'x = 1.999e1')).toEqual([]);
  });

  test('property: a literal of up to 7 significant digits near the stored floats selects the rows DuckDB selects', async () => {
    const literal = fc
      .tuple(fc.constantFrom(...FLOAT_LITERALS), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 1, max: 7 }))
      .map(([l, k, digits]) => {
        let f = Math.fround(Number(l));
        for (let i = 0; i < Math.abs(k); i++) f = nextFloat(f, k < 0 ? -1 : 1);
        const s = f.toPrecision(digits);
        // a plain decimal (toPrecision writes an exponent for large and small values)
        return /e/.test(s) ? Number(s).toFixed(Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(Number(s)) || 1)))) : s;
      });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('=', '!=', '<', '<=', '>', '>='), literal, async (op, l) => {
        const where = `x ${op} ${l}`;
        expect(await ourIds(floats, where)).toEqual(await duckIds(floats, where));
      }),
      { numRuns: 80 },
    );
  });
});

describe('--where: a literal with an exponent on a DECIMAL column is written out exactly (QA helper-86 F5)', () => {
  const CASES = [
    'dec9 > 1.5e1',
    'dec9 = 5.5e0',
    'dec9 = 55E-1',
    'dec9 != 5.5e0',
    'dec9 = 2.4e+1',
    'dec9 in (-1.3e1, 2.4E1, 5.5)',
    'dec9 not in (-1.3e1, 2.4E1)',
    'dec9 < -4.9e1',
    'dec9 <= -1.3e1',
    'dec9 between 5e0 and 6e0',
    'not (dec9 > 1e1)',
    '1e1 < dec9',
    "dec9 = '5.5e0'",
    'dec9 > 1e-400',
    'dec9 <= 1e-400',
    'dec9 < 1e400',
    'dec9 > -1e400',
    'dec30 > 1e20',
    'dec30 <= 1E20',
    'dec30 < -2.5e20',
    'dec30 >= 3.75e18',
    'dec30 between -1e19 and 1e19',
    'dec30 in (1e20, 3.70000000000000000037e18)',
    'dec30 > 5.5e20 or dec30 < -5.5e+20',
    'dec30 < 1e40',
  ];
  for (const where of CASES) {
    test(where, async () => expect(await ourIds(decimals, where)).toEqual(await duckIds(decimals, where)));
  }

  test('the cases select rows (not vacuous)', async () => {
    let nonEmpty = 0;
    for (const where of CASES) if ((await duckIds(decimals, where)).length > 0) nonEmpty++;
    expect(nonEmpty).toBe(CASES.length);
  });

  test('compared exactly: 3.7e18 is 3700000000000000000, not the value 3700000000000000000.37 (DuckDB compares doubles there)', async () => {
    // DuckDB: the decimal cast to a double equals the double 3.7e18
    expect(await duckIds(decimals, 'dec30 = 3.7e18')).toEqual([151]);
    expect(await ourIds(decimals, 'dec30 = 3.7e18')).toEqual([]);
    expect(await ourIds(decimals, 'dec30 = 3.70000000000000000037e18')).toEqual([151]);
    expect(await ourIds(decimals, '37e17 < dec30 and dec30 < 3.7000000000000000004e18')).toEqual([151]);
    // the same as its digits written out
    expect(await ourIds(decimals, 'dec30 > 3.7e18')).toEqual(await ourIds(decimals, 'dec30 > 3700000000000000000'));
  });

  test('an exponent of any size: a number past every value, or between 0 and the smallest step', async () => {
    const all = await duckIds(decimals, 'dec30 is not null');
    const positive = await duckIds(decimals, 'dec30 > 0');
    expect(await ourIds(decimals, 'dec30 < 1e99999999999999999999')).toEqual(all);
    expect(await ourIds(decimals, 'dec30 = 1e99999999999999999999')).toEqual([]);
    expect(await ourIds(decimals, 'dec30 > -1e99999999999999999999')).toEqual(all);
    expect(await ourIds(decimals, 'dec30 > 1e-99999999999999999999')).toEqual(positive);
    expect(await ourIds(decimals, 'dec30 >= 1e-99999999999999999999')).toEqual(positive);
    expect(await ourIds(decimals, 'dec30 > -1e-99999999999999999999')).toEqual(await duckIds(decimals, 'dec30 >= 0'));
    expect(await ourIds(decimals, 'dec9 > 0e5')).toEqual(await duckIds(decimals, 'dec9 > 0'));
  });
});
