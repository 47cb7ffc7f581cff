/**
 * `@parquetry/parquet-reader/filters` — evaluating and pruning with a {@link Filter} outside a read, and the value
 * ordering filters use. A read's `filter` option needs none of this (the reader loads what a filtered read needs
 * when it runs one); this subpath is for code that matches rows itself (a dataset, a command line), so that a
 * browser reader which never filters does not load it.
 *
 * ```ts
 * import { checkFilter, matchRow } from '@parquetry/parquet-reader/filters';
 * matchRow({ column: 'id', op: '>', value: 100n }, { id: 101n }); // true
 * // a filter's values converted to its columns' types under a value mapping, as a read does first
 * const f = checkFilter({ column: 'day', op: '>=', value: '2024-01-02' }, file.schema, {}); // value: 19724 (days)
 * ```
 *
 * @packageDocumentation
 */
export { columnKey, filterColumns, matchRow, statisticsPruner, type Filter, type FilterColumn, type CompareOp, type RowGroupPruner, type StatisticsLookup } from './filter.js';
export { checkFilter } from './filter-check.js';
export { compareValues, compareDecimals } from '@parquetry/parquet-column/filter-values';
