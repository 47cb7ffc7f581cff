// The minimal browser reader: the reader, fetchSource, SNAPPY and the ZSTD decoder package (no WebAssembly).
import { zstdDecoder } from '../../../../packages/codec-zstd/src/index.js';
import { snappyCodec } from '../../../../packages/parquet-codecs/src/index.js';
import { fetchSource, openParquet } from '../../../../packages/parquet-reader/src/index.js';
import { capture, type ReadUrl } from './read.js';

const codecs = { [snappyCodec.codec]: snappyCodec, [zstdDecoder.codec]: zstdDecoder };
const readUrl: ReadUrl = (url, columns) =>
  capture(async () => {
    const file = await openParquet(await fetchSource(url), { codecs });
    return file.readRows({ values: 'json', ...(columns === undefined ? {} : { columns }) });
  });
(globalThis as unknown as { readUrl: ReadUrl }).readUrl = readUrl;
