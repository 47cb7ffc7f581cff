/**
 * The `parquetry` command line on the sample file the project ships, against DuckDB reading the same file: schema
 * (text and JSON), meta, count, head / tail / cat in every format, --version.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { openFile } from '../src/node.js';
import { canon, duckRows, duckdb, lit, parseCsv, repo, run, runWith, sample } from './cli-helpers.js';

const duck = async (sql: string) => (await (await duckdb()).runAndReadAll(sql)).getRowObjectsJS();
const S = lit(sample);

/** Our ndjson rows against DuckDB's rows of the same query, value by value. */
async function sameRows(ours: Record<string, unknown>[], sql: string): Promise<void> {
  const d = await duckRows(sql);
  expect(ours.length).toBe(d.rows.length);
  ours.forEach((row, i) => {
    expect(Object.keys(row)).toEqual(d.names);
    d.names.forEach((n, k) => expect(canon(row[n], d.types[k]!, 'ours'), `row ${i} ${n}`).toBe(canon(d.rows[i]![n], d.types[k]!, 'duck')));
  });
}

beforeAll(async () => {
  await duckdb();
});

describe('parquetry CLI on the sample file', () => {
  test('schema: one line per schema element, names, repetition and physical types as DuckDB reads them', async () => {
    const { code, out } = await run('schema', sample);
    expect(code).toBe(0);
    const want = await duck(`SELECT name, type, repetition_type FROM parquet_schema(${S})`);
    expect(out.length).toBe(want.length);
    expect(out[0]).toBe(`message ${String(want[0]!.name)}`);
    for (let i = 1; i < want.length; i++) {
      const w = want[i]!;
      const words = out[i]!.trim().split(' ');
      expect(words[0]).toBe(String(w.repetition_type).toLowerCase());
      expect(words[2]).toBe(String(w.name));
      if (w.type !== null) expect(words[1]).toBe(String(w.type));
    }
  });

  test('schema --json: the schema elements with the fields DuckDB reports', async () => {
    const { code, out } = await run('schema', sample, '--json');
    expect(code).toBe(0);
    const ours = JSON.parse(out.join('\n')) as Record<string, unknown>[];
    const want = await duck(`SELECT name, type, type_length, repetition_type, num_children, converted_type, scale, precision, field_id FROM parquet_schema(${S})`);
    expect(ours.length).toBe(want.length);
    want.forEach((w, i) => {
      for (const k of ['name', 'type', 'type_length', 'repetition_type', 'num_children', 'converted_type', 'scale', 'precision', 'field_id']) {
        const v = w[k];
        expect(ours[i]![k] ?? null, `${i} ${k}`).toEqual(v === null ? null : typeof v === 'bigint' ? Number(v) : v);
      }
    });
    expect(ours.find((e) => e['name'] === 'ts')!['logicalType']).toEqual({ TIMESTAMP: { isAdjustedToUTC: false, unit: { MICROS: {} } } });
  });

  test('meta: rows, row groups, and each chunk codec, encodings, sizes, statistics and bloom filter as DuckDB reads them', async () => {
    const { code, out } = await run('meta', sample);
    expect(code).toBe(0);
    const [f] = await duck(`SELECT num_rows, num_row_groups FROM parquet_file_metadata(${S})`);
    expect(out[0]).toBe(`file: ${sample}, ${fs.statSync(sample).size} bytes`);
    expect(out[1]).toMatch(new RegExp(`^rows: ${f!.num_rows}, row groups: ${f!.num_row_groups}, columns: 9, format version: 1$`));
    expect(out).toContain('key/value metadata: none');
    const chunks = await duck(
      `SELECT path_in_schema, compression, encodings, num_values, total_compressed_size, total_uncompressed_size, stats_null_count, stats_min_value, stats_max_value, bloom_filter_offset FROM parquet_metadata(${S}) ORDER BY row_group_id, column_id`,
    );
    const at = out.map((l, i) => [l, i] as const).filter(([l]) => /^ {2}\S/.test(l) && !l.startsWith('  sorted'));
    expect(at.length).toBe(chunks.length);
    chunks.forEach((c, k) => {
      const [line, i] = at[k]!;
      expect(line).toBe(`  ${String(c.path_in_schema).replaceAll(', ', '.')}: ${String(c.compression)} ${String(c.encodings).replaceAll(', ', ',')} ${c.num_values} values, ${c.total_compressed_size} / ${c.total_uncompressed_size} bytes`);
      const stats = out[i + 1]!;
      expect(stats).toMatch(new RegExp(`^ {4}statistics: nulls ${c.stats_null_count}, `));
      // the bounds as DuckDB prints them (numbers, strings quoted by us)
      const min = /min ("(?:[^"\\]|\\.)*"|\S+?),/.exec(stats)![1]!;
      const shown = min.startsWith('"') ? (JSON.parse(min) as string) : min;
      if (c.path_in_schema === 'ts') expect(shown.replace('T', ' ')).toBe(`${String(c.stats_min_value)}.000000`);
      else if (/^[\d.-]+$/.test(shown)) expect(Number(shown)).toBe(Number(c.stats_min_value));
      else expect(shown).toBe(String(c.stats_min_value));
      expect(out[i + 2]).toMatch(c.bloom_filter_offset === null ? /no bloom filter$/ : /; bloom filter \d+ bytes$/);
    });
  });

  test('meta --json: the footer as one object, equal to DuckDB parquet_file_metadata / parquet_metadata / parquet_kv_metadata', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-meta-json-'));
    const f = path.join(dir, 'm.parquet');
    await (await duckdb()).run(
      `COPY (SELECT i::BIGINT AS id, 'k' || (i % 7) AS cat, CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 0.5)::DOUBLE END AS x, 9007199254740993::BIGINT + i AS big FROM range(0, 3000) t(i))
        TO ${lit(f)} (FORMAT parquet, ROW_GROUP_SIZE 1000, KV_METADATA {owner: 'team-a', note: 'x'})`,
    );
    const r = await run('meta', f, '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    type Chunk = Record<string, unknown> & { statistics: Record<string, unknown> | null; bloom_filter: { offset: number; length: number | null } | null };
    const m = JSON.parse(r.out.join('\n')) as { file: string; bytes: number; num_rows: number; num_row_groups: number; created_by: string; format_version: number; encryption: unknown; key_value_metadata: { key: string; value: string }[]; row_groups: { num_rows: number; columns: Chunk[] }[] };
    const [fm] = await duck(`SELECT num_rows, num_row_groups, created_by, format_version FROM parquet_file_metadata(${lit(f)})`);
    expect([m.file, m.bytes, m.num_rows, m.num_row_groups, m.created_by, m.format_version, m.encryption]).toEqual([f, fs.statSync(f).size, Number(fm!.num_rows), Number(fm!.num_row_groups), fm!.created_by, Number(fm!.format_version), null]);
    const kv = await duck(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${lit(f)})`);
    expect(m.key_value_metadata.filter((e) => e.key === 'owner' || e.key === 'note').sort((a, b) => a.key.localeCompare(b.key))).toEqual(kv.filter((e) => e.key === 'owner' || e.key === 'note').sort((a, b) => String(a.key).localeCompare(String(b.key))));
    const chunks = await duck(
      `SELECT row_group_id, row_group_num_rows, path_in_schema, compression, encodings, num_values, total_compressed_size, total_uncompressed_size, data_page_offset, dictionary_page_offset,
         stats_null_count, stats_min_value, stats_max_value, bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${lit(f)}) ORDER BY row_group_id, column_id`,
    );
    const ours = m.row_groups.flatMap((g, i) => g.columns.map((c) => ({ g: i, rows: g.num_rows, c })));
    expect(ours.length).toBe(chunks.length);
    expect(m.num_row_groups).toBeGreaterThan(1);
    // DuckDB writes bloom filters for its dictionary-encoded chunks: the comparison below covers present and absent
    expect(ours.some(({ c }) => c.bloom_filter !== null) && ours.some(({ c }) => c.bloom_filter === null)).toBe(true);
    ours.forEach(({ g, rows, c }, k) => {
      const d = chunks[k]!;
      const n = (v: unknown) => (v === null ? null : Number(v));
      expect([g, rows, c['path'], c['codec'], (c['encodings'] as string[]).join(', '), c['num_values'], c['total_compressed_size'], c['total_uncompressed_size'], c['data_page_offset'], c['dictionary_page_offset']], `chunk ${k}`).toEqual([
        Number(d.row_group_id), Number(d.row_group_num_rows), d.path_in_schema, d.compression, d.encodings, Number(d.num_values), Number(d.total_compressed_size), Number(d.total_uncompressed_size), Number(d.data_page_offset), n(d.dictionary_page_offset),
      ]);
      expect(c.statistics!['null_count'], `chunk ${k}`).toBe(Number(d.stats_null_count));
      // bounds: numbers as DuckDB prints them, the int64 past 2^53 as its exact decimal text
      if (c['path'] === 'cat') expect([c.statistics!['min'], c.statistics!['max']]).toEqual([d.stats_min_value, d.stats_max_value]);
      else if (c['path'] === 'big') expect([c.statistics!['min'], c.statistics!['max']]).toEqual([String(d.stats_min_value), String(d.stats_max_value)]);
      else {
        expect([typeof c.statistics!['min'], typeof c.statistics!['max']]).toEqual(['number', 'number']);
        expect([c.statistics!['min'], c.statistics!['max']]).toEqual([Number(d.stats_min_value), Number(d.stats_max_value)]);
      }
      expect([c.statistics!['min_exact'], c.statistics!['max_exact']]).toEqual([true, true]);
      expect(c.bloom_filter === null ? null : [c.bloom_filter.offset, c.bloom_filter.length]).toEqual(d.bloom_filter_offset === null ? null : [Number(d.bloom_filter_offset), n(d.bloom_filter_length)]);
    });
    // the text form's value options: --raw does not mix with --json
    const raw = await run('meta', f, '--json', '--raw');
    expect(raw.code).toBe(2);
    expect(raw.err[0]).toMatch(/meta --json prints JSON-safe values; --raw is for the text form/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('--read-limit sets the reader\'s limits: a read within them works, one past them fails naming the option', async () => {
    const all = await run('count', sample, '--exact');
    expect(all.out).toEqual(['1000']);
    expect((await run('cat', sample, '--read-limit', 'maxRows=1000', '--format', 'ndjson')).out.length).toBe(1000);
    expect((await run('cat', sample, '--read-limit', 'maxRows=inf', '--read-limit', 'maxBytes=inf', '--format', 'ndjson')).out.length).toBe(1000);
    const over = await run('cat', sample, '--read-limit', 'maxRows=999', '--format', 'ndjson');
    expect(over.code).toBe(1);
    expect(over.err[0]).toMatch(/LIMIT_EXCEEDED: .*over its maxRows of 999 \(raise it with --read-limit maxRows=1024\)$/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-read-limit-'));
    try {
      const re = await run('rewrite', sample, path.join(dir, 'r.parquet'), '--read-limit', 'maxRows=999');
      expect(re.code).toBe(1);
      expect(re.err[0]).toMatch(/--read-limit maxRows=1024/);
      expect((await run('rewrite', sample, path.join(dir, 'r.parquet'), '--read-limit', 'maxRows=1000')).code).toBe(0);
      fs.writeFileSync(path.join(dir, 'a.csv'), 'x\n1\n');
      const csv = await run('convert', path.join(dir, 'a.csv'), path.join(dir, 'a.parquet'), '--read-limit', 'maxRows=5');
      expect(csv.code).toBe(2);
      expect(csv.err[0]).toMatch(/--read-limit is for a Parquet input/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('head: the first rows as JSON lines (JSON-safe values), equal to DuckDB', async () => {
    const { code, out } = await run('head', sample, '-n', '3', '--columns', 'id,name,score,maybe,even,ts,pair,rec');
    expect(code).toBe(0);
    await sameRows(out.map((l) => JSON.parse(l) as Record<string, unknown>), `SELECT id, name, score, maybe, even, ts, pair, rec FROM ${S} LIMIT 3`);
    expect(JSON.parse(out[0]!)).toEqual({ id: 0, name: 'name-0', score: 0, maybe: null, even: true, ts: '2026-01-01T00:00:00.000000', pair: [0, 1], rec: { a: 0, b: 'x0' } });
    expect((await run('head', sample)).out.length).toBe(10);
    expect((await run('head', sample, '-n', '0')).out).toEqual([]);
  });

  test('head --offset, tail and cat select the rows DuckDB selects with LIMIT / OFFSET', async () => {
    const parse = (r: { out: string[] }) => r.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    await sameRows(parse(await run('head', sample, '-n', '5', '--offset', '997')), `SELECT * FROM ${S} LIMIT 5 OFFSET 997`);
    await sameRows(parse(await run('tail', sample, '-n', '4')), `SELECT * FROM ${S} OFFSET 996`);
    await sameRows(parse(await run('tail', sample, '-n', '3', '--offset', '10')), `SELECT * FROM ${S} LIMIT 3 OFFSET 987`);
    await sameRows(parse(await run('tail', sample, '-n', '2000')), `SELECT * FROM ${S}`);
    await sameRows(parse(await run('cat', sample, '--columns', 'rec,id')), `SELECT rec, id FROM ${S}`);
    await sameRows(parse(await run('cat', sample, '-n', '7', '--offset', '3', '--columns', 'rec.b,name')), `SELECT {'b': rec.b} AS rec, name FROM ${S} LIMIT 7 OFFSET 3`);
  });

  test('--format json is one array of the ndjson rows; csv equals DuckDB COPY … (FORMAT csv) for scalar columns', async () => {
    const nd = await run('head', sample, '-n', '20');
    const js = await run('head', sample, '-n', '20', '--format', 'json');
    expect(JSON.parse(js.out.join('\n'))).toEqual(nd.out.map((l) => JSON.parse(l) as unknown));
    expect(js.out[0]).toBe('[');
    expect((await run('head', sample, '-n', '0', '--format', 'json')).out).toEqual(['[]']);

    const csv = await run('head', sample, '-n', '20', '--format', 'csv');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-')), 'd.csv');
    const cols = 'id, name, score, maybe, even, ts';
    await (await duckdb()).run(`COPY (SELECT ${cols} FROM ${S} LIMIT 20) TO ${lit(file)} (FORMAT csv, HEADER)`);
    const want = parseCsv(fs.readFileSync(file, 'utf8'));
    const { types } = await duckRows(`SELECT ${cols} FROM ${S} LIMIT 0`);
    const ours = parseCsv(`${csv.out.join('\n')}\n`);
    expect(ours[0]).toEqual(['id', 'name', 'score', 'maybe', 'even', 'ts', 'pair', 'rec']);
    expect(ours.length).toBe(want.length);
    for (let i = 1; i < want.length; i++) {
      types.forEach((t, k) => expect(canon(ours[i]![k], t, 'ours'), `row ${i} column ${k}`).toBe(canon(want[i]![k], t, 'duck')));
      // nested columns are JSON in a cell
      expect(JSON.parse(ours[i]![6]!)).toEqual(JSON.parse(nd.out[i - 1]!).pair);
    }
  });

  test('--format table: aligned columns with names and types, numbers right-aligned, nulls as NULL, the values DuckDB reads', async () => {
    const { code, out } = await run('head', sample, '-n', '4', '--format', 'table', '--columns', 'id,name,maybe,ts');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^ {3}id {2}name {4}maybe {2}ts$/);
    expect(out[1]).toMatch(/^int64 {2}string {2}int32 {2}timestamp\[us\]$/);
    expect(out[2]).toMatch(/^─{5} {2}─{6} {2}─{5} {2}─{26}$/);
    expect(out.at(-1)).toBe('(4 rows)');
    const want = await duck(`SELECT id, name, maybe, strftime(ts, '%Y-%m-%dT%H:%M:%S.%f') AS ts FROM ${S} LIMIT 4`);
    want.forEach((w, i) => {
      const cells = out[3 + i]!.trim().split(/ {2,}/);
      expect(cells).toEqual([String(w.id), String(w.name), w.maybe === null ? 'NULL' : String(w.maybe), String(w.ts)]);
    });
    // a narrow terminal: cells cut with … so that the table fits
    const narrow = await runWith(['head', sample, '-n', '2', '--format', 'table', '--columns', 'id,name,ts,rec'], { columns: 40 });
    for (const line of narrow.out) expect(line.length).toBeLessThanOrEqual(40);
    expect(narrow.out[3]).toContain('…');
  });

  test('count: the footer row count; --exact and --where count in the pages, as DuckDB does', async () => {
    const [c] = await duck(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE id % 7 = 3 AND maybe IS NULL)::INTEGER AS m FROM ${S}`);
    expect(await run('count', sample)).toEqual({ code: 0, out: [String(c!.n)], err: [], progress: [] });
    expect((await run('count', sample, '--exact')).out).toEqual([String(c!.n)]);
    const [w] = await duck(`SELECT count(*)::INTEGER AS n FROM ${S} WHERE id between 100 and 300 and (name = 'name-3' or maybe is null)`);
    expect((await run('count', sample, '--where', "id between 100 and 300 and (name = 'name-3' or maybe is null)")).out).toEqual([String(w!.n)]);
  });

  test('--version prints the package version', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'packages/parquetry/package.json'), 'utf8')) as { version: string };
    expect(await run('--version')).toEqual({ code: 0, out: [`parquetry ${pkg.version}`], err: [], progress: [] });
    expect((await run('-V')).out).toEqual([`parquetry ${pkg.version}`]);
  });

  test('openFile reads with every codec preset and closes its handle', async () => {
    const f = await openFile(sample);
    expect((await f.readRows({ rowEnd: 1 }))[0]).toMatchObject({ id: 0n, name: 'name-0' });
    await f.close();
  });
});
