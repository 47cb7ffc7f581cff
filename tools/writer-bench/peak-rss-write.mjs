#!/usr/bin/env node
// Peak RSS of one write, one process per measurement (run `pnpm build` first: this imports the packages' dist).
//
//   node --expose-gc tools/writer-bench/peak-rss-write.mjs <mode> [rowGroupRows]   one measurement, prints a JSON line
//   node tools/writer-bench/peak-rss-write.mjs [mixed|numeric]                     every mode, each in its own process
//                                                                                   under /usr/bin/time -v, as a table
// Mixed modes, `mixed-<writer>-<input>` (1M-row mixed table, snappy, each writer's defaults otherwise, output kept
// in memory until exit). Each process builds only its input: `rows` (row objects), `vectors` (parquetry's columnar
// vectors: typed arrays and UTF-8 bytes) or `hypcolumns` (hyparquet-writer's columnData: typed arrays and JS
// arrays); writer `none` builds the input and writes nothing, the baseline that a write's extra memory is
// measured against (max RSS of the write's process minus max RSS of the baseline process with the same input):
//   mixed-none-rows, mixed-parquetry-rows, mixed-hyparquet-rows                (parquetWriteRows)
//   mixed-none-vectors, mixed-parquetry-vectors
//   mixed-none-hypcolumns, mixed-hyparquet-hypcolumns                          (parquetWrite)
// Numeric modes (10M-row numeric table through createWriter(fileSink(path)), snappy):
//   numeric-parquetry-file[:rowGroupRows]  generated in 262,144-row batches, each passed to writeColumns: the
//                               table is never held whole, so the peak is the writer's (about one row group) plus
//                               one input batch; rowGroupRows changes the row-group size (default the writer's)
//   numeric-parquetry-file-whole  the whole 10M-row table resident, one writeColumns call
// In the process, after the input is built: garbage collection, VmRSS ("input"), a reset of the kernel's peak
// counter (/proc/self/clear_refs 5), the write, then VmHWM ("write peak": the peak during the write, input included).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mixedColumns, numericBatches } from './src/data.mjs';
import * as forms from './src/forms.mjs';

const self = fileURLToPath(import.meta.url);
const MIXED_MODES = [
  'mixed-none-rows',
  'mixed-parquetry-rows',
  'mixed-hyparquet-rows',
  'mixed-none-vectors',
  'mixed-parquetry-vectors',
  'mixed-none-hypcolumns',
  'mixed-hyparquet-hypcolumns',
];
const NUMERIC_MODES = ['numeric-parquetry-file:262144', 'numeric-parquetry-file', 'numeric-parquetry-file:4194304', 'numeric-parquetry-file-whole'];

/** @param {string} key VmRSS / VmHWM @returns {number} MiB */
function status(key) {
  const line = fs.readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key + ':'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

async function measure(mode, rowGroupArg) {
  const { writeParquet, createWriter } = await import('@parquetry/parquet-writer');
  const { fileSink } = await import('@parquetry/parquet-writer/node');
  const keep = [];
  /** @type {() => Promise<unknown>} */
  let write;
  /** @type {Record<string, unknown>} */
  const extra = {};
  if (mode.startsWith('mixed-')) {
    const [, writer, input] = mode.split('-');
    const m = mixedColumns(1_000_000);
    keep.push(m);
    const rows = input === 'rows' ? forms.mixedRows(m) : undefined;
    const vectors = input === 'vectors'
      ? forms.mixedVectors(m, { low: forms.utf8Column(m.lowCard), high: forms.utf8Column(m.highCard), tags: forms.utf8Column(m.tagValues) })
      : undefined;
    const hypColumns = input === 'hypcolumns' ? forms.mixedHypColumns(m) : undefined;
    keep.push(rows, vectors, hypColumns);
    const hyp = await import('hyparquet-writer');
    const data = rows ?? vectors ?? hypColumns;
    if (data === undefined) throw new Error(`peak-rss-write: unknown input in mode '${mode}'`);
    write = {
      none: async () => undefined,
      parquetry: () => writeParquet(/** @type {never} */ (rows ?? vectors), { schema: forms.MIXED_SPEC }),
      hyparquet: async () => {
        const w = new hyp.ByteWriter();
        if (rows) await hyp.parquetWriteRows({ writer: w, rows, columns: forms.MIXED_HYP_ROW_COLUMNS, schema: forms.MIXED_HYP_SCHEMA });
        else hyp.parquetWrite({ writer: w, columnData: /** @type {never} */ (hypColumns), schema: forms.MIXED_HYP_SCHEMA });
        return w.getBuffer();
      },
    }[writer];
  } else if (mode === 'numeric-parquetry-file' || mode === 'numeric-parquetry-file-whole') {
    const N = 10_000_000;
    const whole = mode.endsWith('-whole');
    const BATCH = 262_144;
    const g = numericBatches();
    const table = whole ? g.next(N) : undefined;
    if (table) keep.push(table);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'peak-rss-')), 'numeric.parquet');
    const options = { schema: forms.NUMERIC_SPEC, ...(rowGroupArg ? { rowGroupRows: Number(rowGroupArg) } : {}) };
    write = async () => {
      const w = createWriter(await fileSink(file), options);
      if (table) await w.writeColumns(forms.numericVectors(table));
      else for (let at = 0; at < N; at += BATCH) await w.writeColumns(forms.numericVectors(g.next(Math.min(BATCH, N - at))));
      const meta = await w.close();
      extra.fileMiB = fs.statSync(file).size / 2 ** 20;
      extra.rowGroups = meta.row_groups.length;
      extra.rowGroupRows = Number(meta.row_groups[0].num_rows);
      extra.maxRowGroupMiB = Math.max(...meta.row_groups.map((r) => Number(r.total_byte_size))) / 2 ** 20;
      extra.maxRowGroupCompressedMiB = Math.max(...meta.row_groups.map((r) => Number(r.total_compressed_size ?? 0))) / 2 ** 20;
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    };
  }
  if (!write) throw new Error(`peak-rss-write: unknown mode '${mode}'`);
  globalThis.gc?.();
  const inputRss = status('VmRSS');
  let reset = true;
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    reset = false;
  }
  const t = performance.now();
  keep.push(await write());
  const ms = performance.now() - t;
  const peak = status('VmHWM');
  console.log(JSON.stringify({ mode: rowGroupArg ? `${mode}:${rowGroupArg}` : mode, ms: Math.round(ms), inputRssMiB: +inputRss.toFixed(1), writePeakMiB: reset ? +peak.toFixed(1) : null, ...extra }));
  return keep.length;
}

function runAll(which) {
  const modes = [...(which !== 'numeric' ? MIXED_MODES : []), ...(which !== 'mixed' ? NUMERIC_MODES : [])];
  const hasTime = fs.existsSync('/usr/bin/time');
  console.log(`peak RSS per write, one process each; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${hasTime ? '/usr/bin/time -v' : 'VmHWM only (no /usr/bin/time)'}`);
  console.log(`${'mode'.padEnd(34)} ${'ms'.padStart(7)} ${'maxRSS MiB'.padStart(11)} ${'− baseline'.padStart(11)} ${'input MiB'.padStart(10)} ${'write peak'.padStart(11)}  file / row groups`);
  /** @type {Map<string, number>} max RSS of the `none` process per input */
  const baseline = new Map();
  for (const spec of modes) {
    const [mode, rg] = spec.split(':');
    const args = ['--expose-gc', self, mode, ...(rg ? [rg] : [])];
    const r = hasTime ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { encoding: 'utf8' }) : spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (r.status !== 0) {
      console.log(`${spec.padEnd(34)} FAILED: ${(r.stderr || '').split('\n').slice(-5).join(' | ')}`);
      continue;
    }
    const res = JSON.parse(r.stdout.trim().split('\n').pop());
    const max = hasTime ? Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]) / 1024 : res.writePeakMiB;
    const [, writer, input] = mode.split('-');
    if (writer === 'none') baseline.set(input, max);
    const base = baseline.get(input);
    const extra = writer !== 'none' && base !== undefined ? (max - base).toFixed(0) : '';
    const rgInfo = res.rowGroups
      ? `${res.fileMiB.toFixed(0)} MiB, ${res.rowGroups} × ${res.rowGroupRows} rows, largest ${res.maxRowGroupMiB.toFixed(1)} MiB (${res.maxRowGroupCompressedMiB.toFixed(1)} MiB compressed)`
      : '';
    console.log(`${res.mode.padEnd(34)} ${String(res.ms).padStart(7)} ${max.toFixed(0).padStart(11)} ${extra.padStart(11)} ${res.inputRssMiB.toFixed(0).padStart(10)} ${String(res.writePeakMiB?.toFixed(0)).padStart(11)}  ${rgInfo}`);
  }
}

const [mode, arg] = process.argv.slice(2);
if (mode === undefined || mode === 'mixed' || mode === 'numeric') runAll(mode);
else await measure(mode, arg);
