/**
 * Columnar reads as a lazy part of the reader (`loadColumnar` in optional.ts): the vectors of
 * {@link ParquetFile.readRowGroupColumns} from the decoded chunks, by `@parquetry/parquet-levels`'s columnar
 * assembly, in a module of the reader's own so that the `import()` target reaches what the other lazy parts reach
 * (see optional.ts, `Chunk grouping`).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import '@parquetry/parquet-column/read';
import { chunkByteArrays, columnarValues, convertChunk, type DecodedChunk } from '@parquetry/parquet-column/read';
import { assembleColumnar } from '@parquetry/parquet-levels/columnar';
// the batch reader's columnar batches assemble with it too (one lazy chunk for both reads)
export { assembleColumnar };
import type { ColumnData, StructVector } from '@parquetry/parquet-levels/read';
import { Type } from '@parquetry/thrift-compact';
import type { File, ParquetFile, ReadOptions } from './file.js';
import { loadJson } from './optional.js';
import type { Scan } from './pipeline.js';

/**
 * The end of {@link ParquetFile.readRowGroupColumns}: a row group's decoded chunks as vectors (BYTE_ARRAY columns as
 * offsets + bytes unless `binary: 'values'`, the columnar forms of booleans and integers), assembled, counted and,
 * under `values: 'json'`, mapped to JSON-safe values. The file decodes the chunks before it loads this module (see
 * file.ts).
 * @param file - the file.
 * @param rowGroup - the row group ordinal.
 * @param chunks - its decoded chunks (undefined for columns not read).
 * @param scan - the read, ended here.
 * @param options - the read's prepared options.
 * @param json - whether the read asked for `values: 'json'`.
 * @returns the row group's vectors.
 * @throws ParquetError from the conversion (`VALUE_TOO_LARGE`, …) and the assembly.
 */
export async function columnarVector(file: File, rowGroup: number, chunks: readonly (DecodedChunk | undefined)[], scan: Scan, options: ReadOptions, json: boolean): Promise<StructVector> {
  const binaryVectors = options.binary !== 'values';
  const data = chunks.map((c, i): ColumnData | undefined => {
    if (c === undefined) return undefined;
    const col = file.schema.columns[i]!;
    const values =
      binaryVectors && col.type === Type.BYTE_ARRAY && !col.node.logicalType?.DECIMAL
        ? chunkByteArrays(c.segments, c.dictionary, c.numValues, `row group ${rowGroup}, column '${col.pathString}'`)
        : (columnarValues(c, col, options) ?? convertChunk(c, col, options));
    return { def: c.def, rep: c.rep, numLevels: c.numLevels, values };
  });
  const v = assembleColumnar(file.schema, data);
  scan.returned(v.length);
  file.endScan(scan, options);
  return json ? (await loadJson()).jsonVector(v, file.schema) : v;
}
