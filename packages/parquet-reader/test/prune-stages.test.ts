/**
 * Each pruning stage on its own, with the scan statistics that prove it: dictionaries on low-cardinality columns,
 * bloom filters on high-cardinality ones (our writer's, read block by block; DuckDB's; pyarrow's when
 * PARQUETRY_PYTHON names a Python with pyarrow), point lookups, `in` and ranges on files written by DuckDB and by
 * our writer with results equal to DuckDB's on the same file, and filters the reader refuses rather than ignores.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { matchRow } from '@parquetry/parquet-reader/filters';
import { openParquet, type Filter, type ParquetFile, type ReadOptions, type ScanStats } from '@parquetry/parquet-reader';
import { typedError } from './helpers.js';

const codecs = builtinCodecs();
const PYTHON = process.env.PARQUETRY_PYTHON;

let dir = '';
let con: DuckDBConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-prune-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Bytes this process has read through read()/pread() (Linux): DuckDB's reads of a local file, measured from outside it. */
function rchar(): number | undefined {
  try {
    return Number(/rchar: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);
  } catch {
    return undefined;
  }
}

async function read(file: ParquetFile, filter: Filter, extra: ReadOptions = {}): Promise<{ rows: Record<string, unknown>[]; stats: ScanStats }> {
  let stats: ScanStats | undefined;
  const rows = await file.readRows({ ...extra, filter, onScan: (s) => (stats = s) });
  return { rows, stats: stats! };
}

/** A deterministic permutation of 0..n-1 (unsorted ids). */
function shuffled(n: number): Int32Array {
  const a = Int32Array.from({ length: n }, (_, i) => i);
  let x = 12345;
  for (let i = n - 1; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = x % (i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

describe('dictionary pruning on a low-cardinality column', () => {
  let file: ParquetFile;
  let all: Record<string, unknown>[];
  beforeAll(async () => {
    // each row group holds every other city of its range: 'c0', 'c2', … — values between them are absent, inside the bounds
    const rows = Array.from({ length: 4000 }, (_, i) => ({ id: BigInt(i), city: `c${Math.floor(i / 1000) * 10 + 2 * (i % 5)}`, v: i % 3 === 0 ? null : i / 2 }));
    const bytes = await writeParquet(rows, { schema: { id: field.int64({ required: true }), city: field.string({ required: true }), v: field.double() }, rowGroupRows: 1000, pageRows: 100 });
    // the file is small: a tail guess of 8 bytes keeps its pages out of the footer read, so they are fetched
    file = await openParquet(bytes, { codecs, tailGuess: 8 });
    all = await file.readRows();
  });

  test('the chunks are wholly dictionary-encoded (encoding_stats) and the values are inside the bounds', async () => {
    const md = file.metadata.row_groups[1]!.columns[1]!.meta_data!;
    expect(md.encoding_stats?.filter((s) => s.page_type === 0 || s.page_type === 3).every((s) => s.encoding === 8 || s.encoding === 2)).toBe(true);
    expect(await file.statistics(1, 'city')).toMatchObject({ min: 'c10', max: 'c18' });
  });

  test('an absent value inside the bounds: skipped by the dictionary, only dictionary pages fetched', async () => {
    const { rows, stats } = await read(file, { column: 'city', op: 'in', values: ['c11', 'c13', 'c31'] });
    expect(rows).toEqual([]);
    // strings compare as strings: 'c11' lies inside the bounds of row group 0 ('c0'-'c8') as well
    expect(stats.rowGroups.skipped.dictionary).toBeGreaterThanOrEqual(2);
    expect(stats.rowGroups.skipped.statistics + stats.rowGroups.skipped.dictionary).toBe(4);
    expect(stats.bytes.data).toBe(0);
    expect(stats.requests.dictionary).toBe(stats.rowGroups.skipped.dictionary); // one dictionary page per row group
    const off = await read(file, { column: 'city', op: 'in', values: ['c11', 'c13', 'c31'] }, { prune: { dictionary: false } });
    expect(off.rows).toEqual([]);
    expect(off.stats.rowGroups.skipped.dictionary).toBe(0);
    expect(off.stats.bytes.data).toBeGreaterThan(0);
  });

  test('a present value: its row group is read, the dictionary fetched once and reused for the data pages', async () => {
    const filter: Filter = { and: [{ column: 'city', op: '=', value: 'c12' }, { column: 'v', op: 'is not null' }] };
    const { rows, stats } = await read(file, filter);
    expect(rows).toEqual(all.filter((r) => matchRow(filter, r)));
    expect(rows.length).toBeGreaterThan(100);
    expect(stats.rowGroups.read).toBe(1);
    expect(stats.rowGroups.skipped.statistics + stats.rowGroups.skipped.dictionary).toBe(3);
    // the dictionary page is not fetched twice: the city chunk's bytes are counted once
    const md = file.metadata.row_groups[1]!.columns[1]!.meta_data!;
    const cityStats = await Promise.all(file.metadata.row_groups.map((_, g) => file.statistics(g, 'city')));
    const dictBytes = file.metadata.row_groups.reduce((n, rg, g) => n + (cityStats[g]!.min! <= 'c12' && cityStats[g]!.max! >= 'c12' ? rg.columns[1]!.meta_data!.data_page_offset - rg.columns[1]!.meta_data!.dictionary_page_offset! : 0), 0);
    expect(stats.bytes.dictionary).toBe(dictBytes);
    expect(stats.bytes.data).toBe(file.metadata.row_groups[1]!.columns.reduce((n, cc) => n + cc.meta_data!.total_compressed_size, 0) - (md.data_page_offset - md.dictionary_page_offset!));
  });

  test('comparisons under NOT, OR with a column that may match, and null tests are never refuted by the dictionary', async () => {
    for (const filter of [
      { not: { column: 'city', op: '=', value: 'c11' } },
      { or: [{ column: 'city', op: '=', value: 'c11' }, { column: 'v', op: '>', value: 1990 }] },
      { column: 'city', op: '!=', value: 'c11' },
    ] as Filter[]) {
      const { rows } = await read(file, filter);
      expect(rows).toEqual(all.filter((r) => matchRow(filter, r)));
    }
  });
});

describe('bloom filters of our writer: point lookups on unsorted ids, read block by block', () => {
  const N = 400_000;
  const GROUPS = 16;
  let bytes: Uint8Array;
  let file: ParquetFile;
  let ids: Int32Array;
  beforeAll(async () => {
    ids = shuffled(N);
    const id = BigInt64Array.from(ids, (v) => BigInt(v) * 2n); // even ids only: odd ones are absent, inside the bounds
    const value = Float64Array.from({ length: N }, (_, i) => i * 0.25);
    const name = Array.from({ length: N }, (_, i) => `user-${i % 1000}`);
    const leaf = (values: unknown) => ({ kind: 'leaf', length: N, validity: null, values });
    bytes = await writeParquet({ id: leaf(id), value: leaf(value), name: leaf(name) } as never, {
      schema: { id: field.int64({ required: true }), value: field.double({ required: true }), name: field.string({ required: true }) },
      rowGroupRows: N / GROUPS,
      columns: { id: { bloomFilter: true } },
    });
    file = await openParquet(bytes, { codecs });
  });

  test('an absent id inside every bound: every row group skipped by its bloom filter, a few hundred bytes read', async () => {
    const { rows, stats } = await read(file, { column: 'id', op: '=', value: 123_457n });
    expect(rows).toEqual([]);
    expect(stats.rowGroups.skipped.statistics).toBe(0);
    expect(stats.rowGroups.skipped.bloom).toBeGreaterThanOrEqual(GROUPS - 1); // fpp 0.01 per row group
    // per row group: the filter's header and one 32-byte block, not its bitset
    const bitsets = file.metadata.row_groups.reduce((n, rg) => n + rg.columns[0]!.meta_data!.bloom_filter_length!, 0);
    expect(stats.bytes.bloom).toBeLessThan(GROUPS * 64);
    expect(bitsets).toBeGreaterThan(GROUPS * 32768);
  });

  test('a present id: one row group read, the row returned, under 5% of the file fetched', async () => {
    const k = 271_828;
    const { rows, stats } = await read(file, { column: 'id', op: '=', value: BigInt(ids[k]!) * 2n });
    expect(rows).toEqual([{ id: BigInt(ids[k]!) * 2n, value: k * 0.25, name: `user-${k % 1000}` }]);
    expect(stats.rowGroups.read).toBeLessThanOrEqual(2);
    expect(stats.rowGroups.skipped.bloom).toBeGreaterThanOrEqual(GROUPS - 2);
    const fraction = stats.bytes.total / bytes.length;
    console.log(`bloom point lookup: ${stats.bytes.total} of ${bytes.length} bytes (${(100 * fraction).toFixed(2)}%), requests ${JSON.stringify(stats.requests)}`);
    expect(fraction).toBeLessThan(0.05);
    // without bloom filters every row group's id chunk is read
    const off = await read(file, { column: 'id', op: '=', value: BigInt(ids[k]!) * 2n }, { prune: { bloom: false } });
    expect(off.rows).toEqual(rows);
    expect(off.stats.rowGroups.read).toBe(GROUPS);
  });

  test('in-lists and lookups mixed with other comparisons agree with the unpruned read', async () => {
    const all = await file.readRows({ columns: ['id', 'value'] });
    for (const filter of [
      { column: 'id', op: 'in', values: [1n, 3n, BigInt(ids[5]!) * 2n, 799_998n] },
      { and: [{ column: 'id', op: 'in', values: [BigInt(ids[10]!) * 2n, 5n] }, { column: 'value', op: '>=', value: 0 }] },
      { or: [{ column: 'id', op: '=', value: 7n }, { column: 'value', op: '<', value: 1 }] },
      { column: 'id', op: '=', value: 8 }, // a number for an INT64 column
    ] as Filter[]) {
      const { rows } = await read(file, filter, { columns: ['id', 'value'] });
      expect(rows).toEqual(all.filter((r) => matchRow(filter, r)));
    }
  });
});

describe('files written by DuckDB and by our writer: results equal DuckDB on the same file', () => {
  const cases: [string, Filter, string][] = [
    ['point lookup (high cardinality)', { column: 'id', op: '=', value: 77_777n }, 'id = 77777'],
    ['absent point', { column: 'id', op: '=', value: -5n }, 'id = -5'],
    ['in on a low-cardinality column', { column: 'cat', op: 'in', values: ['k3', 'k7', 'zz'] }, "cat IN ('k3', 'k7', 'zz')"],
    ['range', { and: [{ column: 'id', op: '>=', value: 150_000n }, { column: 'id', op: '<', value: 151_000n }] }, 'id >= 150000 AND id < 151000'],
    ['range or nulls', { or: [{ column: 'x', op: 'is null' }, { column: 'x', op: '>', value: 99_990 }] }, 'x IS NULL OR x > 99990'],
  ];
  const files: Record<string, string> = {};
  beforeAll(async () => {
    const sql = `SELECT i::BIGINT AS id, 'k' || (i % 11) AS cat, CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 37 % 100000)::DOUBLE END AS x FROM range(200000) t(i)`;
    for (const sorted of [true, false]) {
      const f = path.join(dir, `duck-${sorted}.parquet`);
      await con.run(`COPY (${sql} ORDER BY ${sorted ? 'id' : 'hash(i)'}) TO '${f}' (FORMAT parquet, ROW_GROUP_SIZE 50000)`);
      files[`DuckDB ${sorted ? 'sorted' : 'unsorted'}`] = f;
      const rows = await con.runAndReadAll(`${sql} ORDER BY ${sorted ? 'id' : 'hash(i)'}`);
      const objects = rows.getRowObjects().map((r) => ({ id: r.id as bigint, cat: r.cat as string, x: r.x as number | null }));
      const ours = path.join(dir, `ours-${sorted}.parquet`);
      fs.writeFileSync(ours, await writeParquet(objects, { schema: { id: field.int64({ required: true }), cat: field.string({ required: true }), x: field.double() }, rowGroupRows: 50_000, pageRows: 2000, columns: { id: { bloomFilter: true } } }));
      files[`ours ${sorted ? 'sorted' : 'unsorted'}`] = ours;
    }
  });

  test.each(cases)('%s', async (_name, filter, where) => {
    for (const [label, f] of Object.entries(files)) {
      const file = await openParquet(new Uint8Array(fs.readFileSync(f)), { codecs });
      const io0 = rchar();
      const duck = (await con.runAndReadAll(`SELECT id FROM '${f}' WHERE ${where} ORDER BY id`)).getRows().map((r) => r[0] as bigint);
      const duckBytes = io0 === undefined ? 'unknown' : rchar()! - io0;
      const { rows, stats } = await read(file, filter, { columns: ['id'] });
      expect(rows.map((r) => r.id as bigint).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), label).toEqual(duck);
      const none = await read(file, filter, { columns: ['id'], prune: false });
      expect(none.rows, label).toEqual(rows);
      console.log(`${label} | ${_name}: ${rows.length} rows; fetched ${stats.bytes.total} bytes (unpruned ${none.stats.bytes.total}; DuckDB read ${duckBytes}) in ${stats.requests.total} requests; row groups skipped ${JSON.stringify(stats.rowGroups.skipped)}; pages ${stats.pages.read} read, ${stats.pages.skipped} skipped`);
    }
  });

  test('DuckDB reads our files with page indexes and bloom filters; its parquet_bloom_probe agrees with our bloom stage', async () => {
    for (const sorted of [true, false]) {
      const f = files[`ours ${sorted ? 'sorted' : 'unsorted'}`]!;
      const file = await openParquet(new Uint8Array(fs.readFileSync(f)), { codecs });
      for (const v of [77_777n, 123_456n, -5n, 300_000n]) {
        const probe = (await con.runAndReadAll(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${f}', 'id', ${v}) ORDER BY row_group_id`)).getRows();
        const { stats } = await read(file, { column: 'id', op: '=', value: v }, { prune: { statistics: false, pageIndex: false } });
        const excluded = probe.filter((r) => r[1] === true).length;
        expect(stats.rowGroups.skipped.bloom, `${f} ${v}`).toBe(excluded);
      }
    }
  });
});

describe('filters the reader refuses rather than ignores', () => {
  test('a column inside a list or a map, in rows and columns: FILTER_UNSUPPORTED before anything is read', async () => {
    const bytes = await writeParquet(
      [
        { id: 1n, tags: ['a'], m: new Map([['k', 1]]) },
        { id: 2n, tags: null, m: null },
      ],
      { schema: { id: field.int64({ required: true }), tags: field.list(field.string()), m: field.map(field.string(), field.int32()) } },
    );
    const reads: number[] = [];
    const file = await openParquet({ byteLength: bytes.length, read: (s, e) => (reads.push(s), Promise.resolve(bytes.subarray(s, e))) }, { codecs });
    reads.length = 0;
    for (const column of ['tags.list.element', 'm.key_value.key', 'm.key_value.value']) {
      for (const run of [() => file.readRows({ filter: { column, op: 'is null' } }), () => file.readRowGroupColumns(0, { filter: { column, op: '=', value: 'k' } })]) {
        const e = await typedError(run);
        expect(e.code).toBe('FILTER_UNSUPPORTED');
        expect(e.message).toContain(column);
      }
    }
    expect(reads).toEqual([]);
  });
});

describe.skipIf(PYTHON === undefined)('pyarrow files: page index and bloom filters', () => {
  test('bloom filters (bloom_filter_options) and the page index (write_page_index) are used; results equal the unpruned read', async () => {
    const f = path.join(dir, 'pyarrow.parquet');
    const script = `
import pyarrow as pa, pyarrow.parquet as pq
n = 300000
ids = [(i * 7919) % n for i in range(n)]
t = pa.table({'id': pa.array(ids, pa.int64()), 'seq': pa.array(range(n), pa.int64()), 'cat': pa.array(['c%d' % (i % 9) for i in range(n)])})
pq.write_table(t, ${JSON.stringify(f)}, row_group_size=50000, write_page_index=True, max_rows_per_page=5000, bloom_filter_options={'id': {'ndv': 50000, 'fpp': 0.01}})
`;
    execFileSync(PYTHON!, ['-c', script], { timeout: 120_000 });
    const file = await openParquet(new Uint8Array(fs.readFileSync(f)), { codecs });
    expect(file.metadata.row_groups[0]!.columns[0]!.meta_data!.bloom_filter_offset).toBeDefined();
    expect(file.metadata.row_groups[0]!.columns[1]!.offset_index_offset).toBeDefined();
    const all = await file.readRows();
    const present = all[123_456]!.id as bigint;
    for (const [filter, check] of [
      [{ column: 'id', op: '=', value: present }, (s: ScanStats) => expect(s.rowGroups.skipped.bloom).toBeGreaterThanOrEqual(4)],
      [{ column: 'id', op: '=', value: 300_001n }, (s: ScanStats) => expect(s.rowGroups.skipped.statistics).toBe(6)],
      [{ and: [{ column: 'seq', op: '>=', value: 100_000n }, { column: 'seq', op: '<', value: 101_000n }] }, (s: ScanStats) => expect(s.pages.skipped).toBeGreaterThan(20)],
      [{ column: 'cat', op: 'in', values: ['c3', 'x'] }, () => undefined],
    ] as [Filter, (s: ScanStats) => void][]) {
      const { rows, stats } = await read(file, filter);
      expect(rows).toEqual(all.filter((r) => matchRow(filter, r)));
      check(stats);
    }
  });
});

describe('files our writer encrypts: bloom filters and page indexes decrypted by the pipeline', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const footerKey = enc('0123456789012345');
  const idKey = enc('1234567890123450');
  test.each([
    ['AES_GCM_V1', false],
    ['AES_GCM_CTR_V1', true],
  ] as const)('%s (plaintext footer: %s): pruned reads equal the unpruned ones; tampered indexes and filters fail', async (algorithm, plaintextFooter) => {
    const n = 20_000;
    const ids = shuffled(n);
    const rows = Array.from({ length: n }, (_, i) => ({ id: BigInt(ids[i]!), seq: i, name: `n${i % 97}` }));
    const bytes = await writeParquet(rows, {
      schema: { id: field.int64({ required: true }), seq: field.int32({ required: true }), name: field.string({ required: true }) },
      rowGroupRows: 5000,
      pageRows: 500,
      columns: { id: { bloomFilter: true } },
      encryption: { footerKey, algorithm, plaintextFooter, columnKeys: { id: { key: idKey }, seq: { key: idKey } } },
    });
    const decryption = { footerKey, columnKeys: { id: idKey, seq: idKey } };
    const file = await openParquet(bytes, { codecs, decryption, tailGuess: 8 });
    const cases: [Filter, (s: ScanStats) => void][] = [
      [{ column: 'id', op: '=', value: BigInt(ids[12_345]!) }, (s) => expect(s.rowGroups.skipped.bloom).toBeGreaterThanOrEqual(2)],
      [{ column: 'id', op: 'in', values: [1_000_001n, 1_000_003n] }, (s) => expect(s.rowGroups.skipped.statistics).toBe(4)],
      [{ and: [{ column: 'seq', op: '>=', value: 7000 }, { column: 'seq', op: '<', value: 7100 }] }, (s) => expect(s.columns.seq).toMatchObject({ pagesRead: 1, pagesSkipped: 9 })],
    ];
    const all = await file.readRows();
    for (const [filter, check] of cases) {
      const { rows: got, stats } = await read(file, filter);
      expect(got).toEqual(all.filter((r) => matchRow(filter, r)));
      check(stats);
    }
    // flip one byte of the first row group's seq ColumnIndex, then of its id bloom filter: authentication fails
    const seqChunk = file.metadata.row_groups[0]!.columns[1]!;
    const log: [number, number][] = [];
    const logged = await openParquet({ byteLength: bytes.length, read: (s, e) => (log.push([s, e]), Promise.resolve(bytes.subarray(s, e))) }, { codecs, decryption, tailGuess: 8 });
    const mark = log.length;
    await logged.readRows({ rowGroups: [0], filter: { column: 'id', op: '=', value: -7n }, prune: { statistics: false } });
    const bloomRead = log[mark]!;
    for (const [what, at, filter] of [
      ['column index', seqChunk.column_index_offset! + 6, { column: 'seq', op: '=', value: 3 }],
      ['bloom filter', bloomRead[0] + 6, { column: 'id', op: '=', value: -7n }],
    ] as const) {
      const copy = bytes.slice();
      copy[at]! ^= 1;
      const t = await openParquet(copy, { codecs, decryption, tailGuess: 8 });
      const e = await typedError(() => t.readRows({ rowGroups: [0], filter: filter as Filter, prune: { statistics: false } }));
      expect(e.code, what).toBe('DECRYPTION_FAILED');
    }
  });
});
