/**
 * `rewrite` and `convert` of an encrypted Parquet file take its keys (`--footer-key`, `--column-key`, `--key-file`,
 * `--aad-prefix`, as the reading commands do) and write the output unencrypted. Before, both rejected the key
 * options ("unknown option") while the KEY_MISSING message of the same commands said to give them. The corpus file
 * encrypt_columns_and_footer (footer key 0123456789012345; double_field and float_field under their own keys): the
 * rewritten file's rows are `cat`'s rows of the encrypted file, read with no key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { corpus, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-write-keys-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const enc = path.join(corpus, 'encrypt_columns_and_footer.parquet.encrypted');
const KEYS = ['--footer-key', '0123456789012345', '--column-key', 'double_field=1234567890123450', '--column-key', 'float_field=1234567890123451'];

describe('rewrite and convert of an encrypted file', () => {
  test('with the keys: the output is unencrypted and holds cat\'s rows of the input', async () => {
    const expected = await run('cat', enc, '-f', 'ndjson', ...KEYS);
    expect(expected.code).toBe(0);
    expect(expected.out.length).toBeGreaterThan(0);
    for (const [cmd, extra] of [
      ['rewrite', []],
      ['convert', ['--from', 'parquet']],
    ] as const) {
      const out = path.join(dir, `${cmd}.parquet`);
      const r = await run(cmd, enc, out, ...extra, ...KEYS);
      expect({ cmd, code: r.code, err: r.err }).toEqual({ cmd, code: 0, err: [] });
      expect((await run('cat', out, '-f', 'ndjson')).out).toEqual(expected.out);
      const meta = JSON.parse((await run('meta', out, '--json')).out.join('\n')) as { encryption: unknown };
      expect(meta.encryption).toBeNull();
    }
  });

  test('a key file works too; without the column keys the read fails KEY_MISSING with a hint the command takes', async () => {
    const keyFile = path.join(dir, 'keys.json');
    fs.writeFileSync(keyFile, JSON.stringify({ footerKey: '0123456789012345', columnKeys: { double_field: '1234567890123450', float_field: '1234567890123451' } }));
    const out = path.join(dir, 'keyfile.parquet');
    expect((await run('rewrite', enc, out, '--key-file', keyFile)).code).toBe(0);
    expect((await run('cat', out, '-f', 'ndjson')).out).toEqual((await run('cat', enc, '-f', 'ndjson', ...KEYS)).out);

    const partial = await run('rewrite', enc, path.join(dir, 'partial.parquet'), '--footer-key', '0123456789012345');
    expect(partial.code).toBe(1);
    expect(partial.err.join('\n')).toMatch(/KEY_MISSING: .*give the keys with --footer-key KEY, --column-key PATH=KEY or --key-file FILE/);
    expect(fs.existsSync(path.join(dir, 'partial.parquet'))).toBe(false);
  });

  test('a column key naming no column, and keys for a text input, are usage errors', async () => {
    const bad = await run('rewrite', enc, path.join(dir, 'bad.parquet'), ...KEYS, '--column-key', 'doubel_field=1234567890123450');
    expect(bad.code).toBe(2);
    expect(bad.err.join('\n')).toMatch(/'doubel_field', which is not a leaf column of the file \(did you mean 'double_field'\?\)/);
    const csv = path.join(dir, 'in.csv');
    fs.writeFileSync(csv, 'a\n1\n');
    const r = await run('convert', csv, path.join(dir, 'csv.parquet'), '--footer-key', '0123456789012345');
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--footer-key: keys of an encrypted Parquet input, but the input is csv/);
  });

  test('help rewrite and help convert say the output is not encrypted', async () => {
    expect((await run('help', 'rewrite')).out.join('\n')).toMatch(/--footer-key KEY[\s\S]*<out> is not encrypted/);
    expect((await run('help', 'convert')).out.join('\n')).toMatch(/--footer-key KEY[\s\S]*<out> is not encrypted/);
  });
});
