/**
 * The reading commands on a directory: DuckDB writes a hive-partitioned dataset in two COPYs whose schemas differ
 * (a column added, INTEGER widened to BIGINT, a null partition, a date partition), and `cat`, `head`, `tail`, `count`
 * and `schema` read it as one dataset, with the same rows as DuckDB's
 * `read_parquet('dir/**\/*.parquet', hive_partitioning = true, union_by_name = true)` (filters on partition and data
 * columns included); `--stats` shows the partition pruning; `meta` summarizes the dataset (checked against the file
 * system's listing and DuckDB's `count(*)`, `parquet_metadata` and `DESCRIBE`); the commands that read one file
 * refuse a directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeDataset } from '../src/node.js';
import { canon, duckRows, duckdb, lit, parseCsv, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-dataset-'));
const root = path.join(dir, 'sales');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  await db.run(`COPY (SELECT i::INTEGER AS id, (i * 1.25)::DOUBLE AS amount, CASE WHEN i % 9 = 0 THEN NULL ELSE 'r' || (i % 3) END AS region,
      DATE '2024-01-01' + (i % 2)::INTEGER AS day FROM range(0, 90) t(i)) TO ${lit(root)} (FORMAT parquet, PARTITION_BY (region, day), ROW_GROUP_SIZE 16)`);
  await db.run(`COPY (SELECT (1000 + i)::BIGINT AS id, i / 3 AS amount, 'note ' || i AS note, 'r1' AS region, DATE '2024-01-02' AS day
      FROM range(0, 20) t(i)) TO ${lit(root)} (FORMAT parquet, PARTITION_BY (region, day), FILENAME_PATTERN 'v2_{i}', OVERWRITE_OR_IGNORE true)`);
});

const all = `read_parquet(${lit(`${root}/**/*.parquet`)}, hive_partitioning = true, union_by_name = true)`;
const COLS = ['id', 'amount', 'note', 'region', 'day'];

/** DuckDB's rows of a query, each as canonical text per column, sorted. */
async function theirs(where: string): Promise<string[]> {
  const { types, names, rows } = await duckRows(`SELECT ${COLS.join(', ')} FROM ${all} WHERE ${where}`);
  return rows.map((r) => JSON.stringify(COLS.map((c) => canon(r[c], types[names.indexOf(c)]!, 'duck')))).sort();
}

/** Our NDJSON lines as the same canonical text (typed by DuckDB's column types). */
async function ours(lines: readonly string[]): Promise<string[]> {
  const { types, names } = await duckRows(`SELECT ${COLS.join(', ')} FROM ${all} LIMIT 0`);
  return lines.map((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify(COLS.map((c) => canon(o[c] ?? null, types[names.indexOf(c)]!, 'ours')));
  }).sort();
}

describe('several files read as one dataset', () => {
  /** The dataset's files below region=r1, old and new (the second COPY's add the note column), as paths. */
  function r1Files(): string[] {
    return fs
      .readdirSync(path.join(root, 'region=r1'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.parquet'))
      .sort()
      .map((f) => path.join(root, 'region=r1', f));
  }

  test('cat a b …: the files in the order given, schemas unified, partitions from their paths: DuckDB read_parquet([…]) rows', async () => {
    const files = r1Files();
    expect(files.length).toBeGreaterThan(2);
    const given = [...files].reverse();
    const list = `read_parquet([${given.map(lit).join(', ')}], hive_partitioning = true, union_by_name = true)`;
    const { types, names, rows } = await duckRows(`SELECT ${COLS.join(', ')} FROM ${list}`);
    const expected = rows.map((r) => JSON.stringify(COLS.map((c) => canon(r[c], types[names.indexOf(c)]!, 'duck')))).sort();
    const r = await run('cat', ...given, '--format', 'ndjson');
    expect(r.err).toEqual([]);
    expect(await ours(r.out)).toEqual(expected);
    // file order: the first file given comes first (read alone it lacks the partition columns: compare the ids)
    const first = await run('cat', given[0]!, '--format', 'ndjson');
    expect(first.out.length).toBeGreaterThan(0);
    expect(r.out.slice(0, first.out.length).map((l) => (JSON.parse(l) as { id: unknown }).id)).toEqual(first.out.map((l) => (JSON.parse(l) as { id: unknown }).id));
    const c = await run('count', ...given);
    expect(c.out).toEqual([String(expected.length)]);
    const w = await run('count', ...given, '--where', 'note is not null');
    expect(w.out).toEqual([String(Number((await duckRows(`SELECT count(*) AS n FROM ${list} WHERE note IS NOT NULL`)).rows[0]!['n']))]);
  });

  test('schema and meta of several files; a missing file or a directory among them is an error', async () => {
    const files = r1Files();
    const schema = await run('schema', ...files);
    expect(schema.out.slice(1).map((l) => l.trim().split(' ').slice(0, 3).join(' '))).toEqual(['optional INT64 id', 'optional DOUBLE amount', 'optional BYTE_ARRAY note', 'optional BYTE_ARRAY region', 'optional INT32 day']);
    const meta = await run('meta', ...files);
    expect(meta.code).toBe(0);
    const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
    expect(meta.out[0]).toBe(`dataset: the files given, ${files.length} files, ${bytes} bytes`);
    const missing = await run('count', files[0]!, path.join(root, 'nope.parquet'));
    expect(missing.code).toBe(1);
    expect(missing.err).toEqual([expect.stringMatching(/^parquetry: cannot open '.*nope\.parquet': ENOENT/)]);
    const dir = await run('count', files[0]!, root);
    expect(dir.code).toBe(2);
    expect(dir.err[0]).toMatch(/is a directory: several arguments are read as one dataset of files/);
    // the commands that read one file still take one
    const stats = await run('stats', files[0]!, 'id', 'extra');
    expect(stats.code).toBe(2);
  });
});

describe('a directory read as one dataset', () => {
  test('schema: the unified schema (BIGINT id, the added note), the partition columns last', async () => {
    const r = await run('schema', root);
    expect(r.code).toBe(0);
    expect(r.out.slice(1).map((l) => l.trim().split(' ').slice(0, 3).join(' '))).toEqual([
      'optional INT64 id',
      'optional DOUBLE amount',
      'optional BYTE_ARRAY note',
      'optional BYTE_ARRAY region',
      'optional INT32 day',
    ]);
  });

  const filters: [string, string][] = [
    ['', 'true'],
    [`region = 'r1'`, `region = 'r1'`],
    [`region is null`, `region IS NULL`],
    [`day >= '2024-01-02' and id < 50`, `day >= DATE '2024-01-02' AND id < 50`],
    [`note is not null`, `note IS NOT NULL`],
  ];
  for (const [where, sql] of filters) {
    test(`cat --format ndjson${where ? ` --where "${where}"` : ''}: DuckDB's rows; count agrees`, async () => {
      const r = await run('cat', root, '--format', 'ndjson', ...(where ? ['--where', where] : []));
      expect(r.err).toEqual([]);
      const expected = await theirs(sql);
      expect(r.out.length).toBe(expected.length);
      expect(await ours(r.out)).toEqual(expected);
      const c = await run('count', root, ...(where ? ['--where', where] : []));
      expect(c.out).toEqual([String(expected.length)]);
    });
  }

  test('head, tail and --offset take rows in file order; csv prints dates as YYYY-MM-DD', async () => {
    const full = (await run('cat', root, '--format', 'ndjson')).out;
    expect(full.length).toBe(110);
    expect((await run('head', root, '-n', '4', '--format', 'ndjson')).out).toEqual(full.slice(0, 4));
    expect((await run('tail', root, '-n', '3', '--format', 'ndjson')).out).toEqual(full.slice(-3));
    expect((await run('tail', root, '-n', '3', '--offset', '5', '--format', 'ndjson')).out).toEqual(full.slice(-8, -5));
    expect((await run('cat', root, '--offset', '100', '-n', '4', '--format', 'ndjson')).out).toEqual(full.slice(100, 104));
    const csv = parseCsv((await run('head', root, '-n', '2', '--format', 'csv', '--columns', 'id,day')).out.join('\n'));
    expect(csv[0]).toEqual(['id', 'day']);
    expect(csv.slice(1).every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[1] ?? ''))).toBe(true);
  });

  test('meta --json --raw is a usage error, as for a file', async () => {
    const r = await run('meta', root, '--json', '--raw');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['parquetry: meta --json prints JSON-safe values; --raw is for the text form']);
  });

  test('count without --where sums the footers, reading no page; --exact counts the rows in the pages', async () => {
    const expected = String(Number((await duckRows(`SELECT count(*) AS n FROM ${all}`)).rows[0]!['n']));
    const files = fs.readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length;
    const footer = await run('count', root, '--stats');
    expect(footer.out).toEqual([expected]);
    // opening the dataset read every footer; nothing past them
    expect(footer.err[0]).toBe(`scan: files 0 read of ${files}, skipped 0 by partition, 0 by statistics; ${files} footers fetched`);
    const exact = await run('count', root, '--exact', '--stats');
    expect(exact.out).toEqual([expected]);
    expect(exact.err[0]).toMatch(new RegExp(`^scan: files ${files} read of ${files},`));
  });

  test('--stats: the files a partition filter rules out are never read', async () => {
    const r = await run('count', root, '--where', `region = 'r2'`, '--stats');
    const files = fs.readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length;
    const r2 = fs.readdirSync(path.join(root, 'region=r2'), { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length;
    expect(r.err[0]).toBe(`scan: files ${r2} read of ${files}, skipped ${files - r2} by partition, 0 by statistics; 0 footers fetched`);
  });

  test('the commands that read one file refuse a directory, naming the ones that read it (exit 2)', async () => {
    for (const cmd of [['stats', 'id'], ['pages'], ['bloom', 'id', '1']]) {
      const r = await run(cmd[0]!, root, ...cmd.slice(1));
      expect(r.code).toBe(2);
      expect(r.err).toEqual([`parquetry: '${root}' is a directory: ${cmd[0]} reads one file (cat, head, tail, count, schema and meta read a directory as a dataset)`]);
    }
  });
});

/** The data files below a directory (relative paths, `/`-separated, sorted) with their sizes, from the file system. */
function listed(top: string): { path: string; bytes: number }[] {
  return fs
    .readdirSync(top, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.parquet'))
    .sort()
    .map((f) => ({ path: f, bytes: fs.statSync(path.join(top, f)).size }));
}

/** Each file's rows and row groups from DuckDB's parquet_metadata, by path below `top`. */
async function footerFacts(top: string): Promise<Map<string, { rows: number; rowGroups: number }>> {
  const { rows } = await duckRows(
    `SELECT file_name, count(*)::INTEGER AS groups, sum(n)::INTEGER AS rows FROM (SELECT DISTINCT file_name, row_group_id, row_group_num_rows AS n FROM parquet_metadata(${lit(`${top}/**/*.parquet`)})) GROUP BY file_name`,
  );
  return new Map(rows.map((r) => [path.relative(top, String(r['file_name'])).split(path.sep).join('/'), { rows: Number(r['rows']), rowGroups: Number(r['groups']) }]));
}

/** The partition values in a path's `key=value/` folders (null for `__HIVE_DEFAULT_PARTITION__`). */
function folders(file: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const seg of file.split('/').slice(0, -1)) {
    const [k, v] = seg.split('=') as [string, string];
    out[k] = v === '__HIVE_DEFAULT_PARTITION__' ? null : v;
  }
  return out;
}

/** DuckDB's column types as `meta DIR` names them. */
const TYPES: Record<string, string> = { BIGINT: 'int64', INTEGER: 'int32', DOUBLE: 'double', VARCHAR: 'string', DATE: 'date' };

interface MetaJson {
  path: string;
  schema_from: string;
  num_files: number;
  num_rows: number;
  num_row_groups: number;
  bytes: number;
  partitions: { name: string; type: string; num_values: number; values: unknown[] }[];
  columns: { name: string; type: string; partition: boolean }[];
  files: { path: string; rows: number; row_groups: number; bytes: number; partition: Record<string, unknown> }[];
}

describe('meta on a directory: a summary of the dataset', () => {
  test('--json: files, rows, row groups and bytes as the file system and DuckDB give them; partitions; the unified columns', async () => {
    const r = await run('meta', root, '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.out.join('\n')) as MetaJson;
    const files = listed(root);
    const facts = await footerFacts(root);
    const count = Number((await duckRows(`SELECT count(*) AS n FROM ${all}`)).rows[0]!['n']);
    expect(m.path).toBe(root);
    expect(m.schema_from).toBe('footers');
    expect(m.num_files).toBe(files.length);
    expect(m.num_rows).toBe(count);
    expect(m.num_row_groups).toBe([...facts.values()].reduce((a, f) => a + f.rowGroups, 0));
    expect(m.bytes).toBe(files.reduce((a, f) => a + f.bytes, 0));
    expect(m.files).toEqual(
      files.map((f) => ({ path: f.path, rows: facts.get(f.path)!.rows, row_groups: facts.get(f.path)!.rowGroups, bytes: f.bytes, partition: folders(f.path) })),
    );
    // the columns and their types as DuckDB's union_by_name read types them
    const described = (await duckRows(`DESCRIBE SELECT ${COLS.join(', ')} FROM ${all}`)).rows;
    expect(m.columns).toEqual(described.map((d) => ({ name: d['column_name'], type: TYPES[String(d['column_type'])], partition: d['column_name'] === 'region' || d['column_name'] === 'day' })));
    // the partition values DuckDB reads from the folders, sorted, null last
    for (const [name, type] of [['region', 'string'], ['day', 'date']] as const) {
      const values = (await duckRows(`SELECT DISTINCT ${name}::VARCHAR AS v FROM ${all} ORDER BY v NULLS LAST`)).rows.map((x) => x['v'] ?? null);
      expect(m.partitions.find((x) => x.name === name)).toEqual({ name, type, num_values: values.length, values });
    }
    expect(m.partitions.map((x) => x.name)).toEqual(['region', 'day']);
  });

  test('text: the same facts, one line per file with its partition values', async () => {
    const r = await run('meta', root);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const files = listed(root);
    const facts = await footerFacts(root);
    const count = Number((await duckRows(`SELECT count(*) AS n FROM ${all}`)).rows[0]!['n']);
    const groups = [...facts.values()].reduce((a, f) => a + f.rowGroups, 0);
    const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
    const q = (v: string | null | undefined): string => (v === null || v === undefined ? 'null' : JSON.stringify(v));
    expect(r.out).toEqual([
      `dataset: ${root}, ${files.length} files, ${files.reduce((a, f) => a + f.bytes, 0)} bytes`,
      `rows: ${count}, row groups: ${groups}, columns: 5 (3 in the files, 2 from folders)`,
      `schema: unified from the files' footers`,
      'partition columns: 2',
      '  region: string, 4 values: "r0", "r1", "r2", null',
      '  day: date, 2 values: "2024-01-01", "2024-01-02"',
      'columns: 5',
      '  id: int64',
      '  amount: double',
      '  note: string',
      '  region: string (partition)',
      '  day: date (partition)',
      `files: ${files.length}`,
      ...files.map((f) => {
        const { rows, rowGroups } = facts.get(f.path)!;
        const p = folders(f.path);
        return `  ${f.path}: ${plural(rows, 'row')}, ${plural(rowGroups, 'row group')}, ${f.bytes} bytes; region ${q(p['region'])}, day ${q(p['day'])}`;
      }),
    ]);
  });

  test('many files: the first 50 lines then how many more; --json lists them all; many partition values as a range', async () => {
    const many = path.join(dir, 'many');
    await (await duckdb()).run(`COPY (SELECT i AS v, i % 60 AS k FROM range(0, 600) t(i)) TO ${lit(many)} (FORMAT parquet, PARTITION_BY (k))`);
    const files = listed(many);
    expect(files.length).toBe(60);
    const r = await run('meta', many);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  k: int64, 60 values: 0 … 59');
    const lines = r.out.slice(r.out.indexOf('files: 60') + 1);
    expect(lines.length).toBe(51);
    // path order: k=0, k=1, k=10, k=11, …
    expect(lines.slice(0, 50).map((l) => l.slice(2, l.indexOf(':')))).toEqual(files.slice(0, 50).map((f) => f.path));
    expect(lines[50]).toBe('  … 10 more files (--json lists every file)');
    const m = JSON.parse((await run('meta', many, '--json')).out.join('\n')) as MetaJson;
    expect(m.files.map((f) => f.path)).toEqual(files.map((f) => f.path));
    expect(m.num_rows).toBe(600);
    expect(m.partitions).toEqual([{ name: 'k', type: 'int64', num_values: 60, values: Array.from({ length: 60 }, (_, i) => i) }]);
    expect(m.files.every((f) => f.rows === 10 && f.partition['k'] === Number(/k=(\d+)/.exec(f.path)![1]))).toBe(true);
  });

  test('a stale _metadata (a file added after it): meta says it was not used; count and rows are DuckDB\'s', async () => {
    const stale = path.join(dir, 'stale');
    const rows = Array.from({ length: 90 }, (_, i) => ({ id: i, year: 2020 + (i % 3) }));
    await writeDataset(rows, stale, { partitionBy: ['year'], summary: true });
    // a file written into a partition after the summary
    const { writeFile } = await import('../src/node.js');
    await writeFile(path.join(stale, 'year=2021', 'late-0.parquet'), [{ id: 1000 }]);
    const meta = await run('meta', stale);
    expect(meta.code).toBe(0);
    expect(meta.out).toContainEqual(expect.stringMatching(/^summary: not used, _metadata is stale: 1 data file not in it/));
    const json = JSON.parse((await run('meta', stale, '--json')).out.join('\n')) as { summary_ignored: { reason: string } | null; num_rows: number };
    expect(json.summary_ignored?.reason).toBe('files differ');
    const n = Number((await duckRows(`SELECT count(*) AS n FROM read_parquet(${lit(`${stale}/**/*.parquet`)})`)).rows[0]!['n']);
    expect(n).toBe(91);
    expect(json.num_rows).toBe(n);
    expect((await run('count', stale)).out).toEqual([String(n)]);
  });

  test('a dataset planned from _metadata: the summary gives the footers, the file system the sizes', async () => {
    const planned = path.join(dir, 'planned');
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, flag: i % 2 === 0, year: 2020 + (i % 3) }));
    await writeDataset(rows, planned, { partitionBy: ['year'], maxRowsPerFile: 100, rowGroupRows: 30, summary: true });
    expect(fs.existsSync(path.join(planned, '_metadata'))).toBe(true);
    const m = JSON.parse((await run('meta', planned, '--json')).out.join('\n')) as MetaJson;
    const files = listed(planned);
    const facts = await footerFacts(planned);
    expect(m.schema_from).toBe('_metadata');
    expect(m.num_rows).toBe(Number((await duckRows(`SELECT count(*) AS n FROM read_parquet(${lit(`${planned}/**/*.parquet`)})`)).rows[0]!['n']));
    expect(m.bytes).toBe(files.reduce((a, f) => a + f.bytes, 0));
    expect(m.files).toEqual(
      files.map((f) => ({ path: f.path, rows: facts.get(f.path)!.rows, row_groups: facts.get(f.path)!.rowGroups, bytes: f.bytes, partition: { year: Number(folders(f.path)['year']) } })),
    );
    expect(m.num_row_groups).toBeGreaterThan(m.num_files);
    expect(m.partitions).toEqual([{ name: 'year', type: 'int64', num_values: 3, values: [2020, 2021, 2022] }]);
    expect((await run('meta', planned)).out[2]).toBe('schema: from _metadata');
  });

  test('a directory without folders: no partition columns', async () => {
    const flat = path.join(dir, 'flat');
    fs.mkdirSync(flat);
    await (await duckdb()).run(`COPY (SELECT 1 AS a) TO ${lit(path.join(flat, 'one.parquet'))} (FORMAT parquet)`);
    const r = await run('meta', flat);
    expect(r.out.slice(1, 7)).toEqual(['rows: 1, row groups: 1, columns: 1 (1 in the files, 0 from folders)', `schema: unified from the files' footers`, 'partition columns: none', 'columns: 1', '  a: int32', 'files: 1']);
    expect(r.out[7]).toMatch(/^ {2}one\.parquet: 1 row, 1 row group, \d+ bytes$/);
    // the value options are checked as a file's meta checks them
    const bad = await run('meta', flat, '--binary', 'b64');
    expect([bad.code, bad.err]).toEqual([2, [`parquetry: --binary is base64, hex or utf8, not 'b64'`]]);
  });
});
