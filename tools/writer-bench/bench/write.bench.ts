/**
 * Writer benchmark, peers side by side on the same data in the same run: parquetry's writer (from row objects and
 * from columnar vectors) against hyparquet-writer (its row API and its column API), parquet-wasm (`writeParquet` of a
 * WebAssembly Arrow table, alone; the Arrow build from the JS columns is timed apart) and DuckDB (`COPY (SELECT …) TO`
 * from a table already loaded; the load through the appender is timed apart, once).
 *
 * Tables (tools/writer-bench/src/data.mjs, seeded): the 1,000,000-row mixed table and the 10,000,000-row numeric
 * table. Before timing, every writer-form writes each table once per codec (uncompressed, snappy, zstd, gzip); each
 * file is read back by DuckDB and checked against aggregates computed from the generator's columns, and its size
 * and row-group count are recorded. Timings are snappy. At the end a summary table prints each case's mean and min
 * over the measured iterations (after one warm-up), our ratios to each peer, the goals and the sizes.
 *
 * Environment: BENCH_WRITE=mixed|numeric (comma list) filters the tables; BENCH_CODECS=snappy,zstd (default all
 * four) limits the size pass; BENCH_MIXED_ROWS / BENCH_NUMERIC_ROWS change the row counts; BENCH_ITERATIONS
 * (default 3). Peak RSS is measured by peak-rss-write.mjs, one process per measurement (see the README).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DuckDBInstance } from '@duckdb/node-api';
import { ByteWriter, parquetWrite, parquetWriteRows } from 'hyparquet-writer';
import * as pw from 'parquet-wasm';
import { afterAll, bench, describe } from 'vitest';
import { allCodecs } from 'parquetry';
import { createWriter, writeParquet, type CompressionName } from '@parquetry/parquet-writer';
import { fileSink } from '@parquetry/parquet-writer/node';
// @ts-expect-error: plain .mjs tool modules without types
import { mixedColumns, numericColumns } from '../src/data.mjs';
// @ts-expect-error: plain .mjs tool modules without types
import * as forms from '../src/forms.mjs';
// @ts-expect-error: plain .mjs tool modules without types
import * as peer from '../src/peer-forms.mjs';
// @ts-expect-error: plain .mjs tool modules without types
import { expectedMixed, expectedNumeric, verifyFile } from '../src/verify.mjs';

type Codec = 'uncompressed' | 'snappy' | 'zstd' | 'gzip';
type Table = 'mixed' | 'numeric';
/** One way to write a table: returns the file's bytes, or writes to `file` and returns nothing. */
type WriteFn = (codec: Codec, file: string, input: unknown) => Promise<Uint8Array | undefined> | Uint8Array | undefined;
interface Case {
  name: string;
  /** parquetry's own lines are compared with every peer line. */
  ours: boolean;
  /**
   * Builds the case's input from the generator's columns. It is built before the case runs and dropped after it,
   * so that no case's timings pay garbage-collection work for another case's input (row objects, JS arrays).
   */
  input?: () => unknown;
  write: WriteFn;
  /** Prepared before each iteration and excluded from the time (parquet-wasm's consumed WebAssembly table). */
  prepare?: (input: unknown) => void;
  /** Timed lines exclude it from the size pass (e.g. a second form of the same writer with the same output). */
  sizes?: boolean;
}

// a full garbage collection between cases (and before each case's timed phase), not inside the timed calls
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const loadAtStart = os.loadavg();
const only = process.env.BENCH_WRITE?.split(',') ?? ['mixed', 'numeric'];
const codecsToSize = (process.env.BENCH_CODECS?.split(',') ?? ['uncompressed', 'snappy', 'zstd', 'gzip']) as Codec[];
const iterations = Number(process.env.BENCH_ITERATIONS ?? 3);
const opts = { iterations, time: 0, warmupIterations: 1, warmupTime: 0 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'writer-bench-'));
const duck = await (await DuckDBInstance.create(':memory:')).connect();
const threads = Number((await duck.runAndReadAll(`SELECT current_setting('threads') AS t`)).getRowsJS()[0]![0]);

// the same compressors for every JavaScript writer (hyparquet-writer ships snappy only and takes others as
// functions): our codec packages at their default levels (zstd 3, gzip 6)
const codecs = await allCodecs();
type CodecKey = keyof typeof codecs;
// parquet.thrift CompressionCodec numbers: GZIP = 2, ZSTD = 6
const zstd = codecs[6 as CodecKey]!;
const gzip = codecs[2 as CodecKey]!;
const hypCompressors = { ZSTD: (b: Uint8Array) => zstd.compress!(b), GZIP: (b: Uint8Array) => gzip.compress!(b) };
const OURS: Record<Codec, CompressionName> = { uncompressed: 'UNCOMPRESSED', snappy: 'SNAPPY', zstd: 'ZSTD', gzip: 'GZIP' };
const HYP = { uncompressed: 'UNCOMPRESSED', snappy: 'SNAPPY', zstd: 'ZSTD', gzip: 'GZIP' } as const;
const WASM: Record<Codec, pw.Compression> = {
  uncompressed: pw.Compression.UNCOMPRESSED,
  snappy: pw.Compression.SNAPPY,
  zstd: pw.Compression.ZSTD,
  gzip: pw.Compression.GZIP,
};

/** Per table: timing samples per case, sizes per case and codec, one-off timings (data preparation). */
const results = new Map<Table, { rows: number; samples: Map<string, number[]>; ours: Set<string>; sizes: Map<string, Map<Codec, [number, number]>>; once: [string, number][] }>();

function hypBytes(w: ByteWriter): Uint8Array {
  return new Uint8Array(w.getBuffer());
}

/** Row-group count of a written file, from DuckDB. */
async function rowGroups(file: string): Promise<number> {
  const r = await duck.runAndReadAll(`SELECT num_row_groups FROM parquet_file_metadata('${file}')`);
  return Number(r.getRowsJS()[0]![0]);
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

async function timeAsync<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await f();
  return [v, performance.now() - t];
}

/** Writes every case once per codec, checks each file with DuckDB, records sizes; then registers the timed benches. */
async function setUp(table: Table, rows: number, cases: Case[], expected: Record<string, number | string>): Promise<void> {
  const r = { rows, samples: new Map<string, number[]>(), ours: new Set<string>(), sizes: new Map<string, Map<Codec, [number, number]>>(), once: [] as [string, number][] };
  results.set(table, r);
  for (const c of cases) {
    if (c.ours) r.ours.add(c.name);
    let input = c.input?.();
    const sizes = new Map<Codec, [number, number]>();
    for (const codec of c.sizes === false ? (['snappy'] as Codec[]) : codecsToSize.includes('snappy') ? codecsToSize : ['snappy' as Codec, ...codecsToSize]) {
      const file = path.join(dir, `${table}.${c.name.replace(/\W+/g, '_')}.${codec}.parquet`);
      c.prepare?.(input);
      const bytes = await c.write(codec, file, input);
      if (bytes) fs.writeFileSync(file, bytes);
      await verifyFile(duck, table, file, expected, `${c.name} (${codec})`);
      sizes.set(codec, [fs.statSync(file).size, await rowGroups(file)]);
      fs.rmSync(file);
    }
    if (c.sizes !== false) r.sizes.set(c.name, sizes);
    input = undefined;
    gc();
  }
  describe(`${table} ${rows.toLocaleString('en')} rows, snappy`, () => {
    for (const c of cases) {
      const samples: number[] = [];
      r.samples.set(c.name, samples);
      const file = path.join(dir, `${table}.timed.parquet`);
      let input: unknown;
      bench(
        c.name,
        async () => {
          c.prepare?.(input);
          const t = performance.now();
          await c.write('snappy', file, input);
          samples.push(performance.now() - t);
        },
        {
          ...opts,
          // tinybench: setup before the warm-up and before the measured run, teardown after each
          setup: (_task, mode) => {
            if (mode === 'warmup') input = c.input?.();
            gc();
          },
          teardown: (_task, mode) => {
            if (mode === 'run') {
              input = undefined;
              gc();
            }
          },
        },
      );
    }
  });
}

// ---------------------------------------------------------------- mixed

if (only.includes('mixed')) {
  const n = Number(process.env.BENCH_MIXED_ROWS ?? 1_000_000);
  const [m, tGen] = time(() => mixedColumns(n));
  // one-off timings of the input steps (the inputs are rebuilt per case, see Case.input)
  const [, tRows] = time(() => forms.mixedRows(m));
  const utf8 = () => ({ low: forms.utf8Column(m.lowCard), high: forms.utf8Column(m.highCard), tags: forms.utf8Column(m.tagValues) });
  const [, tUtf8] = time(utf8);
  const [arrow, tArrow] = time(() => peer.mixedArrowTable(m));
  const [ipc, tIpc] = time(() => peer.arrowIpc(arrow));
  const [wasmTable0, tWasmIn] = time(() => pw.Table.fromIPCStream(ipc));
  wasmTable0.free();
  const [, tLoad] = await timeAsync(() => peer.loadMixedIntoDuckDB(duck, m));
  const pool: pw.Table[] = [];
  const cases: Case[] = [
    {
      name: 'parquetry, rows',
      ours: true,
      input: () => forms.mixedRows(m),
      write: (c, _f, rows) => writeParquet(rows as never, { schema: forms.MIXED_SPEC, compression: OURS[c], codecs }),
    },
    {
      name: 'parquetry, columnar vectors',
      ours: true,
      input: () => forms.mixedVectors(m, utf8()),
      write: (c, _f, vectors) => writeParquet(vectors as never, { schema: forms.MIXED_SPEC, compression: OURS[c], codecs }),
    },
    {
      name: 'hyparquet-writer, rows (parquetWriteRows)',
      ours: false,
      input: () => forms.mixedRows(m),
      write: async (c, _f, rows) => {
        const w = new ByteWriter();
        await parquetWriteRows({ writer: w, rows: rows as never, columns: forms.MIXED_HYP_ROW_COLUMNS, schema: forms.MIXED_HYP_SCHEMA, codec: HYP[c], compressors: hypCompressors });
        return hypBytes(w);
      },
    },
    {
      name: 'hyparquet-writer, columnData (parquetWrite)',
      ours: false,
      input: () => forms.mixedHypColumns(m),
      write: (c, _f, columnData) => {
        const w = new ByteWriter();
        parquetWrite({ writer: w, columnData: columnData as never, schema: forms.MIXED_HYP_SCHEMA, codec: HYP[c], compressors: hypCompressors });
        return hypBytes(w);
      },
    },
    {
      name: 'parquet-wasm writeParquet (writer alone)',
      ours: false,
      prepare: () => pool.push(pw.Table.fromIPCStream(ipc)),
      write: (c) => pw.writeParquet(pool.pop()!, new pw.WriterPropertiesBuilder().setCompression(WASM[c]).build()),
    },
    {
      name: `DuckDB COPY (${threads} threads)`,
      ours: false,
      write: async (c, file) => {
        await duck.run(`COPY (SELECT * FROM mixed) TO '${file}' (FORMAT parquet, COMPRESSION ${c})`);
        return undefined;
      },
    },
    {
      name: 'DuckDB COPY (1 thread)',
      ours: false,
      sizes: false,
      write: async (c, file) => {
        await duck.run(`SET threads = 1`);
        try {
          await duck.run(`COPY (SELECT * FROM mixed) TO '${file}' (FORMAT parquet, COMPRESSION ${c})`);
        } finally {
          await duck.run(`SET threads = ${threads}`);
        }
        return undefined;
      },
    },
  ];
  await setUp('mixed', n, cases, expectedMixed(m));
  results.get('mixed')!.once.push(
    ['generate columns (untimed input)', tGen],
    ['row objects from columns (input of "rows")', tRows],
    ['strings → UTF-8 offsets+bytes (input of "columnar vectors")', tUtf8],
    ['Arrow table from JS columns (incl. UTF-8)', tArrow],
    ['Arrow table → IPC stream', tIpc],
    ['parquet-wasm Table.fromIPCStream', tWasmIn],
    ['DuckDB load through the appender (2048-row chunks)', tLoad],
  );
}

// ---------------------------------------------------------------- numeric

if (only.includes('numeric')) {
  const n = Number(process.env.BENCH_NUMERIC_ROWS ?? 10_000_000);
  const [t, tGen] = time(() => numericColumns(n));
  const vectors = forms.numericVectors(t);
  const hypColumns = forms.numericHypColumns(t);
  const [arrow, tArrow] = time(() => peer.numericArrowTable(t));
  const [ipc, tIpc] = time(() => peer.arrowIpc(arrow));
  const [wasmTable0, tWasmIn] = time(() => pw.Table.fromIPCStream(ipc));
  wasmTable0.free();
  const [, tLoad] = await timeAsync(() => peer.loadNumericIntoDuckDB(duck, t));
  const pool: pw.Table[] = [];
  const cases: Case[] = [
    { name: 'parquetry, columnar vectors → memory', ours: true, write: (c) => writeParquet(vectors, { schema: forms.NUMERIC_SPEC, compression: OURS[c], codecs }) },
    {
      name: 'parquetry, columnar vectors → fileSink',
      ours: true,
      sizes: false,
      write: async (c, file) => {
        const w = createWriter(await fileSink(file), { schema: forms.NUMERIC_SPEC, compression: OURS[c], codecs });
        await w.writeColumns(vectors);
        await w.close();
        return undefined;
      },
    },
    {
      name: 'parquetry, columnar vectors → fileSink, no fsync',
      ours: true,
      sizes: false,
      write: async (c, file) => {
        const w = createWriter(await fileSink(file, { sync: false }), { schema: forms.NUMERIC_SPEC, compression: OURS[c], codecs });
        await w.writeColumns(vectors);
        await w.close();
        return undefined;
      },
    },
    {
      name: 'hyparquet-writer, columnData (parquetWrite)',
      ours: false,
      write: (c) => {
        const w = new ByteWriter();
        parquetWrite({ writer: w, columnData: hypColumns, schema: forms.NUMERIC_HYP_SCHEMA, codec: HYP[c], compressors: hypCompressors });
        return hypBytes(w);
      },
    },
    {
      name: 'parquet-wasm writeParquet (writer alone)',
      ours: false,
      prepare: () => pool.push(pw.Table.fromIPCStream(ipc)),
      write: (c) => pw.writeParquet(pool.pop()!, new pw.WriterPropertiesBuilder().setCompression(WASM[c]).build()),
    },
    {
      name: `DuckDB COPY (${threads} threads)`,
      ours: false,
      write: async (c, file) => {
        await duck.run(`COPY (SELECT * FROM numeric) TO '${file}' (FORMAT parquet, COMPRESSION ${c})`);
        return undefined;
      },
    },
    {
      name: 'DuckDB COPY (1 thread)',
      ours: false,
      sizes: false,
      write: async (c, file) => {
        await duck.run(`SET threads = 1`);
        try {
          await duck.run(`COPY (SELECT * FROM numeric) TO '${file}' (FORMAT parquet, COMPRESSION ${c})`);
        } finally {
          await duck.run(`SET threads = ${threads}`);
        }
        return undefined;
      },
    },
  ];
  await setUp('numeric', n, cases, expectedNumeric(t));
  results.get('numeric')!.once.push(
    ['generate columns (untimed input)', tGen],
    ['Arrow table from typed arrays (zero-copy)', tArrow],
    ['Arrow table → IPC stream', tIpc],
    ['parquet-wasm Table.fromIPCStream', tWasmIn],
    ['DuckDB load through the appender (2048-row chunks)', tLoad],
  );
}

// ---------------------------------------------------------------- summary

const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const kib = (v: number): string => (v / 1024).toFixed(0);

function stats(s: number[]): { mean: number; min: number } {
  // the first sample is the warm-up
  const measured = s.length > iterations ? s.slice(s.length - iterations) : s;
  return { mean: measured.reduce((a, b) => a + b, 0) / measured.length, min: Math.min(...measured) };
}

function goal(label: string, ratio: number | undefined, target: string, ok: boolean | undefined): string {
  return `  ${label}: ${ratio === undefined ? 'n/a' : ratio.toFixed(2) + '×'} (goal ${target}) ${ok === undefined ? '' : ok ? 'MET' : 'NOT MET'}`;
}

afterAll(() => {
  const out: string[] = [];
  out.push('', `writer benchmark — node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at the start, ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end, DuckDB threads ${threads}`);
  for (const [table, r] of results) {
    out.push('', `== ${table}, ${r.rows.toLocaleString('en')} rows, snappy: mean / min of ${iterations} after 1 warm-up (ms); ratio = ours / peer (< 1: ours faster)`);
    const names = [...r.samples.keys()];
    const ours = names.filter((n) => r.ours.has(n));
    const head = ['case'.padEnd(50), 'mean'.padStart(8), 'min'.padStart(8), ...ours.map((o) => `${o.replace(/^parquetry, (columnar )?/, 'ours ').replace('vectors → ', '→ ')} ÷ it`.padStart(31))];
    out.push(head.join(' '));
    const st = new Map(names.map((n) => [n, stats(r.samples.get(n)!)]));
    for (const n of names) {
      const s = st.get(n)!;
      const cells = [n.padEnd(50), ms(s.mean).padStart(8), ms(s.min).padStart(8)];
      for (const o of ours) cells.push((r.ours.has(n) ? '' : (st.get(o)!.mean / s.mean).toFixed(2) + '×').padStart(31));
      out.push(cells.join(' '));
    }
    out.push('  one-off steps (single run, not part of the writers\' times):');
    for (const [k, v] of r.once) out.push(`    ${k}: ${ms(v)} ms`);
    out.push('  output sizes in KiB (row groups):');
    const codecsSeen = [...new Set([...r.sizes.values()].flatMap((m) => [...m.keys()]))];
    out.push('    ' + 'writer'.padEnd(46) + codecsSeen.map((c) => c.padStart(16)).join(''));
    for (const [n, m] of r.sizes) {
      out.push('    ' + n.padEnd(46) + codecsSeen.map((c) => (m.has(c) ? `${kib(m.get(c)![0])} (${m.get(c)![1]})` : 'n/a').padStart(16)).join(''));
    }
    const mean = (n: string): number | undefined => (st.has(n) ? st.get(n)!.mean : undefined);
    const duckName = names.find((n) => n.startsWith('DuckDB COPY') && !n.includes('1 thread'))!;
    out.push('  goals:');
    if (table === 'mixed') {
      const a = mean('parquetry, rows');
      const b = mean('hyparquet-writer, rows (parquetWriteRows)');
      const c = mean('parquetry, columnar vectors');
      const d = mean('parquet-wasm writeParquet (writer alone)');
      const ra = a !== undefined && b !== undefined ? a / b : undefined;
      const rc = c !== undefined && d !== undefined ? c / d : undefined;
      out.push(goal('rows ÷ hyparquet-writer rows', ra, '≤ 0.25×', ra === undefined ? undefined : ra <= 0.25));
      const b2 = mean('hyparquet-writer, columnData (parquetWrite)');
      if (a !== undefined && b2 !== undefined) out.push(`  (rows ÷ hyparquet-writer columnData: ${(a / b2).toFixed(2)}×)`);
      out.push(goal('columnar vectors ÷ parquet-wasm writer alone', rc, '< 1×', rc === undefined ? undefined : rc < 1));
    } else {
      const a = mean('parquetry, columnar vectors → fileSink');
      const a2 = mean('parquetry, columnar vectors → memory');
      const d = mean(duckName);
      const ra = a !== undefined && d !== undefined ? a / d : undefined;
      out.push(goal(`columnar vectors → file ÷ ${duckName}`, ra, '≤ 3×', ra === undefined ? undefined : ra <= 3));
      const a3 = mean('parquetry, columnar vectors → fileSink, no fsync');
      if (a2 !== undefined && d !== undefined) out.push(`  (→ memory ÷ ${duckName}: ${(a2 / d).toFixed(2)}×)`);
      if (a3 !== undefined && d !== undefined) out.push(`  (→ fileSink without fsync ÷ ${duckName}: ${(a3 / d).toFixed(2)}×)`);
    }
    const oursSizes = r.sizes.get(ours[0]!);
    const duckSizes = r.sizes.get(duckName);
    if (oursSizes && duckSizes) {
      for (const [c, [size]] of oursSizes) {
        const dsz = duckSizes.get(c)?.[0];
        if (dsz !== undefined) out.push(goal(`size ${c} ÷ DuckDB`, size / dsz, '≤ 1.05×', size / dsz <= 1.05));
      }
    }
  }
  console.log(out.join('\n'));
  fs.rmSync(dir, { recursive: true, force: true });
});
