/**
 * Files written by polars (its own Rust writer, polars-parquet) and by fastparquet (Python/numba), across their
 * options (test/peers/polars_fastparquet_write.py: every codec each writes, statistics on/off, small pages and row
 * groups, polars' automatic dictionary and plain pages, fastparquet's int64/int96 times, object encodings, fixed
 * text, categoricals), read by Parquetry's reader (`openParquet`, every codec) and compared in canonical form
 * (tools/peers/canon.mjs) cell by cell with what pyarrow reads from the same file (src/pyarrow_read.py). Where
 * pyarrow's value is a listed pyarrow limitation (src/peer-limits.ts), Parquetry must equal the writing library's
 * own read instead. Footer statistics: Parquetry's equal pyarrow's, differences explained the same way. The
 * footers must show what the writers were asked for (codecs, page types, dictionary and plain chunks, INT96, row
 * groups), so the coverage claims hold. Needs PARQUETRY_PYTHON with polars and fastparquet (skipped with a warning
 * otherwise).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openParquet } from '@parquetry/parquet-reader';
import { Encoding, PageType } from '@parquetry/thrift-compact';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canonParquetryRows, canonRows } from '../src/canon-parquetry.js';
import { allCodecs } from '../src/codecs.js';
import { type Disagreement, explain } from '../src/peer-limits.js';
import { type PeerColumnStats, type PeerName, type PeerRows, type SchemaHint, ourStatistics, pythonPeerMissing, readManyWithPeer, readWithPeer, statisticsWithPyarrow } from '../src/peers.js';
// @ts-expect-error: plain ESM with JSDoc types
import { footerHints } from '../src/peer-hints.mjs';

const WRITER = fileURLToPath(new URL('./peers/polars_fastparquet_write.py', import.meta.url));
const PYTHON = process.env['PARQUETRY_PYTHON'];
const missing = [pythonPeerMissing('pyarrow'), pythonPeerMissing('polars'), pythonPeerMissing('fastparquet')].filter((m) => m !== undefined);
if (missing.length > 0) console.warn(`polars/fastparquet-written files: skipped (${missing.join('; ')})`);
const SKIP = missing.length > 0;

interface Written {
  name: string;
  writer: 'polars' | 'fastparquet';
  options: Record<string, unknown>;
  rows: number;
}
const CODEC_NUMBER: Record<string, number> = { uncompressed: 0, none: 0, snappy: 1, gzip: 2, brotli: 4, lz4: 7, zstd: 6, lz4_raw: 7 };
/** fastparquet 2026.9 writes its "LZ4" under the deprecated LZ4 codec number (5), "LZ4_RAW" under 7. */
const FP_CODEC_NUMBER: Record<string, number> = { NONE: 0, SNAPPY: 1, GZIP: 2, BROTLI: 4, LZ4: 5, LZ4_RAW: 7, ZSTD: 6 };

/**
 * Columns pyarrow 25 cannot read in these files, with its error (each must still fail so, or the entry goes):
 * there Parquetry must equal the writing library's own read (and DuckDB's, checked by hand: see the report).
 */
const PYARROW_CANNOT: readonly { file: RegExp; column: string; error: RegExp; why: string }[] = [
  {
    file: /^polars-/,
    column: 'arr3',
    error: /Expected all lists to be of size=3 but index \d+ had size=0/,
    why: "polars writes a null Array(Int16, 3) row as a null list (no placeholder elements); Arrow C++ reads the column as fixed_size_list<3> and rejects that row's 0 elements",
  },
];

let dir = '';
let written: Written[] = [];
let codecs: Awaited<ReturnType<typeof allCodecs>>;
const pyarrowReads = new Map<string, PeerRows>();
const pyarrowStats = new Map<string, PeerColumnStats[]>();
/** Files written with statistics (the others are left out of the statistics comparison). */
const withStats = (w: Written) => w.options['statistics'] !== false && w.options['stats'] !== false;
const ownReads = new Map<string, PeerRows>();
/** pyarrow limitations that explained a difference (each must be one that exists; reported in the log). */
const usedLimits = new Set<string>();
/** PYARROW_CANNOT entries met (`column:writer`). */
const usedCannot = new Set<string>();

beforeAll(async () => {
  if (SKIP) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-pl-fp-'));
  written = JSON.parse(execFileSync(PYTHON!, [WRITER, dir], { encoding: 'utf8', timeout: 120_000 })) as Written[];
  codecs = await allCodecs();
  const file = (w: Written) => path.join(dir, w.name);
  const byWriter = (p: 'polars' | 'fastparquet') => written.filter((w) => w.writer === p);
  await Promise.all([
    ...written.map(async (w) => pyarrowReads.set(w.name, await readWithPeer('pyarrow', file(w)))),
    ...written.filter(withStats).map(async (w) => pyarrowStats.set(w.name, await statisticsWithPyarrow(file(w)))),
    ...(['polars', 'fastparquet'] as const).map(async (p) => {
      const got = await readManyWithPeer(p, byWriter(p).map(file));
      got.forEach((r, i) => ownReads.set(byWriter(p)[i]!.name, r));
    }),
  ]);
}, 120_000);
afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

async function hintsOf(file: string): Promise<SchemaHint | null> {
  const b = fs.readFileSync(file);
  return (await footerHints(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))) as SchemaHint | null;
}

const same = (a: unknown, b: unknown) => canonRows([a]) === canonRows([b]);

describe.skipIf(SKIP)('polars- and fastparquet-written files: Parquetry reads what pyarrow (or the writer itself) reads', () => {
  test('the writers wrote every planned file', () => {
    expect(written.filter((w) => w.writer === 'polars').length).toBe(6);
    expect(written.filter((w) => w.writer === 'fastparquet').length).toBe(7);
  });

  test('the footers show the codecs, page types, dictionary and plain chunks, INT96 and row groups asked for', async () => {
    const seen = { dictChunks: 0, plainChunks: 0, int96: 0, multiGroup: 0, pageTypes: new Set<number>() };
    const problems: string[] = [];
    for (const w of written) {
      const pf = await openParquet(new Uint8Array(fs.readFileSync(path.join(dir, w.name))), { codecs });
      const md = pf.metadata;
      if (md.row_groups.length > 1) seen.multiGroup++;
      let int96InFile = false;
      const c = w.options['compression'];
      const want = w.writer === 'polars' ? CODEC_NUMBER[String(c)] : FP_CODEC_NUMBER[c === null ? 'NONE' : String(c)];
      for (const rg of md.row_groups)
        for (const cc of rg.columns) {
          const m = cc.meta_data!;
          if (m.codec !== want) problems.push(`${w.name} ${m.path_in_schema.join('.')}: codec ${m.codec}, expected ${want}`);
          if (m.type === 3) {
            seen.int96++; // INT96
            int96InFile = true;
          }
          const dict = m.encodings.includes(Encoding.RLE_DICTIONARY) || m.encodings.includes(Encoding.PLAIN_DICTIONARY);
          if (dict) seen.dictChunks++;
          else seen.plainChunks++;
          for (const s of m.encoding_stats ?? []) seen.pageTypes.add(s.page_type);
        }
      if ((w.options['times'] === 'int96') !== int96InFile) problems.push(`${w.name}: INT96 columns ${int96InFile}, times ${String(w.options['times'])}`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(seen.dictChunks).toBeGreaterThan(20);
    expect(seen.plainChunks).toBeGreaterThan(50);
    expect(seen.int96).toBeGreaterThanOrEqual(10);
    expect(seen.multiGroup).toBeGreaterThanOrEqual(5);
    // polars 1.44 writes data page V1 only (no option for V2), fastparquet too
    expect([...seen.pageTypes].filter((t) => t !== PageType.DICTIONARY_PAGE)).toEqual([PageType.DATA_PAGE]);
  });

  /**
   * The cells where Parquetry's read differs from pyarrow's and no listed pyarrow limitation (with Parquetry equal
   * to the writer's own read) explains it; a column pyarrow cannot read must be a PYARROW_CANNOT case, with
   * Parquetry equal to the writer's own read in every row.
   */
  async function unexplained(w: Written, ours: Record<string, unknown>[], py: PeerRows, own: PeerRows): Promise<unknown[]> {
    const report: unknown[] = [];
    const hints = await hintsOf(path.join(dir, w.name));
    for (const col of Object.keys(ours[0] ?? {})) {
      const hint = hints?.children.find((h) => h.name === col) ?? null;
      const cannot = PYARROW_CANNOT.find((x) => x.file.test(w.name) && x.column === col);
      const pyError = py.columnErrors?.[col];
      if (cannot !== undefined || pyError !== undefined) {
        if (cannot === undefined || pyError === undefined || !cannot.error.test(pyError)) {
          report.push({ file: w.name, column: col, pyarrow: pyError ?? 'read', listed: cannot?.error.source });
          continue;
        }
        usedCannot.add(`${cannot.column}:${w.writer}`);
        const k = ours.findIndex((x, r) => !same(x[col], own.rows?.[r]?.[col]));
        if (k !== -1) report.push({ file: w.name, column: col, row: k, parquetry: ours[k]?.[col], [w.writer]: own.rows?.[k]?.[col], pyarrow: pyError });
        continue;
      }
      for (let r = 0; r < ours.length; r++) {
        const o = ours[r]![col];
        const p = py.rows?.[r]?.[col];
        if (same(o, p)) continue;
        const limit = explain({ peer: 'pyarrow', column: col, row: r, expected: o, actual: p, hint });
        const self = own.rows?.[r]?.[col];
        if (limit !== undefined && same(o, self)) usedLimits.add(limit.id);
        else report.push({ file: w.name, column: col, row: r, parquetry: o, pyarrow: p, [w.writer]: self });
      }
    }
    return report;
  }

  async function oursOf(w: Written): Promise<Record<string, unknown>[]> {
    const pf = await openParquet(new Uint8Array(fs.readFileSync(path.join(dir, w.name))), { codecs });
    return canonParquetryRows(pf.schema, await pf.readRows());
  }

  for (const writer of ['polars', 'fastparquet'] as const) {
    test(`${writer}-written files: every cell equals pyarrow's read (or, where pyarrow has a listed limitation, ${writer}'s own)`, async () => {
      const report: unknown[] = [];
      for (const w of written.filter((x) => x.writer === writer)) {
        const ours = await oursOf(w);
        expect(ours.length, w.name).toBe(w.rows);
        const py = pyarrowReads.get(w.name)!;
        const own = ownReads.get(w.name)!;
        expect({ file: w.name, pyarrow: py.status, error: py.error }).toEqual({ file: w.name, pyarrow: 'ok', error: undefined });
        expect({ file: w.name, own: own.status, error: own.error }).toEqual({ file: w.name, own: 'ok', error: undefined });
        expect(py.rows?.length).toBe(w.rows);
        report.push(...(await unexplained(w, ours, py, own)));
      }
      expect(report.slice(0, 8)).toEqual([]);
    });
  }

  test('every column pyarrow cannot read is listed, and every listed one still fails', () => {
    expect([...usedCannot].sort()).toEqual(PYARROW_CANNOT.map((x) => `${x.column}:${x.file.source.includes('polars') ? 'polars' : 'fastparquet'}`).sort());
  });

  test('the comparison can fail: one changed cell in pyarrow\'s read is reported, one in the writer\'s own read is not', async () => {
    const w = written.find((x) => x.writer === 'polars')!;
    const ours = await oursOf(w);
    const py = pyarrowReads.get(w.name)!;
    const own = ownReads.get(w.name)!;
    expect(await unexplained(w, ours, py, own)).toEqual([]);
    const rows = py.rows!.map((r) => ({ ...r }));
    rows[5]!['d38'] = '0.0000000001';
    expect((await unexplained(w, ours, { ...py, rows }, own)).map((x) => (x as { column: string; row: number }).row)).toEqual([5]);
  });

  test('statistics of the files written with statistics: Parquetry equals pyarrow', async () => {
    const report: unknown[] = [];
    let bounds = 0;
    for (const w of written.filter(withStats)) {
      const file = path.join(dir, w.name);
      const ours = await ourStatistics(file);
      const theirs = pyarrowStats.get(w.name)!;
      expect(theirs.map((s) => `${s.rowGroup}:${s.path}`)).toEqual(ours.map((s) => `${s.rowGroup}:${s.path}`));
      const hints = await hintsOf(file);
      ours.forEach((o, i) => {
        const t = theirs[i]!;
        if (o.min !== undefined) bounds++;
        let h: SchemaHint | null = hints;
        for (const p of o.path.split('.')) h = h?.children.find((c) => c.name === p) ?? null;
        for (const field of ['min', 'max', 'nullCount', 'distinctCount', 'numValues'] as const) {
          if (o[field] === t[field]) continue;
          const limit = explain({ peer: 'pyarrow', column: o.path, row: -1, field, expected: o[field], actual: t[field], hint: h });
          if (limit) usedLimits.add(limit.id);
          else report.push({ file: w.name, path: o.path, rowGroup: o.rowGroup, field, parquetry: o[field], pyarrow: t[field] });
        }
      });
    }
    expect(report.slice(0, 8)).toEqual([]);
    expect(bounds).toBeGreaterThan(100);
    if (usedLimits.size > 0) console.log(`polars/fastparquet-written: pyarrow limitations met: ${[...usedLimits].sort().join(', ')}`);
  });
});
