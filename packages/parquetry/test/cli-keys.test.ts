/**
 * Encrypted files on the command line: keys from `--footer-key` / `--column-key` / `--aad-prefix` and from
 * `--key-file`.
 *
 * - The upstream corpus (keys from parquet-testing's MANIFEST.md): every 128-bit and 256-bit file, each written by
 *   parquet-java / parquet-cpp from the same rows, prints the same rows (the files are one another's twins), whose
 *   double_field and float_field hold the generator's i * 1.1111111 and i * 1.1f.
 * - A pyarrow-written pair: the same table written plain and encrypted (a footer key and two column keys, one on a
 *   struct field; the data keys pyarrow generated are taken from an in-test KMS that wraps nothing) — the encrypted
 *   file read with the keys prints what the plain twin prints, and that equals DuckDB's rows of the twin.
 * - Wrong, missing and malformed keys: one line naming the error code (exit 1) or the bad option (exit 2).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canon, corpus, duckRows, lit, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-keys-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FOOTER_128 = '0123456789012345';
const KEYS_128 = ['--footer-key', FOOTER_128, '--column-key', 'double_field=1234567890123450', '--column-key', 'float_field=1234567890123451'];
// leaf paths (int64_field is a list)
const COLUMNS_256 = ['double_field', 'float_field', 'boolean_field', 'int32_field', 'ba_field', 'flba_field', 'int64_field.list.element', 'int96_field'];
// 32 digits would read as 16 bytes of hex (hex is tried first): these keys are text, so say so
const KEYS_256 = ['--footer-key', 'text:01234567890123456789012345678901', ...COLUMNS_256.flatMap((c, k) => ['--column-key', `${c}=text:123456789012345678901234567890${12 + k}`])];

const FILES_128 = [
  'encrypt_columns_and_footer.parquet.encrypted',
  'encrypt_columns_and_footer_aad.parquet.encrypted',
  'encrypt_columns_and_footer_ctr.parquet.encrypted',
  'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted',
  'encrypt_columns_plaintext_footer.parquet.encrypted',
  'uniform_encryption.parquet.encrypted',
];
const FILES_256 = fs.readdirSync(path.join(corpus, 'aes256')).map((f) => `aes256/${f}`);

/** The AAD prefix a file needs on the command line (it was written without storing it). */
const aad = (f: string): string[] => (f.includes('disable_aad_storage') ? ['--aad-prefix', 'tester'] : []);

async function rows(...argv: string[]): Promise<Record<string, unknown>[]> {
  const r = await run(...argv);
  expect(r.err, argv.join(' ')).toEqual([]);
  expect(r.code).toBe(0);
  return r.out.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the encrypted corpus', () => {
  let twin: Record<string, unknown>[];
  beforeAll(async () => {
    twin = await rows('cat', path.join(corpus, 'uniform_encryption.parquet.encrypted'), '--footer-key', FOOTER_128);
  });

  test('the uniformly encrypted file holds the generator\'s values', () => {
    expect(twin.length).toBe(50);
    twin.forEach((r, i) => {
      expect(r['double_field']).toBe(i * 1.1111111);
      expect(r['float_field']).toBe(Math.fround(i * Math.fround(1.1)));
      expect(r['boolean_field']).toBe(i % 2 === 0);
    });
  });

  for (const f of FILES_128) {
    test(`${f}: --footer-key and --column-key print the twin's rows`, async () => {
      expect(await rows('cat', path.join(corpus, f), ...KEYS_128, ...aad(f))).toEqual(twin);
    });
    test(`${f}: --key-file prints the twin's rows`, async () => {
      const keys = path.join(dir, 'keys128.json');
      fs.writeFileSync(keys, JSON.stringify({ footerKey: `text:${FOOTER_128}`, columnKeys: { double_field: Buffer.from('1234567890123450').toString('hex'), float_field: Buffer.from('1234567890123451').toString('base64') }, ...(aad(f).length ? { aadPrefix: 'tester' } : {}) }));
      expect(await rows('head', path.join(corpus, f), '-n', '100', '--key-file', keys)).toEqual(twin);
    });
  }

  for (const f of FILES_256) {
    test(`${f}: 256-bit keys print the twin's rows`, async () => {
      expect(await rows('cat', path.join(corpus, f), ...KEYS_256, ...aad(f))).toEqual(twin);
      const keys = path.join(dir, 'keys256.json');
      fs.writeFileSync(keys, JSON.stringify({ footer_key: Buffer.from('01234567890123456789012345678901').toString('base64'), column_keys: Object.fromEntries(COLUMNS_256.map((c, k) => [c, `text:123456789012345678901234567890${12 + k}`])) }));
      expect(await rows('tail', path.join(corpus, f), '-n', '50', '--key-file', keys, ...aad(f))).toEqual(twin);
    });
  }

  test('encrypt_columns_and_footer_bloom_filter (other rows): flags and key file read the same rows, and --where probes its encrypted bloom filters', async () => {
    const f = path.join(corpus, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted');
    const all = await rows('cat', f, ...KEYS_128);
    expect(all.length).toBeGreaterThan(50);
    const keys = path.join(dir, 'keys128b.json');
    fs.writeFileSync(keys, JSON.stringify({ footerKey: FOOTER_128, columnKeys: { double_field: '1234567890123450', float_field: '1234567890123451' } }));
    expect(await rows('cat', f, '--key-file', keys)).toEqual(all);
    const v = all[7]!['double_field'] as number;
    expect(await rows('cat', f, ...KEYS_128, '--where', `double_field = ${v}`)).toEqual(all.filter((r) => r['double_field'] === v));
  });

  test('pages and bloom show encrypted page indexes and bloom filters with the keys, and say which key is missing without', async () => {
    const f = path.join(corpus, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted');
    const all = await rows('cat', f, ...KEYS_128);
    const pages = await run('pages', f, 'double_field', ...KEYS_128);
    expect(pages.code).toBe(0);
    // the page lines tile the rows, and each page's bounds hold its rows' values
    const lines = pages.out.filter((l) => l.startsWith('  page '));
    expect(lines.length).toBeGreaterThan(1);
    let next = 0;
    for (const l of lines) {
      const m = /rows (\d+)–(\d+) .* min ([^,]+), max ([^,]+)$/.exec(l)!;
      expect(Number(m[1])).toBe(next);
      next = Number(m[2]) + 1;
      const vals = all.slice(Number(m[1]), next).map((r) => r['double_field'] as number);
      expect(Math.min(...vals)).toBeGreaterThanOrEqual(Number(m[3]));
      expect(Math.max(...vals)).toBeLessThanOrEqual(Number(m[4]));
    }
    expect(next).toBe(all.length);
    const v = all[7]!['double_field'] as number;
    const hit = await run('bloom', f, 'double_field', String(v), ...KEYS_128);
    expect(hit.out).toEqual([expect.stringMatching(/^row group 0: may contain \(\d+-byte filter\)$/)]);
    const miss = await run('bloom', f, 'double_field', '123456.75', ...KEYS_128);
    expect(miss.out).toEqual([expect.stringMatching(/^row group 0: definitely absent/)]);
    // the footer key only: the column's structures are not shown, and the line says why
    const noKey = await run('pages', f, '--footer-key', FOOTER_128);
    expect(noKey.code).toBe(0);
    expect(noKey.out).toContain("row group 0, column 'double_field': encrypted with a key not given (page index not shown; see --column-key)");
    expect(noKey.out.some((l) => l.startsWith("row group 0, column 'name': "))).toBe(true);
    expect((await run('bloom', f, 'float_field', '1.5', '--footer-key', FOOTER_128)).out).toEqual(['row group 0: encrypted with a key not given (bloom filter not read; see --column-key)']);
  });

  test('the command-line options win over the key file', async () => {
    const keys = path.join(dir, 'wrong.json');
    fs.writeFileSync(keys, JSON.stringify({ footerKey: 'ffffffffffffffffffffffffffffffff', columnKeys: { double_field: 'ffffffffffffffffffffffffffffffff' } }));
    const f = path.join(corpus, 'encrypt_columns_and_footer.parquet.encrypted');
    expect(await rows('cat', f, '--key-file', keys, ...KEYS_128)).toEqual(twin);
  });

  test('meta, stats and count read encrypted footers and column metadata with the keys', async () => {
    const f = path.join(corpus, 'encrypt_columns_and_footer.parquet.encrypted');
    expect((await run('count', f, ...KEYS_128)).out).toEqual(['50']);
    expect((await run('count', f, '--exact', ...KEYS_128)).out).toEqual(['50']);
    expect((await run('count', f, '--where', 'double_field > 10', ...KEYS_128)).out).toEqual([String(twin.filter((r) => (r['double_field'] as number) > 10).length)]);
    const meta = await run('meta', f, ...KEYS_128);
    expect(meta.code).toBe(0);
    expect(meta.out).toContain('encryption: encrypted footer (PARE)');
    // columns under the footer key: their metadata is in the decrypted footer
    const uniform = path.join(corpus, 'uniform_encryption.parquet.encrypted');
    const stats = await run('stats', uniform, 'double_field', '--format', 'json', '--footer-key', FOOTER_128);
    const all = (JSON.parse(stats.out.join('\n')) as { min: number; max: number; nulls: number }[]).at(-1)!;
    // a zero min is stored as -0.0 (the rule for float statistics) and printed with its sign
    expect([all.min, all.max, all.nulls]).toEqual([-0, 49 * 1.1111111, 0]);
  });
});

const PYTHON = process.env['PARQUETRY_PYTHON'];
if (PYTHON === undefined) console.warn('parquetry CLI: PARQUETRY_PYTHON (a python with pyarrow) is not set, the pyarrow twin test is skipped');

// pyarrow writes the table plain and encrypted; its KMS "wraps" a data key as the key's base64 and records it
const PY = String.raw`
import base64, datetime, decimal, json, sys
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.parquet.encryption as pe
out = sys.argv[1]
deks = {}
class Kms(pe.KmsClient):
    def __init__(self, config):
        super().__init__()
    def wrap_key(self, key_bytes, master_key_identifier):
        deks.setdefault(master_key_identifier, []).append(key_bytes.hex())
        return base64.b64encode(key_bytes).decode()
    def unwrap_key(self, wrapped_key, master_key_identifier):
        return base64.b64decode(wrapped_key)
n = 1500
t = pa.table({
    'id': pa.array(range(n), pa.int64()),
    'name': pa.array([None if i % 7 == 0 else "it's %d" % i for i in range(n)], pa.string()),
    'ts': pa.array([datetime.datetime(2024, 1, 1) + datetime.timedelta(seconds=i * 3601, microseconds=i) for i in range(n)], pa.timestamp('us', tz='UTC')),
    'price': pa.array([None if i % 5 == 0 else decimal.Decimal(i * 37 - 5000) / 100 for i in range(n)], pa.decimal128(10, 2)),
    'tags': pa.array([['t%d' % j for j in range(i % 3)] for i in range(n)], pa.list_(pa.string())),
    's': pa.array([{'a': i, 'b': None if i % 5 == 0 else i / 4} for i in range(n)], pa.struct([('a', pa.int32()), ('b', pa.float64())])),
})
pq.write_table(t, out + '/plain.parquet', row_group_size=600)
factory = pe.CryptoFactory(lambda config: Kms(config))
config = pe.EncryptionConfiguration(footer_key='kf', column_keys={'kc1': ['price'], 'kc2': ['s.b']}, double_wrapping=False, plaintext_footer=False)
props = factory.file_encryption_properties(pe.KmsConnectionConfig(), config)
pq.write_table(t, out + '/enc.parquet', row_group_size=600, encryption_properties=props)
print(json.dumps(deks))
`;

describe.skipIf(PYTHON === undefined)('a pyarrow-encrypted file and its plain twin', () => {
  let keys: { kf: string[]; kc1: string[]; kc2: string[] };
  const plain = path.join(dir, 'plain.parquet');
  const enc = path.join(dir, 'enc.parquet');
  beforeAll(() => {
    keys = JSON.parse(execFileSync(PYTHON!, ['-c', PY, dir], { encoding: 'utf8' })) as typeof keys;
    // one data key per master key: the footer's, price's and s.b's
    expect([keys.kf.length, keys.kc1.length, keys.kc2.length]).toEqual([1, 1, 1]);
  });

  test('read with the keys, the encrypted file prints the twin\'s rows, which are DuckDB\'s rows of the twin', async () => {
    const flags = ['--footer-key', keys.kf[0]!, '--column-key', `price=${keys.kc1[0]}`, '--column-key', `s.b=hex:${keys.kc2[0]}`];
    const ours = await rows('cat', enc, ...flags);
    expect(ours).toEqual(await rows('cat', plain));
    const d = await duckRows(`SELECT * FROM ${lit(plain)}`);
    expect(ours.length).toBe(1500);
    ours.forEach((row, i) => d.names.forEach((n, k) => expect(canon(row[n], d.types[k]!, 'ours'), `${i} ${n}`).toBe(canon(d.rows[i]![n], d.types[k]!, 'duck'))));
    // the same through a key file, and a filtered read on an encrypted column
    const file = path.join(dir, 'pyarrow-keys.json');
    fs.writeFileSync(file, JSON.stringify({ footerKey: keys.kf[0], columnKeys: { price: keys.kc1[0], 's.b': keys.kc2[0] } }));
    expect(await rows('cat', enc, '--key-file', file)).toEqual(ours);
    expect(await rows('cat', enc, '--key-file', file, '--where', 'price > 10 and s.b < 300', '--columns', 'id')).toEqual(
      ours.filter((r) => r['price'] !== null && Number(r['price']) > 10 && (r['s'] as { b: number | null }).b !== null && (r['s'] as { b: number }).b < 300).map((r) => ({ id: r['id'] })),
    );
  });

  test('columns without their key: the others read; asking for one is KEY_MISSING naming it', async () => {
    const noColumnKeys = ['--footer-key', keys.kf[0]!];
    expect(await rows('cat', enc, ...noColumnKeys, '--columns', 'id,name,ts,tags,s.a')).toEqual(await rows('cat', plain, '--columns', 'id,name,ts,tags,s.a'));
    const r = await run('head', enc, ...noColumnKeys, '--columns', 'price');
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(/^parquetry: KEY_MISSING: .*'price'.*--column-key PATH=KEY/)]);
  });
});

describe('key errors: one line, no stack trace', () => {
  const f = path.join(corpus, 'encrypt_columns_and_footer.parquet.encrypted');
  const cases: [string, string[], number, RegExp][] = [
    ['a wrong footer key', ['head', f, '--footer-key', '0123456789012346'], 1, /^parquetry: DECRYPTION_FAILED: parquet-crypto: footer: AES-GCM authentication failed .*; check the keys \(--footer-key, --column-key, --key-file\) and --aad-prefix$/],
    ['a wrong column key', ['head', f, '--footer-key', FOOTER_128, '--column-key', 'double_field=1234567890123451', '--column-key', 'float_field=1234567890123451'], 1, /^parquetry: DECRYPTION_FAILED: .*double_field.*AES-GCM authentication failed/],
    ['no keys for an encrypted footer', ['head', f], 1, /^parquetry: KEY_MISSING: .*encrypted \("PARE"\); give the keys with --footer-key KEY, --column-key PATH=KEY or --key-file FILE$/],
    ['a missing AAD prefix', ['head', path.join(corpus, 'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted'), ...KEYS_128], 1, /^parquetry: AAD_PREFIX_REQUIRED: .*give it with --aad-prefix$/],
    ['a wrong AAD prefix', ['head', path.join(corpus, 'encrypt_columns_and_footer_aad.parquet.encrypted'), ...KEYS_128, '--aad-prefix', 'other'], 1, /^parquetry: AAD_PREFIX_MISMATCH: /],
    // the corpus's AES-256 keys are 32 characters of text, which read as 16 bytes of hex first
    ['a 32-digit AES-256 key without text:', ['head', path.join(corpus, FILES_256[0]!), '--footer-key', '01234567890123456789012345678901'], 1, /^parquetry: DECRYPTION_FAILED: .*; check the keys .* \(--footer-key's 32 characters were read as hex \(16 bytes\); if the key is that text \(32 bytes\), write text: in front\)$/],
    ['a key of a bad length', ['head', f, '--footer-key', 'abc'], 2, /^parquetry: --footer-key: the value given \(3 characters\) is none of these; a key is 16, 24 or 32 bytes/],
    ['a key that is not the hex it says', ['head', f, '--footer-key', 'hex:xyz'], 2, /^parquetry: --footer-key: the value after hex: is not hex/],
    ['--column-key without =', ['head', f, '--column-key', 'double_field'], 2, /^parquetry: --column-key takes PATH=KEY/],
    ['a column key for no column', ['head', f, '--footer-key', FOOTER_128, '--column-key', 'double_feild=1234567890123450'], 2, /^parquetry: a column key names 'double_feild', which is not a leaf column of the file \(did you mean 'double_field'\?\)$/],
    // pyarrow and parquet-java refuse an unencrypted file read with decryption properties too (QA helper-83 F2)
    ['keys given for an unencrypted file', ['head', path.join(corpus, 'alltypes_plain.parquet'), '--footer-key', FOOTER_128], 1, /^parquetry: PLAINTEXT_FILE: parquet-reader: the file is not encrypted, but keys were given: an unencrypted file is refused, as it is not authenticated; leave out --footer-key, --column-key and --key-file to read an unencrypted file$/],
    ['a key file that does not exist', ['head', f, '--key-file', path.join(dir, 'nope.json')], 1, /^parquetry: cannot open '.*nope\.json': ENOENT/],
  ];
  for (const [what, argv, code, message] of cases) {
    test(what, async () => {
      const r = await run(...argv);
      expect(r.code).toBe(code);
      expect(r.out).toEqual([]);
      expect(r.err.length).toBe(1);
      expect(r.err[0]).toMatch(message);
      expect(r.err[0]).not.toMatch(/\n|\s+at \S+ \(/);
    });
  }

  test('a key file that is not JSON, or has an unknown field', async () => {
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{"footerKey": ');
    expect((await run('head', f, '--key-file', bad)).err).toEqual([expect.stringMatching(/^parquetry: --key-file .*bad\.json: not valid JSON/)]);
    fs.writeFileSync(bad, JSON.stringify({ footerkey: FOOTER_128 }));
    const r = await run('head', f, '--key-file', bad);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([expect.stringMatching(/unknown field 'footerkey' \(did you mean 'footerKey'\?\)/)]);
  });
});
