// Review of corpus files where the peers disagree, fail, or are known to read wrongly, with the reason from the
// Parquet spec (apache/parquet-format) or the file's own metadata. derive-expected.mjs applies these entries:
// `trusted` names the peer whose values become the expectation ("none": no peer is right for the whole file).
// `int96Raw` gives the raw 12-byte INT96 values of a column per row (hex, as stored in the file's pages), from
// which the expectation is computed with canon.formatInt96 (exact BigInt arithmetic).
// `described` gives rows too large for a JS string in a compact form ({"$repeat": s, "count": n} stands for the
// string s repeated n times); the digest is then computed by streaming.

/**
 * @typedef {object} Review
 * @property {'duckdb' | 'parquet-wasm' | 'none'} trusted
 * @property {string[]} notes
 * @property {Record<string, (string | null)[]>} [int96Raw]
 * @property {unknown[]} [described]
 * @property {string} [errorWhenVerifying]  the typed error a reader must raise with page checksums verified (default)
 * @property {(rows: any[]) => any[]} [transform]  maps the trusted peer's rows to the canonical form where the peer's
 *   representation differs from canon.mjs (documented in notes)
 */

/** @type {Record<string, Review>} */
export const REVIEW = {
  'data/int96_from_spark.parquet': {
    trusted: 'none',
    int96Raw: {
      // The column chunk's dictionary page (SNAPPY, PLAIN INT96, 5 entries); rows 0-3 and 5 index entries 0-4, row 4 is null
      // (both peers agree on that mapping for the in-range rows). Bytes: 8 bytes LE nanoseconds of day, 4 bytes LE Julian day.
      a: [
        '002a1ed963430000978a2500',
        '00a0b83046030000978a2500',
        '00e02992d20900002cfe5100',
        '006096604e4b0000038c2500',
        null,
        '0060b9c76ee2ffffa8abb0f9',
      ],
    },
    notes: [
      'INT96 values outside the 64-bit nanosecond range: parquet-wasm (arrow-rs) converts to Timestamp(ns) and overflows rows 2 and 5 (9999-12-31 reads as 1816-03-29); DuckDB converts to microseconds, right for row 2 (9999-12-31T03:00) but its int64 microseconds overflow on row 5 (Julian day -105862232, nanos -32509551616000).',
      'Expected values are computed from the raw INT96 bytes of the dictionary page with exact BigInt arithmetic (signed nanos of day, signed Julian day, as Impala/Arrow define INT96); hyparquet, used as a cross-check, ORs the signed nanos-of-day field into the Julian-day bits (BigInt(day) << 64n | nanos), so the negative nanos of row 5 corrupt the day: it is also wrong on row 5 (-4128-06-12T14:32:44.157935616).',
    ],
  },
  'data/repeated_no_annotation.parquet': {
    trusted: 'duckdb',
    notes: [
      'FileMetaData.num_rows is 0 (parquet-rs 0.3.0) while the only row group says 6 rows and its pages hold 6 records; parquet-wasm (arrow-rs) trusts the footer count and returns 0 rows, DuckDB reads the 6 rows. The issue calls this out: trusting the footer returns 0 rows.',
      'DuckDB applies the LIST backward-compatibility rule for an unannotated repeated group (LogicalTypes.md: a repeated field that is neither LIST nor MAP annotated is a list of required elements): phoneNumbers.phone is a list of {number, kind}.',
    ],
  },
  'data/large_string_map.brotli.parquet': {
    trusted: 'none',
    described: [
      { arr: [{ key: { $repeat: 'a', count: 1073741824 }, value: 1 }] },
      { arr: [{ key: { $repeat: 'a', count: 1073741824 }, value: 1 }] },
    ],
    notes: [
      'Each of the 2 rows holds a MAP(STRING, INT32) with one entry whose key is a 1 GiB string: longer than V8 strings allow, so neither peer can hand it to JavaScript (DuckDB: "Cannot create a string longer than 0x1fffffe8 characters"; parquet-wasm panics: unreachable).',
      'Expected values from DuckDB SQL over the same file (native, no JS strings): count(*) = 2; per row cardinality(arr) = 1, length(key) = 1073741824, key = repeat(\'a\', 1073741824) is true, md5(key) = adb5a28fda6ec2a01075b9945887a083, value = 1. The digest is the sha256 of the canonical JSON text, computed by streaming.',
    ],
  },
  'data/nation.dict-malformed.parquet': {
    trusted: 'duckdb',
    notes: [
      'parquet-wasm (arrow-rs) rejects it ("EOF: Invalid page header"). The footer lists no encodings and no dictionary_page_offset for any column (parquet-mr); the MANIFEST describes the file as having a malformed dictionary. DuckDB reads 25 rows that are the TPC-H nation table (nation_key 0..24, ALGERIA, ARGENTINA, BRAZIL, ...), consistent with the footer (num_rows 25, num_values 25 per column). Only DuckDB confirms the values; a reader that rejects the file with a typed error is defensible, one that returns other values is wrong.',
    ],
  },
  'data/dict-page-offset-zero.parquet': {
    trusted: 'duckdb',
    notes: [
      'The column chunk has dictionary_page_offset = 0 although it has no dictionary page (encodings PLAIN, BIT_PACKED, RLE; data_page_offset 4): a reader must not seek to offset 0 (the magic) but start at data_page_offset. parquet-wasm (arrow-rs) fails ("Expected list element type of I64 but got I16"); DuckDB reads the 39 rows, matching num_rows. Only DuckDB confirms the values.',
    ],
  },
  'data/byte_stream_split_extended.gzip.parquet': {
    trusted: 'parquet-wasm',
    notes: [
      'DuckDB refuses BYTE_STREAM_SPLIT for INT32/INT64/FIXED_LEN_BYTE_ARRAY ("only supported for FLOAT or DOUBLE"), but Encodings.md allows BYTE_STREAM_SPLIT for those types since format 2.11; parquet-wasm reads all columns. Each *_byte_stream_split column should equal its *_plain twin, which the conformance runner can check independently.',
    ],
  },
  'data/hadoop_lz4_compressed.parquet': {
    trusted: 'parquet-wasm',
    notes: ['DuckDB does not implement the deprecated LZ4 codec (Hadoop framing); parquet-wasm (arrow-rs) reads it. Only one peer confirms the values.'],
  },
  'data/hadoop_lz4_compressed_larger.parquet': {
    trusted: 'parquet-wasm',
    notes: ['DuckDB does not implement the deprecated LZ4 codec (Hadoop framing); parquet-wasm (arrow-rs) reads it. Only one peer confirms the values.'],
  },
  'data/non_hadoop_lz4_compressed.parquet': {
    trusted: 'parquet-wasm',
    notes: ['DuckDB does not implement the deprecated LZ4 codec (here raw LZ4 blocks without Hadoop framing, which readers fall back to); parquet-wasm (arrow-rs) reads it. Only one peer confirms the values.'],
  },
  'data/map_no_value.parquet': {
    trusted: 'parquet-wasm',
    transform: (rows) => rows.map((r) => ({ ...r, my_map_no_v: r.my_map_no_v === null ? null : r.my_map_no_v.map((/** @type {unknown} */ k) => ({ key: k })) })),
    notes: [
      'my_map (MAP, key_value {key, optional value}) has all values null; my_map_no_v is a MAP whose key_value group has only a key field; my_list is a plain LIST. LogicalTypes.md: key_value "must be a repeated group with a key field for map keys and, optionally, a value field for map values", so the file is valid. DuckDB rejects it ("MAP_KEY_VALUE requires two children"); parquet-wasm (arrow-rs) reads my_map_no_v as a list of keys.',
      'Canonical form chosen for a MAP without a value field: entries {"key": k} with no "value" member (distinct from a present-but-null value); the expectation is parquet-wasm\'s rows with my_map_no_v rewritten that way. Only one peer confirms the values (keys agree with my_list).',
    ],
  },
  'data/datapage_v1-corrupt-checksum.parquet': {
    trusted: 'duckdb',
    errorWhenVerifying: 'page CRC32 mismatch (a data page of this file has a deliberately corrupted checksum)',
    notes: [
      'Neither peer verifies page CRC32 (PageHeader.crc), so both return the values decoded from the page bodies. With checksum verification on (the default the issue asks for) a reader must raise a typed error naming row group, column and page; with verification off it must return these values.',
    ],
  },
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': {
    trusted: 'duckdb',
    errorWhenVerifying: 'page CRC32 mismatch (a page of this file has a deliberately corrupted checksum)',
    notes: [
      'Neither peer verifies page CRC32 (PageHeader.crc), so both return the values decoded from the page bodies. With checksum verification on (the default) a reader must raise a typed error; with verification off it must return these values.',
    ],
  },
};

// shredded_variant: the expectation is always the upstream variant binary (cases.json); these entries say why
// DuckDB (the only peer that decodes VARIANT) does not match it.
const NANOS = 'DuckDB keeps a TIMESTAMP_NANOS variant value as microseconds (truncated toward zero), losing the nanoseconds; the upstream binary keeps them. Expected values come from the upstream variant binary.';
const NO_VALUE = 'DuckDB fails with an internal error ("The Variant column must have \'metadata\' and \'value\' as the first two columns"), but VariantShredding.md makes the value column optional when typed_value is present. Expected values come from the upstream variant binary.';
const STATS = 'DuckDB fails with an internal error ("Calling StructStats::GetChildStats but there are no stats for this index") on this shredded layout. Expected values come from the upstream variant binary.';
const NOT_REJECTED = 'DuckDB returns a value instead of rejecting the file; cases.json requires an error. The expectation is the error.';
/** @type {Record<string, string>} */
const SHREDDED = {
  'case-033': NANOS,
  'case-034': NANOS,
  'case-077': NANOS,
  'case-078': NANOS,
  'case-119': NANOS,
  'case-120': NANOS,
  'case-041': NO_VALUE,
  'case-131': NO_VALUE,
  'case-138': NO_VALUE,
  'case-088': STATS,
  'case-132': STATS,
  'case-040': NOT_REJECTED,
  'case-042': NOT_REJECTED,
  'case-137': NOT_REJECTED,
  'case-043-INVALID': 'cases.json marks the file invalid (a shredded field conflicts with a field of the unshredded value object) and lets readers either reject it or return the shredded value; DuckDB returns the field from the value object as well ({"a":null,"b":"2024-01-30"}) instead of the upstream {"a":null}. The expectation is the upstream value (or a typed error).',
};
for (const [c, note] of Object.entries(SHREDDED)) REVIEW[`shredded_variant/${c}.parquet`] = { trusted: 'none', notes: [note] };
