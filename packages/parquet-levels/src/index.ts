/**
 * `@parquetry/parquet-levels` — Parquet schema tree, definition/repetition levels, Dremel shredding and assembly.
 *
 * - {@link buildSchemaTree}: the schema tree from the footer's flat element list, with max
 *   definition/repetition levels, column paths, resolved logical types, and the struct/list/map
 *   interpretation including every backward-compatibility rule of LogicalTypes.md; {@link checkDecimals}: the
 *   DECIMAL annotations' precision and scale against their physical types.
 * - {@link logicalTypeFromConverted} / {@link convertedFromLogicalType}: both directions of the
 *   ConvertedType ⇄ LogicalType mapping.
 * - {@link shredRecords}: nested records → per-leaf levels and values.
 * - {@link assembleRecords}: per-leaf levels and values → nested records.
 * - {@link assembleColumnar}: the same into Arrow-style offsets and validity ({@link BinaryValues} stay
 *   byte buffers with offsets: a {@link BinaryVector}).
 * - {@link shredColumnar}: the inverse of {@link assembleColumnar}: vectors → per-leaf levels and dense values
 *   ({@link ShreddedLeaf}), without per-value work where none is needed.
 * - {@link validateColumnLevels} / {@link validateRowCounts}: checks of untrusted levels.
 * - {@link decodeLevelsV1}, {@link decodeLevelsV2}, {@link decodeLevelsBitPacked} and encoders:
 *   the level streams of data pages.
 *
 * @packageDocumentation
 */
export { logicalTypeFromConverted, convertedFromLogicalType, resolveLogicalType } from './logical-type.js';
export type { ConvertedAnnotation } from './logical-type.js';
export { buildSchemaTree, checkDecimals, MAX_SCHEMA_DEPTH } from './schema.js';
export type {
  SchemaNode, ColumnDescriptor, SchemaTree, Field, FieldBase, LeafField, StructField, ListField, MapField, ListRule, MapRule,
} from './schema.js';
export { pruneField, pruneStruct } from './prune.js';
export { shredRecords } from './shred.js';
export type { ShreddedColumn, ShredOptions } from './shred.js';
export { assembleFlatRecords, prepareColumns } from './assemble.js';
export { assembleRecords } from './records.js';
export type { AssembleOptions, PreparedColumns } from './assemble.js';
export { assembleColumnar } from './columnar.js';
export { ShredScratch, shredColumnar } from './shred-columnar.js';
export type { ShreddedLeaf } from './shred-columnar.js';
export type { ColumnarVector, VectorBase, LeafVector, BinaryVector, StructVector, ListVector, MapVector } from './columnar.js';
export { validateColumnLevels, validateRowCounts, levelCount, isBinaryValues, isBooleanBits, unpackBooleans, valuesLength } from './validate.js';
export type { ColumnData, BinaryValues, BooleanBits, ColumnValuesInput, ByteLevelCounter } from './validate.js';
export {
  levelBitWidth, decodeLevelsV1, decodeLevelsV2, decodeLevelsBitPacked, rleHybridCapacity, checkLevelCapacity,
} from './levels-codec.js';
export { encodeLevelsV1, encodeLevelsV2 } from './levels-encode.js';
