/**
 * Encrypted column metadata (Encryption.md: a column with its own key, or any encrypted column under a plaintext
 * footer, has its ColumnMetaData serialised apart and encrypted — module type ColumnMetaData, AAD with the row group
 * and column ordinals; a plaintext footer keeps a copy stripped of the statistics). With the keys, `statistics`,
 * `columnMetaData` and every pruning stage use the decrypted metadata; without them, they throw the typed error.
 *
 * - The corpus: columns under their own key (double_field, float_field) have the statistics that
 *   uniform_encryption.parquet.encrypted (the same rows, metadata inside the footer) stores, and the generator's
 *   bounds (i * 1.1111111, i * 1.1f for i < 50).
 * - Our writer, per-column keys, both footer modes: statistics and the metadata's counts, encodings and codec equal
 *   the unencrypted file's; filtered reads return the same rows with the same row groups skipped by statistics,
 *   bloom filters and the page index and the same pages skipped (fast-check over thresholds and values).
 * - Metadata is decrypted once per chunk, when the file opens (counted at WebCrypto).
 * - pyarrow (Arrow C++) writes a file with column keys; our statistics equal the ones pyarrow reads with the keys.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import type { FileDecryptionProperties } from '@parquetry/parquet-crypto';
import { openParquet, type CompareOp, type Filter, type ParquetFile, type ScanStats } from '@parquetry/parquet-reader';
import { field, writeParquet, type WriterOptions } from '../../parquet-writer/src/index.js';
import { isParquetError } from '@parquetry/thrift-compact';
import { HAVE_CORPUS, corpus, readBytes } from './helpers.js';

const codecs = builtinCodecs();
const enc = (s: string) => new TextEncoder().encode(s);
const codeOf = (e: unknown) => (isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`);
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};
const where = (column: string, op: CompareOp, value: unknown): Filter => ({ column, op, value });
const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Array.from(x) : x));

/** Every chunk's statistics, by row group and column path. */
async function allStatistics(f: ParquetFile): Promise<string> {
  return json(await Promise.all(f.metadata.row_groups.map(async (_, g) => Object.fromEntries(await Promise.all(f.schema.columns.map(async (c) => [c.pathString, (await f.statistics(g, c.index)) ?? null]))))));
}

// ---------------------------------------------------------------------------------------------------------------
// the corpus
const data = path.join(corpus, 'data');
const keys128: FileDecryptionProperties = { footerKey: enc('0123456789012345'), columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') } };

describe.skipIf(!HAVE_CORPUS)('corpus files whose columns have their own keys', () => {
  const open = (f: string, decryption: FileDecryptionProperties) => openParquet(readBytes(path.join(data, f)), { codecs, decryption: f.includes('_aad') ? { ...decryption, aadPrefix: 'tester' } : decryption });
  const files = ['encrypt_columns_and_footer.parquet.encrypted', 'encrypt_columns_plaintext_footer.parquet.encrypted', 'encrypt_columns_and_footer_aad.parquet.encrypted', 'encrypt_columns_and_footer_ctr.parquet.encrypted', 'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted'];

  test.each(files)('%s: statistics with the keys equal uniform_encryption\'s, where the metadata is in the footer', async (f) => {
    const file = await open(f, keys128);
    const twin = await open('uniform_encryption.parquet.encrypted', { footerKey: keys128.footerKey! });
    // the file really stores these columns' metadata apart (else this test proves nothing)
    const rg = file.metadata.row_groups[0]!;
    for (const name of ['double_field', 'float_field']) {
      const cc = rg.columns[file.schema.columns.find((c) => c.pathString === name)!.index]!;
      expect(cc.encrypted_column_metadata, name).toBeInstanceOf(Uint8Array);
      expect(cc.meta_data?.statistics, `${name}: no statistics left in the footer`).toBeUndefined();
    }
    expect(await allStatistics(file)).toBe(await allStatistics(twin));
    // the generator's values: double_field = i * 1.1111111, float_field = i * 1.1f, i < 50
    expect(await file.statistics(0, 'double_field')).toMatchObject({ min: -0, max: 49 * 1.1111111, nullCount: 0, minExact: true, maxExact: true });
    expect(await file.statistics(0, 'float_field')).toMatchObject({ min: -0, max: Math.fround(49 * 1.1), nullCount: 0 });
    const md = file.columnMetaData(0, 'double_field');
    expect(md.path_in_schema).toEqual(['double_field']);
    expect(md.num_values).toBe(50);
    expect(file.columnMetaData(0, 'float_field')).toMatchObject({ num_values: 50, path_in_schema: ['float_field'] });
  });

  test.each(files)('%s: without one column key, that column\'s metadata is KEY_MISSING everywhere, the others read', async (f) => {
    const file = await open(f, { footerKey: keys128.footerKey!, columnKeys: { double_field: keys128.columnKeys!['double_field']! } });
    expect(await file.statistics(0, 'double_field')).toMatchObject({ max: 49 * 1.1111111 });
    for (const e of [await file.statistics(0, 'float_field').catch((e: unknown) => e), thrown(() => file.columnMetaData(0, 'float_field'))]) {
      expect(codeOf(e)).toBe('KEY_MISSING');
      expect((e as Error).message).toMatch(/^parquet-reader: row group 0, column 'float_field': its ColumnMetaData is encrypted with the column key of 'float_field'/);
    }
    expect(codeOf(await file.readRows({ columns: ['float_field'] }).catch((e: unknown) => e))).toBe('KEY_MISSING');
    expect(codeOf(await file.readRows({ columns: ['int32_field'], filter: where('float_field', '>', 3) }).catch((e: unknown) => e))).toBe('KEY_MISSING');
    const rows = await file.readRows({ columns: ['int32_field', 'double_field'], filter: where('double_field', '>=', 40 * 1.1111111) });
    expect(rows.map((r) => r['int32_field'])).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });

  test('a wrong column key: the file opens, that column\'s metadata is DECRYPTION_FAILED', async () => {
    const file = await open('encrypt_columns_and_footer.parquet.encrypted', { ...keys128, columnKeys: { ...keys128.columnKeys, float_field: enc('1234567890123459') } });
    expect(codeOf(await file.statistics(0, 'float_field').catch((e: unknown) => e))).toBe('DECRYPTION_FAILED');
    expect(await file.statistics(0, 'double_field')).toMatchObject({ max: 49 * 1.1111111 });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// our writer
const footerKey = enc('0123456789012345');
const keyA = enc('1234567890123450');
const keyB = enc('12345678901234567890123456789012');
const schema = { id: field.int64({ required: true }), name: field.string(), score: field.double(), tags: field.list(field.string()) };
const rows = Array.from({ length: 6000 }, (_, i) => ({ id: BigInt(i), name: i % 7 === 0 ? null : `n${Math.floor(i / 100)}`, score: (i % 1500) / 8, tags: Array.from({ length: i % 3 }, (_, j) => `t${j}`) }));
const base: WriterOptions = { schema, pageRows: 250, rowGroupRows: 1500, bloomFilter: true };
const encryption = (plaintextFooter: boolean): NonNullable<WriterOptions['encryption']> => ({ footerKey, plaintextFooter, columnKeys: { id: { key: keyA }, name: { key: keyB }, score: { key: keyA } } });
const decryption: FileDecryptionProperties = { footerKey, columnKeys: { id: keyA, name: keyB, score: keyA } };

/** What pruning did: row groups and pages, not bytes (encrypted modules are larger). */
const pruning = (s: ScanStats) => ({ rowGroups: s.rowGroups, pages: s.pages, columns: s.columns, rowsDecoded: s.rowsDecoded, rowsReturned: s.rowsReturned });

async function filtered(f: ParquetFile, filter: Filter): Promise<{ rows: Record<string, unknown>[]; stats: ReturnType<typeof pruning> }> {
  let stats: ScanStats | undefined;
  const out = await f.readRows({ columns: ['id', 'name'], filter, onScan: (s) => (stats = s) });
  return { rows: out, stats: pruning(stats!) };
}

describe.each([false, true])('our writer, per-column keys, plaintextFooter=%s', (plaintextFooter) => {
  let plain: ParquetFile;
  let file: ParquetFile;
  let bytes: Uint8Array;
  beforeAll(async () => {
    plain = await openParquet(await writeParquet(rows, base), { codecs });
    bytes = await writeParquet(rows, { ...base, encryption: encryption(plaintextFooter) });
    file = await openParquet(bytes, { codecs, decryption });
  });

  test('statistics and metadata equal the unencrypted file\'s', async () => {
    const cc = file.metadata.row_groups[0]!.columns[0]!;
    expect(cc.encrypted_column_metadata).toBeInstanceOf(Uint8Array);
    // a plaintext footer keeps a stripped copy for legacy readers; an encrypted footer none
    if (plaintextFooter) expect(cc.meta_data?.statistics).toBeUndefined();
    else expect(cc.meta_data).toBeUndefined();
    expect(await allStatistics(file)).toBe(await allStatistics(plain));
    expect(await file.statistics(1, 'id')).toMatchObject({ min: 1500n, max: 2999n, nullCount: 0 });
    for (let g = 0; g < 4; g++) {
      for (const c of file.schema.columns) {
        const [a, b] = [file.columnMetaData(g, c.index), plain.columnMetaData(g, c.pathString)];
        // positions and sizes differ (every module grows by its nonce, tag and length); the rest is equal
        const { data_page_offset: _d, dictionary_page_offset: _p, bloom_filter_offset: _o, bloom_filter_length: _l, total_compressed_size: _c, total_uncompressed_size: _u, ...rest } = a;
        const { data_page_offset: _d2, dictionary_page_offset: _p2, bloom_filter_offset: _o2, bloom_filter_length: _l2, total_compressed_size: _c2, total_uncompressed_size: _u2, ...restPlain } = b;
        expect(rest, `${g} ${c.pathString}`).toEqual(restPlain);
        expect(a.statistics, `${g} ${c.pathString}`).toBeDefined();
      }
    }
  });

  test('filtered reads prune by statistics, bloom filters and the page index as the unencrypted file does', async () => {
    const cases: [Filter, Partial<ScanStats['rowGroups']['skipped']>][] = [
      [where('id', '>=', 4600n), { statistics: 3 }],
      [where('score', '<', 1), {}],
      [where('name', '=', 'n7x'), { bloom: 1 }],
      [where('name', '=', 'n33'), { statistics: 2, bloom: 1 }],
      [{ and: [where('id', '>=', 2000n), where('id', '<=', 2100n)] }, { statistics: 3 }],
    ];
    for (const [filter, skipped] of cases) {
      const [a, b] = [await filtered(file, filter), await filtered(plain, filter)];
      expect(a.rows, json(filter)).toEqual(b.rows);
      expect(a.stats, json(filter)).toEqual(b.stats);
      expect(a.stats.rowGroups.skipped, json(filter)).toMatchObject(skipped);
    }
    // the page index skipped pages inside the row groups read (so the encrypted indexes were decrypted and used)
    const { stats } = await filtered(file, { and: [where('id', '>=', 2000n), where('id', '<=', 2100n)] });
    expect(stats.pages.skipped).toBeGreaterThan(0);
  });

  test('property: any threshold and value filter on encrypted columns prunes and returns as the unencrypted read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -10, max: 6010 }), fc.constantFrom<CompareOp>('<', '<=', '>', '>=', '=', '!='), fc.integer({ min: 0, max: 70 }), async (t, op, n) => {
        for (const filter of [where('id', op, BigInt(t)), where('score', op, t / 32), where('name', op, `n${n}`)]) {
          const [a, b] = [await filtered(file, filter), await filtered(plain, filter)];
          expect(a.rows).toEqual(b.rows);
          expect(a.stats).toEqual(b.stats);
        }
      }),
      { numRuns: 25 },
    );
  });

  test('each chunk\'s metadata is decrypted once, when the file opens', async () => {
    const subtle = globalThis.crypto.subtle;
    const original = subtle.decrypt.bind(subtle);
    let calls = 0;
    subtle.decrypt = ((...args: Parameters<SubtleCrypto['decrypt']>) => {
      calls++;
      return original(...args);
    }) as SubtleCrypto['decrypt'];
    try {
      const f = await openParquet(bytes, { codecs, decryption });
      // 3 encrypted columns x 4 row groups, and the footer when it is encrypted
      expect(calls).toBe(12 + (plaintextFooter ? 0 : 1));
      calls = 0;
      for (let k = 0; k < 3; k++) await allStatistics(f);
      f.columnMetaData(2, 'score');
      expect(calls).toBe(0);
      // a read decrypts pages (data pages, headers, indexes) but never the metadata again: two reads cost the same
      await f.readRows({ columns: ['id'], filter: where('id', '<', 10n) });
      const one = calls;
      await f.readRows({ columns: ['id'], filter: where('id', '<', 10n) });
      expect(calls).toBe(2 * one);
    } finally {
      subtle.decrypt = original;
    }
  });
});

test('a key retriever that fails at open: statistics throw KEY_RETRIEVAL_FAILED, a read tries again and then statistics work', async () => {
  const bytes = await writeParquet(rows.slice(0, 3000), { ...base, encryption: { footerKey, columnKeys: { id: { key: keyA, keyMetadata: enc('a') } } } });
  let fail = true;
  const file = await openParquet(bytes, {
    codecs,
    decryption: {
      footerKey,
      keyRetriever: async (meta) => {
        if (fail) throw new Error('KMS unreachable');
        return new TextDecoder().decode(meta) === 'a' ? keyA : undefined;
      },
    },
  });
  expect(codeOf(await file.statistics(0, 'id').catch((e: unknown) => e))).toBe('KEY_RETRIEVAL_FAILED');
  expect(await file.statistics(0, 'score')).toMatchObject({ max: 187.375 });
  fail = false;
  expect((await file.readRows({ columns: ['id'], rowGroups: [0] })).length).toBe(1500);
  expect(await file.statistics(0, 'id')).toMatchObject({ min: 0n, max: 1499n });
  // row group 1 was not read: its metadata still carries the failure from the open
  expect(codeOf(await file.statistics(1, 'id').catch((e: unknown) => e))).toBe('KEY_RETRIEVAL_FAILED');
});

test('tampered encrypted metadata under a plaintext footer (signature not checked): that chunk is DECRYPTION_FAILED, the file opens', async () => {
  const bytes = await writeParquet(rows.slice(0, 3000), { ...base, encryption: { footerKey, plaintextFooter: true, columnKeys: { score: { key: keyA } } } });
  const f0 = await openParquet(bytes, { codecs, decryption });
  const sealed = f0.metadata.row_groups[1]!.columns[2]!.encrypted_column_metadata!;
  const at = Buffer.from(bytes).indexOf(Buffer.from(sealed));
  expect(at).toBeGreaterThan(0);
  const bad = bytes.slice();
  bad[at + Math.floor(sealed.length / 2)]! ^= 1;
  const file = await openParquet(bad, { codecs, decryption: { ...decryption, verifyFooterSignature: false } });
  expect(await file.statistics(0, 'score')).toEqual(await f0.statistics(0, 'score'));
  expect(codeOf(await file.statistics(1, 'score').catch((e: unknown) => e))).toBe('DECRYPTION_FAILED');
  expect(codeOf(await file.readRows({ columns: ['score'], rowGroups: [1] }).catch((e: unknown) => e))).toBe('DECRYPTION_FAILED');
  expect((await file.readRows({ columns: ['id'], rowGroups: [1] })).length).toBe(1500);
});

// ---------------------------------------------------------------------------------------------------------------
// pyarrow
const PYTHON = process.env['PARQUETRY_PYTHON'];
if (PYTHON === undefined) console.warn('parquet-reader: PARQUETRY_PYTHON (a python with pyarrow) is not set, the pyarrow encrypted-statistics test is skipped');

// pyarrow writes with column keys through its key tools (a test KMS: wrapped = base64(master id | key)), then reads
// the statistics back with the keys and prints them
const PY = String.raw`
import base64, json, sys
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.parquet.encryption as pe
class Kms(pe.KmsClient):
    def __init__(self, config):
        pe.KmsClient.__init__(self)
    def wrap_key(self, key, master):
        return base64.b64encode(master.encode() + b'|' + key)
    def unwrap_key(self, wrapped, master):
        return base64.b64decode(wrapped).split(b'|', 1)[1]
factory = pe.CryptoFactory(lambda c: Kms(c))
conn = pe.KmsConnectionConfig()
out = sys.argv[1]
n = 4000
t = pa.table({'a': pa.array([(i * 7919) % 10007 - 5000 for i in range(n)], pa.int32()), 's': pa.array([None if i % 11 == 0 else f'v{i % 97:03d}' for i in range(n)]), 'd': pa.array([i * 0.25 for i in range(n)])})
res = {}
for pf in [False, True]:
    cfg = pe.EncryptionConfiguration(footer_key='kf', column_keys={'kc1': ['a', 's']}, plaintext_footer=pf, double_wrapping=False, internal_key_material=True)
    p = f'{out}/enc-{str(pf).lower()}.parquet'
    pq.write_table(t, p, row_group_size=1000, encryption_properties=factory.file_encryption_properties(conn, cfg))
    md = pq.ParquetFile(p, decryption_properties=factory.file_decryption_properties(conn, pe.DecryptionConfiguration())).metadata
    res[str(pf).lower()] = [[{'min': c.statistics.min, 'max': c.statistics.max, 'nulls': c.statistics.null_count, 'values': c.num_values} for c in (md.row_group(g).column(k) for k in range(3))] for g in range(md.num_row_groups)]
print(json.dumps(res))
`;

describe.skipIf(PYTHON === undefined)('pyarrow writes column keys; statistics equal pyarrow\'s read with the keys', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-encmeta-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let expected: Record<string, { min: unknown; max: unknown; nulls: number; values: number }[][]> = {};
  beforeAll(() => {
    expected = JSON.parse(execFileSync(PYTHON!, ['-c', PY, dir], { encoding: 'utf8', timeout: 120_000 })) as typeof expected;
  });

  test.each([false, true])('plaintext footer %s', async (pf) => {
    // pyarrow's key material: double_wrapping=False wraps each data key with the master key directly
    const unwrap = (json: string): Uint8Array => {
      const m = JSON.parse(json) as { wrappedDEK: string };
      return new Uint8Array(Buffer.from(m.wrappedDEK, 'base64').subarray(Buffer.from(m.wrappedDEK, 'base64').indexOf(0x7c) + 1));
    };
    const file = await openParquet(readBytes(path.join(dir, `enc-${pf}.parquet`)), { codecs, decryption: { keyRetriever: async (meta) => (meta ? unwrap(new TextDecoder().decode(meta)) : undefined) } });
    const cc = file.metadata.row_groups[0]!.columns[0]!;
    expect(cc.encrypted_column_metadata).toBeInstanceOf(Uint8Array);
    const ours = await Promise.all(file.metadata.row_groups.map((_, g) =>
      Promise.all(file.schema.columns.map(async (c) => {
        const s = (await file.statistics(g, c.index))!;
        return { min: s.min, max: s.max, nulls: s.nullCount, values: file.columnMetaData(g, c.index).num_values };
      })),
    ));
    expect(ours).toEqual(expected[String(pf)]);
    expect(ours.length).toBe(4);
  });
});
