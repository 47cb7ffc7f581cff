/**
 * `meta` and `stats` on files whose columns have their own keys: with the keys they print the decrypted column
 * metadata (codec, encodings, values, statistics) — equal to what they print for a twin whose metadata is not
 * encrypted; without a column's key they say so for that column and print the rest.
 *
 * - The corpus: encrypt_columns_and_footer / encrypt_columns_plaintext_footer (double_field and float_field under
 *   their own keys) against uniform_encryption (the same rows, every column's metadata inside the footer); the
 *   generator's bounds (i * 1.1111111 for i < 50).
 * - Our writer, both footer modes, column keys on two columns: `stats` equals the unencrypted file's but for sizes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { corpus, run } from './cli-helpers.js';

const FOOTER = ['--footer-key', '0123456789012345'];
const KEYS = [...FOOTER, '--column-key', 'double_field=1234567890123450', '--column-key', 'float_field=1234567890123451'];
const uniform = path.join(corpus, 'uniform_encryption.parquet.encrypted');
const files = ['encrypt_columns_and_footer.parquet.encrypted', 'encrypt_columns_plaintext_footer.parquet.encrypted'];

async function ok(...argv: string[]): Promise<string[]> {
  const r = await run(...argv);
  expect(r.err, argv.join(' ')).toEqual([]);
  expect(r.code).toBe(0);
  return r.out;
}

/** `meta`'s lines for one column chunk (its line and the two below it), sizes left out. */
function chunkLines(out: string[], group: number, column: string): string[] {
  const start = out.findIndex((l) => l.startsWith(`row group ${group}:`));
  const at = out.findIndex((l, k) => k > start && l.startsWith(`  ${column}:`));
  expect(at, `${column} in ${out.join('\n')}`).toBeGreaterThan(start);
  const lines = out.slice(at, at + 3).filter((l) => l.startsWith('    ') || l === out[at]);
  return lines.map((l) => l.replace(/, \d+ \/ \d+ bytes$/, '').replace(/(column|offset) index \d+ bytes/g, '$1 index').replace(/bloom filter \d+ bytes/, 'bloom filter'));
}

/** `stats --format json` rows without the sizes (encryption adds to every module). */
async function stats(...argv: string[]): Promise<Record<string, unknown>[]> {
  const rows = JSON.parse((await ok('stats', ...argv, '--format', 'json')).join('\n')) as Record<string, unknown>[];
  return rows.map(({ compressed: _c, uncompressed: _u, ...rest }) => rest);
}

describe('the corpus', () => {
  test.each(files)('%s: meta with the keys prints the decrypted metadata of the columns with their own keys', async (f) => {
    const out = await ok('meta', path.join(corpus, f), ...KEYS);
    const twin = await ok('meta', uniform, ...FOOTER);
    expect(out.join('\n')).not.toContain('encrypted column metadata');
    for (const column of ['double_field', 'float_field']) expect(chunkLines(out, 0, column), column).toEqual(chunkLines(twin, 0, column));
    // the generator's values, i * 1.1111111 for i < 50; the zero min is stored as -0.0 (parquet.thrift's rule for a
    // float min of zero) and printed with its sign, as DuckDB's parquet_metadata prints '-0.0'
    expect(chunkLines(out, 0, 'double_field')[1]).toBe('    statistics: nulls 0, min -0, max 54.4444439');
  });

  test.each(files)('%s: meta without float_field\'s key says so for that column only', async (f) => {
    const out = await ok('meta', path.join(corpus, f), ...FOOTER, '--column-key', 'double_field=1234567890123450');
    expect(out).toContain('  float_field: encrypted column metadata (column key not given)');
    expect(chunkLines(out, 0, 'double_field')[1]).toBe('    statistics: nulls 0, min -0, max 54.4444439');
  });

  test.each(files)('%s: stats with the keys equals the twin\'s; without the key the chunk is marked encrypted', async (f) => {
    for (const column of ['double_field', 'float_field']) expect(await stats(path.join(corpus, f), column, ...KEYS), column).toEqual(await stats(uniform, column, ...FOOTER));
    const [g0, all] = await stats(path.join(corpus, f), 'double_field', ...KEYS);
    expect(g0).toMatchObject({ values: 50, nulls: 0, min: -0, max: 49 * 1.1111111, exact: true });
    expect(all).toMatchObject({ row_group: 'all', values: 50, nulls: 0, min: -0, max: 49 * 1.1111111 });
    const [k0, kAll] = await stats(path.join(corpus, f), 'float_field', ...FOOTER);
    expect(k0).toMatchObject({ values: null, nulls: null, min: null, max: null, encodings: 'encrypted' });
    expect(kAll).toMatchObject({ values: null, nulls: null, min: null, max: null });
  });
});

describe.each([false, true])('our writer, column keys, plaintextFooter=%s', (plaintextFooter) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-encmeta-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const plainFile = path.join(dir, 'plain.parquet');
  const encFile = path.join(dir, 'enc.parquet');
  const enc = (s: string) => new TextEncoder().encode(s);
  beforeAll(async () => {
    const schema = { id: field.int64({ required: true }), name: field.string(), score: field.double() };
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i * 3 - 100), name: i % 9 === 0 ? null : `n${(i * 7) % 40}`, score: i % 5 === 0 ? null : i / 4 }));
    const options = { schema, rowGroupRows: 1000, pageRows: 200 };
    fs.writeFileSync(plainFile, await writeParquet(rows, options));
    fs.writeFileSync(encFile, await writeParquet(rows, { ...options, encryption: { footerKey: enc('0123456789012345'), plaintextFooter, columnKeys: { id: { key: enc('1234567890123450') }, name: { key: enc('1234567890123451') } } } }));
  });
  const keys = [...FOOTER, '--column-key', 'id=1234567890123450', '--column-key', 'name=1234567890123451'];

  test('stats of every column equals the unencrypted file\'s, but for sizes', async () => {
    for (const column of ['id', 'name', 'score']) {
      const got = await stats(encFile, column, ...keys);
      expect(got, column).toEqual(await stats(plainFile, column));
      expect(got.length).toBe(4);
    }
    expect((await stats(encFile, 'id', ...keys))[3]).toMatchObject({ min: -100, max: 2999 * 3 - 100, nulls: 0, values: 3000 });
  });

  test('meta prints each chunk as the unencrypted file\'s meta does; without the name key, that column is marked', async () => {
    const [a, b] = [await ok('meta', encFile, ...keys), await ok('meta', plainFile)];
    for (let g = 0; g < 3; g++) for (const column of ['id', 'name', 'score']) expect(chunkLines(a, g, column), `${g} ${column}`).toEqual(chunkLines(b, g, column));
    const partial = await ok('meta', encFile, ...FOOTER, '--column-key', 'id=1234567890123450');
    expect(partial.filter((l) => l === '  name: encrypted column metadata (column key not given)').length).toBe(3);
    expect(chunkLines(partial, 1, 'id')).toEqual(chunkLines(b, 1, 'id'));
  });
});
