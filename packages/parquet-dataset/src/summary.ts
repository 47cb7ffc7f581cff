/**
 * Summary files: `_metadata` (the schema and every file's row groups, each `ColumnChunk` naming its file in
 * `file_path`) and `_common_metadata` (the schema alone), as parquet-mr's `ParquetFileWriter.writeMetadataFile`,
 * Spark and pyarrow (`pq.write_metadata`) write them: a `FileMetaData` between the magic `PAR1` and its length and
 * magic (https://github.com/apache/parquet-format/blob/master/README.md, "File format" and `file_path` in
 * `ColumnChunk`). With `_metadata` one request plans the whole dataset: which files and row groups exist, their
 * statistics, and each file's footer, served from memory to the reader.
 * @module
 */
import { ParquetError, encodeThrift, writeFileMetaData, type FileMetaData, type RowGroup } from '@parquetry/thrift-compact';
import { bufferSource, decodePlainFooter, readRawFooter, type ByteSource } from '@parquetry/parquet-reader';

/** The file name of a summary with row groups. */
export const METADATA_FILE = '_metadata';
/** The file name of a schema-only summary. */
export const COMMON_METADATA_FILE = '_common_metadata';

const MAGIC = /*#__PURE__*/ new Uint8Array([0x50, 0x41, 0x52, 0x31]);

/**
 * Encodes a FileMetaData as a summary file: `PAR1`, the Thrift compact footer, its 4-byte little-endian length,
 * `PAR1`.
 * @param meta - the metadata.
 * @returns the file's bytes.
 * @throws ParquetError from the Thrift encoder for metadata missing required fields.
 */
export function encodeSummary(meta: FileMetaData): Uint8Array {
  const body = encodeThrift(writeFileMetaData, meta);
  const out = new Uint8Array(body.length + 12);
  out.set(MAGIC, 0);
  out.set(body, 4);
  new DataView(out.buffer).setUint32(4 + body.length, body.length, true);
  out.set(MAGIC, 8 + body.length);
  return out;
}

/**
 * Decodes a summary file (or any Parquet file's footer).
 * @param bytes - the whole file.
 * @returns its FileMetaData.
 * @throws ParquetError `NOT_PARQUET`, `CORRUPT_FOOTER` as the reader's footer decoding, with the path.
 */
export async function decodeSummary(bytes: Uint8Array): Promise<FileMetaData> {
  const raw = await readRawFooter(bufferSource(bytes), bytes.length);
  if (raw.magic !== 'PAR1') throw new ParquetError('NOT_PARQUET', 'parquet-dataset: an encrypted summary file cannot be read');
  return decodePlainFooter(raw).metadata;
}

/**
 * Groups a `_metadata` summary's row groups by the file named in their column chunks' `file_path`.
 * @param meta - the summary.
 * @returns the files in order of first appearance, each with its row groups (in summary order).
 * @throws ParquetError `CORRUPT_SUMMARY` for a row group without a `file_path`, or whose chunks name different files.
 */
export function summaryFiles(meta: FileMetaData): Map<string, RowGroup[]> {
  const out = new Map<string, RowGroup[]>();
  meta.row_groups.forEach((rg, i) => {
    const path = rg.columns[0]?.file_path;
    if (path === undefined || path === '') throw new ParquetError('CORRUPT_SUMMARY', `parquet-dataset: _metadata row group ${i} has no file_path: it does not say which file holds it`);
    if (rg.columns.some((c) => c.file_path !== path)) throw new ParquetError('CORRUPT_SUMMARY', `parquet-dataset: _metadata row group ${i}: its column chunks name different files`);
    let list = out.get(path);
    if (!list) out.set(path, (list = []));
    list.push(rg);
  });
  return out;
}

/**
 * One file's footer out of a summary: the summary's schema and key/value metadata, that file's row groups (without
 * `file_path`).
 * @param meta - the summary.
 * @param rowGroups - the file's row groups.
 * @returns the file's FileMetaData.
 */
export function fileMetadataOf(meta: FileMetaData, rowGroups: readonly RowGroup[]): FileMetaData {
  const groups = rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map(({ file_path: _drop, ...c }) => c) }));
  let rows = 0;
  for (const rg of groups) rows += rg.num_rows;
  return { ...meta, row_groups: groups, num_rows: rows };
}

/**
 * Where a file's data ends by its metadata: past every column chunk, page index and bloom filter. Undefined when a
 * bloom filter has no `bloom_filter_length` (its end is then known only from the file).
 * @param rowGroups - the file's row groups.
 * @returns the offset, or undefined.
 */
export function dataEndOf(rowGroups: readonly RowGroup[]): number | undefined {
  let end = 4;
  for (const rg of rowGroups) {
    for (const c of rg.columns) {
      const md = c.meta_data;
      if (!md) return undefined;
      const dict = md.dictionary_page_offset;
      const start = dict !== undefined && dict >= 4 && dict < md.data_page_offset ? dict : md.data_page_offset;
      end = Math.max(end, start + md.total_compressed_size);
      if (c.column_index_offset !== undefined && c.column_index_length !== undefined) end = Math.max(end, c.column_index_offset + c.column_index_length);
      if (c.offset_index_offset !== undefined && c.offset_index_length !== undefined) end = Math.max(end, c.offset_index_offset + c.offset_index_length);
      if (md.bloom_filter_offset !== undefined) {
        if (md.bloom_filter_length === undefined) return undefined;
        end = Math.max(end, md.bloom_filter_offset + md.bloom_filter_length);
      }
    }
  }
  return end;
}

/**
 * The least size a file can have by what a summary says of it: past every column chunk, page index and bloom filter
 * its row groups name (a bloom filter without a length counted by its offset), then a footer holding at least the
 * bytes of its schema's names and of each column chunk's `path_in_schema` (Thrift strings are stored whole), its
 * 4-byte length and the magic `PAR1`. A file smaller than this is not the file the summary describes.
 * @param schema - the summary's schema (the file's, if the summary is right).
 * @param rowGroups - the file's row groups in the summary.
 * @returns the size in bytes.
 */
export function minFileSizeOf(schema: FileMetaData['schema'], rowGroups: readonly RowGroup[]): number {
  const utf8 = new TextEncoder();
  let end = 4;
  let footer = 0;
  for (const el of schema) footer += utf8.encode(el.name).length;
  for (const rg of rowGroups) {
    for (const c of rg.columns) {
      const md = c.meta_data;
      if (md) {
        const dict = md.dictionary_page_offset;
        const start = dict !== undefined && dict >= 4 && dict < md.data_page_offset ? dict : md.data_page_offset;
        end = Math.max(end, start + md.total_compressed_size);
        if (md.bloom_filter_offset !== undefined) end = Math.max(end, md.bloom_filter_offset + (md.bloom_filter_length ?? 0));
        for (const seg of md.path_in_schema) footer += utf8.encode(seg).length;
      }
      if (c.column_index_offset !== undefined && c.column_index_length !== undefined) end = Math.max(end, c.column_index_offset + c.column_index_length);
      if (c.offset_index_offset !== undefined && c.offset_index_length !== undefined) end = Math.max(end, c.offset_index_offset + c.offset_index_length);
    }
  }
  return end + Math.max(1, footer) + 8;
}

/**
 * A byte source that reads a file's data through `open` (called on the first read below `dataEnd`) and serves a
 * footer from memory placed right after `dataEnd`: the reader opens it with a tail guess of `footer.length` and
 * never asks the file for its footer.
 * @param open - opens the real file (lazily: a file whose data is never read is never opened).
 * @param dataEnd - where the file's data ends (see {@link dataEndOf}).
 * @param meta - the file's FileMetaData.
 * @returns the source and the tail guess to open it with.
 */
export function footerServedSource(open: () => Promise<ByteSource>, dataEnd: number, meta: FileMetaData): { source: ByteSource; tailGuess: number } {
  const tail = encodeSummary(meta).subarray(4);
  let real: Promise<ByteSource> | undefined;
  const byteLength = dataEnd + tail.length;
  return {
    tailGuess: tail.length,
    source: {
      byteLength,
      read(start, end) {
        if (start >= dataEnd) return Promise.resolve(tail.subarray(start - dataEnd, end - dataEnd));
        if (end > dataEnd) return Promise.reject(new ParquetError('OUT_OF_BOUNDS', `parquet-dataset: read of bytes [${start}, ${end}) runs past the data region [0, ${dataEnd}) of a file planned from _metadata`, start));
        return (real ??= open()).then((s) => s.read(start, end));
      },
    },
  };
}

/**
 * Builds a `_metadata` summary from the footers of a dataset's files: their schema (which must be the same for
 * all), every row group with `file_path` set on its column chunks, the total row count.
 * @param files - each file's path below the dataset root and its FileMetaData, in order.
 * @returns the summary's FileMetaData (`row_groups` empty for `_common_metadata`: pass it to {@link commonMetadata}).
 * @throws ParquetError `SCHEMA_MISMATCH` when the files' schemas differ; `INVALID_ARGUMENT` for no files.
 */
export function buildSummary(files: readonly { path: string; metadata: FileMetaData }[]): FileMetaData {
  const first = files[0];
  if (!first) throw new ParquetError('INVALID_ARGUMENT', 'parquet-dataset: a summary needs at least one file');
  const schemaKey = JSON.stringify(first.metadata.schema, bigintSafe);
  const rowGroups: RowGroup[] = [];
  let rows = 0;
  for (const { path, metadata } of files) {
    if (JSON.stringify(metadata.schema, bigintSafe) !== schemaKey) {
      throw new ParquetError('SCHEMA_MISMATCH', `parquet-dataset: '${path}' has another schema than '${first.path}': a _metadata summary holds one schema`);
    }
    for (const rg of metadata.row_groups) rowGroups.push({ ...rg, columns: rg.columns.map((c) => ({ ...c, file_path: path })) });
    rows += metadata.num_rows;
  }
  const { encryption_algorithm: _e, footer_signing_key_metadata: _k, ...rest } = first.metadata;
  return { ...rest, row_groups: rowGroups, num_rows: rows };
}

/**
 * The `_common_metadata` of a summary: the same schema and key/value metadata, no row groups.
 * @param meta - the `_metadata` summary.
 * @returns the schema-only FileMetaData.
 */
export function commonMetadata(meta: FileMetaData): FileMetaData {
  return { ...meta, row_groups: [], num_rows: 0 };
}

function bigintSafe(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
