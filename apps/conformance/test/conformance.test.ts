/**
 * `pnpm conformance` and part of `pnpm test`: every corpus file against its expectation. A failure not listed in
 * known-failures.txt fails the run, and so does a listed case that now passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { allCodecs } from '../src/codecs.js';
import { corpusDir, listCases, readKnownFailures, repo, runCase, type CaseResult } from '../src/runner.js';

const HAVE = fs.existsSync(corpusDir);
if (!HAVE) console.warn(`skipping conformance: ${corpusDir} not found (set PARQUET_TESTING_DIR)`);

const cases = HAVE ? listCases() : [];
const known = readKnownFailures();
const results: CaseResult[] = [];

describe.skipIf(!HAVE)('conformance: upstream corpus', async () => {
  const codecs = await allCodecs();

  test('every known failure names a corpus file', () => {
    const names = new Set(cases.map((c) => c.rel));
    expect([...known.keys()].filter((k) => !names.has(k))).toEqual([]);
  });

  test.each(cases.map((c) => [c.rel, c] as const))('%s', async (_rel, c) => {
    const r = await runCase(c.rel, c.expectation, codecs);
    results.push(r);
    const reason = known.get(c.rel);
    if (reason !== undefined) expect(r.ok, `listed in known-failures.txt (${reason}) but now passes (${r.detail}): remove the line`).toBe(false);
    else expect(r.ok, r.detail).toBe(true);
  }, 240_000);

  afterAll(() => {
    const rejectCase = (f: string) => {
      const x = cases.find((c) => c.rel === f)?.expectation;
      return f.startsWith('bad_data/') || f.includes('corrupt-checksum') || x?.expected?.error !== undefined;
    };
    const valid = results.filter((r) => !rejectCase(r.file));
    const bad = results.filter((r) => rejectCase(r.file));
    const lines = [
      '| file | result | detail | ms |',
      '| --- | --- | --- | --- |',
      ...results.map((r) => `| ${r.file} | ${r.ok ? 'pass' : known.has(r.file) ? 'known failure' : 'FAIL'} | ${r.detail.replaceAll('|', '\\|')} | ${r.ms} |`),
    ];
    const summary = `conformance: ${valid.filter((r) => r.ok).length}/${valid.length} valid files read equal to expectations, ${bad.filter((r) => r.ok).length}/${bad.length} must-reject files rejected with a typed error, ${known.size} known failures`;
    const out = path.join(repo, 'apps/conformance/out');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'report.json'), JSON.stringify({ summary, results }, null, 2));
    fs.writeFileSync(path.join(out, 'summary.md'), `${summary}\n\n${lines.join('\n')}\n`);
    if (process.env.CONFORMANCE_TABLE) console.log(lines.join('\n'));
    console.log(summary);
  });
});
