/**
 * The `ARROW:schema` key of a Parquet file's key/value metadata
 * (https://github.com/apache/parquet-format/blob/master/README.md#metadata, `FileMetaData.key_value_metadata`): the
 * Arrow schema a writer such as Arrow C++ (pyarrow) or arrow-rs started from, as an Arrow IPC `Schema` message
 * (https://arrow.apache.org/docs/format/Columnar.html#serialization-and-interprocess-communication-ipc), base64
 * encoded. Parquet cannot say, for example, that a string column was a `large_string` or a dictionary, or which time
 * zone a timestamp had; this key can.
 *
 * @module
 */
import { RecordBatchReader, Schema, Table, tableToIPC } from 'apache-arrow';
import { ParquetError } from '@parquetry/thrift-compact';
import { verifyIpcSchema } from './ipc-verify.js';

/** The key/value metadata key holding the base64 IPC schema. */
export const ARROW_SCHEMA_KEY = 'ARROW:schema';

/** End-of-stream marker of the IPC stream format: continuation token, then a zero length. */
const EOS = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);

function fromBase64(text: string): Uint8Array {
  // atob is everywhere Node ≥ 16 and browsers run; it ignores nothing, so strip whitespace some writers wrap with
  const bin = atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(bin);
}

/**
 * Decodes an `ARROW:schema` value.
 * @param value - the key's value: base64 of an IPC `Schema` message (with or without the continuation token older
 *   writers left out).
 * @returns the Arrow schema.
 * @throws ParquetError `INVALID_ARROW_SCHEMA` when the value is not base64 of an IPC schema message.
 */
export function decodeArrowSchema(value: string): Schema {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(value);
  } catch (e) {
    throw new ParquetError('INVALID_ARROW_SCHEMA', `arrow: ${ARROW_SCHEMA_KEY} is not base64 (${value.length} characters)`, undefined, { cause: e });
  }
  // apache-arrow reads flatbuffers without bounds checks: a damaged message is refused before it reads it
  try {
    verifyIpcSchema(bytes);
  } catch (e) {
    throw new ParquetError('INVALID_ARROW_SCHEMA', `arrow: ${ARROW_SCHEMA_KEY} (${bytes.length} bytes) is not an Arrow IPC schema message: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
  }
  const stream = new Uint8Array(bytes.length + EOS.length);
  stream.set(bytes);
  stream.set(EOS, bytes.length);
  try {
    const reader = RecordBatchReader.from(stream);
    reader.open();
    const schema = reader.schema;
    if (!(schema instanceof Schema)) throw new Error('no schema message');
    return schema;
  } catch (e) {
    throw new ParquetError('INVALID_ARROW_SCHEMA', `arrow: ${ARROW_SCHEMA_KEY} (${bytes.length} bytes) is not an Arrow IPC schema message: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
  }
}

/**
 * Encodes an Arrow schema as an `ARROW:schema` value, the way Arrow C++ writes it: one IPC `Schema` message
 * (continuation token, length, flatbuffer, padding), base64.
 * @param schema - the Arrow schema.
 * @returns the base64 text.
 * @throws ParquetError `INVALID_ARROW_SCHEMA` when apache-arrow cannot serialize the schema.
 */
export function encodeArrowSchema(schema: Schema): string {
  let bytes: Uint8Array;
  try {
    bytes = tableToIPC(new Table(schema), 'stream');
  } catch (e) {
    throw new ParquetError('INVALID_ARROW_SCHEMA', `arrow: cannot serialize the Arrow schema (${schema.fields.length} fields) as IPC: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
  }
  // an empty table's stream is the schema message followed by the end-of-stream marker
  let end = bytes.length;
  if (end >= 8 && bytes[end - 8] === 0xff && bytes[end - 5] === 0xff && bytes[end - 4] === 0 && bytes[end - 1] === 0) end -= 8;
  return toBase64(bytes.subarray(0, end));
}
