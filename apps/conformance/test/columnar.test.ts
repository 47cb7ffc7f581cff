/**
 * The columnar form (`readRowGroupColumns`: Arrow-style vectors, BYTE_ARRAY columns as offsets + bytes) against the
 * row form, row group by row group, for every corpus file the row reader reads (the row form is checked against the
 * peers' expectations by conformance.test.ts). The vectors are turned back into rows by an independent walk below.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openParquet, type ColumnarVector } from '@parquetry/parquet-reader';
import { allCodecs } from '../src/codecs.js';
import { mayHoldHugeStrings } from '../src/large-strings.js';
import { corpusDir, decryptionFor, listCases, readKnownFailures } from '../src/runner.js';

const HAVE = fs.existsSync(corpusDir);
if (!HAVE) console.warn(`skipping columnar conformance: ${corpusDir} not found (set PARQUET_TESTING_DIR)`);
const known = readKnownFailures();
const cases = HAVE
  ? listCases().filter((c) => !c.rel.startsWith('bad_data/') && !/corrupt-checksum|-INVALID\.parquet$/.test(c.rel) && c.expectation?.expected?.error === undefined && !known.has(c.rel))
  : [];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Slot `i` of a vector as the row reader gives it (strings decoded for STRING/ENUM/JSON leaves unless `bytes`, as
 * with the reader's `strings: 'bytes'`).
 */
function rowOf(v: ColumnarVector, i: number, bytes = false): unknown {
  if (v.validity && v.validity[i] === 0) return null;
  switch (v.kind) {
    case 'leaf':
      return v.values[i];
    case 'binary': {
      const b = v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!);
      const lt = v.field.node.logicalType;
      expect(v.utf8).toBe(!!(lt?.STRING || lt?.ENUM || lt?.JSON));
      return v.utf8 && !bytes ? utf8.decode(b) : b;
    }
    case 'struct': {
      const o: Record<string, unknown> = {};
      for (const c of v.children) Object.defineProperty(o, c.field.name, { value: rowOf(c, i, bytes), enumerable: true, writable: true, configurable: true });
      return o;
    }
    case 'list': {
      const out: unknown[] = [];
      for (let j = v.offsets[i]!; j < v.offsets[i + 1]!; j++) out.push(rowOf(v.element, j, bytes));
      return out;
    }
    case 'map': {
      const m = new Map<unknown, unknown>();
      for (let j = v.offsets[i]!; j < v.offsets[i + 1]!; j++) m.set(rowOf(v.keys, j, bytes), v.values ? rowOf(v.values, j, bytes) : null);
      return m;
    }
  }
}

/** Byte values over 1 MiB replaced by their length and sha256 (deep equality would copy them into arrays). */
function shrink(v: unknown): unknown {
  if (v instanceof Uint8Array) return v.length > 1 << 20 ? { length: v.length, sha256: createHash('sha256').update(v).digest('hex') } : v;
  if (Array.isArray(v)) return v.map(shrink);
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [shrink(k), shrink(x)]) };
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shrink(x)]));
  return v;
}

describe.skipIf(!HAVE)('columnar form equals the row form', async () => {
  const codecs = await allCodecs();
  test.each(cases.map((c) => [c.rel] as const))('%s', async (rel) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(corpusDir, rel)));
    const decryption = decryptionFor(rel);
    const file = await openParquet(bytes, { codecs, ...(decryption ? { decryption } : {}) });
    // strings longer than a JavaScript string can be (large_string_map): compared as bytes (by sha256 past 1 MiB),
    // one Uint8Array per value in columnar form (its 2 GiB of string bytes are more than a binary vector's 32-bit
    // offsets address: VALUE_TOO_LARGE, tested in parquet-reader/test/values.test.ts)
    const huge = mayHoldHugeStrings(file);
    // its 1 GiB pages are over the default budget of a 4 KB file: raised, as a caller who trusts the file would
    const limits = huge ? { limits: { maxBytes: 2 ** 33 } } : {};
    let groups = 0;
    for await (const { rowGroup, rows } of file.iterateRowGroups({ variants: 'raw', ...limits, ...(huge ? { strings: 'bytes' as const } : {}) })) {
      const vec = await file.readRowGroupColumns(rowGroup, huge ? { binary: 'values', strings: 'bytes', ...limits } : {});
      expect(vec.length).toBe(rows.length);
      const fromColumns = Array.from({ length: vec.length }, (_, i) => rowOf(vec, i, huge));
      if (huge) expect(fromColumns.map(shrink)).toEqual(rows.map(shrink));
      else expect(fromColumns).toEqual(rows);
      groups++;
    }
    expect(groups).toBe(file.metadata.row_groups.length);
  }, 240_000);
});
