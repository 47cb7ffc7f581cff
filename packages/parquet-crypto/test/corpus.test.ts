// Decrypts every module of every encrypted file of the upstream parquet-testing corpus
// (written by parquet-java / parquet-cpp), keys from ../shared/parquet-testing/MANIFEST.md.
import fs from 'node:fs';
import { isParquetError } from '@parquetry/thrift-compact';
import { uncompressSync } from 'snappy';
import { describe, expect, test } from 'vitest';
import { CTR_OVERHEAD, type FileDecryptionProperties, GCM_OVERHEAD, ModuleType, encryptedModuleSize, openEncryptedFooter, openSignedFooter } from '../src/index.js';
import { footerRegion, walkFile } from './corpus-walk.js';

const DIR = new URL('../../../../shared/parquet-testing/data/', import.meta.url);
const HAVE = fs.existsSync(DIR);
if (!HAVE) console.warn('parquet-crypto: ../shared/parquet-testing is absent, corpus tests are skipped');

const enc = new TextEncoder();
const dec = new TextDecoder();
const read = (f: string) => new Uint8Array(fs.readFileSync(new URL(f, DIR)));

// 128-bit files: keys found through the key retriever from the stored key ids.
const KEYS_128: Record<string, string> = { kf: '0123456789012345', kc1: '1234567890123450', kc2: '1234567890123451' };
const retriever128: FileDecryptionProperties['keyRetriever'] = (meta) => (meta === undefined ? undefined : KEYS_128[dec.decode(meta)] === undefined ? undefined : enc.encode(KEYS_128[dec.decode(meta)]!));
// 256-bit files: an explicit footer key; column keys from a retriever that looks at the column path
// (MANIFEST.md names the key of each top-level column).
const COL_SUFFIX_256: Record<string, string> = { double_field: '12', float_field: '13', boolean_field: '14', int32_field: '15', ba_field: '16', flba_field: '17', int64_field: '18', int96_field: '19' };
const props256: FileDecryptionProperties = {
  footerKey: enc.encode('01234567890123456789012345678901'),
  keyRetriever: (_meta, target) => {
    const s = target.kind === 'column' ? COL_SUFFIX_256[target.path[0]!] : undefined;
    return s === undefined ? undefined : enc.encode(`123456789012345678901234567890${s}`);
  },
};
// The same 128-bit file read with explicit keys instead of the retriever.
const explicit128: FileDecryptionProperties = {
  footerKey: enc.encode(KEYS_128.kf!),
  columnKeys: { double_field: enc.encode(KEYS_128.kc1!), float_field: enc.encode(KEYS_128.kc2!) },
};

interface Case {
  file: string;
  props: FileDecryptionProperties;
  ctr: boolean;
  /** Columns expected to be encrypted; 'all' for uniform encryption. */
  encrypted: string[] | 'all';
  plaintextFooter: boolean;
}
const TWO = ['double_field', 'float_field'];
const CASES: Case[] = [
  { file: 'encrypt_columns_and_footer.parquet.encrypted', props: { keyRetriever: retriever128 }, ctr: false, encrypted: TWO, plaintextFooter: false },
  { file: 'encrypt_columns_and_footer.parquet.encrypted', props: explicit128, ctr: false, encrypted: TWO, plaintextFooter: false },
  { file: 'encrypt_columns_and_footer_aad.parquet.encrypted', props: { keyRetriever: retriever128 }, ctr: false, encrypted: TWO, plaintextFooter: false },
  { file: 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted', props: { keyRetriever: retriever128 }, ctr: false, encrypted: TWO, plaintextFooter: false },
  { file: 'encrypt_columns_and_footer_ctr.parquet.encrypted', props: { keyRetriever: retriever128 }, ctr: true, encrypted: TWO, plaintextFooter: false },
  { file: 'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', props: { keyRetriever: retriever128, aadPrefix: 'tester' }, ctr: false, encrypted: TWO, plaintextFooter: false },
  { file: 'encrypt_columns_plaintext_footer.parquet.encrypted', props: { keyRetriever: retriever128 }, ctr: false, encrypted: TWO, plaintextFooter: true },
  { file: 'uniform_encryption.parquet.encrypted', props: { keyRetriever: retriever128 }, ctr: false, encrypted: 'all', plaintextFooter: false },
  { file: 'aes256/encrypt_columns_and_footer.parquet.encrypted', props: props256, ctr: false, encrypted: 'all', plaintextFooter: false },
  { file: 'aes256/encrypt_columns_and_footer_ctr.parquet.encrypted', props: props256, ctr: true, encrypted: 'all', plaintextFooter: false },
  { file: 'aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', props: { ...props256, aadPrefix: 'tester' }, ctr: false, encrypted: 'all', plaintextFooter: false },
  { file: 'aes256/encrypt_columns_plaintext_footer.parquet.encrypted', props: props256, ctr: false, encrypted: 'all', plaintextFooter: true },
  { file: 'aes256/uniform_encryption.parquet.encrypted', props: props256, ctr: false, encrypted: 'all', plaintextFooter: false },
];

/** The values parquet-testing's generator wrote (i = row): double i * 1.1111111, float i * 1.1f. */
function checkDictionaryValues(path: string, plain: Uint8Array, n: number): void {
  const dv = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
  for (let i = 0; i < n; i++) {
    if (path === 'double_field') expect(dv.getFloat64(i * 8, true)).toBe(i * 1.1111111);
    else expect(dv.getFloat32(i * 4, true)).toBe(Math.fround(i * Math.fround(1.1)));
  }
}

describe.skipIf(!HAVE)('parquet-testing encrypted corpus', () => {
  test('every encrypted file of data/ and data/aes256/ is covered', () => {
    const listed = new Set(CASES.map((c) => c.file));
    const found = [
      ...fs.readdirSync(DIR).filter((f) => f.endsWith('.parquet.encrypted')),
      ...fs.readdirSync(new URL('aes256/', DIR)).map((f) => `aes256/${f}`),
    ].filter((f) => f !== 'external_key_material_java.parquet.encrypted'); // key-tools envelope: key-tools.test.ts
    expect(found.sort()).toEqual([...listed].sort());
    expect(found.length).toBe(12);
  });

  test.each(CASES)('$file: footer and every module decrypt and parse', async (c) => {
    const file = read(c.file);
    const w = await walkFile(file, c.props);
    expect(w.encryptedFooter).toBe(!c.plaintextFooter);
    expect(w.signatureVerified).toBe(c.plaintextFooter);
    expect(w.fileMetaData.num_rows).toBeGreaterThan(0);
    const kinds = new Set<string>();
    let encryptedColumns = 0;
    for (const col of w.columns) {
      const name = col.path.join('.');
      expect(col.encrypted).toBe(c.encrypted === 'all' || c.encrypted.includes(name));
      if (!col.encrypted) continue;
      encryptedColumns++;
      kinds.add('header');
      let dataPages = 0;
      for (const p of col.pages) {
        // The page header's compressed_page_size counts the encrypted module; the plaintext is that minus the overhead.
        const overhead = c.ctr ? CTR_OVERHEAD : GCM_OVERHEAD;
        expect(p.body.length).toBe(p.header.compressed_page_size - overhead);
        // Decrypted bytes are the compressed page: it must decompress to uncompressed_page_size.
        const plain = col.meta.codec === 1 ? new Uint8Array(uncompressSync(Buffer.from(p.body)) as Buffer) : p.body;
        expect(col.meta.codec === 0 || col.meta.codec === 1).toBe(true);
        expect(plain.length).toBe(p.header.uncompressed_page_size);
        if (p.header.dictionary_page_header !== undefined) {
          kinds.add('dictionary');
          if (name === 'double_field' || name === 'float_field') checkDictionaryValues(name, plain, p.header.dictionary_page_header.num_values);
        } else {
          kinds.add('page');
          dataPages++;
        }
      }
      if (col.columnIndex) kinds.add('column index');
      if (col.offsetIndex !== undefined) {
        kinds.add('offset index');
        const dataPageList = col.pages.filter((p) => p.header.dictionary_page_header === undefined);
        expect(col.offsetIndex.map((l) => [l.offset, l.compressed_page_size])).toEqual(dataPageList.map((p) => [p.offset, p.size]));
        expect(col.offsetIndex.length).toBe(dataPages);
      }
      if (col.bloomBitset !== undefined) {
        kinds.add('bloom filter');
        expect(col.bloomBitset.some((b) => b !== 0)).toBe(true);
      }
      // Spec §5.3: ColumnMetaData is a separate module unless the column uses the footer key under an encrypted footer.
      expect(col.separateMeta).toBe(c.plaintextFooter || c.encrypted !== 'all' || c.file.startsWith('aes256/encrypt_columns'));
    }
    expect(encryptedColumns).toBe(c.encrypted === 'all' ? w.columns.length : c.encrypted.length);
    expect(kinds.has('page') && kinds.has('header') && kinds.has('column index') && kinds.has('offset index')).toBe(true);
    if (c.file.includes('bloom_filter')) expect(kinds.has('bloom filter')).toBe(true);
  });

  test('column metadata of column-key columns is encrypted separately and decrypts to the plaintext view', async () => {
    const file = read('encrypt_columns_plaintext_footer.parquet.encrypted');
    const w = await walkFile(file, { keyRetriever: retriever128 });
    const { footer } = footerRegion(file);
    const plain = await openSignedFooter(footer, {});
    for (const [i, col] of w.columns.entries()) {
      const stored = plain.fileMetaData.row_groups[0]!.columns[i]!;
      expect(stored.encrypted_column_metadata !== undefined).toBe(col.encrypted);
      // The plaintext footer keeps meta_data for legacy readers; the decrypted copy agrees on offsets and sizes.
      expect(col.meta.data_page_offset).toBe(stored.meta_data!.data_page_offset);
      expect(col.meta.total_compressed_size).toBe(stored.meta_data!.total_compressed_size);
      if (col.encrypted) {
        expect(stored.meta_data!.statistics).toBeUndefined();
        expect(col.meta.statistics).toBeDefined();
      }
    }
  });

  test('a plaintext-footer file without keys: footer readable, signature not verified, plaintext columns walkable', async () => {
    const file = read('encrypt_columns_plaintext_footer.parquet.encrypted');
    const opened = await openSignedFooter(footerRegion(file).footer, {});
    expect(opened.signatureVerified).toBe(false);
    const enc0 = opened.fileMetaData.row_groups[0]!.columns.findIndex((c) => c.crypto_metadata !== undefined);
    const chunk = opened.fileMetaData.row_groups[0]!.columns[enc0]!;
    const cd = opened.decryptor.columnDecryptor(0, enc0, chunk.crypto_metadata!);
    const err = await cd.decrypt(ModuleType.COLUMN_META_DATA, 0, chunk.encrypted_column_metadata!).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('KEY_MISSING');
  });

  test('the AAD prefix that is not stored: required, and checked', async () => {
    const { footer } = footerRegion(read('encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted'));
    const missing = await openEncryptedFooter(footer, { keyRetriever: retriever128 }).catch((e: unknown) => e);
    expect(isParquetError(missing) && missing.code).toBe('AAD_PREFIX_REQUIRED');
    const wrong = await openEncryptedFooter(footer, { keyRetriever: retriever128, aadPrefix: 'tester2' }).catch((e: unknown) => e);
    expect(isParquetError(wrong) && wrong.code).toBe('DECRYPTION_FAILED');
  });

  test('a stored AAD prefix that differs from the supplied one is refused', async () => {
    const { footer } = footerRegion(read('encrypt_columns_and_footer_aad.parquet.encrypted'));
    const err = await openEncryptedFooter(footer, { keyRetriever: retriever128, aadPrefix: 'other' }).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('AAD_PREFIX_MISMATCH');
    const ok = await openEncryptedFooter(footer, { keyRetriever: retriever128, aadPrefix: 'tester' });
    expect(ok.fileMetaData.num_rows).toBe(50);
  });

  test('encryptedModuleSize frames the first page header of an encrypted column', async () => {
    const file = read('uniform_encryption.parquet.encrypted');
    const w = await walkFile(file, { keyRetriever: retriever128 });
    const col = w.columns[0]!;
    const first = col.pages[0]!;
    expect(encryptedModuleSize(file, first.offset) + first.header.compressed_page_size).toBe(first.size);
  });
});
