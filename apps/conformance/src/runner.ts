/**
 * The conformance runner: every file of the upstream corpus through @parquetry/parquet-reader, compared with
 * independent expectations committed under fixtures/expected/ (derived from DuckDB and parquet-wasm by
 * tools/peers, reviewed where they disagree), and every must-reject file checked for a typed error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CodecMap } from '@parquetry/parquet-codecs';
import { createInMemoryKms, createKeyToolsRetriever, type FileDecryptionProperties } from '@parquetry/parquet-crypto';
import { openParquet } from '@parquetry/parquet-reader';
import { canonParquetryRows, canonVariant, digest, type VariantCanon } from './canon-parquetry.js';
import { digestWithLargeStrings, mayHoldHugeStrings } from './large-strings.js';
import { encryptedDatasetRows, otherEncryptedRows } from './encrypted-dataset.js';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const corpusDir = process.env.PARQUET_TESTING_DIR ?? path.resolve(repo, '../shared/parquet-testing');
export const expectedDir = path.join(repo, 'fixtures/expected');
export const knownFailuresFile = path.join(repo, 'apps/conformance/known-failures.txt');

/** One expectation file (see tools/peers/derive-expected.mjs and fixtures/expected/SUMMARY.md). */
export interface Expectation {
  file: string;
  kind?: string;
  peers: Record<string, { status: string; digest?: string; numRows?: number; error?: string }>;
  agree?: boolean;
  trusted?: string;
  /** What a correct reader must produce: a digest of canonical rows, or an error. */
  expected?: { source: string; numRows?: number; digest?: string; column?: string; error?: string; errorWhenVerifyingChecksums?: string };
  notes?: string[];
}

/** The outcome of one case. */
export interface CaseResult {
  file: string;
  ok: boolean;
  detail: string;
  ms: number;
}

const enc = (s: string) => new TextEncoder().encode(s);
const cols256 = ['double_field', 'float_field', 'boolean_field', 'int32_field', 'ba_field', 'flba_field', 'int64_field', 'int96_field'];

/** Keys of the encrypted corpus files (from the corpus MANIFEST.md). */
export function decryptionFor(rel: string): FileDecryptionProperties | undefined {
  if (!rel.endsWith('.encrypted')) return undefined;
  if (rel.includes('external_key_material')) {
    // parquet-java key tools: master keys in the in-memory test KMS, key material in the JSON beside the file
    const material = path.join(corpusDir, path.dirname(rel), `_KEY_MATERIAL_FOR_${path.basename(rel)}.json`);
    const kms = createInMemoryKms({ kf: enc('0123456789012345'), kc1: enc('1234567890123450'), kc2: enc('1234567890123451') });
    return { keyRetriever: createKeyToolsRetriever({ kms, externalKeyMaterial: JSON.parse(fs.readFileSync(material, 'utf8')) as Record<string, string> }) };
  }
  if (rel.includes('aes256/')) {
    return {
      footerKey: enc('01234567890123456789012345678901'),
      columnKeys: Object.fromEntries(cols256.map((c, i) => [c === 'int64_field' ? 'int64_field.list.element' : c, enc(`123456789012345678901234567890${12 + i}`)])),
      ...(rel.includes('_aad') ? { aadPrefix: 'tester' } : {}),
    };
  }
  return {
    footerKey: enc('0123456789012345'),
    columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') },
    ...(rel.includes('_aad') ? { aadPrefix: 'tester' } : {}),
  };
}

/** Every case: corpus files that have an expectation, keyed by path relative to the corpus. */
export function listCases(): { rel: string; expectation: Expectation | undefined }[] {
  const out: { rel: string; expectation: Expectation | undefined }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.parquet(\.encrypted)?$/.test(e.name)) {
        const rel = path.relative(corpusDir, p).split(path.sep).join('/');
        const ef = path.join(expectedDir, `${rel.replaceAll('/', '__')}.json`);
        out.push({ rel, expectation: fs.existsSync(ef) ? (JSON.parse(fs.readFileSync(ef, 'utf8')) as Expectation) : undefined });
      }
    }
  };
  walk(corpusDir);
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

/** The digest a correct reader must produce, and where it comes from. */
export function expectedDigest(x: Expectation): { digest: string; numRows: number | undefined; source: string } | undefined {
  const e = x.expected;
  return e?.digest ? { digest: e.digest, numRows: e.numRows, source: e.source } : undefined;
}

/**
 * Runs one case.
 * @param rel - path relative to the corpus.
 * @param x - its expectation.
 * @param codecs - every codec.
 * @param variant - VARIANT canonicaliser.
 */
export async function runCase(rel: string, x: Expectation | undefined, codecs: CodecMap, variant?: VariantCanon): Promise<CaseResult> {
  const t = performance.now();
  const done = (ok: boolean, detail: string): CaseResult => ({ file: rel, ok, detail, ms: Math.round(performance.now() - t) });
  // the corpus's deliberately corrupted checksums must be detected (with verification on, the default)
  const checksumCase = /corrupt-checksum/.test(rel) || x?.expected?.errorWhenVerifyingChecksums !== undefined;
  const mustReject = rel.startsWith('bad_data/') || x?.expected?.error !== undefined || checksumCase;
  let rows: Record<string, unknown>[];
  let canonical: Record<string, unknown>[];
  try {
    const bytes = new Uint8Array(fs.readFileSync(path.join(corpusDir, rel)));
    const decryption = decryptionFor(rel);
    const file = await openParquet(bytes, { codecs, ...(decryption ? { decryption } : {}) });
    if (x && expectedDigest(x) && mayHoldHugeStrings(file)) {
      // string values may be longer than a JavaScript string can be: read them as bytes, digest by streaming
      const r = await digestWithLargeStrings(file, variant ?? canonVariant);
      const want = expectedDigest(x)!;
      if ('reason' in r) return done(false, `strings too long for JavaScript, and reading them as bytes fails: ${r.reason}`);
      if (want.numRows !== undefined && want.numRows !== r.numRows) return done(false, `${r.numRows} rows (strings as bytes), ${want.source} has ${want.numRows}`);
      return done(r.digest === want.digest, `${r.digest === want.digest ? 'equal to' : 'differs from'} ${want.source} (${r.numRows} rows; strings over a V8 string's length read as bytes, digest streamed)`);
    }
    rows = await file.readRows();
    canonical = canonParquetryRows(file.schema, rows, variant ?? canonVariant);
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string };
    const typed = err?.name === 'ParquetError' && typeof err.code === 'string';
    if (checksumCase) return done(err?.code === 'CHECKSUM_MISMATCH', `rejected: ${err?.code}`);
    if (mustReject) return done(typed, typed ? `rejected: ${err.code}` : `untyped error: ${String(e)}`);
    // upstream: "not valid according to the spec and implementations can choose to error, or read the shredded value"
    if (/-INVALID\.parquet$/.test(rel) && typed) return done(true, `rejected (${err.code}), which upstream allows for this invalid file`);
    return done(false, `${typed ? err.code : 'UNTYPED'}: ${err?.message ?? String(e)}`.slice(0, 300));
  }
  if (mustReject) {
    // A bad_data file that both peers read identically (ARROW-GH-43605: dictionary indices with RLE bit width 0,
    // which the spec permits for a one-entry dictionary) may be read, if the values equal the peers'.
    const d = x?.peers.duckdb;
    const w = x?.peers['parquet-wasm'];
    if (rel.startsWith('bad_data/') && x?.agree && d?.status === 'ok' && w?.status === 'ok' && d.digest === digest(canonical)) {
      return done(true, `read ${canonical.length} rows equal to both peers (the file is valid per the spec)`);
    }
    return done(false, `read ${rows.length} rows from a file that must be rejected`);
  }
  if (rel.endsWith('.encrypted')) {
    const want = digest(rel.includes('bloom_filter') ? otherEncryptedRows('bloom') : rel.includes('external_key_material') ? otherEncryptedRows('key-tools') : encryptedDatasetRows());
    return done(digest(canonical) === want, `${digest(canonical) === want ? 'equal to' : 'differs from'} upstream's generated dataset (${canonical.length} rows)`);
  }
  if (!x) return done(false, 'no expectation file');
  const want = expectedDigest(x);
  if (!want) return done(false, `no trusted expectation (peers: ${Object.entries(x.peers).map(([k, v]) => `${k} ${v.status}`).join(', ')})`);
  // upstream's shredded-variant expectations cover only the variant column
  const col = x.expected?.column;
  const got = digest(col ? canonical.map((r) => ({ [col]: r[col] })) : canonical);
  if (want.numRows !== undefined && want.numRows !== canonical.length) return done(false, `${canonical.length} rows, ${want.source} has ${want.numRows}`);
  if (got !== want.digest) return done(false, `values differ from ${want.source} (${canonical.length} rows)`);
  return done(true, `equal to ${want.source} (${canonical.length} rows)`);
}

/** Parses known-failures.txt: `path  # reason` per line. */
export function readKnownFailures(): Map<string, string> {
  const m = new Map<string, string>();
  if (!fs.existsSync(knownFailuresFile)) return m;
  for (const line of fs.readFileSync(knownFailuresFile, 'utf8').split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const [file, ...reason] = t.split('#');
    m.set(file!.trim(), reason.join('#').trim());
  }
  return m;
}
