// An unencrypted file opened with decryption properties is refused unless they allow plaintext files (QA helper-83
// F2): before, it was read silently, so a file replaced by an unencrypted one was taken as authenticated data.
// pyarrow 25 refuses it too ("Applying decryption properties on plaintext file") unless plaintext_files_allowed, and
// so does parquet-java unless withPlaintextFilesAllowed().
import { describe, expect, test } from 'vitest';
import { openParquet } from '../src/index.js';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { typedError } from './helpers.js';

const footerKey = new Uint8Array(16).fill(7);
const schema = { a: field.int32({ required: true }) };
const rows = [{ a: 1 }, { a: 2 }];
const write = (options: Record<string, unknown> = {}) => writeParquet(rows, { schema, compression: 'UNCOMPRESSED', ...options });

describe('decryption properties and an unencrypted file', () => {
  test('refused by default: PLAINTEXT_FILE, before anything is read', async () => {
    const plain = await write();
    for (const decryption of [{ footerKey }, { columnKeys: { a: footerKey } }, { keyRetriever: () => footerKey }, {}]) {
      const e = await typedError(() => openParquet(plain, { decryption }));
      expect(e.code).toBe('PLAINTEXT_FILE');
      expect(e.message).toMatch(/the file is not encrypted, but `decryption` was given.*allowPlaintextFiles/);
    }
  });

  test('allowPlaintextFiles reads it, and still decrypts an encrypted file', async () => {
    const plain = await write();
    const decryption = { footerKey, allowPlaintextFiles: true };
    expect(await (await openParquet(plain, { decryption })).readRows()).toEqual(rows);
    for (const plaintextFooter of [false, true]) {
      const enc = await write({ encryption: { footerKey, plaintextFooter } });
      expect(await (await openParquet(enc, { decryption })).readRows()).toEqual(rows);
      // and a wrong key for it is still an error
      const e = await typedError(async () => (await openParquet(enc, { decryption: { footerKey: new Uint8Array(16), allowPlaintextFiles: true } })).readRows());
      expect(e.code).toBe('DECRYPTION_FAILED');
    }
  });

  test('without decryption properties an unencrypted file reads as always', async () => {
    expect(await (await openParquet(await write())).readRows()).toEqual(rows);
  });

  test('allowPlaintextFiles must be a boolean', async () => {
    const enc = await write({ encryption: { footerKey } });
    const e = await typedError(() => openParquet(enc, { decryption: { footerKey, allowPlaintextFiles: 'yes' as unknown as boolean } }));
    expect(e.code).toBe('INVALID_OPTION');
  });
});

describe('decryption messages (QA helper-83 F6, F7)', () => {
  test('an AAD prefix supplied for a file encrypted without one is AAD_PREFIX_MISMATCH, before any module is decrypted', async () => {
    const enc = await write({ encryption: { footerKey } });
    const e = await typedError(() => openParquet(enc, { decryption: { footerKey, aadPrefix: 'tester' } }));
    expect(e.code).toBe('AAD_PREFIX_MISMATCH');
    expect(e.message).toMatch(/an AAD prefix \(6 bytes\) was supplied, but the file was encrypted without one/);
    // a file that stores its prefix, or asks for one, is not affected
    const stored = await write({ encryption: { footerKey, aadPrefix: 'tester' } });
    expect(await (await openParquet(stored, { decryption: { footerKey, aadPrefix: 'tester' } })).readRows()).toEqual(rows);
  });

  test("KEY_RETRIEVAL_FAILED carries the key retriever's own reason", async () => {
    const enc = await write({ encryption: { footerKey, footerKeyMetadata: new TextEncoder().encode('kf') } });
    const kms = new Error('KMS request failed', { cause: new Error('no access to key kf') });
    const e = await typedError(() => openParquet(enc, { decryption: { keyRetriever: () => Promise.reject(kms) } }));
    expect(e.code).toBe('KEY_RETRIEVAL_FAILED');
    expect(e.message).toMatch(/the key retriever failed for the footer key: KMS request failed: no access to key kf$/);
  });
});

describe('a key retriever that never answers (QA helper-83 F5)', () => {
  test('keyTimeout: KEY_RETRIEVAL_FAILED after the timeout, and the signal the retriever got is aborted', async () => {
    const enc = await write({ encryption: { footerKey, footerKeyMetadata: new TextEncoder().encode('kf') } });
    let got: AbortSignal | undefined;
    const t0 = performance.now();
    const e = await typedError(() =>
      openParquet(enc, {
        decryption: {
          keyTimeout: 100,
          keyRetriever: (_meta, _target, signal) => {
            got = signal;
            return new Promise<Uint8Array>(() => {});
          },
        },
      }),
    );
    expect(e.code).toBe('KEY_RETRIEVAL_FAILED');
    expect(e.message).toMatch(/the key retriever did not answer for the footer key within 100 ms \(decryption\.keyTimeout\)/);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(got?.aborted).toBe(true);
  });

  test('a retriever answering in time is not cut off, and keyTimeout must be positive', async () => {
    const enc = await write({ encryption: { footerKey, footerKeyMetadata: new TextEncoder().encode('kf') } });
    const slow = () => new Promise<Uint8Array>((r) => setTimeout(() => r(footerKey), 20));
    expect(await (await openParquet(enc, { decryption: { keyTimeout: 2000, keyRetriever: slow } })).readRows()).toEqual(rows);
    expect(await (await openParquet(enc, { decryption: { keyTimeout: Infinity, keyRetriever: slow } })).readRows()).toEqual(rows);
    for (const keyTimeout of [0, -1, Number.NaN, '5' as unknown as number]) {
      const e = await typedError(() => openParquet(enc, { decryption: { keyTimeout, keyRetriever: slow } }));
      expect(e.code).toBe('INVALID_OPTION');
    }
  });
});
