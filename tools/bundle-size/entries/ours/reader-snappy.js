// The minimal browser reader: openParquet over HTTP with SNAPPY (the decompress-only codec).
import { snappyDecoder } from '@parquetry/parquet-codecs';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';

export async function readRows(url) {
  const file = await openParquet(await fetchSource(url), { codecs: { [snappyDecoder.codec]: snappyDecoder } });
  return file.readRows();
}
