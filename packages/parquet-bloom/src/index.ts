/**
 * `@parquetry/parquet-bloom` — Parquet split-block bloom filters (BloomFilter.md) with
 * XXH64 (seed 0) of each value's PLAIN encoding.
 *
 * - {@link SplitBlockBloomFilter}: the filter (sizing, insert, probe, bulk inserts per physical type).
 * - {@link xxhash64} and fixed-width variants: the hash, without BigInt or allocation.
 * - {@link bloomMightContain} / {@link bloomMightContainAny}: a reader's "definitely absent / maybe
 *   present" answer for `=` and `IN` predicates; {@link bloomInsert} / {@link hashValue} for writers.
 * - {@link serializeBloomFilter} / {@link readBloomFilterData} / {@link readColumnBloomFilter}:
 *   the on-disk form (Thrift `BloomFilterHeader` + bitset) and locating it from `ColumnMetaData`.
 *
 * @packageDocumentation
 */
export { xxhash64, xxhash64Int32, xxhash64Int64, xxhash64Float, xxhash64Double } from './xxhash64.js';
export { SplitBlockBloomFilter, optimalNumBytes, expectedFpp, BLOOM_MIN_BYTES, BLOOM_DEFAULT_MAX_BYTES } from './sbbf.js';
export {
  serializeBloomFilter,
  bloomFilterHeaderFor,
  readBloomFilterData,
  readColumnBloomFilter,
  readColumnBloomFilterSync,
  type ReadBloomFilterOptions,
  type BloomFilterData,
  type BloomByteSource,
} from './bloom-filter-data.js';
export { hashValue, bloomInsert, bloomMightContain, bloomMightContainAny, type BloomValue } from './predicate.js';
