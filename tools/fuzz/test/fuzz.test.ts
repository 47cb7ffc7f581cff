/**
 * The fuzzer in CI mode (issue 16): a bounded, deterministic run of every entry point — the same inputs on every run
 * (seeded mutations of the same seeds) — in child processes with a heap limit, a resident-memory bound and a
 * per-input time bound; any crash, hang, out-of-memory, error other than ParquetError or silent row-count change (a
 * whole-file read that succeeds with another row count than the footer states) fails the test. Then every saved
 * regression input (fixtures/fuzz-regressions/<entry>/<hash>.bin) is replayed alone under the same oracle.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations
import { ENTRIES, defaultCorpus, fuzz, regressionFiles, replay, table } from '../run.mjs';

type Stats = Record<string, { execs: number; seeds: number; crashes: number; hangs: number; memory: number; escapes: number; silentRows: number; peakRssMb: number }>;
type Found = { kind: string; entry: string; index: number; detail: string; seed?: string; file?: string };


/** Executions per entry point: whole-file reads cost far more than one decoder call. */
const CI_EXECS: Record<string, number> = { file: 1200, arrow: 1200, decryption: 600 };
const DEFAULT_EXECS = 1500;

if (!fs.existsSync(defaultCorpus)) console.warn(`tools/fuzz: ${defaultCorpus} not found; fuzzing generated files only`);

describe('fuzzing, CI mode', () => {
  test('every entry point, a fixed budget: no crash, hang, memory blow-up, non-ParquetError escape or silent row-count change', async () => {
    const groups = new Map<number, string[]>();
    for (const e of ENTRIES as string[]) {
      const n = CI_EXECS[e] ?? DEFAULT_EXECS;
      groups.set(n, [...(groups.get(n) ?? []), e]);
    }
    const stats: Stats = {};
    const findings: Found[] = [];
    for (const [execs, entries] of groups) {
      const r = (await fuzz({ entries, execs, workers: 2, hangMs: 20_000, rssMb: 1536, heapMb: 1024, save: false })) as { stats: Stats; findings: Found[] };
      Object.assign(stats, r.stats);
      findings.push(...r.findings);
    }
    console.log(table(stats));
    // nothing is written into the tree from a test: `pnpm fuzz --entries <entry> --execs <index + 1>` saves the input
    for (const f of findings) console.log(`${f.kind} ${f.entry} #${f.index} (${f.seed}): ${f.detail}`);
    for (const [name, s] of Object.entries(stats)) {
      expect(s.seeds, `${name} has seeds`).toBeGreaterThan(0);
      expect(s.execs, `${name} ran its budget`).toBe(CI_EXECS[name] ?? DEFAULT_EXECS);
    }
    expect(findings.map((f) => `${f.kind} ${f.entry} #${f.index}: ${f.detail}`)).toEqual([]);
  }, 600_000);
});

describe('regression inputs', () => {
  const files = regressionFiles() as string[];
  test('the saved inputs are where the replay looks, each with its note', () => {
    for (const f of files) {
      expect((ENTRIES as string[]).includes(path.basename(path.dirname(f)))).toBe(true);
      const note = JSON.parse(fs.readFileSync(f.replace(/\.bin$/, '.json'), 'utf8')) as Found;
      expect(note.entry).toBe(path.basename(path.dirname(f)));
    }
  });

  test('every saved input replays without a crash, hang, memory blow-up, non-ParquetError escape or silent row-count change', async () => {
    const results = (await replay(files)) as { file: string; ok: boolean; kind?: string; detail?: string; code?: string }[];
    for (const r of results) console.log(`${path.relative(process.cwd(), r.file)}: ${r.ok ? (r.code ?? 'read') : `${r.kind}: ${r.detail}`}`);
    const bad = results.filter((r) => !r.ok);
    expect(bad.map((r) => `${r.file}: ${r.kind} ${r.detail}`)).toEqual([]);
    expect(results.length).toBe(files.length);
  }, 600_000);
});

describe('the harness', () => {
  test('each way an input can fail is caught, attributed to its input, saved, and replays the same way', async () => {
    process.env.PARQUETRY_FUZZ_SELFTEST = '1';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-selftest-'));
    try {
      // the selftest entry's mutations only touch bytes 1-3 but for whole-input ones (truncations, runs): the first
      // byte, which picks the behaviour, mostly stays the seed's, seed i % 7 for execution i; a hang is 4 s without progress, memory 500 MiB resident
      const r = (await fuzz({ entries: ['selftest'], execs: 14, workers: 1, hangMs: 4000, rssMb: 500, heapMb: 256, dir })) as { stats: Stats; findings: Found[] };
      const s = r.stats.selftest!;
      expect(s.execs).toBe(14);
      const kinds = new Set(r.findings.map((f) => f.kind));
      for (const k of ['escape', 'silent-rows', 'hang', 'memory', 'crash']) expect(kinds, k).toContain(k);
      expect(s.hangs).toBeGreaterThan(0);
      expect(r.findings.find((f) => f.kind === 'escape')!.detail).toContain('TypeError: fuzz selftest: a TypeError');
      expect(r.findings.find((f) => f.kind === 'crash')!.detail).toContain('code 70');
      // every finding saved with its note, and the saved input fails the same way again
      const saved = regressionFiles(dir) as string[];
      expect(saved.length).toBeGreaterThan(0);
      const again = (await replay(saved, { hangMs: 4000, rssMb: 500, heapMb: 256 })) as { file: string; ok: boolean; kind?: string }[];
      for (const a of again) {
        const note = JSON.parse(fs.readFileSync(a.file.replace(/\.bin$/, '.json'), 'utf8')) as Found;
        expect([a.file, a.ok, a.kind]).toEqual([a.file, false, note.kind]);
      }
    } finally {
      delete process.env.PARQUETRY_FUZZ_SELFTEST;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
