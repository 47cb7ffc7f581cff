// encrypt -> decrypt round trips: whole synthetic files through the writer-side API and back through the
// reader-side API, for both algorithms, all key sizes, both footer modes, uniform and per-column keys.
import { decodeThrift, isParquetError, readFileCryptoMetaData, readFileMetaData } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  AAD_FILE_UNIQUE_LENGTH,
  type AlgorithmName,
  type FileDecryptionProperties,
  type FileEncryptionProperties,
  ModuleType,
  NONCE_LENGTH,
  MAGIC_ENCRYPTED_FOOTER,
  MAGIC_PLAINTEXT_FOOTER,
  createFileDecryption,
  createFileDecryptor,
  createFileEncryptor,
  openEncryptedFooter,
} from '../src/index.js';
import { footerRegion, walkFile } from './corpus-walk.js';
import { writeSyntheticFile } from './synthetic-file.js';

const key = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const enc = new TextEncoder();

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`;
  }
}

interface Mode {
  algorithm: AlgorithmName;
  keyBytes: 16 | 24 | 32;
  plaintextFooter: boolean;
  columnKeys: boolean;
}
const MODES: Mode[] = [];
for (const algorithm of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const)
  for (const keyBytes of [16, 24, 32] as const)
    for (const plaintextFooter of [false, true]) for (const columnKeys of [false, true]) MODES.push({ algorithm, keyBytes, plaintextFooter, columnKeys });

function propsFor(m: Mode): { write: FileEncryptionProperties; read: FileDecryptionProperties } {
  const footerKey = key(m.keyBytes, 1);
  const colA = key(m.keyBytes, 2);
  const colBC = key(m.keyBytes, 3);
  const write: FileEncryptionProperties = {
    footerKey,
    footerKeyMetadata: enc.encode('footer-key-id'),
    algorithm: m.algorithm,
    plaintextFooter: m.plaintextFooter,
    aadPrefix: 'table/part-0',
    // With column keys, 'a' and 'b.c' get their own keys and 'd' stays plaintext.
    ...(m.columnKeys ? { columnKeys: { a: { key: colA, keyMetadata: enc.encode('ka') }, 'b.c': { key: colBC } } } : {}),
  };
  // The reader finds the footer key and 'a' through the retriever (by key metadata) and 'b.c' explicitly.
  const read: FileDecryptionProperties = {
    keyRetriever: (meta, target) => {
      const id = meta === undefined ? '' : new TextDecoder().decode(meta);
      if (target.kind === 'footer' && id === 'footer-key-id') return footerKey;
      if (target.kind === 'column' && id === 'ka' && target.path.join('.') === 'a') return colA;
      return undefined;
    },
    columnKeys: { 'b.c': colBC },
  };
  return { write, read };
}

describe('file round trips', () => {
  test.each(MODES)('$algorithm, $keyBytes-byte keys, plaintextFooter=$plaintextFooter, columnKeys=$columnKeys', async (m) => {
    const { write, read } = propsFor(m);
    const s = await writeSyntheticFile(write);
    expect(s.file[s.file.length - 1]).toBe(m.plaintextFooter ? 0x31 : 0x45);
    const w = await walkFile(s.file, read);
    expect(w.signatureVerified).toBe(m.plaintextFooter);
    expect(w.fileMetaData.num_rows).toBe(60);
    for (const col of w.columns) {
      const expected = s.columns[col.rowGroup]![col.column]!;
      expect(col.encrypted).toBe(!m.columnKeys || col.column < 2);
      expect(col.pages[0]!.body).toEqual(expected.dictionary);
      expect(col.pages.slice(1).map((p) => p.body)).toEqual(expected.pages);
      expect(col.bloomBitset).toEqual(expected.bitset);
      expect(col.columnIndex).toBe(true);
      expect(col.offsetIndex!.map((l) => l.offset)).toEqual(col.pages.slice(1).map((p) => p.offset));
      // statistics survive: in the footer, or in the separately encrypted column metadata
      expect(col.meta.statistics?.max_value).toEqual(new Uint8Array([9, 0, 0, 0]));
      expect(col.separateMeta).toBe(col.encrypted && (m.plaintextFooter || m.columnKeys));
    }
    // Module overheads: GCM 32 bytes everywhere, CTR 16 for page bodies.
    for (const sp of w.spans) {
      if (sp.type === ModuleType.DATA_PAGE || sp.type === ModuleType.DICTIONARY_PAGE) {
        const col = w.columns.find((c) => c.column === sp.column && c.pages.some((p) => p.offset + p.size === sp.offset + sp.size))!;
        const page = col.pages.find((p) => p.offset + p.size === sp.offset + sp.size)!;
        expect(sp.size - page.body.length).toBe(m.algorithm === 'AES_GCM_V1' ? 32 : 16);
      }
    }
    // Nonce uniqueness across every module of the file (and the footer's / signature's nonce).
    const { footer } = footerRegion(s.file);
    const nonces = w.spans.map((sp) => Buffer.from(s.file.subarray(sp.offset + 4, sp.offset + 4 + NONCE_LENGTH)).toString('hex'));
    nonces.push(Buffer.from(m.plaintextFooter ? footer.subarray(footer.length - 28, footer.length - 16) : footer.subarray(footer.length - 28 - 16 - NONCE_LENGTH, footer.length - 28 - 16)).toString('hex'));
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(nonces.length).toBeGreaterThan(30);
  });

  test('the AAD prefix is stored by default; with storeAadPrefix false the reader must supply it', async () => {
    const base: FileEncryptionProperties = { footerKey: key(16, 7), aadPrefix: 'employees_23May2018.part0' };
    const stored = await writeSyntheticFile(base, 1, 1);
    const fcmd = decodeThrift(readFileCryptoMetaData, footerRegion(stored.file).footer).value;
    expect(new TextDecoder().decode(fcmd.encryption_algorithm.AES_GCM_V1!.aad_prefix)).toBe('employees_23May2018.part0');
    expect(fcmd.encryption_algorithm.AES_GCM_V1!.aad_file_unique!.length).toBe(AAD_FILE_UNIQUE_LENGTH);
    expect((await walkFile(stored.file, { footerKey: key(16, 7) })).columns.length).toBe(3);

    const hidden = await writeSyntheticFile({ ...base, storeAadPrefix: false }, 1, 1);
    const hcmd = decodeThrift(readFileCryptoMetaData, footerRegion(hidden.file).footer).value;
    expect(hcmd.encryption_algorithm.AES_GCM_V1!.aad_prefix).toBeUndefined();
    expect(hcmd.encryption_algorithm.AES_GCM_V1!.supply_aad_prefix).toBe(true);
    expect(await outcome(walkFile(hidden.file, { footerKey: key(16, 7) }))).toBe('AAD_PREFIX_REQUIRED');
    expect(await outcome(walkFile(hidden.file, { footerKey: key(16, 7), aadPrefix: 'employees_23May2016.part0' }))).toBe('DECRYPTION_FAILED');
    expect((await walkFile(hidden.file, { footerKey: key(16, 7), aadPrefix: 'employees_23May2018.part0' })).columns.length).toBe(3);
  });

  test('every file gets a fresh aad_file_unique, so a module copied between files fails', async () => {
    const props: FileEncryptionProperties = { footerKey: key(16, 9) };
    const [a, b] = await Promise.all([writeSyntheticFile(props, 1, 2, true), writeSyntheticFile(props, 1, 2, true)]);
    const ua = decodeThrift(readFileCryptoMetaData, footerRegion(a.file).footer).value.encryption_algorithm.AES_GCM_V1!.aad_file_unique!;
    const ub = decodeThrift(readFileCryptoMetaData, footerRegion(b.file).footer).value.encryption_algorithm.AES_GCM_V1!.aad_file_unique!;
    expect(ua).not.toEqual(ub);
    // Same layout and sizes: splice b's first data page into a at the same offset.
    const wa = await walkFile(a.file, { footerKey: key(16, 9) });
    const sp = wa.spans.find((x) => x.type === ModuleType.DATA_PAGE)!;
    const mixed = a.file.slice();
    mixed.set(b.file.subarray(sp.offset, sp.offset + sp.size), sp.offset);
    expect(await outcome(walkFile(mixed, { footerKey: key(16, 9) }))).toBe('DECRYPTION_FAILED');
  });

  test.each(['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const)('%s: modules swapped between row groups fail', async (algorithm) => {
    const props: FileEncryptionProperties = { footerKey: key(32, 4), algorithm };
    const s = await writeSyntheticFile(props, 2, 2, true);
    const w = await walkFile(s.file, { footerKey: key(32, 4) });
    const firstRg = w.columns.filter((c) => c.rowGroup === 0).length;
    // spans are in walk order: row group 0's columns first; pick the same module type of column 0 in both row groups.
    for (const type of [ModuleType.DATA_PAGE_HEADER, ModuleType.DATA_PAGE, ModuleType.DICTIONARY_PAGE_HEADER, ModuleType.BLOOM_FILTER_BITSET, ModuleType.COLUMN_INDEX]) {
      const same = w.spans.filter((x) => x.type === type && x.column === 0);
      expect(same.length).toBeGreaterThanOrEqual(2);
      const [x, y] = [same[0]!, same[same.length / 2]!];
      expect(x.size).toBe(y.size);
      const swapped = s.file.slice();
      swapped.set(s.file.subarray(y.offset, y.offset + y.size), x.offset);
      swapped.set(s.file.subarray(x.offset, x.offset + x.size), y.offset);
      const got = await outcome(walkFile(swapped, { footerKey: key(32, 4) }));
      // CTR page bodies carry no AAD (spec §4.2.2); everything else is bound to its row group.
      expect(got, `module type ${type}`).toBe(algorithm === 'AES_GCM_CTR_V1' && type === ModuleType.DATA_PAGE ? 'resolved' : 'DECRYPTION_FAILED');
    }
    expect(firstRg).toBe(3);
  });

  test('injection objects: FileEncryptor.magic / fileTail and createFileDecryption', async () => {
    for (const plaintextFooter of [false, true]) {
      const s = await writeSyntheticFile({ footerKey: key(16, 3), plaintextFooter }, 1, 1);
      expect(s.file.subarray(0, 4)).toEqual(plaintextFooter ? MAGIC_PLAINTEXT_FOOTER : MAGIC_ENCRYPTED_FOOTER);
      expect(s.file.subarray(s.file.length - 4)).toEqual(plaintextFooter ? MAGIC_PLAINTEXT_FOOTER : MAGIC_ENCRYPTED_FOOTER);
      const decryption = createFileDecryption({ footerKey: key(16, 3) });
      const { footer, start } = footerRegion(s.file);
      const opened = plaintextFooter ? await decryption.openSignedFooter(footer, start) : await decryption.openEncryptedFooter(footer, start);
      expect(opened.fileMetaData.num_rows).toBe(10);
      expect(opened.signatureVerified).toBe(plaintextFooter);
      const chunk = opened.fileMetaData.row_groups[0]!.columns[1]!;
      const cd = opened.decryptor.columnDecryptor(0, 1, chunk.crypto_metadata!);
      const meta = plaintextFooter ? chunk.encrypted_column_metadata! : undefined;
      if (meta !== undefined) expect((await cd.decrypt(ModuleType.COLUMN_META_DATA, 0, meta)).length).toBe(meta.length - 32);
    }
  });

  test('writeEncryptedFileTail: encrypted footer carries no encryption_algorithm; plaintext footer carries it', async () => {
    const enc1 = await writeSyntheticFile({ footerKey: key(16, 1) }, 1, 1);
    const opened = await openEncryptedFooter(footerRegion(enc1.file).footer, { footerKey: key(16, 1) });
    expect(opened.fileMetaData.encryption_algorithm).toBeUndefined();
    const plain = await writeSyntheticFile({ footerKey: key(16, 1), plaintextFooter: true, footerKeyMetadata: enc.encode('kf') }, 1, 1);
    const { footer } = footerRegion(plain.file);
    const fmd = decodeThrift(readFileMetaData, footer, 0, footer.length - 28).value;
    expect(fmd.encryption_algorithm?.AES_GCM_V1?.aad_file_unique?.length).toBe(8);
    expect(fmd.footer_signing_key_metadata).toEqual(enc.encode('kf'));
  });
});

describe('module round trips (property)', () => {
  const TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
  test('decrypt(encrypt(x)) = x for every module type, both algorithms, all key sizes; wrong ordinals fail', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<AlgorithmName>('AES_GCM_V1', 'AES_GCM_CTR_V1'),
        fc.constantFrom(16, 24, 32),
        fc.constantFrom(...TYPES),
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 0, max: 32767 }),
        fc.integer({ min: 0, max: 32767 }),
        fc.integer({ min: 0, max: 32767 }),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        async (algorithm, n, type, plain, rg, col, page, prefix) => {
          const k = crypto.getRandomValues(new Uint8Array(n));
          const fe = createFileEncryptor({ footerKey: k, algorithm, ...(prefix !== undefined ? { aadPrefix: prefix } : {}) });
          const ce = fe.columnEncryptor(rg, col, ['x'])!;
          const module = await ce.encrypt(type, page, plain);
          const fd = createFileDecryptor({ footerKey: k }, fe.algorithm);
          const cd = fd.columnDecryptor(rg, col, ce.cryptoMetaData);
          expect(await cd.decrypt(type, page, module)).toEqual(plain);
          const ctrPage = algorithm === 'AES_GCM_CTR_V1' && (type === 2 || type === 3);
          expect(module.length - plain.length).toBe(ctrPage ? 16 : 32);
          if (!ctrPage) {
            const other = fd.columnDecryptor(rg, col === 0 ? 1 : col - 1, ce.cryptoMetaData);
            expect(await outcome(other.decrypt(type, page, module))).toBe('DECRYPTION_FAILED');
            let otherType = (type === 9 ? 8 : type + 1) as ModuleType;
            // under CTR a page body carries no AAD, so compare against another GCM module type
            if (algorithm === 'AES_GCM_CTR_V1' && (otherType === 2 || otherType === 3)) otherType = 4;
            expect(await outcome(cd.decrypt(otherType, page, module))).toBe('DECRYPTION_FAILED');
            if (type === 2 || type === 4) expect(await outcome(cd.decrypt(type, page ^ 1, module))).toBe('DECRYPTION_FAILED');
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('footer: encryptFooter/decryptFooter and signFooter/verifyFooterSignature', async () => {
    for (const n of [16, 24, 32]) {
      const k = key(n, 5);
      const fe = createFileEncryptor({ footerKey: k, aadPrefix: 'p' });
      const fd = createFileDecryptor({ footerKey: k }, fe.algorithm);
      const body = enc.encode('serialized FileMetaData');
      expect(await fd.decryptFooter(await fe.encryptFooter(body))).toEqual(body);
      const sig = await fe.signFooter(body);
      expect(sig.length).toBe(28);
      expect(await fd.verifyFooterSignature(body, sig)).toBe(true);
      const bad = body.slice();
      bad[3]! ^= 1;
      expect(await outcome(fd.verifyFooterSignature(bad, sig))).toBe('DECRYPTION_FAILED');
      expect(await createFileDecryptor({}, fe.algorithm).verifyFooterSignature(body, sig)).toBe(false);
    }
  });

  test('ordinal limits: 32767 works, 32768 is ORDINAL_OUT_OF_RANGE on both sides', async () => {
    const k = key(16, 1);
    const fe = createFileEncryptor({ footerKey: k });
    const ce = fe.columnEncryptor(32767, 32767, ['x'])!;
    const m = await ce.encrypt(ModuleType.DATA_PAGE, 32767, new Uint8Array(3));
    const fd = createFileDecryptor({ footerKey: k }, fe.algorithm);
    expect(await fd.columnDecryptor(32767, 32767, ce.cryptoMetaData).decrypt(ModuleType.DATA_PAGE, 32767, m)).toEqual(new Uint8Array(3));
    expect(() => fe.columnEncryptor(32768, 0, ['x'])).toThrow(expect.objectContaining({ code: 'ORDINAL_OUT_OF_RANGE' }));
    expect(() => fe.columnEncryptor(0, 32768, ['x'])).toThrow(expect.objectContaining({ code: 'ORDINAL_OUT_OF_RANGE' }));
    expect(() => fd.columnDecryptor(-1, 0, ce.cryptoMetaData)).toThrow(expect.objectContaining({ code: 'ORDINAL_OUT_OF_RANGE' }));
    expect(await outcome(ce.encrypt(ModuleType.DATA_PAGE_HEADER, 32768, new Uint8Array(1)))).toBe('ORDINAL_OUT_OF_RANGE');
    expect(await outcome(fd.columnDecryptor(0, 0, ce.cryptoMetaData).decrypt(ModuleType.DATA_PAGE, 32768, m))).toBe('ORDINAL_OUT_OF_RANGE');
    // CTR pages carry no AAD but the per-chunk page limit still applies
    const ctr = createFileEncryptor({ footerKey: k, algorithm: 'AES_GCM_CTR_V1' }).columnEncryptor(0, 0, ['x'])!;
    expect(await outcome(ctr.encrypt(ModuleType.DATA_PAGE, 40000, new Uint8Array(1)))).toBe('ORDINAL_OUT_OF_RANGE');
    // the page ordinal is irrelevant to modules that do not carry one
    expect(await outcome(ce.encrypt(ModuleType.COLUMN_INDEX, 99999, new Uint8Array(1)))).toBe('resolved');
  });

  test('misuse is typed: bad keys, footer as a column module, unknown algorithm', async () => {
    expect(() => createFileEncryptor({ footerKey: new Uint8Array(20) })).toThrow(expect.objectContaining({ code: 'INVALID_KEY' }));
    expect(() => createFileEncryptor({ footerKey: key(16, 1), columnKeys: { a: { key: new Uint8Array(8) } } })).toThrow(expect.objectContaining({ code: 'INVALID_KEY' }));
    expect(() => createFileDecryptor({}, {})).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_ENCRYPTION' }));
    const fe = createFileEncryptor({ footerKey: key(16, 1) });
    const ce = fe.columnEncryptor(0, 0, ['x'])!;
    expect(await outcome(ce.encrypt(ModuleType.FOOTER, 0, new Uint8Array(1)))).toBe('INVALID_MODULE_TYPE');
    expect(await outcome(ce.encrypt(12 as ModuleType, 0, new Uint8Array(1)))).toBe('INVALID_MODULE_TYPE');
    const fd = createFileDecryptor({ footerKey: key(16, 1) }, fe.algorithm);
    expect(() => fd.columnDecryptor(0, 0, {})).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_ENCRYPTION' }));
    expect(await outcome(fd.columnDecryptor(0, 0, ce.cryptoMetaData).decrypt(ModuleType.FOOTER, 0, new Uint8Array(40)))).toBe('INVALID_MODULE_TYPE');
    // a plaintext column under column-key mode
    expect(createFileEncryptor({ footerKey: key(16, 1), columnKeys: {} }).columnEncryptor(0, 0, ['x'])).toBeUndefined();
  });
});
