/**
 * Local Parquet files in Node: open one for reading with every codec preset, or write one through
 * `@parquetry/parquet-writer/node`'s temporary-file sink, which renames the file into place only after its footer
 * is written and synced, so a failed or interrupted write never leaves a file at the final path.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (file layout: the footer comes last, so a
 * file without one is not a Parquet file).
 * @module
 */
import type { OpenOptions, ParquetFile } from '@parquetry/parquet-reader';
import { fileSource } from '@parquetry/parquet-reader/node';
import type { ColumnarInput, ParquetWriter, Row, WriterOptions } from '@parquetry/parquet-writer';
import { fileSink } from '@parquetry/parquet-writer/node';
import type { FileMetaData } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { openParquet } from '../open.js';
import { OPEN_RULES, WRITE_FILE_RULES } from '../options.js';
import { createWriter } from '../write.js';

/** An opened local Parquet file: the reader's `ParquetFile` plus the handle's `close`. */
export type LocalParquetFile = ParquetFile & {
  /**
   * Closes the file handle (reads fail afterwards).
   * @returns when the handle is closed.
   */
  close(): Promise<void>;
};

/**
 * Opens a local Parquet file with every codec preset, reading only the byte ranges asked for.
 * @param path - the file path.
 * @param options - reader options (`codecs` defaults to every codec).
 * @returns the opened file and a `close()` for its file handle.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before the file is opened; as the reader's `openParquet` (`NOT_PARQUET`,
 *   `CORRUPT_FOOTER`, …); a file system error
 *   (`ENOENT`, `EACCES`, …) when the file cannot be opened.
 */
export async function openFile(path: string, options: OpenOptions = {}): Promise<LocalParquetFile> {
  checkOptions(options, OPEN_RULES, 'parquetry: openFile');
  const source = await fileSource(path);
  try {
    const file = await openParquet(source, options);
    return Object.assign(Object.create(file) as ParquetFile, { close: () => source.close() }) as LocalParquetFile;
  } catch (e) {
    await source.close();
    throw e;
  }
}

/**
 * Options of {@link writeFile} and {@link createFileWriter}: the writer's options (but `append`: a new file is
 * written; append with `appendFileSink`) plus durability.
 */
export interface WriteFileOptions extends Omit<WriterOptions, 'append'> {
  /** fsync the file before its rename into place, and the directory after (default true). */
  sync?: boolean;
}

/**
 * Creates a streaming writer to a local file with every codec preset. The bytes go to a temporary file beside
 * `path` (`.<name>.<random>.tmp`), renamed over `path` by `close()`; `abort()`, or a write that fails, removes it.
 * @param path - the final path (replaced if it exists, only when the writer closes successfully).
 * @param options - schema and write options (`codecs` merged over every codec), and `sync`.
 * @returns the writer.
 * @throws ParquetError `INVALID_OPTION` / `INVALID_SCHEMA` for bad options or schema (the temporary file is then
 *   removed); `CANNOT_CREATE` naming `path` (the Node error as its cause) when the temporary file cannot be created
 *   beside it (a missing directory, permissions). The writer's `write` and `close` reject `CANNOT_CREATE` when the
 *   bytes cannot be written, synced or renamed into place (`ENOSPC`, `EIO`, …; the temporary file removed).
 */
export async function createFileWriter(path: string, options: WriteFileOptions = {}): Promise<ParquetWriter> {
  checkOptions(options, WRITE_FILE_RULES, 'parquetry: createFileWriter', 'INVALID_OPTION');
  const { sync, ...writerOptions } = options;
  const sink = await fileSink(path, sync === undefined ? {} : { sync });
  try {
    return await createWriter(sink, writerOptions);
  } catch (e) {
    await sink.abort?.(e);
    throw e;
  }
}

function isIterable(x: unknown): x is Iterable<Row> | AsyncIterable<Row> {
  return typeof x === 'object' && x !== null && (Symbol.iterator in x || Symbol.asyncIterator in x);
}

/**
 * Writes a whole Parquet file to a local path with every codec preset: rows (an array, any iterable or async
 * iterable, written in slices) or columnar input (the reader's vectors). Nothing is left at `path` when the write
 * fails (see {@link createFileWriter}).
 * @param path - the final path.
 * @param data - row objects (in the shape the reader returns) or columnar input.
 * @param options - schema (inferred from the first rows when absent), write options and `sync`.
 * @returns the footer written.
 * @throws ParquetError `INVALID_VALUE` / `INVALID_RECORD` naming the column and row, `INVALID_SCHEMA`,
 *   `SCHEMA_INFERENCE`, `SCHEMA_REQUIRED`, `INVALID_OPTION`, or a codec's error code; a file system error when the
 *   file cannot be created or written.
 */
export async function writeFile(
  path: string,
  data: readonly Row[] | Iterable<Row> | AsyncIterable<Row> | ColumnarInput,
  options: WriteFileOptions = {},
): Promise<FileMetaData> {
  checkOptions(options, WRITE_FILE_RULES, 'parquetry: writeFile', 'INVALID_OPTION');
  const w = await createFileWriter(path, options);
  try {
    if (isIterable(data)) await w.write(data);
    else await w.writeColumns(data);
    return await w.close();
  } catch (e) {
    await w.abort(e);
    throw e;
  }
}
