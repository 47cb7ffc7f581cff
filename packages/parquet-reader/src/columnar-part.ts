/**
 * Columnar reads as a lazy part of the reader (`loadColumnar` in optional.ts): {@link ParquetFile.readRowGroupColumns}
 * and `@parquetry/parquet-levels`'s columnar assembly, in a module of the reader's own so that the `import()` target
 * reaches what the other lazy parts reach (see optional.ts, `Chunk grouping`).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import '@parquetry/parquet-column/decode';
import { convertNativeChunk, type DecodedChunk } from '@parquetry/parquet-column/decode';
import { chunkByteArrays, columnarValues } from '@parquetry/parquet-column/columnar';
import { assembleColumnar } from '@parquetry/parquet-levels/columnar';
// the batch reader's columnar batches assemble with it too (one lazy chunk for both reads)
export { assembleColumnar };
import type { ColumnData, StructVector } from '@parquetry/parquet-levels/read';
import { Type } from '@parquetry/thrift-compact';
import type { File, ParquetFile, ReadOptions } from './file.js';
import { loadJson } from './optional.js';
import type { Scan } from './pipeline.js';

/**
 * {@link ParquetFile.readRowGroupColumns} of an opened file.
 * @param file - the file.
 * @param rowGroup - the row group ordinal.
 * @param options - projection, value mapping, filter and row range.
 * @returns the row group's vectors.
 * @throws ParquetError as {@link ParquetFile.readRowGroupColumns}.
 */
export async function readRowGroupColumns(file: File, rowGroup: number, options: ReadOptions): Promise<StructVector> {
  const prep = await file.prepare(options, 'a columnar read');
  options = prep.options;
  const { sel, schema } = file.project(options.columns);
  const filter = options.filter;
  const ranged = options.rowStart !== undefined || options.rowEnd !== undefined;
  const group = file.rowGroup(rowGroup);
  let chunks: (DecodedChunk | undefined)[];
  let scan: Scan;
  if (!filter && (!ranged || !sel.includes(true))) {
    scan = file.newScan(options, sel);
    chunks = await file.decodeChunks(rowGroup, sel, scan);
  } else {
    const { filterIdx, decimals } = await file.filterPlan(filter, options, 'a columnar read');
    let start = 0;
    for (let g = 0; g < rowGroup; g++) start += file.rowGroup(g).num_rows;
    const first = Math.max(0, (options.rowStart ?? 0) - start);
    const last = Math.max(0, Math.min((options.rowEnd ?? Infinity) - start, group.num_rows));
    const pruned = await file.prunedScan(options, sel, filter, filterIdx, decimals);
    scan = pruned;
    chunks = (await pruned.rowGroup(rowGroup, first, last, false))!;
  }
  const binaryVectors = options.binary !== 'values';
  const data = chunks.map((c, i): ColumnData | undefined => {
    if (c === undefined) return undefined;
    const col = file.schema.columns[i]!;
    const values =
      binaryVectors && col.type === Type.BYTE_ARRAY && !col.node.logicalType?.DECIMAL
        ? chunkByteArrays(c.segments, c.dictionary, c.numValues, `row group ${rowGroup}, column '${col.pathString}'`, (b) => scan.chargeBytes(b, `row group ${rowGroup}, column '${col.pathString}': its values as one byte vector`))
        : (columnarValues(c, col, options) ?? convertNativeChunk(c, col, options));
    return { def: c.def, rep: c.rep, numLevels: c.numLevels, values };
  });
  const v = assembleColumnar(schema, data);
  scan.returned(v.length);
  file.endScan(scan, options);
  return prep.json ? (await loadJson()).jsonVector(v, file.schema) : v;
}
