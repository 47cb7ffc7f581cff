#!/usr/bin/env node
/**
 * The fuzz driver. Bundles src/worker.ts (esbuild, workspace packages from source), then runs each entry point's
 * inputs in child processes with a heap limit (--max-old-space-size), watching each child: its progress file names
 * the input it is on, so an input that hangs (no progress for `hangMs`), takes the process down (a crash, an
 * out-of-memory abort) or pushes its resident memory past `rssMb` is known exactly; it is written out, the child
 * replaced, and the run goes on after it. Errors other than ParquetError and silent row-count changes are reported by
 * the child. Every finding is saved under fixtures/fuzz-regressions/<entry>/<hash>.bin with a note (<hash>.json).
 *
 *   pnpm fuzz                 a short run (2,000 executions per entry point)
 *   pnpm fuzz --long          1,000,000 executions per entry point (status in /tmp/parquetry-fuzz-status.json)
 *   pnpm fuzz --execs N --entries file,levels --workers 2 --hang-ms 20000 --rss-mb 1500
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspacePlugin } from '../testing/workspace-plugin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const regressionsDir = path.join(repo, 'fixtures/fuzz-regressions');
export const defaultCorpus = path.resolve(repo, '../shared/parquet-testing/data');

/** Every entry point's name (kept in step with src/entries.ts; the worker rejects an unknown name). */
export const ENTRIES = [
  'thrift-footer',
  'thrift-page-header',
  'encoding-PLAIN',
  'encoding-PLAIN_DICTIONARY',
  'encoding-RLE',
  'encoding-DELTA_BINARY_PACKED',
  'encoding-DELTA_LENGTH_BYTE_ARRAY',
  'encoding-DELTA_BYTE_ARRAY',
  'encoding-RLE_DICTIONARY',
  'encoding-BYTE_STREAM_SPLIT',
  'encoding-ALP',
  'codec-SNAPPY',
  'codec-GZIP',
  'codec-LZO',
  'codec-BROTLI',
  'codec-LZ4',
  'codec-ZSTD',
  'codec-LZ4_RAW',
  'levels',
  'variant',
  'crypto-module',
  'decryption',
  'file',
  'arrow',
];

/**
 * Where the workspace packages' sources are taken from: the working tree, or (PARQUETRY_FUZZ_SOURCES) a snapshot of
 * it, e.g. `git archive HEAD packages | tar -x -C dir`, so that a long run fuzzes one commit while the tree changes.
 */
const sources = process.env.PARQUETRY_FUZZ_SOURCES ? path.resolve(process.env.PARQUETRY_FUZZ_SOURCES) : repo;

let bundled;
/** Bundles the worker once per process (workspace packages from their sources; npm packages left to Node). */
export async function bundleWorker() {
  if (bundled) return bundled;
  const esbuild = await import('esbuild');
  const out = path.join(here, '.build', `worker-${process.pid}-tmp.mjs`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // bundles left by drivers that were killed
  for (const f of fs.readdirSync(path.dirname(out))) {
    const pid = Number(/^worker-(\d+)-tmp\.mjs$/.exec(f)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      fs.rmSync(path.join(path.dirname(out), f), { force: true });
    }
  }
  await esbuild.build({
    entryPoints: [path.join(here, 'src/worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'error',
    plugins: [workspacePlugin({ sources })],
  });
  bundled = out;
  process.once('exit', () => fs.rmSync(out, { force: true }));
  return out;
}

/** Resident memory of a process in MiB (0 when it is gone). */
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** A child worker and its progress file. */
class Child {
  constructor(script, heapMb) {
    this.progress = path.join(os.tmpdir(), `parquetry-fuzz-${process.pid}-${Child.n++}.progress`);
    fs.writeFileSync(this.progress, Buffer.alloc(8));
    this.proc = fork(script, [this.progress], { execArgv: [`--max-old-space-size=${heapMb}`], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => (this.stderr = (this.stderr + d).slice(-4000)));
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    this.peakRss = 0;
    Child.alive.add(this);
  }
  index() {
    const b = Buffer.alloc(8);
    try {
      const fd = fs.openSync(this.progress, 'r');
      fs.readSync(fd, b, 0, 8, 0);
      fs.closeSync(fd);
    } catch {
      return -1;
    }
    return b.readDoubleLE(0);
  }
  kill() {
    Child.alive.delete(this);
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    return this.exited.finally(() => fs.rmSync(this.progress, { force: true }));
  }
}
Child.n = 0;
/** Children alive, killed when the driver is interrupted. */
Child.alive = new Set();
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    for (const c of Child.alive) {
      c.kill();
      fs.rmSync(c.progress, { force: true });
    }
    if (bundled) fs.rmSync(bundled, { force: true });
    process.exit(130);
  });
}

/**
 * Sends one command and watches the child until it answers `done`: resolves with the messages it sent, or with the
 * reason it was stopped (`hang`, `memory`, `crash`) and the index it was on.
 */
function watch(child, cmd, { hangMs, rssLimitMb, startupMs, onMessage }) {
  return new Promise((resolve) => {
    let last = child.index();
    let lastChange = Date.now();
    // a run or a replay counts a hang from its worker's `ready` (before it, the startup bound applies)
    let started = cmd.type !== 'run' && cmd.type !== 'replay';
    let settled = false;
    const finish = (r) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      child.proc.off('message', onMsg);
      resolve(r);
    };
    const onMsg = (m) => {
      if (m.type === 'ready') {
        started = true;
        lastChange = Date.now();
      }
      if (m.type === 'done') finish({ ok: true, done: m });
      else if (m.type === 'error') finish({ ok: false, kind: 'crash', index: child.index(), detail: m.detail });
      else onMessage?.(m);
    };
    child.proc.on('message', onMsg);
    const timer = setInterval(() => {
      const rss = rssMb(child.proc.pid);
      child.peakRss = Math.max(child.peakRss, rss);
      const i = child.index();
      if (i !== last) {
        last = i;
        lastChange = Date.now();
      }
      if (rss > rssLimitMb) finish({ ok: false, kind: 'memory', index: i, detail: `resident memory ${Math.round(rss)} MiB, over the ${rssLimitMb} MiB bound` });
      else if (Date.now() - lastChange > (started ? hangMs : startupMs)) finish({ ok: false, kind: started ? 'hang' : 'crash', index: i, detail: started ? `no progress for ${hangMs} ms` : `no seeds within ${startupMs} ms` });
    }, 100);
    void child.exited.then(({ code, signal }) => {
      // a message sent just before exiting is delivered first
      setTimeout(() => finish({ ok: false, kind: 'crash', index: child.index(), detail: `the worker exited (code ${code}, signal ${signal}): ${child.stderr.trim().split('\n').slice(-6).join(' | ')}` }), 50);
    });
    child.proc.send(cmd);
  });
}

/** Saves a failing input and its note; returns the file name. */
function save(dir, finding, bytes) {
  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const d = path.join(dir, finding.entry);
  fs.mkdirSync(d, { recursive: true });
  const file = path.join(d, `${hash}.bin`);
  fs.writeFileSync(file, bytes);
  const note = { entry: finding.entry, kind: finding.kind, seed: finding.seed, index: finding.index, bytes: bytes.length, detail: finding.detail };
  fs.writeFileSync(path.join(d, `${hash}.json`), `${JSON.stringify(note, null, 2)}\n`);
  return path.relative(repo, file);
}

/**
 * Runs the fuzzer.
 * @param {object} o - options: `entries` (names), `execs` (per entry), `workers`, `chunk` (executions per command),
 *   `hangMs`, `rssMb`, `heapMb`, `corpus`, `maxFileBytes`, `save` (write regression files), `dir` (where),
 *   `onStatus` (called with the statistics now and then).
 * @returns {Promise<{stats: Record<string, object>, findings: object[]}>}
 */
export async function fuzz(o = {}) {
  const names = o.entries ?? ENTRIES;
  const execs = o.execs ?? 2000;
  const workers = o.workers ?? 1;
  const chunk = o.chunk ?? Math.min(execs, 5000);
  const hangMs = o.hangMs ?? 15_000;
  const rssLimitMb = o.rssMb ?? 1536;
  const heapMb = o.heapMb ?? 1024;
  const corpus = o.corpus === undefined ? (fs.existsSync(defaultCorpus) ? defaultCorpus : undefined) : o.corpus || undefined;
  const maxFileBytes = o.maxFileBytes ?? 256 * 1024;
  const dir = o.dir ?? regressionsDir;
  const script = await bundleWorker();
  const stats = Object.fromEntries(names.map((n) => [n, { execs: 0, seeds: 0, crashes: 0, hangs: 0, memory: 0, escapes: 0, silentRows: 0, peakRssMb: 0, ms: 0, codes: {} }]));
  const findings = [];
  // tasks interleaved across entries, so every entry advances
  const tasks = [];
  for (let from = 0; from < execs; from += chunk) for (const entry of names) tasks.push({ entry, from, to: Math.min(execs, from + chunk) });
  const common = { corpus, maxFileBytes };
  // findings alike (same entry, kind, seed and message but for its numbers) are counted, and saved twice at most
  const alike = new Map();
  const record = async (f, bytes) => {
    const st = stats[f.entry];
    if (f.kind === 'crash') st.crashes++;
    else if (f.kind === 'hang') st.hangs++;
    else if (f.kind === 'memory') st.memory++;
    else if (f.kind === 'escape') st.escapes++;
    else st.silentRows++;
    const entry = { ...f };
    delete entry.input;
    const sig = `${f.entry}|${f.kind}|${f.seed}|${String(f.detail).split('\n')[0].replace(/\d+/g, '#')}`;
    const seen = (alike.get(sig) ?? 0) + 1;
    alike.set(sig, seen);
    if (bytes && o.save !== false && seen <= 2) entry.file = save(dir, f, bytes);
    findings.push(entry);
  };
  const dump = async (entry, index) => {
    const child = new Child(script, heapMb);
    const out = `${child.progress}.input`;
    const r = await watch(child, { type: 'dump', entry, index, out, ...common }, { hangMs: 120_000, rssLimitMb: 8192, startupMs: 120_000 });
    await child.kill();
    const bytes = r.ok ? fs.readFileSync(out) : undefined;
    fs.rmSync(out, { force: true });
    return { bytes, seed: r.ok ? r.done.seed : undefined };
  };
  const slot = async () => {
    let child;
    for (;;) {
      const t = tasks.shift();
      if (!t) break;
      child ??= new Child(script, heapMb);
      const st = stats[t.entry];
      const t0 = Date.now();
      const r = await watch(child, { type: 'run', ...t, ...common }, {
        hangMs,
        rssLimitMb,
        startupMs: 300_000,
        onMessage: (m) => {
          if (m.type === 'ready') st.seeds = m.seeds;
          if (m.type === 'finding') void record(m, Buffer.from(m.input, 'base64'));
        },
      });
      st.ms += Date.now() - t0;
      st.peakRssMb = Math.max(st.peakRssMb, Math.round(child.peakRss));
      if (r.ok) {
        st.execs += r.done.execs;
        st.peakRssMb = Math.max(st.peakRssMb, Math.round(r.done.maxRss / 1024));
        for (const [k, v] of Object.entries(r.done.codes)) st.codes[k] = (st.codes[k] ?? 0) + v;
        // a fresh child per entry switch keeps one entry's seeds from another's memory figures
        await child.kill();
        child = undefined;
      } else {
        await child.kill();
        child = undefined;
        const index = r.index >= t.from && r.index < t.to ? r.index : t.from;
        st.execs += index - t.from + 1;
        const { bytes, seed } = await dump(t.entry, index);
        await record({ entry: t.entry, kind: r.kind, index, detail: r.detail, seed }, bytes);
        if (index + 1 < t.to) tasks.unshift({ entry: t.entry, from: index + 1, to: t.to });
      }
      o.onStatus?.(stats, findings);
    }
    if (child) await child.kill();
  };
  await Promise.all(Array.from({ length: workers }, () => slot()));
  return { stats, findings };
}

/**
 * Replays saved regression inputs: each is run alone in a child, under the same oracle, bounds and time limit.
 * @param {string[]} files - `.bin` files under fixtures/fuzz-regressions/<entry>/.
 * @returns {Promise<{file: string, ok: boolean, kind?: string, detail?: string, code?: string}[]>}
 */
export async function replay(files, o = {}) {
  const script = await bundleWorker();
  const corpus = fs.existsSync(defaultCorpus) ? defaultCorpus : undefined;
  const out = [];
  // one child for the inputs that pass; a fresh one after an input that took its child down
  let child;
  for (const file of files) {
    const entry = path.basename(path.dirname(file));
    child ??= new Child(script, o.heapMb ?? 1024);
    const r = await watch(child, { type: 'replay', entry, file, corpus, maxFileBytes: 256 * 1024 }, { hangMs: o.hangMs ?? 15_000, rssLimitMb: o.rssMb ?? 1536, startupMs: 120_000 });
    if (!r.ok) {
      await child.kill();
      child = undefined;
    }
    if (!r.ok) out.push({ file, ok: false, kind: r.kind, detail: r.detail });
    else if (r.done.result) out.push({ file, ok: false, kind: r.done.result.kind, detail: r.done.result.detail });
    else out.push({ file, ok: true, code: r.done.code });
  }
  if (child) await child.kill();
  return out;
}

/**
 * The input of execution `index` of an entry (as a run with the same corpus and file-size bound made it).
 * @returns {Promise<{bytes: Buffer | undefined, seed: string | undefined}>}
 */
export async function inputOf(entry, index, o = {}) {
  const script = await bundleWorker();
  const child = new Child(script, o.heapMb ?? 1024);
  const out = `${child.progress}.input`;
  const corpus = fs.existsSync(defaultCorpus) ? defaultCorpus : undefined;
  const r = await watch(child, { type: 'dump', entry, index, out, corpus, maxFileBytes: o.maxFileBytes ?? 256 * 1024 }, { hangMs: 120_000, rssLimitMb: 8192, startupMs: 120_000 });
  await child.kill();
  const bytes = r.ok ? fs.readFileSync(out) : undefined;
  fs.rmSync(out, { force: true });
  return { bytes, seed: r.ok ? r.done.seed : undefined };
}

/** Saves an input as a regression file with its note (see {@link fuzz}); returns its path. */
export function saveRegression(finding, bytes, dir = regressionsDir) {
  return save(dir, finding, bytes);
}

/** Every saved regression input. */
export function regressionFiles(dir = regressionsDir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => fs.readdirSync(path.join(dir, d.name)).filter((f) => f.endsWith('.bin')).sort().map((f) => path.join(dir, d.name, f)));
}

/** The statistics as a table. */
export function table(stats) {
  const rows = [['entry point', 'seeds', 'executions', 'crashes', 'hangs', 'over memory', 'non-ParquetError', 'silent rows', 'peak RSS MiB', 'exec/s']];
  for (const [name, s] of Object.entries(stats)) rows.push([name, s.seeds, s.execs, s.crashes, s.hangs, s.memory, s.escapes, s.silentRows, s.peakRssMb, s.ms > 0 ? Math.round((s.execs / s.ms) * 1000) : 0]);
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((x, c) => (c === 0 ? String(x).padEnd(w[c]) : String(x).padStart(w[c]))).join('  ')).join('\n');
}

async function main(argv) {
  const arg = (name, dflt) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : dflt;
  };
  const long = argv.includes('--long');
  const execs = Number(arg('--execs', long ? 1_000_000 : 2000));
  const entries = arg('--entries')?.split(',');
  const statusFile = arg('--status', long ? path.join(os.tmpdir(), 'parquetry-fuzz-status.json') : undefined);
  const t0 = Date.now();
  let lastPrint = 0;
  const { stats, findings } = await fuzz({
    execs,
    entries,
    workers: Number(arg('--workers', 1)),
    chunk: Number(arg('--chunk', long ? 20_000 : Math.min(execs, 5000))),
    hangMs: Number(arg('--hang-ms', 15_000)),
    rssMb: Number(arg('--rss-mb', 1536)),
    heapMb: Number(arg('--heap-mb', 1024)),
    maxFileBytes: Number(arg('--max-file-bytes', long ? 1 << 20 : 256 * 1024)),
    onStatus: (s, f) => {
      if (statusFile) fs.writeFileSync(statusFile, JSON.stringify({ elapsedS: Math.round((Date.now() - t0) / 1000), stats: s, findings: f.map(({ input, ...x }) => x) }, null, 2));
      if (Date.now() - lastPrint > 60_000) {
        lastPrint = Date.now();
        console.log(`--- ${Math.round((Date.now() - t0) / 1000)} s\n${table(s)}`);
      }
    },
  });
  console.log(`=== done in ${Math.round((Date.now() - t0) / 1000)} s\n${table(stats)}`);
  for (const f of findings) console.log(`${f.kind} ${f.entry} #${f.index} (${f.seed}) ${f.file ?? ''}\n  ${String(f.detail).split('\n').join('\n  ')}`);
  process.exitCode = findings.length > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main(process.argv.slice(2));
}
