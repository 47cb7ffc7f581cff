import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { parquetWriteBuffer } from 'hyparquet-writer';

export async function readRows(url) {
  return parquetReadObjects({ file: await asyncBufferFromUrl({ url }), compressors });
}

export function write(columnData) {
  return parquetWriteBuffer({ columnData, codec: 'ZSTD' });
}
