// A one-column file whose INT64 chunk is DELTA_BINARY_PACKED (one of the encodings whose decoders load lazily), and
// what decodeColumnChunk takes to decode it: the tests of the rare decoders' loaders use it (one of them bundled into
// a script run by Node, so this module imports no test framework).
import type { ChunkLocation } from '@parquetry/parquet-column/read';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ColumnMetaData } from '@parquetry/thrift-compact';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet } from '../src/index.js';

/**
 * Writes `values` as a required INT64 column `d`, DELTA_BINARY_PACKED, uncompressed, and opens the file.
 * @returns the chunk's bytes, its column, metadata and location.
 */
export async function deltaChunk(values: BigInt64Array): Promise<{ chunk: Uint8Array; column: ColumnDescriptor; meta: ColumnMetaData; where: ChunkLocation }> {
  const bytes = await writeParquet(
    { d: { kind: 'leaf', length: values.length, validity: null, values } } as never,
    { schema: { d: field.int64({ required: true }) }, compression: 'UNCOMPRESSED', columns: { d: { dictionary: false, encoding: 'DELTA_BINARY_PACKED' } } },
  );
  const file = await openParquet(bytes);
  const meta = file.metadata.row_groups[0]!.columns[0]!.meta_data!;
  const start = meta.dictionary_page_offset ?? meta.data_page_offset;
  return { chunk: bytes.subarray(start, start + meta.total_compressed_size), column: file.schema.columns[0]!, meta, where: { rowGroup: 0, path: 'd', offset: start } };
}
