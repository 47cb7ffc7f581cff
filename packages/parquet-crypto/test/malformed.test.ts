// Malformed input must end in a ParquetError — never a TypeError/RangeError, a hang, or garbage.
import fs from 'node:fs';
import { isParquetError } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ModuleType, createFileDecryptor, createFileEncryptor, encryptedModuleSize, openEncryptedFooter, openSignedFooter } from '../src/index.js';
import { footerRegion } from './corpus-walk.js';

const DIR = new URL('../../../../shared/parquet-testing/data/', import.meta.url);
const HAVE = fs.existsSync(DIR);
const enc = new TextEncoder();

async function settle(p: () => Promise<unknown>): Promise<'ok' | 'ParquetError'> {
  try {
    await p();
    return 'ok';
  } catch (e) {
    if (isParquetError(e)) return 'ParquetError';
    throw e;
  }
}

describe('malformed input', () => {
  test('random footers: only ParquetError', async () => {
    const props = { footerKey: enc.encode('0123456789012345') };
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        expect(await settle(() => openEncryptedFooter(bytes, props))).toBe('ParquetError');
        expect(await settle(() => openSignedFooter(bytes, props))).toBe('ParquetError');
      }),
      { numRuns: 300 },
    );
  });

  test('random module bytes for every module type: only ParquetError', async () => {
    const k = enc.encode('0123456789012345');
    for (const algorithm of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const) {
      const fe = createFileEncryptor({ footerKey: k, algorithm });
      const cd = createFileDecryptor({ footerKey: k }, fe.algorithm).columnDecryptor(0, 0, { ENCRYPTION_WITH_FOOTER_KEY: {} });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.uint8Array({ maxLength: 100 }), async (type, bytes) => {
          const r = await settle(() => cd.decrypt(type as ModuleType, 0, bytes));
          // random bytes can only "decrypt" as an unauthenticated CTR page body whose framing happens to fit
          if (r === 'ok') expect(algorithm === 'AES_GCM_CTR_V1' && (type === 2 || type === 3)).toBe(true);
        }),
        { numRuns: 300 },
      );
    }
    expect(() => encryptedModuleSize(new Uint8Array(2))).toThrow(expect.objectContaining({ code: 'DECRYPTION_FAILED' }));
  });

  test.skipIf(!HAVE)('every truncation of real footers: only ParquetError', async () => {
    const props = { footerKey: enc.encode('0123456789012345') };
    for (const f of ['uniform_encryption.parquet.encrypted', 'encrypt_columns_plaintext_footer.parquet.encrypted']) {
      const { footer, encrypted } = footerRegion(new Uint8Array(fs.readFileSync(new URL(f, DIR))));
      for (let n = 0; n < footer.length; n += 7) {
        const cut = footer.subarray(0, n);
        const r = await settle(() => (encrypted ? openEncryptedFooter(cut, props) : openSignedFooter(cut, props)));
        expect(r).toBe('ParquetError');
      }
    }
  });
});
