// The writer with SNAPPY, in memory, schema inferred from the rows.
import { snappyCodec } from '@parquetry/parquet-codecs';
import { writeParquet } from '@parquetry/parquet-writer';

export function write(rows) {
  return writeParquet(rows, { compression: 'SNAPPY', codecs: { [snappyCodec.codec]: snappyCodec } });
}
