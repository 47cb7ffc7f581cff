// AAD bytes computed by hand from Encryption.md §4.4.2, and the module ciphers checked against
// Node's OpenSSL-backed crypto.createCipheriv (an independent AES implementation) and a NIST vector.
import { type CipherGCMTypes, createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import {
  ModuleType,
  decryptCtrModule,
  decryptGcmModule,
  encryptCtrModule,
  encryptGcmModule,
  encryptedModuleSize,
  fileAad,
  importAesKey,
  moduleAad,
} from '../src/index.js';

const hex = (s: string) => new Uint8Array(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;

async function code(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
    return 'resolved';
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
}

describe('module AAD (Encryption.md §4.4.2)', () => {
  const prefix = new TextEncoder().encode('ab'); // 61 62
  const unique = hex('0102');
  const file = fileAad(prefix, unique);

  test('prefix ‖ file unique', () => {
    expect(toHex(file)).toBe('61620102');
    expect(toHex(fileAad(undefined, unique))).toBe('0102');
  });

  test('footer: type 0 and no ordinals', () => {
    expect(toHex(moduleAad(file, ModuleType.FOOTER, 5, 6, 7))).toBe('6162010200');
  });

  test('data page and data page header: type, row group, column, page as little-endian i16', () => {
    // row group 258 = 0x0102, column 1, page 3
    expect(toHex(moduleAad(file, ModuleType.DATA_PAGE, 258, 1, 3))).toBe('61620102' + '02' + '0201' + '0100' + '0300');
    expect(toHex(moduleAad(file, ModuleType.DATA_PAGE_HEADER, 0, 32767, 256))).toBe('61620102' + '04' + '0000' + 'ff7f' + '0001');
  });

  test('modules without a page ordinal', () => {
    const tail = (t: ModuleType) => toHex(moduleAad(file, t, 1, 2, 9)).slice(8);
    expect(tail(ModuleType.COLUMN_META_DATA)).toBe('01' + '0100' + '0200');
    expect(tail(ModuleType.DICTIONARY_PAGE)).toBe('03' + '0100' + '0200');
    expect(tail(ModuleType.DICTIONARY_PAGE_HEADER)).toBe('05' + '0100' + '0200');
    expect(tail(ModuleType.COLUMN_INDEX)).toBe('06' + '0100' + '0200');
    expect(tail(ModuleType.OFFSET_INDEX)).toBe('07' + '0100' + '0200');
    expect(tail(ModuleType.BLOOM_FILTER_HEADER)).toBe('08' + '0100' + '0200');
    expect(tail(ModuleType.BLOOM_FILTER_BITSET)).toBe('09' + '0100' + '0200');
  });

  test('ordinals outside 0..32767 are ORDINAL_OUT_OF_RANGE (only where the module uses them)', async () => {
    expect(await code(() => moduleAad(file, ModuleType.DATA_PAGE, 32768, 0, 0))).toBe('ORDINAL_OUT_OF_RANGE');
    expect(await code(() => moduleAad(file, ModuleType.DATA_PAGE, 0, 40000, 0))).toBe('ORDINAL_OUT_OF_RANGE');
    expect(await code(() => moduleAad(file, ModuleType.DATA_PAGE, 0, 0, 32768))).toBe('ORDINAL_OUT_OF_RANGE');
    expect(await code(() => moduleAad(file, ModuleType.DATA_PAGE_HEADER, 0, 0, -1))).toBe('ORDINAL_OUT_OF_RANGE');
    expect(await code(() => moduleAad(file, ModuleType.COLUMN_INDEX, 0, 0.5, 0))).toBe('ORDINAL_OUT_OF_RANGE');
    expect(await code(() => moduleAad(file, ModuleType.COLUMN_INDEX, 0, 0, 70000))).toBe('resolved');
    expect(await code(() => moduleAad(file, ModuleType.FOOTER, 70000, 70000, 70000))).toBe('resolved');
    expect(await code(() => moduleAad(file, 10 as ModuleType, 0, 0, 0))).toBe('INVALID_MODULE_TYPE');
  });
});

describe('AES-GCM modules', () => {
  test('NIST GCM test case 4 (McGrew–Viega): AES-128, 60-byte plaintext, 20-byte AAD', async () => {
    const key = await importAesKey(hex('feffe9928665731c6d6a8f9467308308'), 'AES-GCM', 'test');
    const nonce = hex('cafebabefacedbaddecaf888');
    const aad = hex('feedfacedeadbeeffeedfacedeadbeefabaddad2');
    const pt = hex('d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39');
    const m = await encryptGcmModule(key, pt, aad, nonce);
    expect(toHex(m.subarray(0, 4))).toBe((12 + 60 + 16).toString(16).padStart(2, '0') + '000000');
    expect(toHex(m.subarray(4, 16))).toBe('cafebabefacedbaddecaf888');
    expect(toHex(m.subarray(16, 76))).toBe('42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091');
    expect(toHex(m.subarray(76))).toBe('5bc94fbc3221a5db94fae95ae7121a47');
    expect(await decryptGcmModule(key, m, aad, 't')).toEqual(pt);
  });

  test.each([16, 24, 32])('%i-byte key: same bytes as node:crypto aes-gcm, both directions', async (n) => {
    const raw = crypto.getRandomValues(new Uint8Array(n));
    const key = await importAesKey(raw, 'AES-GCM', 'test');
    for (const len of [0, 1, 15, 16, 17, 1000, 70000]) {
      const pt = randomFillSync(new Uint8Array(len));
      const aad = crypto.getRandomValues(new Uint8Array(13));
      const nonce = crypto.getRandomValues(new Uint8Array(12));
      const m = await encryptGcmModule(key, pt, aad, nonce);
      const c = createCipheriv(`aes-${n * 8}-gcm` as CipherGCMTypes, raw, nonce);
      c.setAAD(aad);
      const ct = Buffer.concat([c.update(pt), c.final()]);
      expect(m.length).toBe(len + 32);
      expect(same(m.subarray(16, 16 + len), ct)).toBe(true);
      expect(toHex(m.subarray(16 + len))).toBe(c.getAuthTag().toString('hex'));
      // and a module built by node decrypts here
      const c2 = createCipheriv(`aes-${n * 8}-gcm` as CipherGCMTypes, raw, nonce);
      c2.setAAD(aad);
      const body = Buffer.concat([nonce, c2.update(pt), c2.final(), c2.getAuthTag()]);
      const framed = new Uint8Array(4 + body.length);
      new DataView(framed.buffer).setUint32(0, body.length, true);
      framed.set(body, 4);
      expect(same(await decryptGcmModule(key, framed, aad, 't'), pt)).toBe(true);
    }
  });

  test('bad framing and bad tags are DECRYPTION_FAILED', async () => {
    const key = await importAesKey(new Uint8Array(16), 'AES-GCM', 'test');
    const m = await encryptGcmModule(key, new Uint8Array(10), new Uint8Array(0));
    expect(await code(decryptGcmModule(key, m.subarray(0, 3), new Uint8Array(0), 't'))).toBe('DECRYPTION_FAILED');
    expect(await code(decryptGcmModule(key, m.subarray(0, m.length - 1), new Uint8Array(0), 't'))).toBe('DECRYPTION_FAILED');
    const longer = new Uint8Array(m.length + 1);
    longer.set(m);
    expect(await code(decryptGcmModule(key, longer, new Uint8Array(0), 't'))).toBe('DECRYPTION_FAILED');
    const tiny = hex('1b000000' + '00'.repeat(27)); // 27 < nonce + tag
    expect(await code(decryptGcmModule(key, tiny, new Uint8Array(0), 't'))).toBe('DECRYPTION_FAILED');
    const huge = hex('ffffffff' + '00'.repeat(40));
    expect(await code(decryptGcmModule(key, huge, new Uint8Array(0), 't'))).toBe('DECRYPTION_FAILED');
    expect(await code(decryptGcmModule(key, m, new Uint8Array(1), 't'))).toBe('DECRYPTION_FAILED');
    expect(encryptedModuleSize(m, 0)).toBe(m.length);
    expect(await code(() => encryptedModuleSize(m, m.length - 2))).toBe('DECRYPTION_FAILED');
  });

  test('nonces are fresh per module', async () => {
    const key = await importAesKey(new Uint8Array(16), 'AES-GCM', 'test');
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) seen.add(toHex((await encryptGcmModule(key, new Uint8Array(1), new Uint8Array(0))).subarray(4, 16)));
    expect(seen.size).toBe(500);
  });
});

describe('AES-CTR page modules', () => {
  test.each([16, 24, 32])('%i-byte key: same bytes as node:crypto aes-ctr with IV = nonce ‖ 00000001', async (n) => {
    const raw = crypto.getRandomValues(new Uint8Array(n));
    const key = await importAesKey(raw, 'AES-CTR', 'test');
    for (const len of [0, 1, 16, 17, 5000, 65536]) {
      const pt = randomFillSync(new Uint8Array(len));
      const nonce = crypto.getRandomValues(new Uint8Array(12));
      const m = await encryptCtrModule(key, pt, nonce);
      expect(m.length).toBe(len + 16);
      expect(new DataView(m.buffer).getUint32(0, true)).toBe(len + 12);
      expect(toHex(m.subarray(4, 16))).toBe(toHex(nonce));
      const iv = Buffer.concat([nonce, hex('00000001')]);
      const c = createCipheriv(`aes-${n * 8}-ctr`, raw, iv);
      expect(same(m.subarray(16), Buffer.concat([c.update(pt), c.final()]))).toBe(true);
      const d = createDecipheriv(`aes-${n * 8}-ctr`, raw, iv);
      expect(same(Buffer.concat([d.update(m.subarray(16)), d.final()]), pt)).toBe(true);
      expect(same(await decryptCtrModule(key, m, 't'), pt)).toBe(true);
    }
  });

  test('bad framing is DECRYPTION_FAILED', async () => {
    const key = await importAesKey(new Uint8Array(16), 'AES-CTR', 'test');
    const m = await encryptCtrModule(key, new Uint8Array(10));
    expect(await code(decryptCtrModule(key, m.subarray(0, m.length - 1), 't'))).toBe('DECRYPTION_FAILED');
    expect(await code(decryptCtrModule(key, hex('0b000000' + '00'.repeat(11)), 't'))).toBe('DECRYPTION_FAILED');
  });

  test('keys of other lengths are INVALID_KEY', async () => {
    for (const n of [0, 8, 15, 17, 31, 33, 64]) expect(await code(importAesKey(new Uint8Array(n), 'AES-CTR', 'test'))).toBe('INVALID_KEY');
  });
});
