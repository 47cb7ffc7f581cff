// Encrypted pages keep their CRC, computed over the stored (encrypted) body and kept inside the encrypted page
// header, as parquet-java and Arrow C++ write it. Under AES_GCM_CTR_V1 a page body has no GCM tag: before this the
// writer dropped the CRC of every encrypted page, and a flipped bit, two swapped bodies or a body copied from another
// file under the same key read back as wrong values without an error (QA helper-83, F1). Now each is
// CHECKSUM_MISMATCH, and pyarrow (page_checksum_verification) accepts the CRCs we store and refuses the same damage.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import type { AlgorithmName } from '@parquetry/parquet-crypto';
import { field, writeParquet } from '../src/index.js';

const footerKey = new Uint8Array(16).fill(1);
const columnKey = new Uint8Array(16).fill(2);
const schema = { a: field.int64({ required: true }), s: field.string({ required: true }) };
const rows = Array.from({ length: 1000 }, (_, i) => ({ a: BigInt(i), s: `s${String(i).padStart(4, '0')}` }));

/** The [start, end) of each module (4-byte length prefix + ciphertext) of an encrypted column chunk. */
function modules(bytes: Uint8Array, file: ParquetFile, g: number, col: number): [number, number][] {
  const md = file.columnMetaData(g, col);
  const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
  const end = start + Number(md.total_compressed_size);
  const out: [number, number][] = [];
  for (let p = start; p < end; ) {
    const len = new DataView(bytes.buffer, bytes.byteOffset + p, 4).getUint32(0, true);
    out.push([p, p + 4 + len]);
    p += 4 + len;
  }
  return out;
}

async function write(algorithm: AlgorithmName, plaintextFooter: boolean, columnKeys: boolean, checksum = true): Promise<Uint8Array> {
  return writeParquet(rows, {
    schema,
    compression: 'UNCOMPRESSED',
    dictionary: false,
    pageRows: 100,
    checksum,
    encryption: { footerKey, algorithm, plaintextFooter, ...(columnKeys ? { columnKeys: { a: { key: columnKey } } } : {}) },
  });
}

const decryption = { footerKey, columnKeys: { a: columnKey } };

async function readError(bytes: Uint8Array): Promise<{ code?: string; message: string } | 'read'> {
  try {
    await (await openParquet(bytes, { decryption })).readRows();
    return 'read';
  } catch (e) {
    return e as { code?: string; message: string };
  }
}

describe('encrypted pages keep a CRC of their stored body', () => {
  const modes: [AlgorithmName, boolean][] = [['AES_GCM_CTR_V1', false], ['AES_GCM_CTR_V1', true], ['AES_GCM_V1', false]];
  test.each(modes)('%s, plaintextFooter=%s: a flipped, swapped or foreign page body is CHECKSUM_MISMATCH', async (algorithm, plaintextFooter) => {
    const bytes = await write(algorithm, plaintextFooter, true);
    const file = await openParquet(bytes, { decryption });
    expect(await file.readRows()).toEqual(rows);
    const mods = modules(bytes, file, 0, 0);
    // header, body, header, body, … (10 data pages of 100 rows)
    expect(mods.length).toBe(20);
    const body = (k: number) => mods[2 * k + 1]!;

    // one bit of page 3's ciphertext, and of its nonce
    for (const at of [body(3)[0] + 40, body(3)[0] + 6]) {
      const bad = bytes.slice();
      bad[at]! ^= 1;
      const e = await readError(bad);
      expect(e === 'read' ? e : e.code).toBe('CHECKSUM_MISMATCH');
      expect(e === 'read' ? e : e.message).toMatch(/column 'a', page 3 at byte \d+: page CRC32/);
    }
    // two bodies of one size swapped
    const [b1, b2] = [body(1), body(2)];
    expect(b1[1] - b1[0]).toBe(b2[1] - b2[0]);
    const swapped = bytes.slice();
    swapped.set(bytes.subarray(b2[0], b2[1]), b1[0]);
    swapped.set(bytes.subarray(b1[0], b1[1]), b2[0]);
    const e = await readError(swapped);
    expect(e === 'read' ? e : e.code).toBe('CHECKSUM_MISMATCH');

    // the same page body from another file under the same key (other values)
    const other = await writeParquet(rows.map((r) => ({ ...r, a: r.a + 5000n })), {
      schema, compression: 'UNCOMPRESSED', dictionary: false, pageRows: 100,
      encryption: { footerKey, algorithm, plaintextFooter, columnKeys: { a: { key: columnKey } } },
    });
    const otherFile = await openParquet(other, { decryption });
    expect((await otherFile.readRows())[0]).toEqual({ a: 5000n, s: 's0000' });
    const ob = modules(other, otherFile, 0, 0)[1]!;
    expect(ob[1] - ob[0]).toBe(body(0)[1] - body(0)[0]);
    const foreign = bytes.slice();
    foreign.set(other.subarray(ob[0], ob[1]), body(0)[0]);
    const f = await readError(foreign);
    expect(f === 'read' ? f : f.code).toBe('CHECKSUM_MISMATCH');
  });

  test('checksum: false stores no CRC (the option is honoured for encrypted pages too)', async () => {
    const withCrc = await write('AES_GCM_CTR_V1', true, false);
    const without = await write('AES_GCM_CTR_V1', true, false, false);
    // the encrypted header holds the CRC field: 5 bytes or more per page header (field header + zigzag varint)
    expect(withCrc.length - without.length).toBeGreaterThanOrEqual(5 * 20);
    expect(await (await openParquet(without, { decryption: { footerKey } })).readRows()).toEqual(rows);
  });
});

const PYTHON = process.env.PARQUETRY_PYTHON;
if (PYTHON === undefined) console.warn('parquet-writer: PARQUETRY_PYTHON (a python with pyarrow) is not set, the pyarrow page-CRC check of encrypted pages is skipped');

describe.skipIf(PYTHON === undefined)('pyarrow verifies the CRCs of our encrypted pages', () => {
  test('AES_GCM_CTR_V1 and AES_GCM_V1, one key: pyarrow reads with page_checksum_verification, and refuses a flipped body', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-enc-crc-'));
    try {
      const script = [
        'import sys, json, pyarrow.parquet as pq, pyarrow.parquet.encryption as pe',
        'dp = pe.create_decryption_properties(bytes([1] * 16))',
        'out = {}',
        'for p in sys.argv[1:]:',
        '    try:',
        '        t = pq.read_table(p, decryption_properties=dp, page_checksum_verification=True)',
        "        out[p] = {'rows': t.num_rows, 'last': t.column('a')[-1].as_py()}",
        '    except Exception as e:',
        "        out[p] = {'error': str(e)[:300]}",
        'print(json.dumps(out))',
      ].join('\n');
      const files: string[] = [];
      for (const algorithm of ['AES_GCM_CTR_V1', 'AES_GCM_V1'] as const) {
        const bytes = await write(algorithm, false, false);
        const file = await openParquet(bytes, { decryption: { footerKey } });
        const body = modules(bytes, file, 0, 0)[5]!;
        const bad = bytes.slice();
        bad[body[0] + 40]! ^= 1;
        for (const [name, b] of [[`${algorithm}.parquet`, bytes], [`${algorithm}-flipped.parquet`, bad]] as const) {
          fs.writeFileSync(path.join(dir, name), b);
          files.push(path.join(dir, name));
        }
      }
      const out = JSON.parse(execFileSync(PYTHON!, ['-c', script, ...files], { encoding: 'utf8', timeout: 120_000 })) as Record<string, { rows?: number; last?: number; error?: string }>;
      for (const algorithm of ['AES_GCM_CTR_V1', 'AES_GCM_V1']) {
        expect(out[path.join(dir, `${algorithm}.parquet`)]).toEqual({ rows: 1000, last: 999 });
        expect(out[path.join(dir, `${algorithm}-flipped.parquet`)]!.error).toMatch(/CRC|checksum/i);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
