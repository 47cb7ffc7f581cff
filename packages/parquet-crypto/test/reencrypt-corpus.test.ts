// Real pages through the writer-side API: plaintext corpus files re-encrypted module by module, then
// decrypted page by page to the original bytes; and the spec's page-ordinal limit on a real chunk.
import fs from 'node:fs';
import { decodeThrift, isParquetError, readFileMetaData, readPageHeader } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { MAX_ORDINAL, ModuleType, createFileEncryptor } from '../src/index.js';
import { walkFile } from './corpus-walk.js';
import { reEncrypt } from './re-encrypt.js';

const DIR = new URL('../../../../shared/parquet-testing/data/', import.meta.url);
const HAVE = fs.existsSync(DIR);
const read = (f: string) => new Uint8Array(fs.readFileSync(new URL(f, DIR)));

/** Page bodies of a plaintext file, per column chunk, in file order. */
function plainPages(file: Uint8Array): Uint8Array[][] {
  const len = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  const fmd = decodeThrift(readFileMetaData, file, file.length - 8 - len, file.length - 8).value;
  const out: Uint8Array[][] = [];
  for (const rg of fmd.row_groups) {
    for (const chunk of rg.columns) {
      const m = chunk.meta_data!;
      let p = m.dictionary_page_offset ?? m.data_page_offset;
      const end = p + m.total_compressed_size;
      const pages: Uint8Array[] = [];
      while (p < end) {
        const { value, end: body } = decodeThrift(readPageHeader, file, p);
        pages.push(file.subarray(body, body + value.compressed_page_size));
        p = body + value.compressed_page_size;
      }
      out.push(pages);
    }
  }
  return out;
}

describe.skipIf(!HAVE)('re-encrypted corpus files', () => {
  // Two of its columns are encrypted (325 + 82 pages), the rest stay plaintext: WebCrypto costs a fixed
  // latency per call, and all 13 columns (~6,000 pages) would take too long for the suite.
  test.each(['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const)('alltypes_tiny_pages_plain (%s): every page decrypts to the original bytes', async (algorithm) => {
    const plain = read('alltypes_tiny_pages_plain.parquet');
    const footerKey = crypto.getRandomValues(new Uint8Array(16));
    const colKey = { key: crypto.getRandomValues(new Uint8Array(24)) };
    const file = await reEncrypt(plain, { footerKey, algorithm, aadPrefix: 'tiny', columnKeys: { id: colKey, bool_col: colKey } });
    const w = await walkFile(file, { footerKey, columnKeys: { id: colKey.key, bool_col: colKey.key } });
    const expected = plainPages(plain);
    expect(w.columns.length).toBe(expected.length);
    let pages = 0;
    for (const [i, col] of w.columns.entries()) {
      expect(col.encrypted).toBe(i < 2);
      expect(col.pages.length).toBe(expected[i]!.length);
      // Buffer.equals: vitest's deep equality is far slower over ~6,000 arrays
      const differing = col.pages.filter((p, j) => !Buffer.from(p.body.buffer, p.body.byteOffset, p.body.length).equals(expected[i]![j]!)).length;
      expect(differing, col.path.join('.')).toBe(0);
      pages += col.pages.length;
    }
    expect(pages).toBeGreaterThan(100);
  });

  test('overflow_i16_page_cnt: a chunk with more pages than an AAD page ordinal can hold cannot be encrypted', async () => {
    const pages = plainPages(read('overflow_i16_page_cnt.parquet'));
    const most = Math.max(...pages.map((p) => p.length));
    expect(most).toBeGreaterThan(MAX_ORDINAL + 1);
    const ce = createFileEncryptor({ footerKey: new Uint8Array(16) }).columnEncryptor(0, 0, ['x'])!;
    // data page `most - 1` of the chunk: beyond 32767 when the chunk has more than 32768 data pages
    const err = await ce.encrypt(ModuleType.DATA_PAGE_HEADER, most - 1, new Uint8Array(1)).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('ORDINAL_OUT_OF_RANGE');
  });
});
