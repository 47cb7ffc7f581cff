/**
 * Every footer of the upstream corpus decodes (or fails with a typed error), and
 * decode -> encode -> decode is the identity.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  decodeThrift,
  encodeThrift,
  isParquetError,
  readFileCryptoMetaData,
  readFileMetaData,
  writeFileCryptoMetaData,
  writeFileMetaData,
} from '@parquetry/thrift-compact';

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing');
const HAVE = fs.existsSync(corpus);
if (!HAVE) console.warn(`skipping corpus footer tests: ${corpus} not found`);

function parquetFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...parquetFiles(p));
    else if (/\.parquet(\.encrypted)?$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

const ascii = (b: Uint8Array) => String.fromCharCode(...b);

/** Splits a file into its footer parts; throws a plain Error when the trailer itself is unusable. */
function footerOf(bytes: Uint8Array): { magic: string; start: number; end: number } {
  if (bytes.length < 12) throw new Error('shorter than 12 bytes');
  const magic = ascii(bytes.subarray(bytes.length - 4));
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const end = bytes.length - 8;
  if (len > end - 4) throw new Error(`footer length ${len} exceeds file`);
  return { magic, start: end - len, end };
}

const valid = HAVE ? parquetFiles(path.join(corpus, 'data')).concat(parquetFiles(path.join(corpus, 'shredded_variant'))) : [];
const bad = HAVE ? parquetFiles(path.join(corpus, 'bad_data')) : [];

describe.skipIf(!HAVE)('corpus footers', () => {
  test('the corpus is where we expect it', () => {
    expect(valid.length).toBeGreaterThan(100);
    expect(bad.length).toBeGreaterThan(5);
  });

  test.each(valid.map((f) => [path.relative(corpus, f), f]))('%s: footer decodes and round-trips', (_name, file) => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const { magic, start, end } = footerOf(bytes);
    if (magic === 'PARE') {
      // encrypted footer: only the FileCryptoMetaData before the ciphertext is plaintext
      const { value } = decodeThrift(readFileCryptoMetaData, bytes, start, end, 0);
      expect(value.encryption_algorithm.AES_GCM_V1 ?? value.encryption_algorithm.AES_GCM_CTR_V1).toBeDefined();
      const again = decodeThrift(readFileCryptoMetaData, encodeThrift(writeFileCryptoMetaData, value)).value;
      expect(again).toEqual(value);
      return;
    }
    expect(magic).toBe('PAR1');
    const { value, end: after } = decodeThrift(readFileMetaData, bytes, start, end, 0);
    // a plaintext-footer encrypted file appends a 28-byte signature (nonce + tag)
    expect(after).toBe(value.encryption_algorithm ? end - 28 : end);
    expect(value.schema.length).toBeGreaterThan(0);
    const encoded = encodeThrift(writeFileMetaData, value);
    const again = decodeThrift(readFileMetaData, encoded);
    expect(again.end).toBe(encoded.length);
    expect(again.value).toEqual(value);
    // a second encoding is byte-identical (the writer is deterministic)
    expect(encodeThrift(writeFileMetaData, again.value)).toEqual(encoded);
  });

  test.each(bad.map((f) => [path.relative(corpus, f), f]))('%s: footer decodes or fails with a typed error', (_name, file) => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    let footer: { start: number; end: number };
    try {
      footer = footerOf(bytes);
    } catch {
      return; // the trailer itself is unusable; the reader reports that (reader issue)
    }
    try {
      const { value } = decodeThrift(readFileMetaData, bytes, footer.start, footer.end, 0);
      const again = decodeThrift(readFileMetaData, encodeThrift(writeFileMetaData, value)).value;
      expect(again).toEqual(value);
    } catch (e) {
      expect(isParquetError(e), String(e)).toBe(true);
    }
  });
});
