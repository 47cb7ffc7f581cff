/**
 * The dictionary and bloom-filter stages of the pruning pipeline, for `=` and `in` comparisons:
 * - dictionary: when every data page of a chunk is dictionary-encoded (its `encoding_stats`, or without them its
 *   `encodings` as parquet-java judges them), the dictionary page lists every value of the chunk, so a value it
 *   does not hold is in no row;
 * - bloom filter: a split-block bloom filter (https://github.com/apache/parquet-format/blob/master/BloomFilter.md)
 *   answers "definitely absent" for a value's PLAIN bytes; encrypted filters are two modules (Encryption.md module
 *   types 8, header, and 9, bitset).
 *
 * The bloom-filter stage lives in bloom-stage.ts, loaded with `import()` (see optional.ts) only when a read probes a
 * bloom filter: a reader that never does bundles neither it nor `@parquetry/parquet-bloom`.
 *
 * Both are conservative: whenever a value's physical form is not certain (a lossy value mapping, a type whose
 * bytes are not unique, a value that does not convert back to itself), the stage answers "may match".
 * @module
 */
import { compareDecimals, compareValues } from '@parquetry/parquet-column/filter-values';
import { convertNativeValues, type ValueOptions } from '@parquetry/parquet-column/decode';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { Encoding, PageType, type ColumnMetaData } from '@parquetry/thrift-compact';
import { columnKey, type Filter } from './filter.js';

/** A comparison of a filter (no `and`/`or`/`not`). */
export type LeafFilter = Extract<Filter, { column: unknown }>;

/**
 * Evaluates "may any row match?" over the filter's structure with a per-comparison answer: AND needs every part,
 * OR any part, NOT is always possible (a negation cannot be refuted by what a comparison cannot match).
 * @param f - the filter.
 * @param leaf - false when no row can satisfy the comparison.
 * @returns false when no row can match the filter.
 */
export function mayMatchWith(f: Filter, leaf: (l: LeafFilter) => boolean): boolean {
  if ('and' in f) {
    for (const g of f.and) if (!mayMatchWith(g, leaf)) return false;
    return true;
  }
  if ('or' in f) {
    for (const g of f.or) if (mayMatchWith(g, leaf)) return true;
    return false;
  }
  if ('not' in f) return true;
  return leaf(f);
}

/**
 * The `=` and `in` comparisons of a filter (those a dictionary or a bloom filter can refute).
 * @param f - the filter.
 * @param out - where to add them.
 * @returns the comparisons.
 */
export function equalityLeaves(f: Filter, out: LeafFilter[] = []): LeafFilter[] {
  if ('and' in f) f.and.forEach((g) => equalityLeaves(g, out));
  else if ('or' in f) f.or.forEach((g) => equalityLeaves(g, out));
  else if ('not' in f) equalityLeaves(f.not, out);
  else if (f.op === '=' || f.op === 'in') out.push(f);
  return out;
}

/**
 * The values an `=`/`in` comparison looks for.
 * @param l - the comparison.
 * @returns its value, or its values (none for other operators).
 */
export function leafValues(l: LeafFilter): readonly unknown[] {
  return l.op === 'in' ? l.values : l.op === '=' ? [l.value] : [];
}

const isDictEncoding = (e: number) => e === Encoding.PLAIN_DICTIONARY || e === Encoding.RLE_DICTIONARY;

/**
 * Whether every data page of a chunk is dictionary-encoded, so its dictionary page holds all its values. With
 * `encoding_stats`: no data page (V1 or V2) has another encoding. Without them (as parquet-java decides): the
 * encodings are PLAIN_DICTIONARY plus level encodings (RLE, BIT_PACKED) only — with RLE_DICTIONARY the list cannot
 * tell a fallback page from the PLAIN dictionary page, so the answer is no.
 * @param md - the chunk's metadata.
 * @returns true when the dictionary may be used for pruning.
 */
export function allPagesDictionaryEncoded(md: ColumnMetaData): boolean {
  const stats = md.encoding_stats;
  if (stats !== undefined) {
    let dictPages = 0;
    for (const s of stats) {
      if (s.page_type !== PageType.DATA_PAGE && s.page_type !== PageType.DATA_PAGE_V2) continue;
      if (s.count > 0 && !isDictEncoding(s.encoding)) return false;
      dictPages += s.count;
    }
    return dictPages > 0;
  }
  const encodings = new Set(md.encodings);
  if (!encodings.delete(Encoding.PLAIN_DICTIONARY)) return false;
  encodings.delete(Encoding.RLE);
  encodings.delete(Encoding.BIT_PACKED);
  return encodings.size === 0;
}

/**
 * Whether a dictionary holds a value an `=`/`in` comparison looks for, compared exactly as rows are (decimal columns
 * as decimals).
 * @param leaf - the comparison.
 * @param dictionary - the dictionary's values, converted like the column's values.
 * @param decimals - DECIMAL columns' keys (filter.ts `columnKey`).
 * @returns false when no dictionary value matches.
 */
export function dictionaryMayContain(leaf: LeafFilter, dictionary: ArrayLike<unknown>, decimals: ReadonlySet<string>): boolean {
  const cmp = decimals.has(columnKey(leaf.column)) ? compareDecimals : compareValues;
  const wanted = leafValues(leaf);
  const n = dictionary.length;
  for (const v of wanted) {
    if (v === null || v === undefined) continue;
    for (let i = 0; i < n; i++) if (cmp(dictionary[i], v) === 0) return true;
  }
  return false;
}

/**
 * Converts a dictionary's physical values like the column's values.
 * @param dictionary - the dictionary page values.
 * @param column - the leaf column.
 * @param options - value mapping.
 * @returns one JavaScript value per entry.
 */
export function dictionaryValues(dictionary: ColumnValues, column: ColumnDescriptor, options: ValueOptions): ArrayLike<unknown> {
  return convertNativeValues(dictionary, column, options);
}
