/**
 * The writer with every codec preset: `@parquetry/parquet-writer`'s {@link writeParquet}, {@link createWriter} and
 * {@link appendParquet} with the caller's `codecs` merged over every codec ({@link writeCodecs}; the codecs `compression` names loaded first), so that every compression of parquet.thrift (GZIP, ZSTD
 * and BROTLI included) can be named in `compression` without passing codecs.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (the codecs),
 * https://github.com/apache/parquet-format/blob/master/README.md (the file layout the writer implements).
 * @module
 */
import {
  appendParquet as appendWith,
  createWriter as createWith,
  writeParquet as writeWith,
  type ByteSink,
  type ColumnarInput,
  type ParquetWriter,
  type Row,
  type WriterOptions,
} from '@parquetry/parquet-writer';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { writerCodecs } from './presets.js';
import { APPEND_RULES, WRITE_RULES } from './options.js';

/**
 * Creates a streaming writer over a sink with every codec preset: `@parquetry/parquet-writer`'s `createWriter`
 * with `codecs` merged over every codec ({@link writeCodecs}; the codecs `compression` names loaded first) — so `compression: 'ZSTD'` or `'BROTLI'` needs nothing else. Async,
 * unlike the writer package's, because the codecs named are loaded first (ZSTD and BROTLI are WebAssembly).
 * @param sink - where the bytes go (`memorySink()`, `writableSink(stream)`, `fileSink(path)` from `parquetry/node`,
 *   or any `{ write, close?, abort? }`).
 * @param options - schema (inferred from the first rows when absent) and write options; `codecs` are merged over
 *   every codec.
 * @returns the writer (`write`, `writeColumns`, `flushRowGroup`, `close`, `abort`).
 * @throws ParquetError `INVALID_OPTION` or `INVALID_SCHEMA` for bad options or schema, `CODEC_UNAVAILABLE` when a
 *   codec named cannot load (as a rejected promise).
 */
export async function createWriter(sink: ByteSink, options: WriterOptions = {}): Promise<ParquetWriter> {
  checkOptions(options, WRITE_RULES, 'parquetry: createWriter', 'INVALID_OPTION');
  return createWith(sink, { ...options, codecs: await writerCodecs(options.codecs, options) });
}

/**
 * Writes a whole Parquet file into memory in one call, with every codec preset (`@parquetry/parquet-writer`'s
 * `writeParquet` with `codecs` merged over every codec ({@link writeCodecs}; the codecs `compression` names loaded first)).
 * @param data - row objects (in the shape the reader returns) or columnar input (the reader's vectors).
 * @param options - schema (inferred from the rows when absent) and write options.
 * @returns the file's bytes.
 * @throws ParquetError `INVALID_VALUE` / `INVALID_RECORD` naming the column and row, `INVALID_SCHEMA`,
 *   `SCHEMA_INFERENCE`, `INVALID_OPTION`, or a codec's error code.
 */
export async function writeParquet(data: readonly Row[] | ColumnarInput, options: WriterOptions = {}): Promise<Uint8Array> {
  checkOptions(options, WRITE_RULES, 'parquetry: writeParquet', 'INVALID_OPTION');
  return writeWith(data, { ...options, codecs: await writerCodecs(options.codecs, options) });
}

/**
 * Appends rows (or columns) to a Parquet file held in memory, with every codec preset (`@parquetry/parquet-writer`'s
 * `appendParquet` with `codecs` merged over every codec ({@link writeCodecs}; the codecs `compression` names loaded first)): the file's row groups are kept, new ones follow,
 * and a new footer is written; the existing bytes are not modified.
 * @param existing - the whole existing file (plaintext footer).
 * @param data - rows or columnar input, in the file's schema.
 * @param options - write options (the schema is the file's).
 * @returns the new file's bytes.
 * @throws ParquetError as the writer's `appendParquet` (`NOT_PARQUET`, `SCHEMA_MISMATCH`, `INVALID_VALUE`, …).
 */
export async function appendParquet(existing: Uint8Array, data: readonly Row[] | ColumnarInput, options: Omit<WriterOptions, 'append'> = {}): Promise<Uint8Array> {
  checkOptions(options, APPEND_RULES, 'parquetry: appendParquet', 'INVALID_OPTION');
  return appendWith(existing, data, { ...options, codecs: await writerCodecs(options.codecs, options) });
}
