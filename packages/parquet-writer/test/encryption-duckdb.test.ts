// Modular encryption against DuckDB 1.5 (@duckdb/node-api), both ways.
// - DuckDB reads what the writer encrypts (AES_GCM_V1, encrypted footer, one key for every column, keys of 16, 24 and
//   32 bytes, dictionary and plain pages, several row groups) with the values written.
// - DuckDB's own encrypted files do not follow Encryption.md: the footer and every module are encrypted with no AAD at
//   all (the file stores no aad_file_unique, and the module AAD — module type, row group, column, page ordinals — is
//   left out), and the columns carry no crypto_metadata. Our reader does not guess: opening one with the right key is
//   UNSUPPORTED_ENCRYPTION saying so (before: DECRYPTION_FAILED blaming the key), and a wrong key is still
//   DECRYPTION_FAILED.
// - DuckDB 1.5's reader rejects a chunk of ours with more than one data page ("Computed AES tag differs"), though each
//   page's AAD carries its ordinal as Encryption.md says and pyarrow reads the same layout (encryption.test.ts, 1 KiB
//   pages), and one whose AAD prefix is stored in the file (Encryption.md: aad_prefix ‖ aad_file_unique). Two tests
//   record that peer behaviour, so a DuckDB upgrade that changes it shows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '../src/index.js';

const codecs = builtinCodecs();
const enc = (s: string) => new TextEncoder().encode(s);
const KEYS = { k16: '0123456789112345', k24: '012345678911234567892123', k32: '01234567891123456789212345678931' } as const;
const schema = { id: field.int64({ required: true }), name: field.string(), score: field.double() };
const rows = Array.from({ length: 2000 }, (_, i) => ({ id: BigInt(i), name: i % 7 === 0 ? null : `n${i % 40}`, score: i % 11 === 0 ? null : i / 4 }));

let dir = '';
let db: DuckDBInstance;
let con: DuckDBConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-encryption-duckdb-'));
  db = await DuckDBInstance.create(':memory:');
  con = await db.connect();
  for (const [name, key] of Object.entries(KEYS)) await con.run(`PRAGMA add_parquet_key('${name}', '${key}')`);
});
afterAll(() => {
  con?.closeSync();
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

/** DuckDB's read of an encrypted file, as rows in our value form. */
async function duckdbRead(file: string, keyName: string): Promise<{ id: bigint; name: string | null; score: number | null }[]> {
  const reader = await con.runAndReadAll(`SELECT id, name, score FROM read_parquet('${file}', encryption_config = {footer_key: '${keyName}'}) ORDER BY id`);
  return reader.getRowObjects() as { id: bigint; name: string | null; score: number | null }[];
}

describe('DuckDB reads what the writer encrypts', () => {
  test.each(Object.keys(KEYS) as (keyof typeof KEYS)[])('AES_GCM_V1, encrypted footer, %s for every column, 2 row groups: every value', async (keyName) => {
    const bytes = await writeParquet(rows, { schema, rowGroupRows: 1000, encryption: { footerKey: enc(KEYS[keyName]) } });
    const file = path.join(dir, `ours-${keyName}.parquet`);
    fs.writeFileSync(file, bytes);
    expect(new TextDecoder().decode(bytes.subarray(bytes.length - 4))).toBe('PARE');
    expect(await duckdbRead(file, keyName)).toEqual(rows);
  });

  test('no dictionary (plain pages): every value', async () => {
    const bytes = await writeParquet(rows, { schema, dictionary: false, encryption: { footerKey: enc(KEYS.k16) } });
    const file = path.join(dir, 'ours-plain.parquet');
    fs.writeFileSync(file, bytes);
    expect(await duckdbRead(file, 'k16')).toEqual(rows);
  });

  test('DuckDB 1.5 rejects a file whose AAD prefix is stored in it (a peer defect, recorded; upstream encrypt_columns_and_footer_aad, parquet-java, is read here with its stored prefix)', async () => {
    const bytes = await writeParquet(rows, { schema, encryption: { footerKey: enc(KEYS.k16), aadPrefix: 'tables/t1' } });
    const file = path.join(dir, 'ours-prefix.parquet');
    fs.writeFileSync(file, bytes);
    const back = await openParquet(bytes, { codecs, decryption: { footerKey: enc(KEYS.k16) } });
    expect(await back.readRows()).toEqual(rows);
    await expect(duckdbRead(file, 'k16')).rejects.toThrow(/Computed AES tag differs/);
  });

  test('DuckDB 1.5 rejects a chunk with several data pages, which pyarrow reads (a peer defect, recorded)', async () => {
    const bytes = await writeParquet(rows, { schema, pageSize: 1024, encryption: { footerKey: enc(KEYS.k16) } });
    const file = path.join(dir, 'ours-pages.parquet');
    fs.writeFileSync(file, bytes);
    // our reader reads it, with the page ordinals in the AADs
    const back = await openParquet(bytes, { codecs, decryption: { footerKey: enc(KEYS.k16) } });
    expect((await back.pageIndex(0, 0))?.offsetIndex?.page_locations.length).toBeGreaterThan(1);
    expect(await back.readRows()).toEqual(rows);
    await expect(duckdbRead(file, 'k16')).rejects.toThrow(/Computed AES tag differs/);
  });
});

describe("DuckDB's encrypted files (no AAD, no crypto_metadata)", () => {
  let file = '';
  beforeAll(async () => {
    file = path.join(dir, 'duckdb.parquet');
    // DuckDB writes encrypted files only with its full crypto module (httpfs) or when told its fallback is acceptable
    await con.run(`SET force_mbedtls_unsafe = 'true'`);
    await con.run(`COPY (SELECT range AS id, 'v' || range AS s FROM range(1000)) TO '${file}' (ENCRYPTION_CONFIG {footer_key: 'k16'})`);
    // DuckDB reads its own file back
    const count = await con.runAndReadAll(`SELECT count(*) AS n, sum(id) AS s FROM read_parquet('${file}', encryption_config = {footer_key: 'k16'})`);
    expect(count.getRowObjects()).toEqual([{ n: 1000n, s: 499500n }]);
  });

  test('the right key: UNSUPPORTED_ENCRYPTION saying the footer has no AAD, not a wrong-key error', async () => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const err = await openParquet(bytes, { decryption: { footerKey: enc(KEYS.k16) } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'ParquetError', code: 'UNSUPPORTED_ENCRYPTION' });
    expect((err as Error).message).toMatch(/^parquet-crypto: footer: the key is right but the footer was encrypted without the AAD Encryption\.md requires .*DuckDB/);
  });

  test('a wrong key: DECRYPTION_FAILED', async () => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    await expect(openParquet(bytes, { decryption: { footerKey: enc(KEYS.k32.slice(0, 16).split('').reverse().join('')) } })).rejects.toMatchObject({
      code: 'DECRYPTION_FAILED',
    });
  });
});
