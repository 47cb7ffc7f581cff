// The minimal browser reader: openParquet over HTTP with SNAPPY.
import { snappyCodec } from '@parquetry/parquet-codecs';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';

export async function readRows(url) {
  const file = await openParquet(await fetchSource(url), { codecs: { [snappyCodec.codec]: snappyCodec } });
  return file.readRows();
}
