/**
 * The value mapping with its option `values: 'json'`: {@link convertValues} and {@link convertChunk} convert with
 * the default mapping of to-js.ts, or with the JSON-safe mapping of json.ts under `values: 'json'` (the default
 * mapping with the caller's `decimals`, then {@link jsonValues}). to-js.ts imports no JSON code, so that code which
 * converts with the default mapping alone (a reader's initial load: `/decode`) never makes a bundler reach json.ts.
 * @module
 */
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import type { DecodedChunk } from './column-chunk.js';
import { jsonBaseOptions, jsonValues } from './json.js';
import { convertChunkWith, convertNativeChunk, convertNativeValues, type ValueOptions } from './to-js.js';

/**
 * Converts a column's non-null physical values to JavaScript values.
 * @param values - physical values as decoded.
 * @param column - the leaf column (physical and logical type).
 * @param options - value mapping.
 * @returns one JavaScript value per physical value.
 * @throws ParquetError `VALUE_TOO_LARGE` for a string longer than `MAX_STRING_LENGTH` bytes (and, under
 *   `values: 'json'`, binary whose base64 text would be).
 */
export function convertValues(values: ColumnValues, column: ColumnDescriptor, options: ValueOptions = {}): ArrayLike<unknown> {
  if (options.values === 'json') return jsonValues(convertNativeValues(values, column, jsonBaseOptions(options)), column);
  return convertNativeValues(values, column, options);
}

/**
 * Converts a decoded chunk's non-null values to JavaScript values, converting each dictionary entry once.
 * @param chunk - the decoded chunk.
 * @param column - its column.
 * @param options - value mapping.
 * @param dictionary - the chunk's dictionary already converted with the same options (by a caller converting one
 *   chunk a batch at a time); converted here when absent.
 * @returns one JavaScript value per non-null value.
 * @throws ParquetError as {@link convertValues}.
 */
export function convertChunk(chunk: DecodedChunk, column: ColumnDescriptor, options: ValueOptions = {}, dictionary?: ArrayLike<unknown>): ArrayLike<unknown> {
  if (options.values === 'json') return convertChunkWith(convertValues, chunk, column, options, dictionary);
  return convertNativeChunk(chunk, column, options, dictionary);
}
