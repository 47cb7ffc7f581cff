/**
 * Filtered reads of flat columns (top-level leaves without repetition): the filter is evaluated row by row on the
 * decoded column values, and a row object is built only for the rows that match, so a selective read does not
 * materialise the rows it drops. Levels are validated exactly as row assembly validates them.
 * @module
 */
import { validateColumnLevels, validateRowCounts, type ColumnData, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { filterColumns, matchRow, type Filter } from './filter.js';

/** One flat column ready for row-wise reading. */
export interface FlatColumn {
  /** The leaf. */
  column: ColumnDescriptor;
  /** Levels and converted non-null values. */
  data: ColumnData;
  /** Whether the caller asked for this column (otherwise it is read only for the filter). */
  output: boolean;
}

/**
 * Whether every column in `columns` is a flat top-level leaf (so rows are one value per column).
 * @param columns - the selected leaves.
 */
export function allFlat(columns: readonly ColumnDescriptor[]): boolean {
  return columns.every((c) => c.maxRep === 0 && c.path.length === 1 && !c.node.logicalType?.VARIANT);
}

/**
 * Filters rows of flat columns, building objects only for matching rows.
 * @param cols - the columns, in schema order.
 * @param filter - the filter.
 * @param decimals - paths of DECIMAL columns (exact comparison).
 * @param first - first row (relative to the row group) to consider.
 * @param last - row after the last one to consider.
 * @returns the matching rows, with only the output columns.
 * @throws ParquetError `INVALID_LEVELS` / `ROW_COUNT_MISMATCH` for inconsistent levels, as row assembly would.
 */
export function filterFlatRows(cols: readonly FlatColumn[], filter: Filter, decimals: ReadonlySet<string>, first: number, last: number): Record<string, unknown>[] {
  const counts = cols.map((c) => validateColumnLevels(c.column, c.data));
  const n = validateRowCounts(
    cols.map((c) => c.column),
    counts,
  );
  const k = cols.length;
  const filterNames = filterColumns(filter);
  const names = cols.map((c) => c.column.path[0]!);
  const maxDef = cols.map((c) => c.column.maxDef);
  const defs = cols.map((c) => c.data.def);
  // the reader gives flat filtered reads converted values (arrays), never BinaryValues
  const vals = cols.map((c) => c.data.values as ArrayLike<unknown>);
  const cursor = new Int32Array(k);
  const current: unknown[] = new Array(k);
  const own = (o: Record<string, unknown>, name: string, v: unknown) => {
    // a plain store, except for `__proto__`, which must stay an own data property
    if (name === '__proto__') Object.defineProperty(o, name, { value: v, writable: true, enumerable: true, configurable: true });
    else o[name] = v;
  };
  // one reusable probe object holds the current row's filter-column values
  const filterIdx = cols.map((_, j) => j).filter((j) => !cols[j]!.output || filterNames.has(names[j]!));
  const outIdx = cols.map((_, j) => j).filter((j) => cols[j]!.output);
  const template: Record<string, unknown> = {};
  for (const j of outIdx) Object.defineProperty(template, names[j]!, { value: null, writable: true, enumerable: true, configurable: true });
  const probe: Record<string, unknown> = {};
  const out: Record<string, unknown>[] = [];
  const end = Math.min(n, last);
  for (let r = 0; r < end; r++) {
    for (let j = 0; j < k; j++) {
      const d = defs[j];
      current[j] = d === undefined || d[r] === maxDef[j] ? vals[j]![cursor[j]!++] : null;
    }
    if (r < first) continue;
    for (let t = 0; t < filterIdx.length; t++) own(probe, names[filterIdx[t]!]!, current[filterIdx[t]!]);
    if (!matchRow(filter, probe, decimals)) continue;
    const row: Record<string, unknown> = { ...template };
    for (let t = 0; t < outIdx.length; t++) row[names[outIdx[t]!]!] = current[outIdx[t]!];
    out.push(row);
  }
  return out;
}
