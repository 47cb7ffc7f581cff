import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

export async function readRows(url) {
  return parquetReadObjects({ file: await asyncBufferFromUrl({ url }), compressors });
}
