// Wrong keys, tampered bytes, swapped modules and missing AAD prefixes must end in a typed ParquetError,
// never in garbage. Uses the upstream parquet-testing encrypted files.
import fs from 'node:fs';
import { decodeThrift, isParquetError, readFileCryptoMetaData } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { type FileDecryptionProperties, MODULE_NAMES_FOR_TESTS, ModuleType, openEncryptedFooter } from './tamper-helpers.js';
import { footerRegion, walkFile } from './corpus-walk.js';

const DIR = new URL('../../../../shared/parquet-testing/data/', import.meta.url);
const HAVE = fs.existsSync(DIR);
if (!HAVE) console.warn('parquet-crypto: ../shared/parquet-testing is absent, tamper tests are skipped');

const enc = new TextEncoder();
const dec = new TextDecoder();
const read = (f: string) => new Uint8Array(fs.readFileSync(new URL(f, DIR)));
const KEYS: Record<string, string> = { kf: '0123456789012345', kc1: '1234567890123450', kc2: '1234567890123451' };
const props: FileDecryptionProperties = { keyRetriever: (m) => (m === undefined || KEYS[dec.decode(m)] === undefined ? undefined : enc.encode(KEYS[dec.decode(m)]!)) };

/** Resolves to the ParquetError code a promise rejects with, 'resolved', or a note that something else was thrown. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
}

function flipped(file: Uint8Array, at: number): Uint8Array {
  const copy = file.slice();
  copy[at]! ^= 0x01;
  return copy;
}

describe.skipIf(!HAVE)('tampering, swapping and wrong keys', () => {
  const GCM_FILES = ['uniform_encryption.parquet.encrypted', 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted', 'encrypt_columns_plaintext_footer.parquet.encrypted'];

  test.each(GCM_FILES)('%s: one flipped bit anywhere in any module is DECRYPTION_FAILED', async (f) => {
    const file = read(f);
    const { spans } = await walkFile(file, props);
    const types = new Set(spans.map((s) => s.type));
    expect(types.has(ModuleType.DATA_PAGE) && types.has(ModuleType.DATA_PAGE_HEADER) && types.has(ModuleType.COLUMN_INDEX) && types.has(ModuleType.OFFSET_INDEX)).toBe(true);
    if (f.includes('bloom')) expect(types.has(ModuleType.BLOOM_FILTER_HEADER) && types.has(ModuleType.BLOOM_FILTER_BITSET)).toBe(true);
    else expect(types.has(ModuleType.DICTIONARY_PAGE) && types.has(ModuleType.DICTIONARY_PAGE_HEADER)).toBe(true);
    for (const s of spans) {
      // the length prefix, a nonce byte, a ciphertext byte (when there is one), the last tag byte
      const positions = [s.offset, s.offset + 4, s.offset + 16 + ((s.size - 32) >> 1), s.offset + s.size - 1];
      for (const at of positions) {
        const got = await outcome(walkFile(flipped(file, at), props));
        expect(got, `${MODULE_NAMES_FOR_TESTS[s.type]} of column ${s.column}, byte ${at - s.offset} of ${s.size}`).toBe('DECRYPTION_FAILED');
      }
    }
  });

  test('encrypted footer: a flipped bit in the footer module or in aad_file_unique is DECRYPTION_FAILED', async () => {
    const file = read('encrypt_columns_and_footer.parquet.encrypted');
    const { footer, start } = footerRegion(file);
    const { value: fcmd, end } = decodeThrift(readFileCryptoMetaData, footer);
    for (const at of [start + end, start + end + 4, start + end + 20, file.length - 9]) {
      expect(await outcome(walkFile(flipped(file, at), props)), `footer byte ${at - start}`).toBe('DECRYPTION_FAILED');
    }
    // aad_file_unique lives in the plaintext FileCryptoMetaData (decoded as a zero-copy view of the file).
    const unique = fcmd.encryption_algorithm.AES_GCM_V1!.aad_file_unique!;
    expect(unique.buffer).toBe(file.buffer);
    for (let i = 0; i < unique.length; i++) {
      expect(await outcome(walkFile(flipped(file, unique.byteOffset - file.byteOffset + i), props))).toBe('DECRYPTION_FAILED');
    }
  });

  test('plaintext footer: a changed footer byte or signature byte fails the signature check', async () => {
    const file = read('encrypt_columns_plaintext_footer.parquet.encrypted');
    const { start } = footerRegion(file);
    const name = enc.encode('boolean_field');
    let at = start;
    while (!name.every((b, i) => file[at + i] === b)) at++;
    const renamed = file.slice();
    renamed[at] = 'c'.charCodeAt(0); // "coolean_field": still a valid footer, not the signed one
    expect(await outcome(walkFile(renamed, props))).toBe('DECRYPTION_FAILED');
    for (const sig of [file.length - 8 - 28, file.length - 8 - 1]) {
      expect(await outcome(walkFile(flipped(file, sig), props))).toBe('DECRYPTION_FAILED');
    }
  });

  test('AES_GCM_CTR_V1: metadata modules are authenticated; page bodies are CTR and, per spec, are not', async () => {
    const file = read('encrypt_columns_and_footer_ctr.parquet.encrypted');
    const walked = await walkFile(file, props);
    let ctrPages = 0;
    for (const s of walked.spans) {
      const at = s.offset + s.size - 1;
      const got = await outcome(walkFile(flipped(file, at), props));
      if (s.type === ModuleType.DATA_PAGE || s.type === ModuleType.DICTIONARY_PAGE) {
        // Encryption.md §4.2.2: "tampering with the page data might go unnoticed". The bytes differ, silently.
        ctrPages++;
        expect(got).toBe('resolved');
        // but the framing is still checked
        expect(await outcome(walkFile(flipped(file, s.offset + 1), props))).toBe('DECRYPTION_FAILED');
      } else {
        expect(got).toBe('DECRYPTION_FAILED');
      }
    }
    expect(ctrPages).toBeGreaterThan(0);
  });

  test('a module moved to another column, page ordinal or module type is DECRYPTION_FAILED', async () => {
    const file = read('encrypt_columns_and_footer_bloom_filter.parquet.encrypted');
    const { footer } = footerRegion(file);
    const opened = await openEncryptedFooter(footer, props);
    const walked = await walkFile(file, props);
    const chunks = opened.fileMetaData.row_groups[0]!.columns;
    const cds = chunks.map((c, i) => (c.crypto_metadata ? opened.decryptor.columnDecryptor(0, i, c.crypto_metadata) : undefined));
    const col0 = walked.spans.filter((s) => s.column === 0);
    const module = (s: { offset: number; size: number }) => file.subarray(s.offset, s.offset + s.size);
    const headers = col0.filter((s) => s.type === ModuleType.DATA_PAGE_HEADER);
    const pages = col0.filter((s) => s.type === ModuleType.DATA_PAGE);
    expect(headers.length).toBeGreaterThan(1);
    // sanity: in place it decrypts
    await expect(cds[0]!.decrypt(ModuleType.DATA_PAGE_HEADER, 1, module(headers[1]!))).resolves.toBeInstanceOf(Uint8Array);
    // page 1's header and page presented as page 0
    expect(await outcome(cds[0]!.decrypt(ModuleType.DATA_PAGE_HEADER, 0, module(headers[1]!)))).toBe('DECRYPTION_FAILED');
    expect(await outcome(cds[0]!.decrypt(ModuleType.DATA_PAGE, 0, module(pages[1]!)))).toBe('DECRYPTION_FAILED');
    // a data page header presented as the column index / bloom filter header of the same column
    expect(await outcome(cds[0]!.decrypt(ModuleType.COLUMN_INDEX, 0, module(headers[0]!)))).toBe('DECRYPTION_FAILED');
    expect(await outcome(cds[0]!.decrypt(ModuleType.BLOOM_FILTER_HEADER, 0, module(headers[0]!)))).toBe('DECRYPTION_FAILED');
    // column 0's module presented as another row group's
    const otherRowGroup = opened.decryptor.columnDecryptor(1, 0, chunks[0]!.crypto_metadata!);
    expect(await outcome(otherRowGroup.decrypt(ModuleType.DATA_PAGE_HEADER, 0, module(headers[0]!)))).toBe('DECRYPTION_FAILED');
  });

  test('uniform encryption (one key for all): a module moved to another column is DECRYPTION_FAILED', async () => {
    const file = read('uniform_encryption.parquet.encrypted');
    const opened = await openEncryptedFooter(footerRegion(file).footer, props);
    const walked = await walkFile(file, props);
    const chunks = opened.fileMetaData.row_groups[0]!.columns;
    for (const type of [ModuleType.DATA_PAGE_HEADER, ModuleType.DATA_PAGE, ModuleType.DICTIONARY_PAGE, ModuleType.OFFSET_INDEX]) {
      const s = walked.spans.find((x) => x.column === 2 && x.type === type)!;
      const bytes = file.subarray(s.offset, s.offset + s.size);
      const own = opened.decryptor.columnDecryptor(0, 2, chunks[2]!.crypto_metadata!);
      await expect(own.decrypt(type, 0, bytes)).resolves.toBeInstanceOf(Uint8Array);
      const other = opened.decryptor.columnDecryptor(0, 3, chunks[3]!.crypto_metadata!);
      expect(await outcome(other.decrypt(type, 0, bytes)), MODULE_NAMES_FOR_TESTS[type]).toBe('DECRYPTION_FAILED');
    }
  });

  test('wrong keys are DECRYPTION_FAILED; a key of the wrong length is INVALID_KEY', async () => {
    const wrong = (k: string): FileDecryptionProperties => ({
      keyRetriever: (m) => enc.encode(dec.decode(m) === k ? '0000000000000000' : KEYS[dec.decode(m)]!),
    });
    const f = read('encrypt_columns_and_footer.parquet.encrypted');
    expect(await outcome(walkFile(f, wrong('kf')))).toBe('DECRYPTION_FAILED');
    expect(await outcome(walkFile(f, wrong('kc1')))).toBe('DECRYPTION_FAILED');
    expect(await outcome(walkFile(f, wrong('kc2')))).toBe('DECRYPTION_FAILED');
    // swapped column keys
    const swapped: FileDecryptionProperties = { footerKey: enc.encode(KEYS.kf!), columnKeys: { double_field: enc.encode(KEYS.kc2!), float_field: enc.encode(KEYS.kc1!) } };
    expect(await outcome(walkFile(f, swapped))).toBe('DECRYPTION_FAILED');
    // 256-bit file read with the 128-bit footer key
    expect(await outcome(walkFile(read('aes256/uniform_encryption.parquet.encrypted'), props))).toBe('DECRYPTION_FAILED');
    expect(await outcome(walkFile(read('encrypt_columns_plaintext_footer.parquet.encrypted'), wrong('kf')))).toBe('DECRYPTION_FAILED');
    expect(await outcome(walkFile(f, { footerKey: enc.encode('short') }))).toBe('INVALID_KEY');
    expect(await outcome(walkFile(f, {}))).toBe('KEY_MISSING');
    expect(await outcome(walkFile(f, { keyRetriever: () => Promise.reject(new Error('KMS down')) }))).toBe('KEY_RETRIEVAL_FAILED');
  });

  test('the prefix that is not stored: missing is AAD_PREFIX_REQUIRED, wrong is DECRYPTION_FAILED', async () => {
    for (const f of ['encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted', 'aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted']) {
      const file = read(f);
      const p = f.startsWith('aes256') ? { footerKey: enc.encode('01234567890123456789012345678901') } : props;
      expect(await outcome(walkFile(file, p))).toBe('AAD_PREFIX_REQUIRED');
      expect(await outcome(walkFile(file, { ...p, aadPrefix: 'Tester' }))).toBe('DECRYPTION_FAILED');
      expect(await outcome(walkFile(file, { ...p, aadPrefix: new Uint8Array(0) }))).toBe('DECRYPTION_FAILED');
    }
  });
});
