// The umbrella package as a browser app uses it: every codec preset, reading over HTTP and writing.
import { fetchSource } from '@parquetry/parquet-reader';
import { openParquet, writeParquet } from 'parquetry';

export async function readRows(url) {
  const file = await openParquet(await fetchSource(url));
  return file.readRows();
}

export function write(rows) {
  return writeParquet(rows, { compression: 'ZSTD' });
}
