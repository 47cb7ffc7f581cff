/**
 * `@parquetry/parquet-levels/read` — the read side alone: the schema tree, level stream decoding, level checks and
 * the records of flat reads (`assembleFlatRecords`). The same functions as the package's main entry without
 * shredding, the level encoders, nested record assembly (`assembleRecords`, in the `/records` entry) and columnar
 * assembly (`assembleColumnar`, in `/columnar`), which a reader loads with `import()` when a read needs them, so that a
 * bundler reaching this entry reaches no writer part and no value encoder (esbuild places every module its entry can
 * reach in the initial load once any chunk uses it).
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
export { assembleFlatRecords, prepareColumns } from './assemble.js';
export type { AssembleOptions, PreparedColumns } from './assemble.js';
export type { ColumnarVector, VectorBase, LeafVector, BinaryVector, StructVector, ListVector, MapVector } from './columnar.js';
export { validateColumnLevels, validateRowCounts, levelCount, isBinaryValues, isBooleanBits, unpackBooleans, valuesLength } from './validate.js';
export type { ColumnData, BinaryValues, BooleanBits, ColumnValuesInput } from './validate.js';
export { levelBitWidth, decodeLevelsV1, decodeLevelsV2, decodeLevelsBitPacked, rleHybridCapacity, checkLevelCapacity } from './levels-codec.js';
