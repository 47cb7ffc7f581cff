/**
 * Column chunks whose dictionary indices are bit-packed at 9 and 10 bits (dictionaries of 300 strings and of 1000
 * INT32 values): the widths whose unrolled unpack kernels a reader loads on first use (parquet-encodings
 * bit-pack-mid-kernels.ts, through prepareUnpack). Shared by the tests with and without that module.
 */
import { CompressionCodec, builtinCodecs } from '@parquetry/parquet-codecs';
// (the encoder from its module: the package's main entry reaches the kernels' module, which a test mocks)
import { encodeRleHybrid } from '../../parquet-encodings/src/rle-hybrid.js';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels/read';
import { ByteWriter, Encoding, FieldRepetitionType, Type, type ColumnMetaData } from '@parquetry/thrift-compact';
import { dataPageV1, dictionaryPage, pageHeaderBytes } from '../src/index.js';

export interface WideDictionaryChunk {
  column: ColumnDescriptor;
  bytes: Uint8Array;
  meta: ColumnMetaData;
  /** The values the chunk holds, in order. */
  expected: (number | string)[];
}

const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];

/**
 * A required column's chunk: a dictionary page of `size` entries, then data pages of `pageSize` indices each, bit
 * packed at the dictionary's width, `count` values in all (index i is (i * 389) mod size).
 */
export function wideDictionaryChunk(type: typeof Type.INT32 | typeof Type.BYTE_ARRAY, size: number, count: number, pageSize: number): WideDictionaryChunk {
  const column = buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type },
  ]).columns[0]!;
  const entries = Array.from({ length: size }, (_, i) => (type === Type.INT32 ? i * 7 - 3000 : `value ${i}`));
  const utf8 = new TextEncoder();
  const dict = type === Type.INT32 ? entries.flatMap((v) => u32(v as number)) : entries.flatMap((v) => [...u32(utf8.encode(v as string).length), ...utf8.encode(v as string)]);
  const opts = { codec: CompressionCodec.SNAPPY, codecs: builtinCodecs() };
  const width = Math.ceil(Math.log2(size));
  const indices = Int32Array.from({ length: count }, (_, i) => (i * 389) % size);
  const pages = [dictionaryPage(size, new Uint8Array(dict), opts)];
  for (let at = 0; at < count; at += pageSize) {
    const n = Math.min(pageSize, count - at);
    const w = new ByteWriter(1024);
    w.u8(width);
    encodeRleHybrid(indices, at, n, width, w);
    pages.push(dataPageV1({ numValues: n, encoding: Encoding.RLE_DICTIONARY, body: w.finish() }, opts));
  }
  const parts = pages.flatMap((pg) => [pageHeaderBytes(pg.header), pg.body]);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  const meta: ColumnMetaData = {
    type,
    encodings: [Encoding.PLAIN, Encoding.RLE_DICTIONARY],
    path_in_schema: ['x'],
    codec: CompressionCodec.SNAPPY,
    num_values: count,
    total_uncompressed_size: bytes.length,
    total_compressed_size: bytes.length,
    data_page_offset: 4,
    dictionary_page_offset: 4,
  };
  return { column, bytes, meta, expected: Array.from(indices, (i) => entries[i]!) };
}
