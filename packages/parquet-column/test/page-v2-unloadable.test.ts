/**
 * Data page V2 levels and values are read by a module of their own (src/page-v2.ts), loaded with `import()` on the
 * first V2 page. Here that module cannot be loaded (its import rejects, as a browser's would for a chunk it cannot
 * fetch): chunks of V1 pages read as usual, which shows that they never load it, and a V2 page is a located
 * `ENCODING_UNAVAILABLE` ParquetError, through the chunk decoder and the page reader alike.
 */
import { CompressionCodec, builtinCodecs } from '@parquetry/parquet-codecs';
import { buildSchemaTree } from '@parquetry/parquet-levels/read';
import { Encoding, FieldRepetitionType, Type, type ColumnMetaData } from '@parquetry/thrift-compact';
import { expect, test, vi } from 'vitest';
import { ChunkDecoder, PageReader, convertChunk, dataPageV2, decodeColumnChunk, pageHeaderBytes } from '../src/index.js';
import { wideDictionaryChunk } from './wide-dictionary.js';

vi.mock('../src/page-v2.js', () => {
  throw new Error('failed to fetch the page-v2 chunk');
});

const where = { rowGroup: 2, path: 'x', offset: 100 };

/** A required INT32 column's chunk of one V2 page holding 0..9, PLAIN, SNAPPY. */
function v2Chunk() {
  const column = buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: Type.INT32 },
  ]).columns[0]!;
  const values = new Uint8Array(Int32Array.from({ length: 10 }, (_, i) => i).buffer);
  const page = dataPageV2({ numValues: 10, numNulls: 0, numRows: 10, encoding: Encoding.PLAIN, levels: new Uint8Array(0), repetitionLength: 0, values }, { codec: CompressionCodec.SNAPPY, codecs: builtinCodecs() });
  const h = pageHeaderBytes(page.header);
  const bytes = new Uint8Array(h.length + page.body.length);
  bytes.set(h);
  bytes.set(page.body, h.length);
  const meta: ColumnMetaData = {
    type: Type.INT32, encodings: [Encoding.PLAIN], path_in_schema: ['x'], codec: CompressionCodec.SNAPPY, num_values: 10,
    total_uncompressed_size: bytes.length, total_compressed_size: bytes.length, data_page_offset: 100,
  };
  return { column, bytes, meta };
}

test('V1 pages read without the V2 module', async () => {
  const c = wideDictionaryChunk(Type.INT32, 200, 3000, 1000);
  const chunk = await decodeColumnChunk(c.bytes, c.column, c.meta, where, { codecs: builtinCodecs(), numRows: 3000 });
  expect(Array.from(convertChunk(chunk, c.column))).toEqual(c.expected);
});

test('a V2 page is a located ENCODING_UNAVAILABLE ParquetError, each time it is read', async () => {
  const { column, bytes, meta } = v2Chunk();
  for (let attempt = 0; attempt < 2; attempt++) {
    const err = await new ChunkDecoder(bytes, column, meta, where, { codecs: builtinCodecs() }).take(Infinity).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'ParquetError', code: 'ENCODING_UNAVAILABLE' });
    expect((err as Error).message).toMatch(/^parquet-column: row group 2, column 'x', page 0 at byte 100: parquet-column: cannot load the data page V2 decoder: /);
  }
  const pages = new PageReader(bytes, where, { codec: CompressionCodec.SNAPPY, codecs: builtinCodecs() });
  await expect(pages.next()).rejects.toMatchObject({ name: 'ParquetError', code: 'ENCODING_UNAVAILABLE' });
});
