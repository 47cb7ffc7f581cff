// The reader with every codec that needs no WebAssembly: SNAPPY, LZ4, LZ4_RAW, LZO, GZIP (fflate) and ZSTD (fzstd).
import { gzipCodec } from '@parquetry/codec-gzip';
import { zstdDecoder } from '@parquetry/codec-zstd';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';

export async function readRows(url) {
  const codecs = { ...builtinCodecs(), [gzipCodec.codec]: gzipCodec, [zstdDecoder.codec]: zstdDecoder };
  const file = await openParquet(await fetchSource(url), { codecs });
  return file.readRows();
}
