/**
 * The usage texts of the `parquetry` command line: `parquetry help` and `parquetry help COMMAND` print them. They are
 * the reference for each command's options; the package README repeats them.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (what the reading commands show).
 * @module
 */

/** The overview: every command. */
export const USAGE = `usage: parquetry <command> <file> [options]
reading (every reading command takes the key options below):
  cat <file>                       every row (formats, columns and filters: 'parquetry help cat')
  head <file> [-n N]               the first N rows (default 10)
  tail <file> [-n N]               the last N rows (default 10)
  count <file>                     the number of rows (the footer's; --exact or --where count them in the pages)
  schema <file> [--json]           the schema tree, or the footer's schema elements as JSON
  meta <file> [--json]             the footer: rows, key/value metadata, encryption, and per column chunk the codec,
                                   encodings, sizes, statistics, page index and bloom filter
  stats <file> <column>            a column's min, max, nulls, distinct count and sizes per row group and overall
  pages <file> [column]            the page index: each page's rows, bytes, nulls and bounds
  bloom <file> <column> <value>    per row group: may the column's bloom filter contain the value
directories: cat, head, tail, count and schema read a directory as one dataset: every file below it (names starting
with . or _ left out, as pyarrow.dataset does), hive key=value/ folders as columns, schemas unified (as DuckDB's
read_parquet('dir/**/*.parquet', hive_partitioning = true, union_by_name = true)); --where on a partition column
skips the files of other folders; meta summarizes it: files, rows, bytes, partition values, columns, and per file
its rows, row groups and size (--json: all of it as JSON); several files given to these commands (a shell glob,
data/*.parquet) are read the same way, in the order given
urls: every reading command takes an http:// or https:// URL for <file> and reads it with range requests, only the
bytes the command needs (the footer's with one suffix request, then the pages); --header 'NAME: VALUE' adds a request
header (repeatable), e.g. 'Authorization: Bearer …'
writing:
  convert <in> <out> [options]     CSV, NDJSON, JSON or Parquet in, Parquet out
  rewrite <in> <out> [options]     a Parquet file re-encoded (codec, pages, dictionary, encodings)
other:
  help [command]                   this text, or the options of a command
  --version                        the version
key options (encrypted files):
  --footer-key KEY                 the footer key: 16, 24 or 32 bytes as hex, base64 or text
  --column-key PATH=KEY            the key of column PATH (repeatable)
  --aad-prefix TEXT                the AAD prefix, for files that do not store theirs
  --key-file FILE                  the keys as JSON: {"footerKey": KEY, "columnKeys": {"a.b": KEY}, "aadPrefix": TEXT}`;

const KEY_OPTIONS = `key options (encrypted files; a KEY is 16, 24 or 32 bytes as hex, base64 or text, or hex:…, base64:…, text:…):
  --footer-key KEY             the footer key (also the key of columns encrypted with it)
  --column-key PATH=KEY        the key of column PATH, a dotted leaf path (repeatable)
  --aad-prefix TEXT            the AAD prefix, for files written without storing it (hex:… or base64:… for bytes)
  --key-file FILE              the keys as JSON: {"footerKey": KEY, "columnKeys": {"a.b": KEY}, "aadPrefix": TEXT};
                               the options above win over it
url option (a <file> given as an http:// or https:// URL, read with range requests):
  --header 'NAME: VALUE'       a request header, e.g. 'Authorization: Bearer …' (repeatable)
read limits (a read that would hold more in memory fails with LIMIT_EXCEEDED, naming the limit):
  --read-limit NAME=N          maxBytes, maxValues or maxRows: N, or inf for none (repeatable)`;

const VALUE_OPTIONS = `value options (default: JSON-safe values — 64-bit integers as numbers, as strings past 2^53; timestamps,
dates and times in ISO-8601 at the column's precision, with Z when UTC-adjusted; binary as base64; maps as
objects where the keys allow, else lists of {key, value}; NaN and Infinity as strings):
  --raw                        the reader's exact values: 64-bit integers, timestamps (counts of their unit) and
                               dates (day numbers) as digits, maps as lists of {key, value}
  --dates                      with --raw: timestamps and dates as ISO-8601 instants (millisecond precision, Z)
  --binary FORM                binary values as base64 (default), hex or utf8`;

const ROWS_USAGE = `usage: parquetry cat|head|tail <file> [options]
  cat prints every row, head the first N rows, tail the last N; head reads only the pages holding its rows, tail
  only the last row groups.
  -n, --limit N                rows to print (head, tail: default 10; cat: all)
  --offset N                   rows to skip first (tail: counted from the end); with --where, matching rows
  --columns A,B.C              columns to print, in this order (a dotted path prints part of a struct; a name
                               with a dot in double quotes: '"a.b"')
  --where EXPR                 only rows where EXPR holds, e.g. "id > 10 and (name = 'x' or tag in ('a', 'b'))
                               and v is not null": =, !=, <, <=, >, >=, in (…), between … and …, is [not] null,
                               and, or, not, parentheses; text in single quotes; timestamps and dates as text
                               ('2024-01-02 03:04:05.123456', '2024-01-02'); x'0a1b' for bytes; s.a is field a of
                               struct s, a name in double quotes is one name ("a.b" = 1)
  -f, --format FORMAT          table (default on a terminal), ndjson (default otherwise), json or csv
  --stats                      bytes and requests by kind, row groups and pages read and skipped (per column too),
                               rows decoded, on stderr
  --progress, --no-progress    a progress bar on stderr (default: on a terminal, once a read takes half a second;
                               on a directory, over the rows of all its files)
${VALUE_OPTIONS}
${KEY_OPTIONS}`;

const COUNT_USAGE = `usage: parquetry count <file> [options]
  the number of rows, from the footer.
  --exact                      count the rows in the pages (reads the first column)
  --where EXPR                 count the rows where EXPR holds (the syntax of 'parquetry help cat')
  --stats                      bytes and requests, row groups and pages read and skipped, on stderr
  --progress, --no-progress    a progress bar on stderr (default: on a terminal, once a read takes half a second;
                               on a directory, over the rows of all its files)
${KEY_OPTIONS}`;

const SCHEMA_USAGE = `usage: parquetry schema <file> [--json]
  the schema tree: one line per element with its repetition, physical type, name and logical type.
  --json                       the footer's schema elements as a JSON array (parquet.thrift field names; type,
                               repetition_type and converted_type by name; logicalType as its union object)
${KEY_OPTIONS}`;

const META_USAGE = `usage: parquetry meta <file|directory> [options]
  the footer: file size, rows, row groups, columns, format version, created_by, encryption, key/value metadata;
  per row group its rows, sizes and sort order; per column chunk its codec, encodings, values, compressed and
  uncompressed sizes, statistics (nulls, decoded min and max, distinct and NaN counts), page index and bloom filter.
  A directory, read as one dataset, is summarized from its listing and its files' footers: files, rows, row groups,
  bytes; each partition column's type and values (the first and last when there are more than 20); the columns
  of the unified schema with their types; one line per file (path, rows, row groups, bytes, partition values),
  the first 50 of them.
  --json                       the same as one JSON object (parquet.thrift's names, enums by name, bounds in
                               the JSON-safe mapping, 64-bit numbers as strings past 2^53; not with --raw): a
                               file's file, bytes, num_rows, num_row_groups, num_columns, format_version,
                               created_by, encryption, key_value_metadata and row_groups with their columns
                               (codec, encodings, sizes, offsets, statistics, column_index, offset_index,
                               bloom_filter); a directory's path, schema_from, summary_ignored, num_files, num_rows,
                               num_row_groups, bytes, partitions (name, type, num_values, values), columns
                               (name, type, partition) and every file (path, rows, row_groups, bytes, partition)
${VALUE_OPTIONS}
${KEY_OPTIONS}`;

const STATS_USAGE = `usage: parquetry stats <file> <column> [options]
  the column's statistics per row group and for the whole file: rows, values, nulls, distinct count (when the
  writer recorded it), min and max (decoded; exact is false when a bound is truncated), compressed and
  uncompressed sizes, encodings. <column> is a dotted leaf path (or a group holding one leaf).
  -f, --format FORMAT          table (default), ndjson, json or csv
${VALUE_OPTIONS}
${KEY_OPTIONS}`;

const PAGES_USAGE = `usage: parquetry pages <file> [column] [options]
  the page index of every column (or one): each page's rows, bytes, offset, null count and bounds.
  --stats                      bytes and requests read, on stderr
${KEY_OPTIONS}`;

const BLOOM_USAGE = `usage: parquetry bloom <file> <column> <value> [options]
  per row group: whether the column's bloom filter may contain the value (numbers, text, ISO dates and
  timestamps, 0x… hex for binary).
  --stats                      bytes and requests read, on stderr
${KEY_OPTIONS}`;

const OUTPUT_OPTIONS = `output options:
  -c, --compression NAME       uncompressed, snappy (default), gzip, lzo, brotli, lz4, zstd or lz4_raw
  --level N                    the gzip (0-9), zstd (1-22) or brotli (0-11) level
  --row-group-size N           rows per row group (default 1048576; a Parquet input keeps its row groups)
  --page-size BYTES            data page size before compression (default 1m; k, m, g suffixes)
  --page-version 1|2           data page version (default 1)
  --no-dictionary              no dictionary encoding
  --encoding [COL=]ENCODING    PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
                               BYTE_STREAM_SPLIT or ALP for column COL (or every column whose physical type it
                               can write, the others keeping the defaults), without its dictionary (repeatable)
  --progress                   a progress bar on stderr (rows or input bytes done / total, the rate) and a summary
                               line (default: only when stderr is a terminal; elsewhere plain lines)`;

/** `parquetry help convert`. */
export const CONVERT_USAGE = `usage: parquetry convert <in> <out> [options]
  <in> is CSV (.csv, .tsv), NDJSON (.ndjson, .jsonl: one object per line), JSON (.json: an array of objects,
  loaded whole) or Parquet (.parquet, .parq, .pq), by extension; <out> is Parquet, written to a temporary file
  renamed into place at the end (a failed or interrupted convert leaves no <out>). A Parquet <in> may be an
  http:// or https:// URL, read with range requests.
input options:
  --from FORMAT                csv, ndjson, json or parquet, whatever the extension
  --header 'NAME: VALUE'       a request header for a URL <in> (repeatable)
  --read-limit NAME=N          a Parquet <in>'s read limit: maxBytes, maxValues or maxRows (N or inf)
  --footer-key KEY, --column-key PATH=KEY, --aad-prefix TEXT, --key-file FILE
                               the keys of an encrypted Parquet <in>, as for cat (<out> is not encrypted)
  --schema FILE                column types: a JSON object of field specs, e.g. {"id": {"type": "int64"}}
  --type COL=TYPE              the type of column COL (repeatable; wins over --schema and the inference):
                               boolean, int8/16/32/64, uint8/16/32/64, float, double, float16, string, json,
                               enum, binary, uuid, date, time[ms|us|ns], timestamp[ms|us|ns] (local time),
                               timestamptz[ms|us|ns] (UTC instants), decimal(P,S), or a field spec as JSON
  --sample N                   rows the types are inferred from (default 10000)
  --delimiter C                CSV field delimiter: one character, or tab (default ',', tab for .tsv)
  --no-header                  the CSV has no header row (columns are named column0, column1, …)
  --null-value STR             CSV fields equal to STR are null (empty fields always are)
${OUTPUT_OPTIONS}`;

/** `parquetry help rewrite`. */
export const REWRITE_USAGE = `usage: parquetry rewrite <in> <out> [options]
  re-encodes the Parquet file <in> into <out>: the same schema, rows and key/value metadata, copied row group by
  row group in columnar form, with new codec, page, dictionary and encoding options. <in> may be an http:// or
  https:// URL, read with range requests, and may be encrypted (given its keys); <out> is written unencrypted.
input options:
  --header 'NAME: VALUE'       a request header for a URL <in> (repeatable)
  --read-limit NAME=N          a read limit: maxBytes, maxValues or maxRows (N or inf)
  --footer-key KEY, --column-key PATH=KEY, --aad-prefix TEXT, --key-file FILE
                               the keys of an encrypted <in>, as for cat (<out> is not encrypted)
${OUTPUT_OPTIONS}`;

/** The usage of each command. */
export const USAGES: Readonly<Record<string, string>> = {
  cat: ROWS_USAGE,
  head: ROWS_USAGE,
  tail: ROWS_USAGE,
  count: COUNT_USAGE,
  schema: SCHEMA_USAGE,
  meta: META_USAGE,
  stats: STATS_USAGE,
  pages: PAGES_USAGE,
  bloom: BLOOM_USAGE,
  convert: CONVERT_USAGE,
  rewrite: REWRITE_USAGE,
  help: USAGE,
};
