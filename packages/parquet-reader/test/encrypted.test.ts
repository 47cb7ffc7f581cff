/**
 * Every encrypted file of the corpus (keys from its MANIFEST.md) reads, and all of them hold the same rows
 * (upstream writes one dataset with each encryption configuration). Wrong keys and tampering are typed errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import type { FileDecryptionProperties } from '@parquetry/parquet-crypto';
import { openParquet } from '@parquetry/parquet-reader';
import { HAVE_CORPUS, corpus, readBytes, typedError } from './helpers.js';

const enc = (s: string) => new TextEncoder().encode(s);
const data = path.join(corpus, 'data');
const keys128: FileDecryptionProperties = {
  footerKey: enc('0123456789012345'),
  columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') },
};
const cols256 = ['double_field', 'float_field', 'boolean_field', 'int32_field', 'ba_field', 'flba_field', 'int64_field', 'int96_field'];
// column keys are looked up by path_in_schema joined with '.'
const keys256: FileDecryptionProperties = {
  footerKey: enc('01234567890123456789012345678901'),
  columnKeys: Object.fromEntries(cols256.map((c, i) => [c === 'int64_field' ? 'int64_field.list.element' : c, enc(`123456789012345678901234567890${12 + i}`)])),
};
const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Array.from(x) : x));

const files128 = HAVE_CORPUS ? fs.readdirSync(data).filter((f) => f.endsWith('.parquet.encrypted') && !f.startsWith('external_key_material')) : [];
const files256 = HAVE_CORPUS ? fs.readdirSync(path.join(data, 'aes256')).map((f) => `aes256/${f}`) : [];

describe.skipIf(!HAVE_CORPUS)('encrypted corpus files', () => {
  let reference: string | undefined;
  const read = async (f: string) => {
    const base = f.startsWith('aes256/') ? keys256 : keys128;
    const decryption = f.includes('_aad') && !f.startsWith('aes256/') ? { ...base, aadPrefix: 'tester' } : f.includes('disable_aad_storage') ? { ...base, aadPrefix: 'tester' } : base;
    const file = await openParquet(readBytes(path.join(data, f)), { codecs: builtinCodecs(), decryption });
    return file.readRows();
  };

  test('the set of files', () => {
    expect(files128.length).toBeGreaterThanOrEqual(6);
    expect(files256.length).toBeGreaterThanOrEqual(4);
  });

  test('encrypt_columns_and_footer_bloom_filter (a different dataset) reads every row', async () => {
    const rows = await read('encrypt_columns_and_footer_bloom_filter.parquet.encrypted');
    expect(rows.length).toBe(2000);
  });

  test.each([...files128, ...files256].filter((f) => !f.includes('bloom_filter')))('%s decrypts to the common dataset', async (f) => {
    const rows = await read(f);
    expect(rows.length).toBe(50);
    expect(Object.keys(rows[0]!)).toEqual(['boolean_field', 'int32_field', 'int64_field', 'int96_field', 'float_field', 'double_field', 'ba_field', 'flba_field']);
    // spot value: row i has int32_field i
    expect(rows[7]!.int32_field).toBe(7);
    const text = json(rows);
    reference ??= text;
    expect(text).toBe(reference);
  });

  test('a wrong footer key is an authentication error', async () => {
    const bytes = readBytes(path.join(data, 'uniform_encryption.parquet.encrypted'));
    const e = await typedError(() => openParquet(bytes, { decryption: { footerKey: enc('0123456789012346') } }));
    expect(e.code).toBe('DECRYPTION_FAILED');
  });

  test('a wrong column key is an authentication error when that column is read', async () => {
    const bytes = readBytes(path.join(data, 'encrypt_columns_and_footer.parquet.encrypted'));
    const file = await openParquet(bytes, { codecs: builtinCodecs(), decryption: { ...keys128, columnKeys: { ...keys128.columnKeys, double_field: enc('1234567890123459') } } });
    expect((await file.readRows({ columns: ['int32_field'] })).length).toBe(50);
    expect((await typedError(() => file.readRows({ columns: ['double_field'] }))).code).toBe('DECRYPTION_FAILED');
  });

  test('no keys for an encrypted footer, and a missing AAD prefix, are typed errors', async () => {
    expect((await typedError(() => openParquet(readBytes(path.join(data, 'uniform_encryption.parquet.encrypted'))))).code).toBe('KEY_MISSING');
    const e = await typedError(() => openParquet(readBytes(path.join(data, 'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted')), { decryption: keys128 }));
    expect(e.code).toBe('AAD_PREFIX_REQUIRED');
  });

  test('a tampered byte in a page is an authentication error, never garbage', async () => {
    const bytes = readBytes(path.join(data, 'uniform_encryption.parquet.encrypted'));
    const file = await openParquet(bytes, { codecs: builtinCodecs(), decryption: keys128 });
    const md = file.metadata.row_groups[0]!.columns[1]!;
    const offset = md.meta_data?.data_page_offset ?? md.file_offset;
    const copy = bytes.slice();
    copy[offset + 40]! ^= 1;
    const tampered = await openParquet(copy, { codecs: builtinCodecs(), decryption: keys128 });
    expect((await typedError(() => tampered.readRows())).code).toBe('DECRYPTION_FAILED');
  });
});
