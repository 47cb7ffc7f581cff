// The minimal reader given decryption keys: the decryption code must stay in a lazy chunk.
import { snappyCodec } from '@parquetry/parquet-codecs';
import { fetchSource, openParquet } from '@parquetry/parquet-reader';

export async function readRows(url, footerKey) {
  const file = await openParquet(await fetchSource(url), {
    codecs: { [snappyCodec.codec]: snappyCodec },
    decryption: { footerKey },
  });
  return file.readRows();
}
