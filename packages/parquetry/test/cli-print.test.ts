/**
 * How the command line prints values as text, on files DuckDB writes: a FLOAT or DOUBLE negative zero keeps its sign
 * in every format (DuckDB prints `-0.0`; we print `-0`, JSON included: RFC 8259's grammar has `-0` and
 * `JSON.parse('-0')` is -0); a TIME adjusted to UTC prints with `Z`, as a UTC-adjusted timestamp does (DuckDB reads it
 * as TIMETZ and prints `+00`), and `--where` takes the printed text back; a file's control characters (ESC, C1, bidi
 * overrides) in names, metadata and values never reach the terminal raw from a human-readable printer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field } from '../src/index.js';
import { writeFile } from '../src/node.js';
import { clock, duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-print-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const zeros = path.join(dir, 'zeros.parquet');
const times = path.join(dir, 'times.parquet');
const ourTimes = path.join(dir, 'our-times.parquet');
const evil = path.join(dir, 'evil.parquet');
// an OSC that retitles the window, a colour, a right-to-left override, a C1 CSI that clears the screen, NEL
const E = '\x1b]0;pwned\x07\x1b[31m';
const NAME = `n${E}x`;
const CELL = `v${E}\u202eabc\u009b2J\ttab`;
/** Any character a terminal acts on (C0 but for none, DEL, C1, bidi formatting, U+2028/9). */
// eslint-disable-next-line no-control-regex
const ACTS = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

beforeAll(async () => {
  const db = await duckdb();
  await db.run(`COPY (
    SELECT i, CASE WHEN i = 0 THEN '-0'::DOUBLE ELSE i::DOUBLE END AS d, '-0'::FLOAT AS f, ['-0'::DOUBLE, 1.5] AS l
    FROM range(2) t(i)
  ) TO ${lit(zeros)} (FORMAT parquet)`);
  await db.run(`COPY (
    SELECT TIMETZ '12:34:56.789+00' AS ttz, TIME '01:02:03.5' AS t, TIMESTAMPTZ '2024-01-01 00:00:00+00' AS tstz, [TIMETZ '01:00:00+00'] AS lt
  ) TO ${lit(times)} (FORMAT parquet)`);
  // our writer records statistics for TIME columns (DuckDB does not for TIMETZ)
  await writeFile(evil, [{ [NAME]: CELL, ok: 1 }], {
    schema: { [NAME]: field.string(), ok: field.int32() },
    keyValueMetadata: { [`k${E}`]: `val${E}\u202e\u0085` },
    createdBy: `me${E}`,
  });
  await writeFile(ourTimes, [{ tu: 45296789000n, tm: 3723500 }, { tu: 3600000000n, tm: 1000 }], { schema: { tu: field.time('micros', { utc: true }), tm: field.time('millis', { utc: true }) } });
});

/** Whether a printed number is negative zero. */
const negativeZero = (v: unknown): boolean => Object.is(typeof v === 'string' ? Number(v) : v, -0);

describe('a negative zero keeps its sign (QA helper-85 F3: it printed as 0)', () => {
  test('DuckDB reads the file as -0.0', async () => {
    const { rows } = await duckRows(`SELECT d::VARCHAR AS d, f::VARCHAR AS f, l::VARCHAR AS l FROM read_parquet(${lit(zeros)}) ORDER BY i`);
    expect(rows[0]).toEqual({ d: '-0.0', f: '-0.0', l: '[-0.0, 1.5]' });
  });

  for (const raw of [[], ['--raw']]) {
    test(`ndjson and json${raw.length ? ' with --raw' : ''}: -0, read back as -0`, async () => {
      const nd = await run('cat', zeros, '-f', 'ndjson', ...raw);
      expect(nd.code).toBe(0);
      expect(nd.out[0]).toBe('{"i":0,"d":-0,"f":-0,"l":[-0,1.5]}');
      const row = JSON.parse(nd.out[0]!) as { d: number; f: number; l: number[] };
      expect([negativeZero(row.d), negativeZero(row.f), negativeZero(row.l[0])]).toEqual([true, true, true]);
      const js = await run('cat', zeros, '-f', 'json', ...raw);
      const rows = JSON.parse(js.out.join('\n')) as { d: number; f: number }[];
      expect(negativeZero(rows[0]!.d) && negativeZero(rows[1]!.f)).toBe(true);
      expect(negativeZero(rows[1]!.d)).toBe(false);
    });
  }

  test('csv and table cells: -0', async () => {
    const csv = parseCsv((await run('cat', zeros, '-f', 'csv')).out.join('\n'));
    expect(csv[1]).toEqual(['0', '-0', '-0', '[-0,1.5]']);
    const table = await run('cat', zeros, '-f', 'table');
    expect(table.out[3]!.trim().split(/\s+/)).toEqual(['0', '-0', '-0', '[-0,1.5]']);
  });

  test('stats and meta print a -0 bound as -0, meta --json too', async () => {
    const stats = await run('stats', zeros, 'f', '-f', 'csv');
    const cells = parseCsv(stats.out.join('\n'));
    const min = cells[0]!.indexOf('min');
    expect([cells[1]![min], cells[2]![min]]).toEqual(['-0', '-0']);
    const meta = await run('meta', zeros);
    expect(meta.out.filter((l) => /statistics: .*min -0/.test(l)).length).toBe(3);
    const json = JSON.parse((await run('meta', zeros, '--json')).out.join('\n')) as { row_groups: { columns: { statistics: { min: number } }[] }[] };
    expect(json.row_groups[0]!.columns.slice(1).map((c) => negativeZero(c.statistics.min))).toEqual([true, true, true]);
  });
});

describe('a TIME adjusted to UTC prints with Z, as a UTC timestamp does (QA helper-85 F13: no zone marker)', () => {
  test('DuckDB reads the column as TIMETZ at UTC', async () => {
    const { rows } = await duckRows(`SELECT ttz::VARCHAR AS ttz, t::VARCHAR AS t, tstz::VARCHAR AS tstz FROM read_parquet(${lit(times)})`);
    expect(rows[0]).toEqual({ ttz: '12:34:56.789+00', t: '01:02:03.5', tstz: '2024-01-01 00:00:00+00' });
  });

  test('every format: the UTC time and the UTC timestamp end in Z, the local time does not', async () => {
    const want = { ttz: '12:34:56.789000Z', t: '01:02:03.500000', tstz: '2024-01-01T00:00:00.000000Z', lt: ['01:00:00.000000Z'] };
    expect(JSON.parse((await run('cat', times, '-f', 'ndjson')).out[0]!)).toEqual(want);
    expect((JSON.parse((await run('cat', times, '-f', 'json')).out.join('\n')) as unknown[])[0]).toEqual(want);
    expect(parseCsv((await run('cat', times, '-f', 'csv')).out.join('\n'))[1]).toEqual([want.ttz, want.t, want.tstz, JSON.stringify(want.lt)]);
    const table = await run('cat', times, '-f', 'table');
    // the type line says UTC for the time as for the timestamp
    expect(table.out[1]!.split(/\s{2,}/)).toEqual(['time[us, UTC]', 'time[us]', 'timestamp[us, UTC]', 'list<time[us, UTC]>']);
    expect(table.out[3]!.split(/\s{2,}/)).toEqual([want.ttz, want.t, want.tstz, JSON.stringify(want.lt)]);
    // the same instant of the day as DuckDB's
    expect(clock(want.ttz.slice(0, -1))).toBe(clock('12:34:56.789'));
  });

  test('--where takes the printed text (with Z or +00:00) and the text without a zone', async () => {
    for (const v of ['12:34:56.789000Z', '12:34:56.789+00:00', '12:34:56.789']) expect((await run('count', times, '--where', `ttz = '${v}'`)).out).toEqual(['1']);
  });

  test('stats and meta bounds end in Z', async () => {
    const stats = parseCsv((await run('stats', ourTimes, 'tu', '-f', 'csv')).out.join('\n'));
    const [min, max] = [stats[0]!.indexOf('min'), stats[0]!.indexOf('max')];
    expect(stats.slice(1).map((r) => [r[min], r[max]])).toEqual([['01:00:00.000000Z', '12:34:56.789000Z'], ['01:00:00.000000Z', '12:34:56.789000Z']]);
    const meta = await run('meta', ourTimes);
    expect(meta.out.filter((l) => l.includes('statistics:'))).toEqual([
      '    statistics: nulls 0, min "01:00:00.000000Z", max "12:34:56.789000Z"',
      '    statistics: nulls 0, min "00:00:01.000Z", max "01:02:03.500Z"',
    ]);
    const json = JSON.parse((await run('meta', ourTimes, '--json')).out.join('\n')) as { row_groups: { columns: { statistics: { min: string; max: string } }[] }[] };
    expect(json.row_groups[0]!.columns.map((c) => [c.statistics.min, c.statistics.max])).toEqual([['01:00:00.000000Z', '12:34:56.789000Z'], ['00:00:01.000Z', '01:02:03.500Z']]);
  });
});

describe("a file's control characters are escaped in human-readable output (QA helper-85 F18: printed raw)", () => {
  test('DuckDB reads the name and the cell as written (the file holds them)', async () => {
    const { names, rows } = await duckRows(`SELECT * FROM read_parquet(${lit(evil)})`);
    expect(names[0]).toBe(NAME);
    expect(rows[0]![NAME]).toBe(CELL);
  });

  const TEXT: string[][] = [
    ['schema', evil],
    ['meta', evil],
    ['stats', evil, 'ok'],
    ['stats', evil, NAME],
    ['pages', evil],
    ['bloom', evil, 'ok', '1'],
    ['cat', evil, '-f', 'table'],
    ['head', evil, '-f', 'table', '--stats'],
    ['schema', evil, '--json'],
    ['meta', evil, '--json'],
    ['cat', evil, '-f', 'ndjson'],
    ['cat', evil, '-f', 'json', '--raw'],
    ['stats', evil, NAME, '-f', 'json'],
  ];
  test.each(TEXT.map((argv) => [`${argv[0]} FILE ${argv.slice(2).map((a) => JSON.stringify(a)).join(' ')}`, argv] as const))('%s: no control character on stdout or stderr', async (_title, argv) => {
    const r = await run(...argv);
    expect(r.code).toBe(0);
    // the --json forms are one write of several lines
    for (const line of [...r.out, ...r.err].flatMap((l) => l.split('\n'))) expect(line, JSON.stringify(line)).not.toMatch(ACTS);
  });

  test('the escapes: \\x1b below U+0100, \\u202e above, \\t; the text around them as it is', async () => {
    const schema = await run('schema', evil);
    expect(schema.out[1]).toBe('  optional BYTE_ARRAY n\\x1b]0;pwned\\x07\\x1b[31mx STRING');
    const meta = (await run('meta', evil)).out;
    expect(meta).toContain('created_by: me\\x1b]0;pwned\\x07\\x1b[31m');
    expect(meta).toContain('  k\\x1b]0;pwned\\x07\\x1b[31m: "val\\u001b]0;pwned\\u0007\\u001b[31m\\u202e\\x85"');
    const table = await run('cat', evil, '-f', 'table');
    expect(table.out[0]!.split(/\s{2,}/)).toEqual(['n\\x1b]0;pwned\\x07\\x1b[31mx', 'ok']);
    expect(table.out[3]!.split(/\s{2,}/)).toEqual(['v\\x1b]0;pwned\\x07\\x1b[31m\\u202eabc\\x9b2J\\ttab', '1']);
  });

  test('an error line naming the columns is escaped', async () => {
    const r = await run('stats', evil, 'zzzzzz');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['parquetry: stats: no column \'zzzzzz\' (columns: "n\\x1b]0;pwned\\x07\\x1b[31mx", ok)']);
  });

  test('JSON and NDJSON give the same strings back; CSV holds the bytes as DuckDB writes them', async () => {
    for (const argv of [['-f', 'ndjson'], ['-f', 'ndjson', '--raw']]) {
      const row = JSON.parse((await run('cat', evil, ...argv)).out[0]!) as Record<string, unknown>;
      expect(row).toEqual({ [NAME]: CELL, ok: 1 });
    }
    const meta = JSON.parse((await run('meta', evil, '--json')).out.join('\n')) as { created_by: string; key_value_metadata: { key: string; value: string }[] };
    expect([meta.created_by, meta.key_value_metadata]).toEqual([`me${E}`, [{ key: `k${E}`, value: `val${E}\u202e\u0085` }]]);
    const csv = await run('cat', evil, '-f', 'csv');
    expect(parseCsv(csv.out.join('\n'))).toEqual([[NAME, 'ok'], [CELL, '1']]);
    const copy = path.join(dir, 'evil.csv');
    await (await duckdb()).run(`COPY (SELECT * FROM read_parquet(${lit(evil)})) TO ${lit(copy)} (FORMAT csv)`);
    expect(fs.readFileSync(copy, 'utf8').split('\n').filter(Boolean)).toEqual(csv.out.map((l) => l));
  });
});
