// Bundled by bundled-rare-decoders.test.ts (esbuild, one file, run by Node in a temporary directory): decodes a
// DELTA_BINARY_PACKED chunk with the `/read` entry's decodeColumnChunk (no loader: its default import is one bundlers
// do not follow, so it fails in a bundle) and then with the main entry's (its default loader is bundled), and prints
// what each gave.
import { ChunkDecoder, decodeColumnChunk } from '@parquetry/parquet-column';
import { decodeColumnChunk as decodeWithoutLoader } from '@parquetry/parquet-column/read';
import { deltaChunk } from '../../parquet-reader/test/delta-chunk.js';

const n = 40;
const values = BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 11 - 200));
const { chunk, column, meta, where } = await deltaChunk(values);
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
