/**
 * `parquetry schema` (the schema tree, or with `--json` the footer's schema elements), `parquetry meta` (the footer:
 * rows, key/value metadata, encryption, and per row group and column chunk the codec, encodings, sizes, statistics
 * with decoded bounds, page index and bloom filter) and `parquetry stats COLUMN` (a column's statistics per row group
 * and for the whole file).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (FileMetaData, RowGroup, ColumnChunk,
 * Statistics), https://github.com/apache/parquet-format/blob/master/PageIndex.md and BloomFilter.md (what `meta`
 * reports present), https://github.com/apache/parquet-format/blob/master/Encryption.md (the footer's algorithm).
 * @module
 */
import type { ColumnStatistics, ParquetFile, ReadOptions } from '@parquetry/parquet-reader';
import { compareDecimals, compareValues } from '@parquetry/parquet-reader/filters';
import type { ColumnDescriptor, SchemaNode, SchemaTree } from '@parquetry/parquet-levels';
import {
  CompressionCodecNames,
  ConvertedTypeNames,
  EncodingNames,
  FieldRepetitionTypeNames,
  TypeNames,
  isParquetError,
  type ColumnChunk,
  type ColumnMetaData,
  type LogicalType,
  type SchemaElement,
} from '@parquetry/thrift-compact';
import { arity, one, usageError, type Parsed } from './cli-args.js';
import { leafColumnOf } from './column-names.js';
import { formatOf, rowSink } from './cli-output.js';
import { binaryText, cellText, isBinaryColumn, isUtcTime, jsonStringify, leafTransform, readValueOptions, valueMode, type ValueMode } from './cli-values.js';

function logicalName(lt: LogicalType | undefined): string {
  if (!lt) return '';
  const [name, body] = Object.entries(lt).find(([, v]) => v !== undefined) ?? ['', undefined];
  const params = body && typeof body === 'object' ? Object.entries(body as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'object') : [];
  const unit = body && typeof body === 'object' && 'unit' in body ? Object.keys((body as { unit: object }).unit)[0] : undefined;
  const all = [...params.map(([k, v]) => `${k}=${String(v)}`), ...(unit ? [`unit=${unit}`] : [])];
  return all.length ? `${name}(${all.join(', ')})` : name;
}

function schemaLines(n: SchemaNode, depth: number, out: string[]): void {
  const rep = ['required', 'optional', 'repeated'][n.repetition] ?? String(n.repetition);
  const phys = n.element.type === undefined ? 'group' : (TypeNames[n.element.type] ?? String(n.element.type));
  const len = n.element.type_length ? `(${n.element.type_length})` : '';
  const lt = logicalName(n.logicalType);
  out.push(`${'  '.repeat(depth)}${rep} ${phys}${len} ${n.name}${lt ? ` ${lt}` : ''}`);
  for (const c of n.children) schemaLines(c, depth + 1, out);
}

/** A schema element as JSON: parquet.thrift's field names, enums by name. */
function elementJson(e: SchemaElement): Record<string, unknown> {
  const o: Record<string, unknown> = { name: e.name };
  if (e.type !== undefined) o['type'] = TypeNames[e.type] ?? e.type;
  if (e.type_length !== undefined) o['type_length'] = e.type_length;
  if (e.repetition_type !== undefined) o['repetition_type'] = FieldRepetitionTypeNames[e.repetition_type] ?? e.repetition_type;
  if (e.num_children !== undefined) o['num_children'] = e.num_children;
  if (e.converted_type !== undefined) o['converted_type'] = ConvertedTypeNames[e.converted_type] ?? e.converted_type;
  if (e.scale !== undefined) o['scale'] = e.scale;
  if (e.precision !== undefined) o['precision'] = e.precision;
  if (e.field_id !== undefined) o['field_id'] = e.field_id;
  if (e.logicalType !== undefined) o['logicalType'] = e.logicalType;
  return o;
}

/**
 * `schema`: one line per schema element (repetition, physical type, name, logical type), or with `--json` the schema
 * elements as a JSON array (parquet.thrift field names; `type`, `repetition_type` and `converted_type` by name;
 * `logicalType` as its union object): a file's (its footer's elements), or a dataset's unified schema (the files'
 * columns, then the partition columns).
 * @param schema - the schema.
 * @param p - parsed arguments.
 * @param write - receives each line.
 */
export function schemaCommand(schema: SchemaTree, p: Parsed, write: (line: string) => void): void {
  if (p.values.has('--json')) {
    write(JSON.stringify(schema.elements.map(elementJson), null, 2));
    return;
  }
  const out: string[] = [];
  schemaLines(schema.field.node, 0, out);
  out[0] = `message ${schema.field.node.name}`;
  for (const l of out) write(l);
}

/** A bound or value for a line of text. */
function valueText(v: unknown, col: ColumnDescriptor, mode: ValueMode): string {
  if (v === null || v === undefined) return 'null';
  if (!mode.raw && mode.binary !== 'base64' && isBinaryColumn(col) && typeof v === 'string') return binaryText(Buffer.from(v, 'base64'), mode.binary);
  if (!mode.raw && isUtcTime(col)) v = leafTransform(col, mode)!(v);
  const s = cellText(v, mode.binary);
  return typeof v === 'string' ? JSON.stringify(s) : s;
}

function short(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n)}… (${s.length} characters)`;
}

function statisticsText(s: ColumnStatistics | undefined, col: ColumnDescriptor, mode: ValueMode): string {
  if (!s) return 'none';
  const parts: string[] = [];
  if (s.nullCount !== undefined) parts.push(`nulls ${s.nullCount}`);
  if (s.min !== undefined) parts.push(`min ${short(valueText(s.min, col, mode), 60)}${s.minExact ? '' : ' (truncated)'}`);
  if (s.max !== undefined) parts.push(`max ${short(valueText(s.max, col, mode), 60)}${s.maxExact ? '' : ' (truncated)'}`);
  if (s.distinctCount !== undefined) parts.push(`distinct ${s.distinctCount}`);
  if (s.nanCount !== undefined) parts.push(`NaNs ${s.nanCount}`);
  return parts.length ? parts.join(', ') : 'none';
}

function indexText(cc: ColumnChunk, md: ColumnMetaData): string {
  const idx = [cc.column_index_offset !== undefined ? `column index ${cc.column_index_length ?? '?'} bytes` : '', cc.offset_index_offset !== undefined ? `offset index ${cc.offset_index_length ?? '?'} bytes` : ''].filter(Boolean);
  const bloom = md.bloom_filter_offset !== undefined ? `bloom filter ${md.bloom_filter_length !== undefined ? `${md.bloom_filter_length} bytes` : 'present'}` : 'no bloom filter';
  return `${idx.length ? idx.join(', ') : 'no page index'}; ${bloom}`;
}

/**
 * A chunk's ColumnMetaData as the reader gives it (decrypted when its metadata is encrypted and the key was given),
 * or why it cannot be shown: its key not given, or the decryption failing.
 */
function chunkMetadata(file: ParquetFile, g: number, col: ColumnDescriptor, cc: ColumnChunk): ColumnMetaData | { encrypted: string } | undefined {
  try {
    return file.columnMetaData(g, col.index);
  } catch (e) {
    if (!isParquetError(e) || e.code === 'MISSING_METADATA') return undefined;
    const key = cc.crypto_metadata?.ENCRYPTION_WITH_COLUMN_KEY ? 'column key' : 'footer key';
    return { encrypted: e.code === 'KEY_MISSING' ? `encrypted column metadata (${key} not given)` : `encrypted column metadata, not decrypted (${key}): ${e.code}` };
  }
}

function algorithmName(a: object | undefined): string | undefined {
  if (!a) return undefined;
  return Object.keys(a).find((k) => (a as Record<string, unknown>)[k] !== undefined);
}

/**
 * `meta`: the footer — rows, format version, writer, key/value metadata, encryption, and per row group its rows,
 * sizes and sort order, per column chunk its codec, encodings, values, sizes, statistics (decoded bounds, nulls,
 * distinct and NaN counts), page index and bloom filter. Encrypted column metadata is shown decrypted when its key
 * was given; a chunk whose key was not given prints `encrypted column metadata (column key not given)` instead.
 * `--json` prints the same as one JSON object (parquet.thrift's field names, enums by name, 64-bit numbers as numbers
 * or as decimal strings past 2^53, bounds in the JSON-safe value mapping).
 * @param file - the opened file.
 * @param path - the file's path (printed).
 * @param p - parsed arguments.
 * @param write - receives each output line.
 * @throws ParquetError `USAGE` for bad value options.
 */
export async function metaCommand(file: ParquetFile, path: string, p: Parsed, write: (line: string) => void): Promise<void> {
  const mode = valueMode(p);
  const md = file.metadata;
  const size = file.source.byteLength;
  const magic = size >= 4 ? new TextDecoder().decode(await file.source.read(size - 4, size)) : '';
  if (p.values.has('--json')) {
    if (mode.raw) throw usageError('meta --json prints JSON-safe values; --raw is for the text form');
    write(jsonStringify(metaJson(file, path, magic, mode, await statisticsTable(file, readValueOptions(mode))), 2));
    return;
  }
  write(`file: ${path}, ${size} bytes`);
  write(`rows: ${md.num_rows}, row groups: ${md.row_groups.length}, columns: ${file.schema.columns.length}, format version: ${md.version}`);
  write(`created_by: ${md.created_by ?? '(none)'}`);
  const alg = algorithmName(md.encryption_algorithm);
  if (magic === 'PARE') write('encryption: encrypted footer (PARE)');
  else if (alg !== undefined) write(`encryption: ${alg}, plaintext footer`);
  const kv = md.key_value_metadata ?? [];
  write(`key/value metadata: ${kv.length === 0 ? 'none' : `${kv.length} entr${kv.length === 1 ? 'y' : 'ies'}`}`);
  for (const { key, value } of kv) write(`  ${key}: ${value === undefined ? '(no value)' : short(JSON.stringify(value), 200)}`);
  const stats = await statisticsTable(file, readValueOptions(mode));
  md.row_groups.forEach((rg, g) => {
    const compressed = rg.total_compressed_size !== undefined ? `, ${rg.total_compressed_size} compressed` : '';
    write(`row group ${g}: ${rg.num_rows} rows, ${rg.total_byte_size} bytes${compressed}${rg.file_offset !== undefined ? `, at byte ${rg.file_offset}` : ''}`);
    if (rg.sorting_columns?.length) {
      const sorted = rg.sorting_columns.map((s) => `${file.schema.columns[s.column_idx]?.pathString ?? `column ${s.column_idx}`} ${s.descending ? 'desc' : 'asc'} nulls ${s.nulls_first ? 'first' : 'last'}`);
      write(`  sorted by ${sorted.join(', ')}`);
    }
    rg.columns.forEach((cc, i) => {
      const col = file.schema.columns[i];
      const name = col?.pathString ?? `column ${i}`;
      // the chunk's metadata, decrypted by the reader when it is encrypted and its key was given
      const m = col ? chunkMetadata(file, g, col, cc) : cc.meta_data;
      if (!m || 'encrypted' in m) {
        write(`  ${name}: ${m ? m.encrypted : 'no column metadata'}`);
        return;
      }
      const enc = m.encodings.map((e) => EncodingNames[e] ?? String(e)).join(',');
      write(`  ${name}: ${CompressionCodecNames[m.codec] ?? m.codec} ${enc} ${m.num_values} values, ${m.total_compressed_size} / ${m.total_uncompressed_size} bytes`);
      let text: string;
      try {
        text = col ? statisticsText(statisticsAt(stats, g, i), col, mode) : 'none';
      } catch (e) {
        // say why (e.g. a column key not given), as the other commands do for an error
        text = `unreadable (${isParquetError(e) ? `${e.code}: ` : ''}${e instanceof Error ? e.message : String(e)})`;
      }
      write(`    statistics: ${text}`);
      write(`    ${indexText(cc, m)}`);
    });
  });
}

/** A chunk's statistics as JSON: counts, and bounds in the JSON-safe mapping (binary in the `--binary` form). */
function statisticsJson(s: ColumnStatistics | undefined, col: ColumnDescriptor, mode: ValueMode): Record<string, unknown> | null {
  if (!s) return null;
  const shown = leafTransform(col, mode);
  const bound = (v: unknown): unknown => (v === undefined ? null : shown ? shown(v) : v);
  return {
    null_count: s.nullCount ?? null,
    distinct_count: s.distinctCount ?? null,
    nan_count: s.nanCount ?? null,
    min: bound(s.min),
    max: bound(s.max),
    min_exact: s.min === undefined ? null : s.minExact,
    max_exact: s.max === undefined ? null : s.maxExact,
  };
}

/** A number of the footer that may be a bigint (an INT64 field): a number when exact, else its decimal text. */
function int64Json(v: number | bigint | undefined): number | string | null {
  if (v === undefined) return null;
  return typeof v === 'bigint' ? (v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : String(v)) : v;
}

/** One chunk's statistics, or the error decoding them gave (thrown where they are used, see {@link statisticsAt}). */
type StatisticsResult = { stats: ColumnStatistics | undefined } | { error: unknown };

/**
 * The statistics of every chunk of some columns (all by default) under a value mapping, per row group and column
 * ordinal, decoded before the synchronous printing (`ParquetFile.statistics` is asynchronous: it loads the
 * statistics decoding the first time).
 */
async function statisticsTable(file: ParquetFile, options: ReadOptions, columns: readonly number[] = file.schema.columns.map((_, i) => i)): Promise<StatisticsResult[][]> {
  const out: StatisticsResult[][] = [];
  for (let g = 0; g < file.metadata.row_groups.length; g++) {
    const row: StatisticsResult[] = (out[g] = []);
    for (const i of columns) {
      try {
        row[i] = { stats: await file.statistics(g, i, options) };
      } catch (error) {
        row[i] = { error };
      }
    }
  }
  return out;
}

/** A chunk's statistics from {@link statisticsTable}, throwing the error decoding them gave. */
function statisticsAt(table: StatisticsResult[][], g: number, i: number): ColumnStatistics | undefined {
  const r = table[g]?.[i];
  if (r !== undefined && 'error' in r) throw r.error;
  return r?.stats;
}

/** What `meta --json` prints: the text form's facts as one object (parquet.thrift's names, enums by name). */
function metaJson(file: ParquetFile, path: string, magic: string, mode: ValueMode, stats: StatisticsResult[][]): Record<string, unknown> {
  const md = file.metadata;
  const alg = algorithmName(md.encryption_algorithm);
  return {
    file: path,
    bytes: file.source.byteLength,
    num_rows: int64Json(md.num_rows),
    num_row_groups: md.row_groups.length,
    num_columns: file.schema.columns.length,
    format_version: md.version,
    created_by: md.created_by ?? null,
    encryption: magic === 'PARE' ? { footer: 'encrypted' } : alg !== undefined ? { footer: 'plaintext', algorithm: alg } : null,
    key_value_metadata: (md.key_value_metadata ?? []).map(({ key, value }) => ({ key, value: value ?? null })),
    row_groups: md.row_groups.map((rg, g) => ({
      num_rows: int64Json(rg.num_rows),
      total_byte_size: int64Json(rg.total_byte_size),
      total_compressed_size: int64Json(rg.total_compressed_size),
      file_offset: int64Json(rg.file_offset),
      sorting_columns: (rg.sorting_columns ?? []).map((x) => ({ column: file.schema.columns[x.column_idx]?.pathString ?? x.column_idx, descending: x.descending, nulls_first: x.nulls_first })),
      columns: rg.columns.map((cc, i) => {
        const col = file.schema.columns[i];
        const m = col ? chunkMetadata(file, g, col, cc) : cc.meta_data;
        const base = { path: col?.pathString ?? null, file_offset: int64Json(cc.file_offset) };
        if (!m || 'encrypted' in m) return { ...base, metadata: m ? m.encrypted : 'no column metadata' };
        let statistics: Record<string, unknown> | null | { unreadable: string };
        try {
          statistics = col ? statisticsJson(statisticsAt(stats, g, i), col, mode) : null;
        } catch (e) {
          statistics = { unreadable: `${isParquetError(e) ? `${e.code}: ` : ''}${e instanceof Error ? e.message : String(e)}` };
        }
        return {
          ...base,
          codec: CompressionCodecNames[m.codec] ?? m.codec,
          encodings: m.encodings.map((e) => EncodingNames[e] ?? e),
          num_values: int64Json(m.num_values),
          total_compressed_size: int64Json(m.total_compressed_size),
          total_uncompressed_size: int64Json(m.total_uncompressed_size),
          data_page_offset: int64Json(m.data_page_offset),
          dictionary_page_offset: int64Json(m.dictionary_page_offset),
          statistics,
          column_index: cc.column_index_offset === undefined ? null : { offset: int64Json(cc.column_index_offset), length: cc.column_index_length ?? null },
          offset_index: cc.offset_index_offset === undefined ? null : { offset: int64Json(cc.offset_index_offset), length: cc.offset_index_length ?? null },
          bloom_filter: m.bloom_filter_offset === undefined ? null : { offset: int64Json(m.bloom_filter_offset), length: m.bloom_filter_length ?? null },
        };
      }),
    })),
  };
}

/**
 * `stats COLUMN`: per row group and for the whole file, the column's rows, values, null count, distinct count (when
 * the writer recorded it; for the file only with one row group), min and max (decoded; `truncated` when a bound is
 * not a value), compressed and uncompressed sizes and encodings, in a `--format` (default `table`). Encrypted column
 * metadata is read decrypted when its key was given; a row group whose chunk metadata stays encrypted shows nulls
 * and the encodings `encrypted`, and the whole-file counts and sizes are then null.
 * @param file - the opened file.
 * @param p - parsed arguments.
 * @param write - receives each output line.
 * @param width - the terminal's width, for a table.
 * @throws ParquetError `USAGE` for an unknown column or bad options.
 */
export async function statsCommand(file: ParquetFile, p: Parsed, write: (line: string) => void, width: number | undefined): Promise<void> {
  arity(p, 'a file and a column', 2, 2);
  const col = leafColumnOf(file.schema, 'stats', p.positional[1]!);
  const mode = valueMode(p);
  const format = formatOf(one(p, '--format') ?? 'table', false);
  const shown = readValueOptions(mode);
  const decimal = col.node.logicalType?.DECIMAL !== undefined;
  const cmp = (a: unknown, b: unknown): number => (decimal ? compareDecimals(a, b) : compareValues(a, b));
  const change = leafTransform(col, mode);
  const fix = (v: unknown): unknown => (v !== undefined && change ? change(v) : v);
  const rows: Record<string, unknown>[] = [];
  let min: { native: unknown; shown: unknown; exact: boolean } | undefined;
  let max: { native: unknown; shown: unknown; exact: boolean } | undefined;
  let boundsKnown = true;
  let nulls: number | undefined = 0;
  let values = 0;
  let compressed = 0;
  let uncompressed = 0;
  const encodings = new Set<string>();
  let encrypted = false;
  const nativeStats = await statisticsTable(file, {}, [col.index]);
  const shownStats = await statisticsTable(file, shown, [col.index]);
  file.metadata.row_groups.forEach((rg, g) => {
    const cc = rg.columns[col.index];
    const found = cc ? chunkMetadata(file, g, col, cc) : undefined;
    const md = found && !('encrypted' in found) ? found : undefined;
    const native = md ? statisticsAt(nativeStats, g, col.index) : undefined;
    const s = md ? statisticsAt(shownStats, g, col.index) : undefined;
    if (!md) encrypted = true;
    const enc = md ? md.encodings.map((e) => EncodingNames[e] ?? String(e)) : [];
    enc.forEach((e) => encodings.add(e));
    values += md?.num_values ?? 0;
    compressed += md?.total_compressed_size ?? 0;
    uncompressed += md?.total_uncompressed_size ?? 0;
    nulls = nulls === undefined || s?.nullCount === undefined ? undefined : nulls + s.nullCount;
    const nonNull = s && s.nullCount !== undefined ? s.numValues - s.nullCount : undefined;
    if (nonNull !== 0) {
      if (native?.min === undefined || native.max === undefined) boundsKnown = false;
      else {
        if (!min || cmp(native.min, min.native) < 0) min = { native: native.min, shown: s!.min, exact: native.minExact };
        if (!max || cmp(native.max, max.native) > 0) max = { native: native.max, shown: s!.max, exact: native.maxExact };
      }
    }
    rows.push({
      row_group: g,
      rows: rg.num_rows,
      values: md?.num_values ?? null,
      nulls: s?.nullCount ?? null,
      distinct: s?.distinctCount ?? null,
      min: s?.min === undefined ? null : fix(s.min),
      max: s?.max === undefined ? null : fix(s.max),
      exact: s === undefined || s.min === undefined ? null : s.minExact && s.maxExact,
      compressed: md?.total_compressed_size ?? null,
      uncompressed: md?.total_uncompressed_size ?? null,
      encodings: md ? enc.join(',') : 'encrypted',
    });
  });
  const one0 = rows.length === 1 ? rows[0]! : undefined;
  rows.push({
    row_group: 'all',
    rows: file.numRows,
    values: encrypted ? null : values,
    nulls: encrypted ? null : (nulls ?? null),
    distinct: one0 ? one0['distinct'] : null,
    min: boundsKnown && min ? fix(min.shown) : null,
    max: boundsKnown && max ? fix(max.shown) : null,
    exact: boundsKnown && min && max ? min.exact && max.exact : null,
    compressed: encrypted ? null : compressed,
    uncompressed: encrypted ? null : uncompressed,
    encodings: [...encodings].join(','),
  });
  if (format === 'table') write(`column '${col.pathString}'`);
  const names = ['row_group', 'rows', 'values', 'nulls', 'distinct', 'min', 'max', 'exact', 'compressed', 'uncompressed', 'encodings'];
  const numeric = new Set(['rows', 'values', 'nulls', 'distinct', 'compressed', 'uncompressed']);
  const sink = rowSink(format, names.map((n) => ({ name: n, label: '', numeric: numeric.has(n) })), mode, write, { width, count: false });
  sink.rows(rows);
  sink.end();
}
