/**
 * The writer benchmark's inputs describe the same data in every form: each writer's output for a small table reads
 * back in DuckDB row for row equal to rows computed independently from the generator's columns, and the aggregate
 * check the benchmark relies on accepts those files and rejects a file with different data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ByteWriter, parquetWrite, parquetWriteRows } from 'hyparquet-writer';
import * as pw from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeParquet, type WriterOptions } from '@parquetry/parquet-writer';
// @ts-expect-error: plain .mjs tool modules without types
import { mixedColumns, numericBatches, numericColumns, prng } from '../src/data.mjs';
// @ts-expect-error: plain .mjs tool modules without types
import * as forms from '../src/forms.mjs';
// @ts-expect-error: plain .mjs tool modules without types
import * as peer from '../src/peer-forms.mjs';
// @ts-expect-error: plain .mjs tool modules without types
import { expectedMixed, expectedNumeric, verifyFile } from '../src/verify.mjs';

const N = 3000;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the .mjs modules are untyped
const m: any = mixedColumns(N, 5);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const t: any = numericColumns(N, 6);
let dir: string;
let conn: DuckDBConnection;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'writer-bench-test-'));
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function save(name: string, bytes: Uint8Array | ArrayBuffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  return p;
}

/** The mixed rows as DuckDB returns them (JSON form), computed from the columns without the forms module. */
function expectedMixedJson(): unknown[] {
  const out = [];
  for (let i = 0; i < N; i++) {
    out.push({
      id: String(m.id[i]),
      ts_us: String(m.ts[i]),
      i32: m.i32[i],
      f64: m.f64[i],
      low_card: m.lowCard[i],
      high_card: m.highCard[i],
      flag: m.flag[i] === 1,
      nullable_i32: m.nullableValid[i] === 1 ? m.nullableI32[i] : null,
      tags: m.tagValues.slice(m.tagOffsets[i], m.tagOffsets[i + 1]),
    });
  }
  return out;
}

async function readMixed(p: string): Promise<unknown[]> {
  const r = await conn.runAndReadAll(`SELECT id, epoch_us(ts)::BIGINT AS ts_us, i32, f64, low_card, high_card, flag, nullable_i32,
    coalesce(tags, []) AS tags FROM read_parquet('${p}') ORDER BY id`);
  return r.getRowObjectsJson();
}

async function mixedFiles(): Promise<[string, string][]> {
  const u = { low: forms.utf8Column(m.lowCard), high: forms.utf8Column(m.highCard), tags: forms.utf8Column(m.tagValues) };
  const opts: WriterOptions = { schema: forms.MIXED_SPEC, compression: 'SNAPPY' };
  const files: [string, string][] = [];
  files.push(['parquetry rows', save('p-rows.parquet', await writeParquet(forms.mixedRows(m), opts))]);
  files.push(['parquetry columns', save('p-cols.parquet', await writeParquet(forms.mixedVectors(m, u), opts))]);
  const w1 = new ByteWriter();
  parquetWrite({ writer: w1, columnData: forms.mixedHypColumns(m), schema: forms.MIXED_HYP_SCHEMA });
  files.push(['hyparquet-writer columns', save('h-cols.parquet', w1.getBuffer())]);
  const w2 = new ByteWriter();
  await parquetWriteRows({ writer: w2, rows: forms.mixedRows(m), columns: forms.MIXED_HYP_ROW_COLUMNS, schema: forms.MIXED_HYP_SCHEMA });
  files.push(['hyparquet-writer rows', save('h-rows.parquet', w2.getBuffer())]);
  const wasmTable = pw.Table.fromIPCStream(peer.arrowIpc(peer.mixedArrowTable(m)));
  files.push(['parquet-wasm', save('w.parquet', pw.writeParquet(wasmTable))]);
  await peer.loadMixedIntoDuckDB(conn, m);
  const d = path.join(dir, 'd.parquet');
  await conn.run(`COPY (SELECT * FROM mixed) TO '${d}' (FORMAT parquet, COMPRESSION snappy)`);
  files.push(['DuckDB', d]);
  return files;
}

describe('mixed table', () => {
  it('every writer writes the generator rows (DuckDB reads each file back row for row)', async () => {
    const want = expectedMixedJson();
    for (const [who, p] of await mixedFiles()) {
      expect(await readMixed(p), who).toEqual(want);
      await verifyFile(conn, 'mixed', p, expectedMixed(m), who);
    }
  });

  it('the aggregate check rejects a file with other data', async () => {
    const other = mixedColumns(N, 99);
    const p = save('other.parquet', await writeParquet(forms.mixedRows(other), { schema: forms.MIXED_SPEC }));
    await expect(verifyFile(conn, 'mixed', p, expectedMixed(m), 'x')).rejects.toThrow(/x wrote .* whose /);
    const fewer = save('fewer.parquet', await writeParquet(forms.mixedRows(m).slice(1), { schema: forms.MIXED_SPEC }));
    await expect(verifyFile(conn, 'mixed', fewer, expectedMixed(m), 'x')).rejects.toThrow(/rows reads back as 2999/);
  });
});

describe('numeric table', () => {
  it('every writer writes the generator rows', async () => {
    const want = [];
    for (let i = 0; i < N; i++) want.push([String(t.id[i]), t.a[i], String(t.b[i]), t.c[i], t.d[i]]);
    const files: [string, string][] = [];
    files.push(['parquetry', save('n-p.parquet', await writeParquet(forms.numericVectors(t), { schema: forms.NUMERIC_SPEC }))]);
    const w = new ByteWriter();
    parquetWrite({ writer: w, columnData: forms.numericHypColumns(t), schema: forms.NUMERIC_HYP_SCHEMA });
    files.push(['hyparquet-writer', save('n-h.parquet', w.getBuffer())]);
    files.push(['parquet-wasm', save('n-w.parquet', pw.writeParquet(pw.Table.fromIPCStream(peer.arrowIpc(peer.numericArrowTable(t)))))]);
    await peer.loadNumericIntoDuckDB(conn, t);
    const d = path.join(dir, 'n-d.parquet');
    await conn.run(`COPY (SELECT * FROM numeric) TO '${d}' (FORMAT parquet, COMPRESSION snappy)`);
    files.push(['DuckDB', d]);
    for (const [who, p] of files) {
      const rows = (await conn.runAndReadAll(`SELECT * FROM read_parquet('${p}') ORDER BY id`)).getRowsJson();
      expect(rows, who).toEqual(want);
      await verifyFile(conn, 'numeric', p, expectedNumeric(t), who);
    }
  });
});

describe('prng', () => {
  it('is deterministic per seed, in [0, 1), and roughly uniform', () => {
    const a = prng(1);
    const b = prng(1);
    const c = prng(2);
    let same = 0;
    let differ = 0;
    let outside = 0;
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const x = a();
      if (b() !== x) differ++;
      if (c() === x) same++;
      if (!(x >= 0 && x < 1)) outside++;
      else buckets[Math.floor(x * 10)]!++;
    }
    expect([differ, outside]).toEqual([0, 0]);
    expect(same).toBeLessThan(5);
    for (const k of buckets) expect(Math.abs(k - 10_000)).toBeLessThan(600);
  });
});

describe('numericBatches', () => {
  it('batches of any sizes concatenate to numericColumns of the same seed', () => {
    const whole = numericColumns(1000, 3);
    const g = numericBatches(3);
    const parts = [g.next(1), g.next(500), g.next(0), g.next(499)];
    for (const k of ['id', 'a', 'b', 'c', 'd']) {
      const joined = parts.flatMap((p) => Array.from(p[k] as ArrayLike<unknown>));
      expect(joined, k).toEqual(Array.from(whole[k] as ArrayLike<unknown>));
    }
    expect(whole.id[999]).toBe(999n);
    expect(whole.c[4]).toBe(1);
  });
});
