import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';

export async function readRows(url) {
  return parquetReadObjects({ file: await asyncBufferFromUrl({ url }) });
}
