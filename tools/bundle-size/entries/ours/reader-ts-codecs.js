// The reader with every codec that needs no WebAssembly — SNAPPY, LZ4, LZ4_RAW, LZO, GZIP (fflate) and ZSTD (our
// decoder) — as the codecs guide tells a browser app to take them: SNAPPY in the initial load, the others each a lazy
// chunk loaded on the first page that needs it.
import { lazyGzipCodec } from '@parquetry/codec-gzip/lazy';
import { lazyZstdDecoder } from '@parquetry/codec-zstd/lazy';
import { lazyBuiltinCodecs } from '@parquetry/parquet-codecs/lazy';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';

export async function readRows(url) {
  const file = await openParquet(await fetchSource(url), { codecs: lazyBuiltinCodecs(lazyGzipCodec(), lazyZstdDecoder()) });
  return file.readRows();
}
