// Review of this round's writer speed changes on columnar input larger than one shredding slice (65,536 rows): the
// columnar writer reuses one ShredScratch for every slice's levels and compacted values, takes page value/row counts
// from the level histograms, records dictionary entries per page by a shortcut, and compares byte arrays by prefix
// words. Written here: 140,000 rows of every value kind (nulls, empty lists, lists with null elements, maps, structs,
// a string column whose dictionary fills up mid-chunk) → row path file A; A's columns → writeColumns (row groups and
// pages spanning slices, small and large pages, V1 and V2) → file B. Checks, against the input and independent
// readers: DuckDB reads A and B as the same multiset of rows; our reader reads B as the input; every page header's
// counts (V2 num_nulls/num_rows, OffsetIndex first rows) equal a count of the page's decoded levels; chunk num_values,
// row counts and null counts equal naive counts from the input rows; chunk min/max of flat columns equal the input's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { decodeRleHybrid } from '@parquetry/parquet-encodings';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { Encoding, PageType, decodeThrift, readOffsetIndex, readPageHeader } from '@parquetry/thrift-compact';
import { afterAll, describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet, type WriterOptions } from '../src/index.js';
import { prng } from './arbitraries.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-slices-review-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const N = 140_000;


const schema = {
  id: field.int32({ required: true }),
  i: field.int32(),
  l: field.int64(),
  d: field.double(),
  b: field.boolean(),
  s: field.string(),
  bin: field.binary(),
  li: field.list(field.int32()),
  ls: field.list(field.string({ required: true }), { required: true }),
  m: field.map(field.string({ required: true }), field.int32()),
  st: field.struct({ a: field.int32(), bl: field.list(field.int64()) }),
};

type R = Record<string, unknown>;

function makeRows(): R[] {
  const r = prng(42);
  const rows: R[] = [];
  for (let i = 0; i < N; i++) {
    const bytes = new Uint8Array(Math.floor(r() * 13));
    for (let k = 0; k < bytes.length; k++) bytes[k] = r() < 0.3 ? 0x80 + (k & 3) : r() < 0.5 ? 0 : Math.floor(r() * 256);
    rows.push({
      id: i,
      i: i % 7 === 0 ? null : Math.floor(r() * 4e9) - 2e9,
      l: i % 5 === 0 ? null : BigInt(Math.floor(r() * 1e12)) - 500_000_000_000n,
      d: i % 11 === 0 ? null : r() * 1e6 - 5e5,
      b: i % 3 === 0 ? null : r() < 0.5,
      // low cardinality for the first half, then distinct values: the dictionary fills up mid-chunk
      s: i % 9 === 0 ? null : i < 70_000 ? `tag${i % 13}` : `v${i}-${Math.floor(r() * 1e9)}`,
      bin: i % 13 === 0 ? null : bytes,
      li: i % 17 === 0 ? null : i % 6 === 0 ? [] : Array.from({ length: i % 5 }, (_, j) => ((i + j) % 4 === 0 ? null : (i * 31 + j) | 0)),
      ls: i % 10 === 0 ? [] : Array.from({ length: 1 + (i % 3) }, (_, j) => `e${(i + j) % 20}`),
      m: i % 19 === 0 ? null : new Map(Array.from({ length: i % 4 }, (_, j) => [`k${j}`, (i + j) % 5 === 0 ? null : i - j] as const)),
      st: i % 23 === 0 ? null : { a: i % 2 === 0 ? null : i, bl: i % 8 === 0 ? null : Array.from({ length: i % 3 }, (_, j) => BigInt(i * 3 + j)) },
    });
  }
  return rows;
}

/** Levels of one leaf of one row (naive walk of the input): [def, rep] pairs. */
function leafLevels(row: R, leaf: string): [number, number][] {
  const v = row[leaf.split('.')[0]!];
  switch (leaf) {
    case 'id':
      return [[0, 0]];
    case 'i':
    case 'l':
    case 'd':
    case 'b':
    case 's':
    case 'bin':
      return [[v === null ? 0 : 1, 0]];
    case 'li': {
      if (v === null) return [[0, 0]];
      const a = v as (number | null)[];
      if (a.length === 0) return [[1, 0]];
      return a.map((x, j) => [x === null ? 2 : 3, j === 0 ? 0 : 1]);
    }
    case 'ls': {
      const a = v as string[];
      if (a.length === 0) return [[0, 0]];
      return a.map((_, j) => [1, j === 0 ? 0 : 1]);
    }
    case 'm.key':
    case 'm.value': {
      if (v === null) return [[0, 0]];
      const a = [...(v as Map<string, number | null>).entries()];
      if (a.length === 0) return [[1, 0]];
      return a.map(([, x], j) => [leaf === 'm.key' || x !== null ? (leaf === 'm.key' ? 2 : 3) : 2, j === 0 ? 0 : 1]);
    }
    case 'st.a': {
      if (v === null) return [[0, 0]];
      return [[(v as { a: unknown }).a === null ? 1 : 2, 0]];
    }
    case 'st.bl': {
      if (v === null) return [[0, 0]];
      const bl = (v as { bl: unknown[] | null }).bl;
      if (bl === null) return [[1, 0]];
      if (bl.length === 0) return [[2, 0]];
      return bl.map((_, j) => [4, j === 0 ? 0 : 1]);
    }
  }
  throw new Error(`leaf ${leaf}`);
}
const LEAVES = ['id', 'i', 'l', 'd', 'b', 's', 'bin', 'li', 'ls', 'm.key', 'm.value', 'st.a', 'st.bl'];

/** Every page of column chunk `c` of row group `g` (uncompressed files): its header and its decoded levels. */
function pagesOf(bytes: Uint8Array, f: ParquetFile, g: number, c: number) {
  const md = f.metadata.row_groups[g]!.columns[c]!.meta_data!;
  const col = f.schema.columns[c]!;
  const start = md.dictionary_page_offset ?? md.data_page_offset;
  const end = start + md.total_compressed_size;
  const out: { type: number; header: ReturnType<typeof readHeader>['value']; def: Int32Array; rep: Int32Array; at: number }[] = [];
  const bw = (max: number) => (max === 0 ? 0 : 32 - Math.clz32(max));
  for (let p = start; p < end; ) {
    const h = readHeader(bytes, p);
    const body = h.end;
    const header = h.value;
    if (header.type === PageType.DATA_PAGE || header.type === PageType.DATA_PAGE_V2) {
      const v2 = header.type === PageType.DATA_PAGE_V2;
      const n = v2 ? header.data_page_header_v2!.num_values : header.data_page_header!.num_values;
      const def = new Int32Array(n);
      const rep = new Int32Array(n);
      let q = body;
      if (v2) {
        const rl = header.data_page_header_v2!.repetition_levels_byte_length;
        const dl = header.data_page_header_v2!.definition_levels_byte_length;
        if (col.maxRep > 0) decodeRleHybrid(bytes, q, q + rl, bw(col.maxRep), rep, 0, n);
        q += rl;
        if (col.maxDef > 0) decodeRleHybrid(bytes, q, q + dl, bw(col.maxDef), def, 0, n);
      } else {
        const dv = new DataView(bytes.buffer, bytes.byteOffset);
        if (col.maxRep > 0) {
          const len = dv.getUint32(q, true);
          decodeRleHybrid(bytes, q + 4, q + 4 + len, bw(col.maxRep), rep, 0, n);
          q += 4 + len;
        }
        if (col.maxDef > 0) {
          const len = dv.getUint32(q, true);
          decodeRleHybrid(bytes, q + 4, q + 4 + len, bw(col.maxDef), def, 0, n);
        }
      }
      if (col.maxDef === 0) def.fill(0);
      out.push({ type: header.type, header, def, rep, at: p });
    }
    p = body + header.compressed_page_size;
  }
  return out;
}
function readHeader(bytes: Uint8Array, p: number) {
  return decodeThrift(readPageHeader, bytes, p, bytes.length);
}

async function duckSame(a: string, b: string): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const q = async (sql: string) => Number((await c.runAndReadAll(sql)).getRows()[0]![0]);
  expect(await q(`SELECT count(*) FROM read_parquet('${b}')`)).toBe(N);
  expect(await q(`SELECT count(*) FROM (SELECT * FROM read_parquet('${a}') EXCEPT ALL SELECT * FROM read_parquet('${b}'))`)).toBe(0);
  expect(await q(`SELECT count(*) FROM (SELECT * FROM read_parquet('${b}') EXCEPT ALL SELECT * FROM read_parquet('${a}'))`)).toBe(0);
  // and a few values straight from the input's formulas
  expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE i IS NULL`)).toBe(Math.ceil(N / 7));
  expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE s = 'tag5'`)).toBe(Array.from({ length: 70_000 }, (_, i) => i).filter((i) => i % 9 !== 0 && i % 13 === 5).length);
  expect(await q(`SELECT sum(len(li)) FROM read_parquet('${b}')`)).toBe(Array.from({ length: N }, (_, i) => (i % 17 === 0 || i % 6 === 0 ? 0 : i % 5)).reduce((x, y) => x + y, 0));
  // aggregates of B against the input itself (A comes from the same encoders, so A = B alone would not catch them)
  const count = (pred: (r: R) => boolean) => rows.filter(pred).length;
  expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE b`)).toBe(count((r) => r.b === true));
  expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE NOT b`)).toBe(count((r) => r.b === false));
  expect(await q(`SELECT sum(i)::VARCHAR FROM read_parquet('${b}')`)).toBe(Number(rows.reduce((a, r) => a + BigInt((r.i as number | null) ?? 0), 0n)));
  expect(String((await c.runAndReadAll(`SELECT sum(l)::VARCHAR FROM read_parquet('${b}')`)).getRows()[0]![0])).toBe(String(rows.reduce((a, r) => a + ((r.l as bigint | null) ?? 0n), 0n)));
  expect(await q(`SELECT sum(octet_length(bin)) FROM read_parquet('${b}')`)).toBe(rows.reduce((a, r) => a + ((r.bin as Uint8Array | null)?.length ?? 0), 0));
  expect(await q(`SELECT sum(hash(bin) % 1000) FROM read_parquet('${b}') WHERE bin IS NOT NULL`)).toBe(await q(`SELECT sum(hash(bin) % 1000) FROM read_parquet('${a}') WHERE bin IS NOT NULL`));
  expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE bin IS NULL`)).toBe(count((r) => r.bin === null));
  expect(await q(`SELECT sum(len(ls)) FROM read_parquet('${b}')`)).toBe(rows.reduce((a, r) => a + (r.ls as string[]).length, 0));
  expect(await q(`SELECT count(*) FROM (SELECT unnest(li) AS x FROM read_parquet('${b}')) WHERE x IS NULL`)).toBe(rows.reduce((a, r) => a + ((r.li as (number | null)[] | null) ?? []).filter((x) => x === null).length, 0));
  expect(await q(`SELECT sum(cardinality(m)) FROM read_parquet('${b}')`)).toBe(rows.reduce((a, r) => a + ((r.m as Map<string, unknown> | null)?.size ?? 0), 0));
  expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE st.a IS NOT NULL`)).toBe(count((r) => r.st !== null && (r.st as { a: unknown }).a !== null));
  // point lookups DuckDB may answer by pruning with our statistics and bloom filters: each finds its rows
  for (let r = 5; r < N; r += 9_973) {
    const row = rows[r]!;
    for (const k of ['i', 'l', 'd', 's'] as const) {
      const v = row[k];
      if (v === null) continue;
      const lit = typeof v === 'string' ? `'${v}'` : typeof v === 'bigint' ? `${v}::BIGINT` : typeof v === 'number' && k === 'd' ? `${v}::DOUBLE` : String(v);
      const want = rows.filter((x) => x[k] === v).length;
      expect(await q(`SELECT count(*) FROM read_parquet('${b}') WHERE ${k} = ${lit}`), `${k} = ${lit}`).toBe(want);
    }
  }
  c.closeSync?.();
}

/** pyarrow (CI sets PARQUETRY_PYTHON to a python with it): reads A and B as equal tables, every value checked. */
const PYTHON = process.env.PARQUETRY_PYTHON;
function pyarrowSame(a: string, b: string): void {
  if (PYTHON === undefined) return;
  const script = [
    'import sys, pyarrow.parquet as pq',
    'ta = pq.read_table(sys.argv[1]); tb = pq.read_table(sys.argv[2])',
    'assert tb.num_rows == ta.num_rows, (ta.num_rows, tb.num_rows)',
    'bad = [n for n in ta.column_names if not ta.column(n).equals(tb.column(n))]',
    'print("ok" if not bad else "differ: " + ",".join(bad))',
  ].join('\n');
  expect(execFileSync(PYTHON, ['-c', script, a, b], { encoding: 'utf8', timeout: 120_000 }).trim()).toBe('ok');
}

/** parquet-wasm (arrow-rs) reads B: row count, null counts of the top-level columns, booleans, int sums, list lengths. */
function wasmCheck(bytes: Uint8Array): void {
  const t = tableFromIPC(pw.readParquet(bytes).intoIPCStream());
  expect(t.numRows).toBe(N);
  for (const k of ['i', 'l', 'd', 'b', 's', 'bin', 'li', 'm', 'st']) expect(t.getChild(k)!.nullCount, k).toBe(rows.filter((r) => r[k] === null).length);
  let trues = 0;
  for (const v of t.getChild('b')!) if (v === true) trues++;
  expect(trues).toBe(rows.filter((r) => r.b === true).length);
  let sum = 0;
  for (const v of t.getChild('i')!) sum += (v as number | null) ?? 0;
  expect(sum).toBe(rows.reduce((a, r) => a + ((r.i as number | null) ?? 0), 0));
  let dsum = 0;
  for (const v of t.getChild('d')!) dsum += (v as number | null) ?? 0;
  expect(dsum).toBe(rows.reduce((a, r) => a + ((r.d as number | null) ?? 0), 0));
  let elems = 0;
  for (const v of t.getChild('li')!) elems += (v as { length: number } | null)?.length ?? 0;
  expect(elems).toBe(rows.reduce((a, r) => a + ((r.li as unknown[] | null)?.length ?? 0), 0));
  const s = t.getChild('s')!;
  for (let r = 3; r < N; r += 4_999) expect(s.get(r), `s at row ${r}`).toBe(rows[r]!.s);
}

const rows = makeRows();
let fileA: Uint8Array;
let pathA: string;

const CASES: { name: string; opts: WriterOptions }[] = [
  { name: 'V1, small pages, row groups of 100,000 rows, a small dictionary limit', opts: { pageVersion: 1, pageSize: 4096, rowGroupRows: 100_000, dictionaryPageSize: 16_384 } },
  { name: 'V2, large pages, one row group, page rows 50,000', opts: { pageVersion: 2, pageSize: 1 << 22, pageRows: 50_000, rowGroupRows: 1_000_000 } },
  { name: 'V2, small pages, no dictionary, row groups of 70,000 rows', opts: { pageVersion: 2, pageSize: 2048, rowGroupRows: 70_000, dictionary: false } },
  {
    name: 'V1, DELTA / BYTE_STREAM_SPLIT / RLE value encodings and bloom filters, one row group',
    opts: {
      pageVersion: 1,
      pageSize: 8192,
      rowGroupRows: 1_000_000,
      dictionary: false,
      columns: {
        i: { encoding: 'DELTA_BINARY_PACKED', bloomFilter: true },
        l: { encoding: 'DELTA_BINARY_PACKED' },
        d: { encoding: 'BYTE_STREAM_SPLIT' },
        b: { encoding: 'RLE' },
        s: { encoding: 'DELTA_BYTE_ARRAY', bloomFilter: true },
        bin: { encoding: 'DELTA_LENGTH_BYTE_ARRAY' },
        li: { encoding: 'DELTA_BINARY_PACKED' },
        st: { bloomFilter: true },
      },
    },
  },
];

describe('columnar input over several 65,536-row slices', () => {
  test('the row path file A reads back as the input (the reference for B)', async () => {
    fileA = await writeParquet(rows, { schema, compression: 'UNCOMPRESSED' });
    pathA = path.join(tmp, 'a.parquet');
    fs.writeFileSync(pathA, fileA);
    const f = await openParquet(fileA);
    const back = await f.readRows();
    expect(back.length).toBe(N);
    for (const k of ['id', 'i', 'l', 'd', 'b', 's', 'li', 'ls']) {
      for (let r = 0; r < N; r += 997) expect(back[r]![k], `row ${r} field ${k}`).toEqual(rows[r]![k]);
    }
  }, 120_000);

  for (const c of CASES) {
    test(c.name, async () => {
      const fa = await openParquet(fileA);
      const sink = memorySink();
      const w = createWriter(sink, { schema, compression: 'UNCOMPRESSED', pageIndex: true, ...c.opts });
      // the whole table as one struct vector: the writer cuts it into slices (and row groups) itself
      expect(fa.metadata.row_groups.length).toBe(1);
      await w.writeColumns(await fa.readRowGroupColumns(0));
      await w.close();
      const bytes = sink.bytes();
      const pathB = path.join(tmp, `b-${CASES.indexOf(c)}.parquet`);
      fs.writeFileSync(pathB, bytes);
      await duckSame(pathA, pathB);
      pyarrowSame(pathA, pathB);
      wasmCheck(bytes);

      const f = await openParquet(bytes);
      const back = await f.readRows();
      const front = await fa.readRows();
      expect(back.length).toBe(N);
      for (let r = 0; r < N; r++) {
        // cheap compare first, the full one only on a difference (a clear message)
        if (JSON.stringify(back[r], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Array.from(v) : v)) !== JSON.stringify(front[r], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? Array.from(v) : v))) {
          expect(back[r], `row ${r}`).toEqual(front[r]);
        }
      }

      let rowBase = 0;
      for (let g = 0; g < f.metadata.row_groups.length; g++) {
        const rg = f.metadata.row_groups[g]!;
        const groupRows = rows.slice(rowBase, rowBase + rg.num_rows);
        expect(rg.num_rows).toBeGreaterThan(0);
        for (let ci = 0; ci < LEAVES.length; ci++) {
          const leaf = LEAVES[ci]!;
          const col = f.schema.columns[ci]!;
          const where = `row group ${g}, column ${leaf}`;
          const levels = groupRows.flatMap((row) => leafLevels(row, leaf));
          const nulls = levels.filter(([d]) => d < col.maxDef).length;
          const md = rg.columns[ci]!.meta_data!;
          expect(md.num_values, where).toBe(levels.length);
          // the chunk's level histograms (what the page counts now come from)
          const hist = (k: 0 | 1, max: number) => Array.from({ length: max + 1 }, (_, l) => levels.filter((x) => x[k] === l).length);
          if (col.maxDef > 0) expect(md.size_statistics!.definition_level_histogram, where).toEqual(hist(0, col.maxDef));
          if (col.maxRep > 0) expect(md.size_statistics!.repetition_level_histogram, where).toEqual(hist(1, col.maxRep));
          if (leaf === 's' && g === 0 && c.opts.dictionaryPageSize !== undefined) {
            // the dictionary filled up mid-chunk: dictionary-encoded pages, then PLAIN ones
            const kinds = new Set(md.encoding_stats!.filter((e) => e.page_type !== PageType.DICTIONARY_PAGE && e.count > 0).map((e) => e.encoding));
            expect([...kinds].sort(), where).toEqual([Encoding.PLAIN, Encoding.RLE_DICTIONARY].sort());
          }
          const st = await f.statistics(g, ci);
          expect(st?.nullCount, where).toBe(nulls);
          // pages: counts in the headers against the decoded levels; the offset index's first rows
          const pages = pagesOf(bytes, f, g, ci);
          const cc = rg.columns[ci]!;
          const oi = decodeThrift(readOffsetIndex, bytes, cc.offset_index_offset!, cc.offset_index_offset! + cc.offset_index_length!).value;
          expect(oi.page_locations.length, where).toBe(pages.length);
          let seenLevels = 0;
          let seenRows = 0;
          for (const [k, p] of pages.entries()) {
            const n = p.def.length;
            const pageNulls = p.def.filter((d) => d < col.maxDef).length;
            const pageRows = col.maxRep === 0 ? n : p.rep.filter((r) => r === 0).length;
            expect(p.rep[0], `${where}, page ${k} starts a record`).toBe(0);
            // the decoded levels are the input's levels at this place
            for (let j = 0; j < n; j += 61) expect([p.def[j], col.maxRep > 0 ? p.rep[j] : 0], `${where}, page ${k}, level ${j}`).toEqual(levels[seenLevels + j]);
            if (p.type === PageType.DATA_PAGE_V2) {
              expect(p.header.data_page_header_v2!.num_nulls, `${where}, page ${k}`).toBe(pageNulls);
              expect(p.header.data_page_header_v2!.num_rows, `${where}, page ${k}`).toBe(pageRows);
            }
            expect(oi.page_locations[k]!.first_row_index, `${where}, page ${k}`).toBe(seenRows);
            seenLevels += n;
            seenRows += pageRows;
          }
          expect(seenLevels, where).toBe(levels.length);
          expect(seenRows, where).toBe(rg.num_rows);
          // bounds of the flat numeric and text columns: the input's extremes
          if (['i', 'd', 's', 'l'].includes(leaf)) {
            const vals = groupRows.map((row) => row[leaf]).filter((v) => v !== null) as (number | bigint | string)[];
            const sorted = leaf === 's' ? [...(vals as string[])].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))) : [...vals].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
            expect(st!.min, where).toEqual(sorted[0]);
            expect(st!.max, where).toEqual(sorted[sorted.length - 1]);
          }
        }
        rowBase += rg.num_rows;
      }
      expect(rowBase).toBe(N);
      expect(f.metadata.row_groups.length).toBe(Math.ceil(N / (c.opts.rowGroupRows ?? N)));
    }, 240_000);
  }
});
