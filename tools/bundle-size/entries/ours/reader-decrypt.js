// The minimal reader given decryption keys: the decryption code must stay in a lazy chunk.
import { snappyDecoder } from '@parquetry/parquet-codecs';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';

export async function readRows(url, footerKey) {
  const file = await openParquet(await fetchSource(url), {
    codecs: { [snappyDecoder.codec]: snappyDecoder },
    decryption: { footerKey },
  });
  return file.readRows();
}
