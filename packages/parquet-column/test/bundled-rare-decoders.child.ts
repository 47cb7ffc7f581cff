// Bundled by bundled-rare-decoders.test.ts (esbuild, one file, run by Node in a temporary directory): decodes a
// DELTA_BINARY_PACKED chunk with the `/read` entry's decodeColumnChunk (no loader: its default import is one bundlers
// do not follow, so it fails in a bundle) and then with the main entry's (its default loader is bundled), and prints
// what each gave.
import { ChunkDecoder, decodeColumnChunk } from '@parquetry/parquet-column';
import { decodeColumnChunk as decodeWithoutLoader } from '@parquetry/parquet-column/read';
import { openParquet } from '../../parquet-reader/src/index.js';
import { field, writeParquet } from '../../parquet-writer/src/index.js';

const n = 40;
const values = BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 11 - 200));
const bytes = await writeParquet(
  { d: { kind: 'leaf', length: n, validity: null, values } } as never,
  { schema: { d: field.int64({ required: true }) }, compression: 'UNCOMPRESSED', columns: { d: { dictionary: false, encoding: 'DELTA_BINARY_PACKED' } } },
);
const file = await openParquet(bytes);
const meta = file.metadata.row_groups[0]!.columns[0]!.meta_data!;
const start = meta.dictionary_page_offset ?? meta.data_page_offset;
const chunk = bytes.subarray(start, start + meta.total_compressed_size);
const column = file.schema.columns[0]!;
const where = { rowGroup: 0, path: 'd', offset: start };
const out: Record<string, unknown> = { expected: Array.from(values, String) };
try {
  await decodeWithoutLoader(chunk, column, meta, where);
  out['read'] = 'decoded';
} catch (e) {
  out['read'] = (e as { code?: string }).code ?? String(e);
}
try {
  const decoded = await decodeColumnChunk(chunk, column, meta, where);
  out['main'] = Array.from(decoded.segments[0]!.values as BigInt64Array, String);
} catch (e) {
  out['main'] = (e as { code?: string }).code ?? String(e);
}
try {
  const taken = await new ChunkDecoder(chunk, column, meta, where, { numRows: n }).take(Infinity);
  out['decoder'] = Array.from(taken.segments[0]!.values as BigInt64Array, String);
} catch (e) {
  out['decoder'] = (e as { code?: string }).code ?? String(e);
}
console.log(JSON.stringify(out));
