/**
 * `@parquetry/parquet-reader/filters` — evaluating and pruning with a {@link Filter} outside a read, and the value
 * ordering filters use. A read's `filter` option needs none of this (the reader loads what a filtered read needs
 * when it runs one); this subpath is for code that matches rows itself (a dataset, a command line), so that a
 * browser reader which never filters does not load it.
 *
 * ```ts
 * import { matchRow } from '@parquetry/parquet-reader/filters';
 * matchRow({ column: 'id', op: '>', value: 100n }, { id: 101n }); // true
 * ```
 *
 * @packageDocumentation
 */
export { filterColumns, matchRow, statisticsPruner, type Filter, type CompareOp, type RowGroupPruner, type StatisticsLookup } from './filter.js';
export { compareValues, compareDecimals } from '@parquetry/parquet-column/filter-values';
