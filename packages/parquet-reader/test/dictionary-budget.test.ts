// Issue 16: the dictionary pages the pruning stage decodes (to test an `=` filter against a chunk's dictionary) are
// charged to the read's budget like every other page — their decompressed size before decompression, their values
// before allocation. The files are written by hand from parquet.thrift (PageHeader, DictionaryPageHeader,
// ColumnMetaData through the compact protocol) and Encodings.md (PLAIN values, RLE_DICTIONARY indices: a bit-width
// byte and one RLE run); the dictionary pages are compressed by node:zlib (GZIP) and, for the hostile claim, a
// BROTLI stream from node:zlib whose declared size no codec bound can refuse.
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CompressionCodec, builtinCodecs } from '@parquetry/parquet-codecs';
import { Encoding, FieldRepetitionType, PageType, Type, encodeThrift, writeFileMetaData, writePageHeader, type PageHeader } from '@parquetry/thrift-compact';
import { brotliDecoder } from '../../codec-brotli/src/index.js';
import { gzipCodec } from '../../codec-gzip/src/index.js';
import { openParquet } from '../src/index.js';
import { cat, rleRun, u32 } from './hostile.js';

const codecs = { ...builtinCodecs(), [CompressionCodec.GZIP]: gzipCodec, [CompressionCodec.BROTLI]: brotliDecoder };
const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

/**
 * A one-row-group file of one REQUIRED INT64 column `x`: a dictionary page (`dictBody` compressed with `codec`, its
 * header claiming `dictValues` values and `dictSize` uncompressed bytes), then one RLE_DICTIONARY data page of
 * `rows` indices 0 (uncompressed bodies are stored as is: the data page's codec is the chunk's, so it is compressed too).
 */
function dictionaryFile(codec: number, dictBody: Uint8Array, dictValues: number, dictSize: number, dataBody: Uint8Array, dataSize: number, rows: number): Uint8Array {
  const dictHeader: PageHeader = {
    type: PageType.DICTIONARY_PAGE,
    uncompressed_page_size: dictSize,
    compressed_page_size: dictBody.length,
    dictionary_page_header: { num_values: dictValues, encoding: Encoding.PLAIN },
  };
  const dataHeader: PageHeader = {
    type: PageType.DATA_PAGE,
    uncompressed_page_size: dataSize,
    compressed_page_size: dataBody.length,
    data_page_header: { num_values: rows, encoding: Encoding.RLE_DICTIONARY, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE },
  };
  const dictPage = cat(encodeThrift(writePageHeader, dictHeader), dictBody);
  const dataPage = cat(encodeThrift(writePageHeader, dataHeader), dataBody);
  const pages = cat(dictPage, dataPage);
  const footer = encodeThrift(writeFileMetaData, {
    version: 1,
    schema: [
      { name: 'schema', num_children: 1 },
      { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: Type.INT64 },
    ],
    num_rows: rows,
    row_groups: [
      {
        columns: [
          {
            file_offset: 4,
            meta_data: {
              type: Type.INT64,
              encodings: [Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY],
              encoding_stats: [
                { page_type: PageType.DICTIONARY_PAGE, encoding: Encoding.PLAIN, count: 1 },
                { page_type: PageType.DATA_PAGE, encoding: Encoding.RLE_DICTIONARY, count: 1 },
              ],
              path_in_schema: ['x'],
              codec: codec as CompressionCodec,
              num_values: rows,
              total_uncompressed_size: pages.length,
              total_compressed_size: pages.length,
              data_page_offset: 4 + dictPage.length,
              dictionary_page_offset: 4,
            },
          },
        ],
        total_byte_size: pages.length,
        num_rows: rows,
      },
    ],
  });
  return cat(MAGIC, pages, footer, u32(footer.length), MAGIC);
}

/** The typed error a read ends in (fails the test for a non-ParquetError or no error). */
async function errorOf(f: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await f();
  } catch (e) {
    const err = e as { name?: string; code?: string; message: string };
    if (err?.name !== 'ParquetError') throw e;
    return { code: err.code!, message: err.message };
  }
  throw new Error('the read succeeded');
}

// RLE_DICTIONARY indices: bit width 1, one RLE run of `rows` zeros
const ROWS = 4;
const indices = cat(new Uint8Array([1]), rleRun(ROWS, 0));

describe('dictionary pruning charges the read budget', () => {
  // an honest dictionary of 2^20 INT64 values 0..2^20-1 (8 MiB), GZIP-compressed
  const N = 1 << 20;
  const plain = new Uint8Array(new BigInt64Array(Array.from({ length: N }, (_, i) => BigInt(i))).buffer);
  const file = dictionaryFile(CompressionCodec.GZIP, new Uint8Array(zlib.gzipSync(plain)), N, plain.length, new Uint8Array(zlib.gzipSync(indices)), indices.length, ROWS);

  test('the file reads: filtered by a value in the dictionary, and pruned by its dictionary when the value is not', async () => {
    const f = await openParquet(file, { codecs });
    expect(await f.readRows({ filter: { column: 'x', op: '=', value: 0n } })).toEqual(Array.from({ length: ROWS }, () => ({ x: 0n })));
    expect(await f.readRows({ filter: { column: 'x', op: '=', value: BigInt(N) } })).toEqual([]);
    expect(await f.readRows({ filter: { column: 'x', op: '=', value: BigInt(N) }, prune: { dictionary: false } })).toEqual([]);
  });

  test('a filtered read whose dictionary page is over maxBytes is LIMIT_EXCEEDED, even when the dictionary prunes every row', async () => {
    const f = await openParquet(file, { codecs });
    for (const value of [0n, BigInt(N), -1n]) {
      const e = await errorOf(() => f.readRows({ filter: { column: 'x', op: '=', value }, limits: { maxBytes: 1 << 20 } }));
      expect(e.code).toBe('LIMIT_EXCEEDED');
      expect(e.message).toMatch(/maxBytes/);
    }
    // below the limit the same reads succeed: the page (8 MiB) and its values (8 MiB) fit in 17 MiB
    expect(await f.readRows({ filter: { column: 'x', op: '=', value: BigInt(N) }, limits: { maxBytes: 17 << 20 } })).toEqual([]);
    // and the dictionary the pruning stage decoded is the one the rows decode with: not decoded (nor charged) twice
    expect(await f.readRows({ filter: { column: 'x', op: '=', value: 0n }, limits: { maxBytes: 17 << 20 } })).toHaveLength(ROWS);
  });

  test('a hostile BROTLI dictionary page (a few hundred bytes claiming 2^26 values, 512 MiB) fails typed under the default limits', async () => {
    // 64 MiB of zeros through node:zlib's brotli (BROTLI has no expansion bound a reader could check the claim against)
    const bomb = new Uint8Array(zlib.brotliCompressSync(new Uint8Array(64 << 20), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } }));
    expect(bomb.length).toBeLessThan(2048);
    const data = new Uint8Array(zlib.brotliCompressSync(indices));
    const hostile = dictionaryFile(CompressionCodec.BROTLI, bomb, 2 ** 26, 2 ** 29, data, indices.length, ROWS);
    expect(hostile.length).toBeLessThan(4096);
    const f = await openParquet(hostile, { codecs });
    for (const value of [0n, 1n]) {
      const e = await errorOf(() => f.readRows({ filter: { column: 'x', op: '=', value } }));
      expect(e.code).toBe('LIMIT_EXCEEDED');
      expect(e.message).toMatch(/maxBytes/);
      expect(e.message).toMatch(/row group 0/);
    }
  });
});
