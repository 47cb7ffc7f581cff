/**
 * LogicalType ⇄ ConvertedType mapping: the "Backward compatibility" and "Forward
 * compatibility" tables of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (sections
 * "Compatibility", "Deprecated integer ConvertedType", "Deprecated time ConvertedType",
 * "Deprecated timestamp ConvertedType", DECIMAL, Nested Types).
 *
 * @module
 */
import { ConvertedType } from '@parquetry/thrift-compact';
import type { LogicalType, SchemaElement, TimeUnit } from '@parquetry/thrift-compact';

/** The ConvertedType (plus DECIMAL scale/precision) a writer must also store for a LogicalType. */
export interface ConvertedAnnotation {
  /** The ConvertedType enum value. */
  converted_type: ConvertedType;
  /** DECIMAL scale, set only for DECIMAL. */
  scale?: number;
  /** DECIMAL precision, set only for DECIMAL. */
  precision?: number;
}

const MILLIS: TimeUnit = { MILLIS: {} };
const MICROS: TimeUnit = { MICROS: {} };

/**
 * Maps a legacy ConvertedType to the LogicalType a reader should use (the spec's
 * "Backward compatibility" direction).
 *
 * `MAP_KEY_VALUE` and `INTERVAL` have no LogicalType and give `undefined` (a
 * `MAP_KEY_VALUE` group is still interpreted as a map by the schema tree).
 * `TIME_*`/`TIMESTAMP_*` map to `isAdjustedToUTC = true` as the spec says.
 *
 * @param convertedType - the ConvertedType enum value.
 * @param scale - SchemaElement `scale` (DECIMAL only; default 0).
 * @param precision - SchemaElement `precision` (DECIMAL only).
 * @returns the equivalent LogicalType, or `undefined` when there is none (or precision is missing for DECIMAL).
 */
export function logicalTypeFromConverted(convertedType: number, scale?: number, precision?: number): LogicalType | undefined {
  switch (convertedType) {
    case ConvertedType.UTF8: return { STRING: {} };
    case ConvertedType.MAP: return { MAP: {} };
    case ConvertedType.LIST: return { LIST: {} };
    case ConvertedType.ENUM: return { ENUM: {} };
    case ConvertedType.DECIMAL:
      return precision === undefined ? undefined : { DECIMAL: { scale: scale ?? 0, precision } };
    case ConvertedType.DATE: return { DATE: {} };
    case ConvertedType.TIME_MILLIS: return { TIME: { isAdjustedToUTC: true, unit: MILLIS } };
    case ConvertedType.TIME_MICROS: return { TIME: { isAdjustedToUTC: true, unit: MICROS } };
    case ConvertedType.TIMESTAMP_MILLIS: return { TIMESTAMP: { isAdjustedToUTC: true, unit: MILLIS } };
    case ConvertedType.TIMESTAMP_MICROS: return { TIMESTAMP: { isAdjustedToUTC: true, unit: MICROS } };
    case ConvertedType.UINT_8: return { INTEGER: { bitWidth: 8, isSigned: false } };
    case ConvertedType.UINT_16: return { INTEGER: { bitWidth: 16, isSigned: false } };
    case ConvertedType.UINT_32: return { INTEGER: { bitWidth: 32, isSigned: false } };
    case ConvertedType.UINT_64: return { INTEGER: { bitWidth: 64, isSigned: false } };
    case ConvertedType.INT_8: return { INTEGER: { bitWidth: 8, isSigned: true } };
    case ConvertedType.INT_16: return { INTEGER: { bitWidth: 16, isSigned: true } };
    case ConvertedType.INT_32: return { INTEGER: { bitWidth: 32, isSigned: true } };
    case ConvertedType.INT_64: return { INTEGER: { bitWidth: 64, isSigned: true } };
    case ConvertedType.JSON: return { JSON: {} };
    case ConvertedType.BSON: return { BSON: {} };
    default: return undefined; // MAP_KEY_VALUE, INTERVAL, unknown values
  }
}

/**
 * Maps a LogicalType to the ConvertedType a writer must also store (the spec's
 * "Forward compatibility" direction). Local (`isAdjustedToUTC = false`) TIME and
 * TIMESTAMP also map to the legacy annotation, as the spec requires.
 *
 * @param logicalType - the LogicalType union value.
 * @returns the ConvertedType annotation, or `undefined` when the spec gives none
 *   (NANOS units, UUID, FLOAT16, UNKNOWN, VARIANT, GEOMETRY, GEOGRAPHY, FILE, odd INT widths).
 */
export function convertedFromLogicalType(logicalType: LogicalType): ConvertedAnnotation | undefined {
  const lt = logicalType;
  if (lt.STRING) return { converted_type: ConvertedType.UTF8 };
  if (lt.MAP) return { converted_type: ConvertedType.MAP };
  if (lt.LIST) return { converted_type: ConvertedType.LIST };
  if (lt.ENUM) return { converted_type: ConvertedType.ENUM };
  if (lt.DECIMAL) return { converted_type: ConvertedType.DECIMAL, scale: lt.DECIMAL.scale, precision: lt.DECIMAL.precision };
  if (lt.DATE) return { converted_type: ConvertedType.DATE };
  if (lt.TIME) {
    if (lt.TIME.unit.MILLIS) return { converted_type: ConvertedType.TIME_MILLIS };
    if (lt.TIME.unit.MICROS) return { converted_type: ConvertedType.TIME_MICROS };
    return undefined;
  }
  if (lt.TIMESTAMP) {
    if (lt.TIMESTAMP.unit.MILLIS) return { converted_type: ConvertedType.TIMESTAMP_MILLIS };
    if (lt.TIMESTAMP.unit.MICROS) return { converted_type: ConvertedType.TIMESTAMP_MICROS };
    return undefined;
  }
  if (lt.INTEGER) {
    const { bitWidth, isSigned } = lt.INTEGER;
    switch (bitWidth) {
      case 8: return { converted_type: isSigned ? ConvertedType.INT_8 : ConvertedType.UINT_8 };
      case 16: return { converted_type: isSigned ? ConvertedType.INT_16 : ConvertedType.UINT_16 };
      case 32: return { converted_type: isSigned ? ConvertedType.INT_32 : ConvertedType.UINT_32 };
      case 64: return { converted_type: isSigned ? ConvertedType.INT_64 : ConvertedType.UINT_64 };
      default: return undefined;
    }
  }
  if (lt.JSON) return { converted_type: ConvertedType.JSON };
  if (lt.BSON) return { converted_type: ConvertedType.BSON };
  return undefined;
}

/**
 * The logical type of a schema element: its `logicalType` when present, else the one
 * implied by its legacy `converted_type` (readers must accept either).
 *
 * @param element - the schema element.
 * @returns the resolved LogicalType, or `undefined` for an unannotated element.
 */
export function resolveLogicalType(element: SchemaElement): LogicalType | undefined {
  if (element.logicalType && Object.keys(element.logicalType).length > 0) return element.logicalType;
  if (element.converted_type === undefined) return undefined;
  return logicalTypeFromConverted(element.converted_type, element.scale, element.precision);
}
