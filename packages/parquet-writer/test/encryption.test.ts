// Modular encryption in the writer: files written with both algorithms, both footer modes, uniform or per-column
// keys (one column left plaintext), AAD prefix stored or supplied, read back by our reader with the same values;
// every module (footer, column metadata, page headers, pages, dictionary pages, column and offset indexes, bloom
// header and bitset) is found, decrypted and parsed by the crypto package's independent walker, and tampering with any
// of them is detected; pyarrow (Arrow C++, key-tools in-memory KMS) reads what we encrypt.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { createKeyToolsRetriever, generateWrappedDataKey, ModuleType, type AlgorithmName, type FileDecryptionProperties, type KmsClient } from '@parquetry/parquet-crypto';
import { openParquet } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { walkFile } from '../../parquet-crypto/test/corpus-walk.js';
import { field, writeParquet, type WriterOptions } from '../src/index.js';

const codecs = builtinCodecs();
const enc = (s: string) => new TextEncoder().encode(s);
const footerKey = enc('0123456789012345');
const keyA = enc('1234567890123450');
const keyB = enc('12345678901234567890123456789012');
const schema = { id: field.int64({ required: true }), name: field.string(), score: field.double(), tags: field.list(field.string()) };
const rows = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i), name: i % 7 === 0 ? null : `n${i % 50}`, score: i / 8, tags: Array.from({ length: i % 3 }, (_, j) => `t${j}`) }));

type Mode = [AlgorithmName, boolean, 'uniform' | 'columns', 'none' | 'stored' | 'supplied'];
const modes: Mode[] = [];
for (const a of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const) for (const pf of [false, true]) for (const k of ['uniform', 'columns'] as const) modes.push([a, pf, k, k === 'uniform' ? 'stored' : pf ? 'supplied' : 'none']);

function optionsFor([algorithm, plaintextFooter, keys, aad]: Mode): { write: WriterOptions; read: FileDecryptionProperties } {
  const columnKeys = keys === 'columns' ? { id: { key: keyA, keyMetadata: enc('kA') }, 'tags.list.element': { key: keyB, keyMetadata: enc('kB') } } : undefined;
  return {
    write: {
      schema,
      pageRows: 500,
      rowGroupRows: 1500,
      bloomFilter: true,
      encryption: {
        footerKey,
        algorithm,
        plaintextFooter,
        ...(columnKeys ? { columnKeys } : {}),
        ...(aad !== 'none' ? { aadPrefix: 'parquetry-test', storeAadPrefix: aad === 'stored' } : {}),
      },
    },
    read: {
      footerKey,
      ...(columnKeys ? { columnKeys: { id: keyA, 'tags.list.element': keyB } } : {}),
      ...(aad === 'supplied' ? { aadPrefix: 'parquetry-test' } : {}),
    },
  };
}

describe('encrypted files', () => {
  test.each(modes)('%s, plaintextFooter=%s, %s keys, AAD prefix %s: read back equal; every module decrypts; tampering is detected', async (...mode) => {
    const { write, read } = optionsFor(mode);
    const bytes = await writeParquet(rows, write);
    const f = await openParquet(bytes, { codecs, decryption: read });
    expect(await f.readRows()).toEqual(rows);
    // without the keys: no plaintext leaks through a successful read
    if (!mode[1]) expect(await openParquet(bytes, { codecs }).then(() => 'opened', (e: unknown) => (isParquetError(e) ? e.code : String(e)))).not.toBe('opened');
    const walked = await walkFile(bytes, read);
    const types = new Set(walked.spans.map((s) => s.type));
    for (const t of [ModuleType.DATA_PAGE, ModuleType.DATA_PAGE_HEADER, ModuleType.DICTIONARY_PAGE, ModuleType.DICTIONARY_PAGE_HEADER, ModuleType.COLUMN_INDEX, ModuleType.OFFSET_INDEX, ModuleType.BLOOM_FILTER_HEADER, ModuleType.BLOOM_FILTER_BITSET]) {
      expect(types.has(t), `module type ${t}`).toBe(true);
    }
    // per-column keys: 'name' and 'score' stay plaintext; with a column key the metadata is a module of its own
    const byPath = new Map(walked.columns.filter((c) => c.rowGroup === 0).map((c) => [c.path.join('.'), c]));
    if (mode[2] === 'columns') {
      expect(byPath.get('name')!.encrypted).toBe(false);
      expect(byPath.get('id')!.encrypted).toBe(true);
      expect(byPath.get('id')!.separateMeta).toBe(true);
    } else {
      expect([...byPath.values()].every((c) => c.encrypted)).toBe(true);
    }
    // flip one byte in the middle of one module of each kind: the walker must refuse the file
    const ctr = mode[0] === 'AES_GCM_CTR_V1';
    const seen = new Set<number>();
    for (const s of walked.spans) {
      if (seen.has(s.type)) continue;
      // AES_GCM_CTR_V1 page bodies are not authenticated (Encryption.md): a flipped body byte goes unnoticed there
      if (ctr && (s.type === ModuleType.DATA_PAGE || s.type === ModuleType.DICTIONARY_PAGE)) continue;
      seen.add(s.type);
      const bad = bytes.slice();
      bad[s.offset + Math.floor(s.size / 2)]! ^= 0x01;
      const err = await walkFile(bad, read).then(() => undefined, (e: unknown) => e);
      expect(isParquetError(err) ? err.code : String(err), `tampered module type ${s.type}`).toBe('DECRYPTION_FAILED');
    }
  });

  test('appending to a file cannot encrypt it', async () => {
    const err = await writeParquet([{ a: 1 }], { schema: { a: field.int32() }, encryption: { footerKey }, append: { metadata: { version: 1, schema: [], num_rows: 0, row_groups: [] }, dataEnd: 4 } }).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('INVALID_OPTION');
  });
});

const PYTHON = process.env.PARQUETRY_PYTHON;
if (PYTHON === undefined) console.warn('parquet-writer: PARQUETRY_PYTHON (a python with pyarrow) is not set, pyarrow encryption interop is skipped');
const PEER = fileURLToPath(new URL('../../parquet-crypto/test/peers/pyarrow_peer.py', import.meta.url));
// the peer's test KMS: wrapped = base64(master key id | key)
const kms: KmsClient = {
  wrapKey: async (key, id) => Buffer.concat([Buffer.from(`${id}|`), key]).toString('base64'),
  unwrapKey: async (wrapped, id) => {
    const raw = Buffer.from(wrapped, 'base64');
    const bar = raw.indexOf(0x7c);
    if (raw.subarray(0, bar).toString() !== id) throw new Error('wrapped with another master key');
    return new Uint8Array(raw.subarray(bar + 1));
  },
};

describe.skipIf(PYTHON === undefined)('pyarrow reads what the writer encrypts', () => {
  let dir = '';
  const py = (...args: string[]) => execFileSync(PYTHON!, [PEER, ...args], { encoding: 'utf8', timeout: 120_000 });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-writer-pyarrow-'));
    py('write', dir);
  });
  afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  const pmodes: [AlgorithmName, boolean][] = [['AES_GCM_V1', false], ['AES_GCM_V1', true], ['AES_GCM_CTR_V1', false]];
  test.each(pmodes)('%s, plaintextFooter=%s: the peer table written by our writer, encrypted with key-tools keys, reads equal in pyarrow', async (algorithm, plaintextFooter) => {
    // the peer's own table (plain.parquet), read here and written again by our writer with encryption
    const plain = await openParquet(new Uint8Array(fs.readFileSync(path.join(dir, 'plain.parquet'))), { codecs });
    const footer = await generateWrappedDataKey(kms, 'kf', true);
    const column = await generateWrappedDataKey(kms, 'kc1', false, 32);
    const bytes = await writeParquet(await plain.readRows(), {
      schema: plain.metadata.schema,
      encryption: { footerKey: footer.key, footerKeyMetadata: footer.keyMetadata, algorithm, plaintextFooter, columnKeys: { a: column, s: column } },
      // many data pages per chunk (and a dictionary page before them): each page's AAD carries its ordinal
      pageSize: 1024,
    });
    const out = path.join(dir, `writer-${algorithm}-${plaintextFooter}.parquet`);
    fs.writeFileSync(out, bytes);
    expect(JSON.parse(py('read', out))).toEqual({ rows: 5000, equal: true });
    // and our reader reads it through the same key material
    const back = await openParquet(bytes, { codecs, decryption: { keyRetriever: createKeyToolsRetriever({ kms }) } });
    expect(await back.readRows()).toEqual(await plain.readRows());
  });
});
