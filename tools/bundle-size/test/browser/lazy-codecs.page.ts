// The reader with every codec needing no WebAssembly, as the codecs guide tells a browser app to take them: SNAPPY in
// the initial load, LZ4, LZ4_RAW, LZO, GZIP and ZSTD each a lazy chunk loaded on the first page that needs it.
import { lazyGzipCodec } from '../../../../packages/codec-gzip/src/lazy.js';
import { lazyZstdDecoder } from '../../../../packages/codec-zstd/src/lazy.js';
import { lazyBuiltinCodecs } from '../../../../packages/parquet-codecs/src/lazy.js';
import { fetchSource, openParquet } from '../../../../packages/parquet-reader/src/index.js';
import { capture, type ReadUrl } from './read.js';

const codecs = lazyBuiltinCodecs(lazyGzipCodec(), lazyZstdDecoder());
const readUrl: ReadUrl = (url, columns) =>
  capture(async () => {
    const file = await openParquet(await fetchSource(url), { codecs });
    return file.readRows({ values: 'json', ...(columns === undefined ? {} : { columns }) });
  });
(globalThis as unknown as { readUrl: ReadUrl }).readUrl = readUrl;
