// Peer check with Arrow C++ (pyarrow): files this package encrypts are read by pyarrow and equal the original
// table; files pyarrow encrypts decrypt here. Keys travel as parquet key-tools material (PKMT1), so this also
// checks key-tools interop. Needs a Python with pyarrow: set PARQUETRY_PYTHON=/path/to/python, else skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isParquetError } from '@parquetry/thrift-compact';
import { uncompressSync } from 'snappy';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AlgorithmName, type KmsClient, createKeyToolsRetriever, generateWrappedDataKey } from '../src/index.js';
import { walkFile } from './corpus-walk.js';
import { reEncrypt } from './re-encrypt.js';

const PYTHON = process.env.PARQUETRY_PYTHON;
if (PYTHON === undefined) console.warn('parquet-crypto: PARQUETRY_PYTHON (a python with pyarrow) is not set, pyarrow peer tests are skipped');
const PEER = fileURLToPath(new URL('./peers/pyarrow_peer.py', import.meta.url));

// The same test KMS as the Python peer: wrapped = base64(master key id | key).
const kms: KmsClient = {
  wrapKey: async (key, id) => Buffer.concat([Buffer.from(`${id}|`), key]).toString('base64'),
  unwrapKey: async (wrapped, id) => {
    const raw = Buffer.from(wrapped, 'base64');
    const bar = raw.indexOf(0x7c);
    if (raw.subarray(0, bar).toString() !== id) throw new Error('wrapped with another master key');
    return new Uint8Array(raw.subarray(bar + 1));
  },
};

describe.skipIf(PYTHON === undefined)('pyarrow peer', () => {
  let dir = '';
  const py = (...args: string[]) => execFileSync(PYTHON!, [PEER, ...args], { encoding: 'utf8', timeout: 120_000 });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet-crypto-pyarrow-'));
    py('write', dir);
  });
  afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test.each(['AES_GCM_V1-ef', 'AES_GCM_V1-pf', 'AES_GCM_CTR_V1-ef'])('arrow-%s.parquet (written by Arrow C++) decrypts here', async (mode) => {
    const file = new Uint8Array(fs.readFileSync(path.join(dir, `arrow-${mode}.parquet`)));
    const w = await walkFile(file, { keyRetriever: createKeyToolsRetriever({ kms }) });
    expect(w.columns.map((c) => [c.path.join('.'), c.encrypted])).toEqual([['a', true], ['s', true], ['d', false]]);
    for (const c of w.columns) for (const p of c.pages) expect(uncompressSync(Buffer.from(p.body)).length).toBe(p.header.uncompressed_page_size);
  });

  test('arrow AES_GCM_CTR_V1 with a plaintext footer: Arrow stores AES_GCM_V1 in the footer, so neither pyarrow nor we decrypt its CTR pages', async () => {
    const f = path.join(dir, 'arrow-AES_GCM_CTR_V1-pf.parquet');
    const err = await walkFile(new Uint8Array(fs.readFileSync(f)), { keyRetriever: createKeyToolsRetriever({ kms }) }).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('DECRYPTION_FAILED');
    expect(JSON.parse(py('read', f)).error).toBeDefined();
  });

  const modes: [AlgorithmName, boolean, boolean][] = [];
  for (const a of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const) for (const pf of [false, true]) for (const uniform of [false, true]) modes.push([a, pf, uniform]);
  test.each(modes)('%s, plaintextFooter=%s, uniform=%s: written here, read by pyarrow, equal to the table', async (algorithm, plaintextFooter, uniform) => {
    const footer = await generateWrappedDataKey(kms, 'kf', true);
    const column = await generateWrappedDataKey(kms, 'kc1', false, 32);
    const file = await reEncrypt(new Uint8Array(fs.readFileSync(path.join(dir, 'plain.parquet'))), {
      footerKey: footer.key,
      footerKeyMetadata: footer.keyMetadata,
      algorithm,
      plaintextFooter,
      ...(uniform ? { aadPrefix: 'stored-prefix' } : { columnKeys: { a: column, s: column } }),
    });
    const out = path.join(dir, `ours-${algorithm}-${plaintextFooter}-${uniform}.parquet`);
    fs.writeFileSync(out, file);
    expect(JSON.parse(py('read', out))).toEqual({ rows: 5000, equal: true });
  });
});
