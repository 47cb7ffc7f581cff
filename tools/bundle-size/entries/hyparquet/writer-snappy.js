import { parquetWriteBuffer } from 'hyparquet-writer';

export function write(columnData) {
  return parquetWriteBuffer({ columnData, codec: 'SNAPPY' });
}
