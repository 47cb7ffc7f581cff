/**
 * Arrow → Parquet for the writer: the Parquet schema pyarrow (Arrow C++, format version 2.6) derives from an Arrow
 * schema (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md: each Arrow type's physical type,
 * LogicalType and ConvertedType; 3-level `LIST` and `MAP`/`key_value` groups of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#nested-types), and Arrow `Data` → the
 * writer's columnar vectors: fixed-width typed arrays, validity and binary offsets/bytes are handed over as they are
 * (bit-packed booleans and validity unpacked to bytes, narrow integers widened to INT32).
 *
 * | Arrow | Parquet |
 * | --- | --- |
 * | Null | INT32, UNKNOWN, always OPTIONAL |
 * | Bool | BOOLEAN |
 * | Int8/Int16, Uint8/Uint16/Uint32 | INT32 + INTEGER(bits, signed) (+ INT_n/UINT_n) |
 * | Int32 / Int64 | INT32 / INT64, no annotation |
 * | Uint64 | INT64 + INTEGER(64, false) |
 * | Float16 / Float32 / Float64 | FIXED_LEN_BYTE_ARRAY(2) FLOAT16 / FLOAT / DOUBLE |
 * | Utf8, LargeUtf8, Utf8View | BYTE_ARRAY STRING (JSON for extension `arrow.json`) |
 * | Binary, LargeBinary, BinaryView | BYTE_ARRAY |
 * | FixedSizeBinary(n) | FIXED_LEN_BYTE_ARRAY(n) (UUID for extension `arrow.uuid`) |
 * | Decimal (32/64/128/256) | FIXED_LEN_BYTE_ARRAY of the fewest bytes for the precision, DECIMAL |
 * | Date32, Date64 | INT32 DATE (Date64 milliseconds floored to days) |
 * | Time32(s, ms) | INT32 TIME(MILLIS, local) (seconds scaled) |
 * | Time64(us, ns) | INT64 TIME(MICROS/NANOS, local) |
 * | Timestamp(unit, tz) | INT64 TIMESTAMP(unit, isAdjustedToUTC = has a zone); seconds as milliseconds |
 * | Duration | INT64, no annotation (`ARROW:schema` keeps the duration) |
 * | Interval(YEAR_MONTH), Interval(DAY_TIME) | FIXED_LEN_BYTE_ARRAY(12) INTERVAL (months, days, millis), as arrow-rs writes them |
 * | Dictionary | its value type (values materialised) |
 * | List, LargeList, FixedSizeList | LIST: `repeated group list { element }` |
 * | Struct | group |
 * | Map | MAP: `repeated group key_value { required key; value }` |
 *
 * Interval(MONTH_DAY_NANO) (nanoseconds do not fit INTERVAL's milliseconds; arrow-rs refuses it too) and unions have no
 * Parquet type.
 *
 * @module
 */
import {
  type Data, type DataType, type Date_, type Decimal, type Float, type Dictionary, type Field as ArrowField, type FixedSizeBinary, type FixedSizeList, type Int, type Schema,
  type Interval, type Time, type Timestamp, DateUnit, IntervalUnit, TimeUnit, Type as ArrowType,
} from 'apache-arrow';
import type { BinaryVector, ColumnarVector, Field, LeafVector, StructField, StructVector } from '@parquetry/parquet-levels';
import { ConvertedType, FieldRepetitionType, ParquetError, Type, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { EXTENSION_NAME_KEY, FIELD_ID_KEY } from './arrow-schema.js';

const TWO32 = 4294967296;

function unsupported(where: string, message: string): ParquetError {
  return new ParquetError('UNSUPPORTED_TYPE', `arrow: field '${where}': ${message}`);
}

/** Bytes of the smallest two's-complement integer holding every unscaled value of `precision` digits. */
export function decimalBytes(precision: number): number {
  let bytes = 1;
  // 10^precision - 1 < 2^(8 * bytes - 1)
  while (8 * bytes - 1 < precision * Math.log2(10)) bytes++;
  return bytes;
}

function extensionOf(f: ArrowField): string | undefined {
  return f.metadata.get(EXTENSION_NAME_KEY);
}

function fieldIdOf(f: ArrowField, where: string): number | undefined {
  const id = f.metadata.get(FIELD_ID_KEY);
  if (id === undefined) return undefined;
  const n = Number(id);
  if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw new ParquetError('INVALID_SCHEMA', `arrow: field '${where}': ${FIELD_ID_KEY} '${id}' is not an int32`);
  return n < 0 ? undefined : n;
}

/** The primitive element of a leaf Arrow type (name and repetition filled in by the caller). */
function leafElement(f: ArrowField, type: DataType, where: string): Omit<SchemaElement, 'name'> {
  const ext = extensionOf(f);
  switch (type.typeId) {
    case ArrowType.Null:
      return { type: Type.INT32, logicalType: { UNKNOWN: {} } };
    case ArrowType.Bool:
      return { type: Type.BOOLEAN };
    case ArrowType.Int: {
      const t = type as Int;
      const bits = t.bitWidth;
      if (bits === 64) return t.isSigned ? { type: Type.INT64 } : { type: Type.INT64, logicalType: { INTEGER: { bitWidth: 64, isSigned: false } }, converted_type: ConvertedType.UINT_64 };
      if (bits === 32 && t.isSigned) return { type: Type.INT32 };
      const converted = t.isSigned ? (bits === 8 ? ConvertedType.INT_8 : ConvertedType.INT_16) : bits === 8 ? ConvertedType.UINT_8 : bits === 16 ? ConvertedType.UINT_16 : ConvertedType.UINT_32;
      return { type: Type.INT32, logicalType: { INTEGER: { bitWidth: bits, isSigned: t.isSigned } }, converted_type: converted };
    }
    case ArrowType.Float: {
      const p = (type as Float).precision;
      if (p === 0) return { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 2, logicalType: { FLOAT16: {} } };
      return { type: p === 1 ? Type.FLOAT : Type.DOUBLE };
    }
    case ArrowType.Utf8:
    case ArrowType.LargeUtf8:
    case ArrowType.Utf8View:
      if (ext === 'arrow.json') return { type: Type.BYTE_ARRAY, logicalType: { JSON: {} }, converted_type: ConvertedType.JSON };
      return { type: Type.BYTE_ARRAY, logicalType: { STRING: {} }, converted_type: ConvertedType.UTF8 };
    case ArrowType.Binary:
    case ArrowType.LargeBinary:
    case ArrowType.BinaryView:
      return { type: Type.BYTE_ARRAY };
    case ArrowType.FixedSizeBinary: {
      const w = (type as FixedSizeBinary).byteWidth;
      if (ext === 'arrow.uuid' && w === 16) return { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 16, logicalType: { UUID: {} } };
      if (!(w > 0)) throw unsupported(where, `FixedSizeBinary(${w}) has no Parquet type (FIXED_LEN_BYTE_ARRAY needs a positive length)`);
      return { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: w };
    }
    case ArrowType.Decimal: {
      const { precision, scale } = type as Decimal;
      if (!(precision >= 1)) throw unsupported(where, `Decimal precision ${precision} is not positive`);
      return {
        type: Type.FIXED_LEN_BYTE_ARRAY, type_length: decimalBytes(precision), logicalType: { DECIMAL: { precision, scale } },
        converted_type: ConvertedType.DECIMAL, precision, scale,
      };
    }
    case ArrowType.Date:
      return { type: Type.INT32, logicalType: { DATE: {} }, converted_type: ConvertedType.DATE };
    case ArrowType.Time: {
      const u = (type as Time).unit;
      if (u === TimeUnit.SECOND || u === TimeUnit.MILLISECOND) return { type: Type.INT32, logicalType: { TIME: { isAdjustedToUTC: false, unit: { MILLIS: {} } } } };
      return { type: Type.INT64, logicalType: { TIME: { isAdjustedToUTC: false, unit: u === TimeUnit.MICROSECOND ? { MICROS: {} } : { NANOS: {} } } } };
    }
    case ArrowType.Timestamp: {
      const t = type as Timestamp;
      const utc = t.timezone !== null && t.timezone !== undefined && t.timezone !== '';
      const unit = t.unit === TimeUnit.SECOND || t.unit === TimeUnit.MILLISECOND ? 'MILLIS' : t.unit === TimeUnit.MICROSECOND ? 'MICROS' : 'NANOS';
      const lt: LogicalType = { TIMESTAMP: { isAdjustedToUTC: utc, unit: { [unit]: {} } } };
      const e: Omit<SchemaElement, 'name'> = { type: Type.INT64, logicalType: lt };
      // as Arrow C++: the legacy ConvertedType for milli/micro timestamps (local ones too), none for nanos
      if (unit !== 'NANOS') return { ...e, converted_type: unit === 'MILLIS' ? ConvertedType.TIMESTAMP_MILLIS : ConvertedType.TIMESTAMP_MICROS };
      return e;
    }
    case ArrowType.Duration:
      return { type: Type.INT64 };
    case ArrowType.Interval: {
      const u = (type as Interval).unit;
      if (u !== IntervalUnit.YEAR_MONTH && u !== IntervalUnit.DAY_TIME) {
        throw unsupported(where, `Arrow ${String(type)} has no Parquet type (INTERVAL holds months, days and milliseconds; nanoseconds do not fit)`);
      }
      // INTERVAL has a ConvertedType and no LogicalType
      return { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 12, converted_type: ConvertedType.INTERVAL };
    }
    case ArrowType.Dictionary:
      return leafElement(f, (type as Dictionary).dictionary, where);
    default:
      throw unsupported(where, `Arrow ${String(type)} has no Parquet type`);
  }
}

const REQUIRED = FieldRepetitionType.REQUIRED;
const OPTIONAL = FieldRepetitionType.OPTIONAL;
const REPEATED = FieldRepetitionType.REPEATED;

function withId(e: SchemaElement, id: number | undefined): SchemaElement {
  if (id !== undefined) e.field_id = id;
  return e;
}

function isList(t: DataType): boolean {
  return t.typeId === ArrowType.List || t.typeId === ArrowType.LargeList || t.typeId === ArrowType.FixedSizeList;
}

/** Appends the elements of one Arrow field (depth first). */
function fieldElements(f: ArrowField, out: SchemaElement[], path: string, repetition = f.nullable ? OPTIONAL : REQUIRED): void {
  const type = f.type as DataType;
  const id = fieldIdOf(f, path);
  if (type.typeId === ArrowType.Struct) {
    const kids = type.children as ArrowField[];
    if (kids.length === 0) throw unsupported(path, 'a struct without fields has no Parquet type (a group needs a child)');
    out.push(withId({ name: f.name, repetition_type: repetition, num_children: kids.length }, id));
    for (const c of kids) fieldElements(c, out, `${path}.${c.name}`);
    return;
  }
  if (isList(type)) {
    const el = type.children[0] as ArrowField;
    out.push(withId({ name: f.name, repetition_type: repetition, num_children: 1, converted_type: ConvertedType.LIST, logicalType: { LIST: {} } }, id));
    out.push({ name: 'list', repetition_type: REPEATED, num_children: 1 });
    // the element is always named `element` (Parquet's compliant nested type, pyarrow's default)
    fieldElements(renamed(el, 'element'), out, `${path}.list.element`);
    return;
  }
  if (type.typeId === ArrowType.Map) {
    const entries = type.children[0] as ArrowField;
    const [k, v] = entries.type.children as ArrowField[];
    out.push(withId({ name: f.name, repetition_type: repetition, num_children: 1, converted_type: ConvertedType.MAP, logicalType: { MAP: {} } }, id));
    out.push({ name: 'key_value', repetition_type: REPEATED, num_children: 2 });
    fieldElements(renamed(k!, 'key'), out, `${path}.key_value.key`, REQUIRED);
    fieldElements(renamed(v!, 'value'), out, `${path}.key_value.value`);
    return;
  }
  const leaf = leafElement(f, type, path);
  // a null column has nothing but nulls: always OPTIONAL
  const rep = type.typeId === ArrowType.Null ? OPTIONAL : repetition;
  out.push(withId({ name: f.name, repetition_type: rep, ...leaf }, id));
}

function renamed(f: ArrowField, name: string): ArrowField {
  return f.name === name ? f : f.clone({ name });
}

/**
 * The Parquet schema pyarrow writes for an Arrow schema (see the module table): leaves with their physical type,
 * LogicalType and ConvertedType, OPTIONAL for nullable fields, 3-level lists with `element`, maps with
 * `key_value`/`key`/`value`, `field_id` from the `PARQUET:field_id` field metadata.
 * @param schema - the Arrow schema.
 * @returns the flat `SchemaElement` list (root first), as the writer's `schema` option takes it.
 * @throws ParquetError `UNSUPPORTED_TYPE` for an Arrow type without a Parquet type (Interval, unions, a struct
 *   without fields); `INVALID_SCHEMA` for a `PARQUET:field_id` that is not an int32.
 */
export function parquetSchemaOf(schema: Schema): SchemaElement[] {
  const out: SchemaElement[] = [{ name: 'schema', repetition_type: REQUIRED, num_children: schema.fields.length }];
  for (const f of schema.fields as ArrowField[]) fieldElements(f, out, f.name);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Data → vectors

/** One byte per slot (1 = valid) from the data's bitmap, or `null` when nothing is null. */
function validityOf(d: Data): Uint8Array | null {
  if (d.nullCount === 0 || !d.nullBitmap || d.nullBitmap.length === 0) {
    // a Null column: every slot null
    if (d.typeId === ArrowType.Null && d.length > 0) return new Uint8Array(d.length);
    return null;
  }
  return unpackBits(d.nullBitmap, d.offset, d.length);
}

/** Bits `[offset, offset + n)` of an LSB-first bitmap as one byte (0/1) per bit. */
function unpackBits(bits: Uint8Array, offset: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  if ((offset & 7) === 0) {
    const b0 = offset >> 3;
    const full = n & ~7;
    for (let i = 0; i < full; i += 8) {
      const b = bits[b0 + (i >> 3)]!;
      out[i] = b & 1;
      out[i + 1] = (b >> 1) & 1;
      out[i + 2] = (b >> 2) & 1;
      out[i + 3] = (b >> 3) & 1;
      out[i + 4] = (b >> 4) & 1;
      out[i + 5] = (b >> 5) & 1;
      out[i + 6] = (b >> 6) & 1;
      out[i + 7] = b >> 7;
    }
    for (let i = full; i < n; i++) out[i] = (bits[b0 + (i >> 3)]! >> (i & 7)) & 1;
    return out;
  }
  for (let i = 0; i < n; i++) {
    const j = offset + i;
    out[i] = (bits[j >> 3]! >> (j & 7)) & 1;
  }
  return out;
}

/** `a * mul` for int64 values (two 32-bit words each) without BigInt; throws past the int64 range. */
function scaleInt64(src: BigInt64Array, mul: number, where: string): BigInt64Array {
  const n = src.length;
  const out = new BigInt64Array(n);
  const s = new Int32Array(src.buffer, src.byteOffset, n * 2);
  const o = new Int32Array(out.buffer, 0, n * 2);
  for (let i = 0; i < n; i++) {
    const lo = s[2 * i + LO]! >>> 0;
    const hi = s[2 * i + HI]!;
    // lo * mul < 2^42: exact; the carry goes into the high word
    const p = lo * mul;
    const carry = Math.floor(p / TWO32);
    const h = hi * mul + carry;
    if (h < -2147483648 || h > 2147483647) throw new ParquetError('INVALID_VALUE', `arrow: field '${where}': slot ${i}: value × ${mul} is outside the int64 range`);
    o[2 * i + LO] = p - carry * TWO32;
    o[2 * i + HI] = h;
  }
  return out;
}
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;

/** Date64 milliseconds → Date32 days (floored), through the two words of each value. */
function msToDays(src: BigInt64Array): Int32Array {
  const n = src.length;
  const out = new Int32Array(n);
  const s = new Int32Array(src.buffer, src.byteOffset, n * 2);
  for (let i = 0; i < n; i++) out[i] = Math.floor((s[2 * i + HI]! * TWO32 + (s[2 * i + LO]! >>> 0)) / 86400000);
  return out;
}

/** The number an IEEE 754 half-precision bit pattern stands for. */
function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac !== 0 ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Per-slot views of fixed-width bytes (what the writer takes for FIXED_LEN_BYTE_ARRAY). */
function byteViews(bytes: Uint8Array, width: number, n: number, validity: Uint8Array | null): (Uint8Array | null)[] {
  const out = new Array<Uint8Array | null>(n);
  for (let i = 0; i < n; i++) out[i] = validity !== null && validity[i] === 0 ? null : bytes.subarray(i * width, (i + 1) * width);
  return out;
}

/**
 * Arrow intervals → INTERVAL's 12 bytes per value (months, days, milliseconds as little-endian 32-bit words):
 * Interval(YEAR_MONTH) is one int32 of months per value, Interval(DAY_TIME) two (days, milliseconds); the words keep
 * their bits (a negative count becomes the unsigned word of the same bits, as arrow-rs writes it).
 */
function intervalBytes(yearMonth: boolean, values: Int32Array, n: number): Uint8Array {
  const out = new Uint8Array(n * 12);
  const w = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    if (yearMonth) w.setInt32(i * 12, values[i]!, true);
    else {
      w.setInt32(i * 12 + 4, values[2 * i]!, true);
      w.setInt32(i * 12 + 8, values[2 * i + 1]!, true);
    }
  }
  return out;
}

/** Decimal words (little-endian two's complement) → the writer's decimal values: exact strings (numbers/bigints at scale 0). */
function decimalValues(words: Uint32Array, stride: number, scale: number, n: number, validity: Uint8Array | null): (string | number | bigint | null)[] {
  const out = new Array<string | number | bigint | null>(n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) {
      out[i] = null;
      continue;
    }
    const w = i * stride;
    const lo = words[w]!;
    let unscaledNum: number | undefined;
    if (stride === 1) unscaledNum = lo | 0;
    else {
      const hi = words[w + 1]! | 0;
      let ext = true;
      for (let k = 2; k < stride; k++) if (words[w + k] !== (hi < 0 ? 0xffffffff : 0)) ext = false;
      // exact as a double while |value| < 2^53
      if (ext && hi >= -0x200000 && hi < 0x200000) unscaledNum = hi * TWO32 + lo;
    }
    let digits: string;
    let neg: boolean;
    if (unscaledNum !== undefined) {
      if (scale === 0) {
        out[i] = unscaledNum;
        continue;
      }
      neg = unscaledNum < 0;
      digits = String(neg ? -unscaledNum : unscaledNum);
    } else {
      let v = 0n;
      for (let k = stride - 1; k >= 0; k--) v = (v << 32n) | BigInt(words[w + k]!);
      v = BigInt.asIntN(32 * stride, v);
      if (scale === 0) {
        out[i] = v;
        continue;
      }
      neg = v < 0n;
      digits = (neg ? -v : v).toString();
    }
    if (scale < 0) {
      out[i] = (neg ? '-' : '') + digits + '0'.repeat(-scale);
      continue;
    }
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    out[i] = `${neg ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return out;
}

/** Offsets of a binary-like Data as Int32Array (Large offsets narrowed; view arrays gathered into new bytes). */
function binaryOf(d: Data, where: string): { offsets: Int32Array; data: Uint8Array } {
  const id = d.typeId;
  if (id === ArrowType.Utf8 || id === ArrowType.Binary) return { offsets: d.valueOffsets as Int32Array, data: d.values as Uint8Array };
  if (id === ArrowType.LargeUtf8 || id === ArrowType.LargeBinary) {
    const lo = d.valueOffsets as unknown as BigInt64Array;
    const n = d.length;
    const base = lo[0]!;
    const last = lo[n]!;
    if (last - base > 2147483647n) throw new ParquetError('VALUE_TOO_LARGE', `arrow: field '${where}': ${last - base} bytes of values in one batch; the writer takes at most 2^31-1 per batch (write smaller batches)`);
    const offsets = new Int32Array(n + 1);
    const w = new Int32Array(lo.buffer, lo.byteOffset, (n + 1) * 2);
    const b = w[LO]!;
    for (let i = 0; i <= n; i++) offsets[i] = w[2 * i + LO]! - b;
    const values = d.values as Uint8Array;
    return { offsets, data: values.subarray(Number(base), Number(last)) };
  }
  // views: 16 bytes per value, inline up to 12 bytes, else (buffer index, offset) into the variadic buffers
  const n = d.length;
  const views = d.values as Uint8Array;
  const vw = new Int32Array(views.buffer, views.byteOffset, n * 4);
  const bufs = (d as unknown as { variadicBuffers: Uint8Array[] }).variadicBuffers ?? [];
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += Math.max(vw[4 * i]!, 0);
    if (total > 2147483647) throw new ParquetError('VALUE_TOO_LARGE', `arrow: field '${where}': more than 2^31-1 bytes of values in one batch (write smaller batches)`);
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < n; i++) {
    const len = offsets[i + 1]! - offsets[i]!;
    if (len === 0) continue;
    if (len <= 12) data.set(views.subarray(i * 16 + 4, i * 16 + 4 + len), offsets[i]!);
    else {
      const buf = bufs[vw[4 * i + 2]!];
      const at = vw[4 * i + 3]!;
      if (!buf || at < 0 || at + len > buf.length) throw new ParquetError('INVALID_VECTOR', `arrow: field '${where}': slot ${i}: view points outside its data buffer`);
      data.set(buf.subarray(at, at + len), offsets[i]!);
    }
  }
  return { offsets, data };
}

/** A dictionary-encoded Data's values, gathered into plain Data fields (binary-like or fixed-width values). */
function undictionary(d: Data, where: string): { type: DataType; leaf: LeafLike } {
  const type = d.type as Dictionary;
  const chunks = (d.dictionary?.data ?? []) as Data[];
  const filled = chunks.filter((c) => c.length > 0);
  if (filled.length > 1) throw unsupported(where, `a dictionary split over ${filled.length} data chunks`);
  const values = filled[0] ?? chunks[0];
  if (!values) throw new ParquetError('INVALID_VECTOR', `arrow: field '${where}': dictionary column without a dictionary`);
  const idx = d.values as unknown as ArrayLike<number | bigint>;
  const n = d.length;
  let validity = validityOf(d);
  const vt = type.dictionary;
  const dictSize = values.length;
  const at = (i: number): number => {
    const k = Number(idx[i]!);
    if (!(k >= 0 && k < dictSize)) throw new ParquetError('INVALID_VECTOR', `arrow: field '${where}': slot ${i}: dictionary index ${k} outside 0..${dictSize - 1}`);
    return k;
  };
  // a slot whose index points at a null dictionary value is null too (Arrow allows nulls in a dictionary's values;
  // taking the indices' validity alone wrote them as '' or 0)
  const dictValidity = validityOf(values);
  if (dictValidity !== null) {
    const v = validity ?? new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) if (v[i] !== 0 && dictValidity[at(i)] === 0) v[i] = 0;
    validity = v;
  }
  if (isBinaryLike(vt)) {
    const src = binaryOf(values, where);
    const offsets = new Int32Array(n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) {
      if (validity === null || validity[i] !== 0) {
        const k = at(i);
        total += src.offsets[k + 1]! - src.offsets[k]!;
        if (total > 2147483647) throw new ParquetError('VALUE_TOO_LARGE', `arrow: field '${where}': more than 2^31-1 bytes of values in one batch (write smaller batches)`);
      }
      offsets[i + 1] = total;
    }
    const data = new Uint8Array(total);
    for (let i = 0; i < n; i++) {
      const a = offsets[i]!;
      const b = offsets[i + 1]!;
      if (a === b) continue;
      const k = at(i);
      const s = src.offsets[k]!;
      if (b - a < 32) for (let j = 0; j < b - a; j++) data[a + j] = src.data[s + j]!;
      else data.set(src.data.subarray(s, s + b - a), a);
    }
    return { type: vt, leaf: { kind: 'binary', validity, offsets, data } };
  }
  // fixed-width values: gather element by element (stride elements per value)
  const stride = vt.typeId === ArrowType.FixedSizeBinary ? (vt as FixedSizeBinary).byteWidth : vt.typeId === ArrowType.Decimal ? (vt as Decimal).bitWidth / 32
    : vt.typeId === ArrowType.Interval ? ((vt as Interval).unit === IntervalUnit.YEAR_MONTH ? 1 : (vt as Interval).unit === IntervalUnit.DAY_TIME ? 2 : 4) : 1;
  if (vt.typeId === ArrowType.Bool || vt.typeId === ArrowType.Null || !values.values) throw unsupported(where, `a dictionary of ${String(vt)} values`);
  const src = values.values as unknown as { length: number; [i: number]: number | bigint; constructor: new (n: number) => { [i: number]: number | bigint } };
  const out = new src.constructor(n * stride);
  for (let i = 0; i < n; i++) {
    if (validity !== null && validity[i] === 0) continue;
    const k = at(i) * stride;
    for (let j = 0; j < stride; j++) out[i * stride + j] = src[k + j]!;
  }
  return { type: vt, leaf: { kind: 'typed', validity, values: out as unknown as ArrayLike<unknown> } };
}

type LeafLike = { kind: 'binary'; validity: Uint8Array | null; offsets: Int32Array; data: Uint8Array } | { kind: 'typed'; validity: Uint8Array | null; values: ArrayLike<unknown> };

function isBinaryLike(t: DataType): boolean {
  const id = t.typeId;
  return id === ArrowType.Utf8 || id === ArrowType.Binary || id === ArrowType.LargeUtf8 || id === ArrowType.LargeBinary || id === ArrowType.Utf8View || id === ArrowType.BinaryView;
}

/** The writer's leaf values of fixed-width Arrow values of `type` (slot-aligned). */
function leafValues(type: DataType, values: ArrayLike<unknown>, n: number, validity: Uint8Array | null, bools: { bits: Uint8Array; offset: number } | undefined, where: string): ArrayLike<unknown> {
  switch (type.typeId) {
    case ArrowType.Null:
      return new Int32Array(n);
    case ArrowType.Bool: {
      return unpackBits(bools!.bits, bools!.offset, n);
    }
    case ArrowType.Int: {
      const t = type as Int;
      if (t.bitWidth === 64 || (t.bitWidth === 32)) return values;
      // INT(8/16) and UINT(8/16): widened to the INT32 the column stores
      return new Int32Array(values as unknown as ArrayLike<number>);
    }
    case ArrowType.Float: {
      if ((type as Float).precision === 0) {
        // the writer takes FLOAT16 values as numbers (every half is exact as a double; a NaN's payload is not kept)
        const h = values as unknown as Uint16Array;
        const out = new Float64Array(n);
        for (let i = 0; i < n; i++) out[i] = halfValue(h[i]!);
        return out;
      }
      return values;
    }
    case ArrowType.Date:
      return (type as Date_).unit === DateUnit.DAY ? values : msToDays(values as BigInt64Array);
    case ArrowType.Time: {
      const u = (type as Time).unit;
      if (u === TimeUnit.SECOND) {
        const s = values as Int32Array;
        const out = new Int32Array(n);
        for (let i = 0; i < n; i++) out[i] = s[i]! * 1000;
        return out;
      }
      return values;
    }
    case ArrowType.Timestamp:
      return (type as Timestamp).unit === TimeUnit.SECOND ? scaleInt64(values as BigInt64Array, 1000, where) : values;
    case ArrowType.Duration:
      return values;
    case ArrowType.FixedSizeBinary: {
      const w = (type as FixedSizeBinary).byteWidth;
      return byteViews(values as Uint8Array, w, n, validity);
    }
    case ArrowType.Decimal: {
      const t = type as Decimal;
      return decimalValues(values as Uint32Array, t.bitWidth / 32, t.scale, n, validity);
    }
    case ArrowType.Interval:
      return byteViews(intervalBytes((type as Interval).unit === IntervalUnit.YEAR_MONTH, values as Int32Array, n), 12, n, validity);
    default:
      throw unsupported(where, `Arrow ${String(type)} has no Parquet type`);
  }
}

/**
 * One Arrow Data → the writer's vector for Parquet field `pf` (from the schema {@link parquetSchemaOf} gave).
 * @param d - the Arrow data (sliced data keeps its offset: bitmaps are read from it).
 * @param pf - the Parquet field.
 * @returns the vector.
 * @throws ParquetError `UNSUPPORTED_TYPE` / `INVALID_VECTOR` / `VALUE_TOO_LARGE` / `INVALID_VALUE` naming the field.
 */
export function toVector(d: Data, pf: Field): ColumnarVector {
  const where = pf.node.path.join('.');
  const type = d.type as DataType;
  const n = d.length;
  const validity = validityOf(d);
  switch (pf.kind) {
    case 'struct': {
      if (type.typeId !== ArrowType.Struct) throw new ParquetError('INVALID_VECTOR', `arrow: field '${where}': expected Arrow Struct data, got ${String(type)}`);
      const children = pf.fields.map((c, i) => toVector(d.children[i]!, c));
      return { kind: 'struct', field: pf, length: n, validity, children } satisfies StructVector;
    }
    case 'list': {
      const child = d.children[0]!;
      let offsets: Int32Array;
      if (type.typeId === ArrowType.List) offsets = d.valueOffsets as Int32Array;
      else if (type.typeId === ArrowType.LargeList) {
        const lo = d.valueOffsets as unknown as BigInt64Array;
        if (lo[n]! > 2147483647n) throw new ParquetError('VALUE_TOO_LARGE', `arrow: field '${where}': more than 2^31-1 list elements in one batch (write smaller batches)`);
        offsets = new Int32Array(n + 1);
        for (let i = 0; i <= n; i++) offsets[i] = Number(lo[i]!);
      } else if (type.typeId === ArrowType.FixedSizeList) {
        // the child is sliced with the list: element i * size starts slot i
        const size = (type as FixedSizeList).listSize;
        offsets = new Int32Array(n + 1);
        for (let i = 0; i <= n; i++) offsets[i] = i * size;
      } else {
        throw new ParquetError('INVALID_VECTOR', `arrow: field '${where}': expected Arrow list data, got ${String(type)}`);
      }
      return { kind: 'list', field: pf, length: n, validity, offsets, element: toVector(child, pf.element) };
    }
    case 'map': {
      if (type.typeId !== ArrowType.Map) throw new ParquetError('INVALID_VECTOR', `arrow: field '${where}': expected Arrow Map data, got ${String(type)}`);
      const entries = d.children[0]!;
      const keys = toVector(entries.children[0]!, pf.key);
      const values = pf.value ? toVector(entries.children[1]!, pf.value) : undefined;
      return { kind: 'map', field: pf, length: n, validity, offsets: d.valueOffsets as Int32Array, keys, values };
    }
    case 'leaf': {
      if (type.typeId === ArrowType.Dictionary) {
        const { type: vt, leaf } = undictionary(d, where);
        if (leaf.kind === 'binary') return { kind: 'binary', field: pf, length: n, validity: leaf.validity, offsets: leaf.offsets, data: leaf.data, utf8: vt.typeId !== ArrowType.Binary } satisfies BinaryVector;
        return { kind: 'leaf', field: pf, length: n, validity: leaf.validity, values: leafValues(vt, leaf.values, n, leaf.validity, undefined, where) } satisfies LeafVector;
      }
      if (isBinaryLike(type)) {
        const { offsets, data } = binaryOf(d, where);
        return { kind: 'binary', field: pf, length: n, validity, offsets, data, utf8: type.typeId === ArrowType.Utf8 || type.typeId === ArrowType.LargeUtf8 || type.typeId === ArrowType.Utf8View };
      }
      const bools = type.typeId === ArrowType.Bool ? { bits: d.values as Uint8Array, offset: d.offset } : undefined;
      return { kind: 'leaf', field: pf, length: n, validity, values: leafValues(type, d.values as ArrayLike<unknown>, n, validity, bools, where) };
    }
  }
}

/**
 * A record batch's struct data → the writer's root struct vector.
 * @param d - the batch's `data` (Struct).
 * @param root - the Parquet root field of the schema written.
 * @returns the root vector (one slot per row).
 * @throws ParquetError as {@link toVector}.
 */
export function batchVector(d: Data, root: StructField): StructVector {
  const children = root.fields.map((c, i) => toVector(d.children[i]!, c));
  return { kind: 'struct', field: root, length: d.length, validity: null, children };
}
