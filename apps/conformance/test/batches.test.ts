/**
 * Batch iteration (`iterateBatches`) over the corpus: for every file the row reader reads, the batches concatenated
 * equal `readRows` at batch sizes 1, 7, 1000 and larger than any row group, and the columnar batches equal
 * `readRowGroupColumns` (both turned back into rows by an independent walk); every file the row reader rejects is
 * rejected by the batches with the same code and message. (The row form itself is checked against the peers'
 * expectations by conformance.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { allCodecs } from '../src/codecs.js';
import { corpusDir, decryptionFor, listCases, readKnownFailures } from '../src/runner.js';
import { batchRows, columnsBoth, same } from '../../../packages/parquet-reader/test/batch-helpers.js';
import { typedError } from '../../../packages/parquet-reader/test/helpers.js';

const codecs = await allCodecs();
const HUGE = 1e9;

const HAVE = fs.existsSync(corpusDir);
if (!HAVE) console.warn(`skipping the corpus batch tests: ${corpusDir} not found (set PARQUET_TESTING_DIR)`);
const known = HAVE ? readKnownFailures() : new Map<string, string>();
const cases = HAVE ? listCases() : [];
const readable = cases.filter((c) => !c.rel.startsWith('bad_data/') && !/corrupt-checksum|-INVALID\.parquet$/.test(c.rel) && c.expectation?.expected?.error === undefined && !known.has(c.rel));
const rejected = cases.filter((c) => c.rel.startsWith('bad_data/') || /corrupt-checksum/.test(c.rel) || c.expectation?.expected?.error !== undefined);

async function openCase(rel: string): Promise<ParquetFile> {
  const bytes = new Uint8Array(fs.readFileSync(path.join(corpusDir, rel)));
  const decryption = decryptionFor(rel);
  return openParquet(bytes, { codecs, ...(decryption ? { decryption } : {}) });
}

/** Files whose values are too large to read whole several times in a test (their strings exceed 100 MB). */
const tooLarge = (rel: string) => fs.statSync(path.join(corpusDir, rel)).size > 50 << 20 || /large_string_map/.test(rel);

describe.skipIf(!HAVE)('corpus: batches concatenated equal the whole read', () => {
  test.each(readable.map((c) => [c.rel] as const))('%s', async (rel) => {
    if (tooLarge(rel)) {
      console.warn(`batches: ${rel} skipped (too large to read whole repeatedly in a test)`);
      return;
    }
    const file = await openCase(rel);
    let whole: Record<string, unknown>[];
    try {
      whole = await file.readRows();
    } catch (e) {
      // the whole read rejects it (a file the conformance run reads only in part): the batches must too, typed
      const err = await typedError(() => batchRows(file, { batchSize: 7 }));
      expect(err.code).toBe((e as { code: string }).code);
      return;
    }
    for (const batchSize of [1, 7, 1000, HUGE]) {
      // batches of one row over a long file: the first 3,000 rows (the row range is read both ways)
      const options = batchSize === 1 && whole.length > 3000 ? { batchSize, rowEnd: 3000 } : { batchSize };
      const expected = 'rowEnd' in options ? whole.slice(0, 3000) : whole;
      const { rows } = await batchRows(file, options);
      same(expected, rows, `${rel}, batches of ${batchSize}`);
    }
    for (const batchSize of [7, HUGE]) {
      const { whole: w, batched } = await columnsBoth(file, batchSize, { variants: 'raw' });
      same(w, batched, `${rel}, columnar batches of ${batchSize}`);
    }
  });

  test.each(rejected.map((c) => [c.rel] as const))('%s: rejected by the batches as by the whole read', async (rel) => {
    let file: ParquetFile;
    try {
      file = await openCase(rel);
    } catch {
      return; // rejected when opened: no batches to read
    }
    let whole: { code: string; message: string } | undefined;
    try {
      await file.readRows();
    } catch (e) {
      whole = { code: (e as { code: string }).code, message: (e as Error).message };
    }
    if (whole === undefined) return; // read by both peers alike (see the conformance runner)
    // the same failure, named and located the same way
    const err = await typedError(() => batchRows(file, { batchSize: 7 }));
    expect({ code: err.code, message: err.message }).toEqual(whole);
  });
});
