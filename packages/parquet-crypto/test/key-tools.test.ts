// parquet-java key-tools envelope: the upstream file whose key material lives in the JSON beside it
// (written by parquet-java with its in-memory test KMS), plus round trips of generated key metadata.
import fs from 'node:fs';
import { isParquetError } from '@parquetry/thrift-compact';
import { uncompressSync } from 'snappy';
import { describe, expect, test } from 'vitest';
import { type KmsClient, createInMemoryKms, createKeyToolsRetriever, generateWrappedDataKey, openEncryptedFooter, unwrapKeyLocally, wrapKeyLocally } from '../src/index.js';
import { footerRegion, walkFile } from './corpus-walk.js';
import { writeSyntheticFile } from './synthetic-file.js';

const DIR = new URL('../../../../shared/parquet-testing/data/', import.meta.url);
const FILE = 'external_key_material_java.parquet.encrypted';
const HAVE = fs.existsSync(new URL(FILE, DIR));
if (!HAVE) console.warn('parquet-crypto: ../shared/parquet-testing is absent, key-tools corpus tests are skipped');
const enc = new TextEncoder();
const MASTER = { kf: enc.encode('0123456789012345'), kc1: enc.encode('1234567890123450'), kc2: enc.encode('1234567890123451') };

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
}

function counting(kms: KmsClient): KmsClient & { unwraps: number } {
  const c = {
    unwraps: 0,
    wrapKey: (k: Uint8Array, id: string) => kms.wrapKey(k, id),
    unwrapKey: (w: string, id: string) => {
      c.unwraps++;
      return kms.unwrapKey(w, id);
    },
  };
  return c;
}

describe.skipIf(!HAVE)('external key material (parquet-java key tools)', () => {
  const file = () => new Uint8Array(fs.readFileSync(new URL(FILE, DIR)));
  const material = () => JSON.parse(fs.readFileSync(new URL(`_KEY_MATERIAL_FOR_${FILE}.json`, DIR), 'utf8')) as Record<string, string>;

  test('every module decrypts with keys unwrapped through the in-memory KMS', async () => {
    const kms = counting(createInMemoryKms(MASTER));
    const w = await walkFile(file(), { keyRetriever: createKeyToolsRetriever({ kms, externalKeyMaterial: material() }) });
    expect(w.columns.map((c) => c.path.join('.'))).toEqual(['integers', 'strings']);
    for (const col of w.columns) {
      expect(col.encrypted).toBe(true);
      expect(col.separateMeta).toBe(true);
      expect(col.pages.length).toBeGreaterThan(0);
      for (const p of col.pages) {
        expect(p.body.length).toBe(p.header.compressed_page_size - 32);
        const plain = col.meta.codec === 1 ? uncompressSync(Buffer.from(p.body)) : p.body;
        expect([0, 1]).toContain(col.meta.codec);
        expect(plain.length).toBe(p.header.uncompressed_page_size);
      }
    }
    // one KMS round trip per key-encryption key (footer, column 0, column 1), cached within the retriever
    expect(kms.unwraps).toBe(3);
  });

  test('the external material can come from an async lookup; a missing reference is KEY_MISSING', async () => {
    const m = material();
    const kms = createInMemoryKms(MASTER);
    const retr = createKeyToolsRetriever({ kms, externalKeyMaterial: async (ref) => m[ref] });
    const opened = await openEncryptedFooter(footerRegion(file()).footer, { keyRetriever: retr });
    expect(opened.fileMetaData.row_groups.length).toBeGreaterThan(0);
    const none = createKeyToolsRetriever({ kms, externalKeyMaterial: {} });
    expect(await outcome(openEncryptedFooter(footerRegion(file()).footer, { keyRetriever: none }))).toBe('KEY_MISSING');
  });

  test('a wrong master key is DECRYPTION_FAILED; a KMS without it is KEY_MISSING', async () => {
    const wrong = createInMemoryKms({ ...MASTER, kf: enc.encode('0000000000000000') });
    const f = file();
    expect(await outcome(walkFile(f, { keyRetriever: createKeyToolsRetriever({ kms: wrong, externalKeyMaterial: material() }) }))).toBe('DECRYPTION_FAILED');
    const wrongColumn = createInMemoryKms({ ...MASTER, kc2: enc.encode('0000000000000000') });
    expect(await outcome(walkFile(f, { keyRetriever: createKeyToolsRetriever({ kms: wrongColumn, externalKeyMaterial: material() }) }))).toBe('DECRYPTION_FAILED');
    const partial = createInMemoryKms({ kf: MASTER.kf });
    expect(await outcome(walkFile(f, { keyRetriever: createKeyToolsRetriever({ kms: partial, externalKeyMaterial: material() }) }))).toBe('KEY_MISSING');
  });

  test('tampered key material is refused', async () => {
    const m = material();
    const footerMat = JSON.parse(m.footerKey!) as Record<string, unknown>;
    const bad = { ...m, footerKey: JSON.stringify({ ...footerMat, keyEncryptionKeyID: 'AAAAAAAAAAAAAAAAAAAAAA==' }) };
    const kms = createInMemoryKms(MASTER);
    expect(await outcome(walkFile(file(), { keyRetriever: createKeyToolsRetriever({ kms, externalKeyMaterial: bad }) }))).toBe('DECRYPTION_FAILED');
    const notJson = { ...m, footerKey: '{oops' };
    expect(await outcome(walkFile(file(), { keyRetriever: createKeyToolsRetriever({ kms, externalKeyMaterial: notJson }) }))).toBe('KEY_MATERIAL_INVALID');
    const otherType = { ...m, footerKey: JSON.stringify({ ...footerMat, keyMaterialType: 'PKMT9' }) };
    expect(await outcome(walkFile(file(), { keyRetriever: createKeyToolsRetriever({ kms, externalKeyMaterial: otherType }) }))).toBe('KEY_MATERIAL_INVALID');
  });
});

describe('key-tools round trips', () => {
  test('local wrapping: unwrap(wrap(k)) = k; a different AAD or key fails', async () => {
    const kek = crypto.getRandomValues(new Uint8Array(32));
    const k = crypto.getRandomValues(new Uint8Array(16));
    const w = await wrapKeyLocally(k, kek, enc.encode('id'));
    expect(Buffer.from(w, 'base64').length).toBe(12 + 16 + 16);
    expect(await unwrapKeyLocally(w, kek, enc.encode('id'))).toEqual(k);
    expect(await outcome(unwrapKeyLocally(w, kek, enc.encode('ie')))).toBe('DECRYPTION_FAILED');
    expect(await outcome(unwrapKeyLocally(w, new Uint8Array(32), enc.encode('id')))).toBe('DECRYPTION_FAILED');
    expect(await outcome(unwrapKeyLocally('%%%', kek, enc.encode('id')))).toBe('KEY_MATERIAL_INVALID');
  });

  test.each([16, 24, 32] as const)('generated %i-byte data keys with internal material: write, then read through the KMS', async (n) => {
    const kms = createInMemoryKms({ footerMaster: crypto.getRandomValues(new Uint8Array(16)), colMaster: crypto.getRandomValues(new Uint8Array(32)) });
    const footer = await generateWrappedDataKey(kms, 'footerMaster', true, n);
    const colA = await generateWrappedDataKey(kms, 'colMaster', false, n);
    const s = await writeSyntheticFile(
      { footerKey: footer.key, footerKeyMetadata: footer.keyMetadata, columnKeys: { a: colA } },
      1,
      2,
    );
    const meta = JSON.parse(new TextDecoder().decode(colA.keyMetadata)) as Record<string, unknown>;
    expect(meta.keyMaterialType).toBe('PKMT1');
    expect(meta.internalStorage).toBe(true);
    expect(meta.doubleWrapping).toBe(true);
    const w = await walkFile(s.file, { keyRetriever: createKeyToolsRetriever({ kms }) });
    expect(w.columns.filter((c) => c.encrypted).map((c) => c.path.join('.'))).toEqual(['a']);
    expect(w.columns[0]!.pages.slice(1).map((p) => p.body)).toEqual(s.columns[0]![0]!.pages);
  });
});
