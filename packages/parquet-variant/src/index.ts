/**
 * `@parquetry/parquet-variant` — the Parquet VARIANT binary encoding
 * (https://github.com/apache/parquet-format/blob/master/VariantEncoding.md) and shredding
 * (https://github.com/apache/parquet-format/blob/master/VariantShredding.md).
 *
 * - {@link decodeVariant} / {@link encodeVariant}: metadata + value bytes ⇄ JS values ({@link VariantValue});
 *   dates, timestamps, times, UUIDs and decimals are branded typed values ({@link VARIANT_TYPED}) made by the decoder
 *   or by {@link variantDate}, {@link variantTimestamp}, {@link variantTime}, {@link variantUuid}, {@link variantDecimal};
 *   every plain object is a Variant object.
 *   {@link variantKeys} + {@link encodeMetadata} + {@link encodeVariantValue} encode several values against one metadata.
 * - {@link shreddedShapeFromSchema}, {@link variantColumnLayout}: the shape of a shredded `typed_value` subtree.
 * - {@link mergeShredded}: rebuilds a Variant value from a row's `value` and `typed_value`.
 *
 * @packageDocumentation
 */
export {
  VARIANT_TYPED,
  VariantBasicType,
  VariantPrimitive,
  asTagged,
  compareUtf8,
  formatDecimal,
  isVariantTyped,
  variantDate,
  variantDecimal,
  variantTime,
  variantTimestamp,
  variantUuid,
  type VariantDate,
  type VariantDecimal,
  type VariantObject,
  type VariantTagged,
  type VariantTime,
  type VariantTimestamp,
  type VariantUuid,
  type VariantValue,
} from './variant-value.js';
export { DEFAULT_MAX_VARIANT_DEPTH, VariantMetadata, decodeVariant, splitVariantBinary, type DecodeVariantOptions } from './variant-decode.js';
export { encodeMetadata, encodeVariant, encodeVariantValue, variantKeys, type EncodeVariantOptions, type EncodedVariant } from './variant-encode.js';
export {
  mergeShredded,
  shreddedShapeFromSchema,
  variantColumnLayout,
  type ShreddedArrayShape,
  type ShreddedField,
  type ShreddedObjectShape,
  type ShreddedPrimitiveShape,
  type ShreddedShape,
  type ShreddedSlot,
  type VariantSchemaNode,
} from './variant-shredding.js';
