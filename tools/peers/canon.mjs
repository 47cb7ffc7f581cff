// Canonical value form for conformance comparisons.
//
// Every reader (DuckDB, parquet-wasm/arrow-rs, and later @parquetry/parquet-reader) converts the values it read
// into this one JSON-safe form before rows are compared or hashed. The form follows the Parquet logical type
// (apache/parquet-format LogicalTypes.md), not any peer's own type system:
//   null -> null; boolean; string; finite number (-0 -> 0); NaN/±Infinity -> "NaN"/"Infinity"/"-Infinity";
//   integers (any width) -> number when safe, else decimal string; binary -> "bin:<lowercase hex>";
//   DECIMAL -> exact string with `scale` fractional digits; DATE -> "YYYY-MM-DD"; TIME -> "HH:MM:SS.fff[fff[fff]]";
//   TIMESTAMP -> "YYYY-MM-DDTHH:MM:SS.fff[fff[fff]]" + "Z" when isAdjustedToUTC (INT96: 9 digits, no "Z");
//   UUID -> 8-4-4-4-12 lowercase; FLOAT16 -> number; INTERVAL -> {months, days, millis}; JSON/ENUM -> string;
//   LIST -> array; MAP -> [{key, value}] in file order ([{key}] when the key_value group has no value field);
//   STRUCT -> object; VARIANT -> its JSON value
//   (VariantEncoding.md; object keys sorted as the encoding stores them).
// A row is an object keyed by top-level column name, in schema order.
import { createHash } from 'node:crypto';

// ---------------------------------------------------------------------------------------------------------------
// Scalars

/**
 * Canonical form of a JS number (floating point or small integer).
 * @param {number} x
 * @returns {number | string}
 */
export function canonNumber(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return x === 0 ? 0 : x;
}

/**
 * Canonical form of an integer of any width: a number when it is a safe integer, else its decimal string.
 * @param {bigint | number} x
 * @returns {number | string}
 */
export function canonInt(x) {
  if (typeof x === 'number') {
    if (Number.isSafeInteger(x)) return x === 0 ? 0 : x;
    return canonNumber(x);
  }
  const n = Number(x);
  return Number.isSafeInteger(n) && BigInt(n) === x ? n : x.toString();
}

/**
 * Canonical form of binary data: "bin:" + lowercase hex.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function canonBinary(bytes) {
  let s = 'bin:';
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] ?? 0).toString(16).padStart(2, '0');
  return s;
}

/**
 * Exact decimal string of an unscaled integer with `scale` fractional digits ("-12.340").
 * A negative scale multiplies (the string then has no fractional part).
 * @param {bigint} unscaled
 * @param {number} scale
 * @returns {string}
 */
export function formatDecimal(unscaled, scale) {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale <= 0) return (neg ? '-' : '') + digits + '0'.repeat(-scale);
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  return (neg ? '-' : '') + digits.slice(0, digits.length - scale) + '.' + digits.slice(digits.length - scale);
}

/**
 * Reads a big-endian two's complement integer (DECIMAL in BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY).
 * @param {Uint8Array} bytes
 * @returns {bigint}
 */
export function bigEndianSigned(bytes) {
  if (bytes.length === 0) return 0n;
  let v = 0n;
  for (let i = 0; i < bytes.length; i++) v = (v << 8n) | BigInt(bytes[i] ?? 0);
  return (bytes[0] ?? 0) & 0x80 ? v - (1n << BigInt(8 * bytes.length)) : v;
}

/**
 * Reads a little-endian two's complement integer of `n` bytes at `pos`.
 * @param {Uint8Array} bytes
 * @param {number} pos
 * @param {number} n
 * @returns {bigint}
 */
export function littleEndianSigned(bytes, pos, n) {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[pos + i] ?? 0);
  return n > 0 && (bytes[pos + n - 1] ?? 0) & 0x80 ? v - (1n << BigInt(8 * n)) : v;
}

/**
 * Civil date of a day count since 1970-01-01 (proleptic Gregorian), as [year, month, day].
 * @param {bigint} days
 * @returns {[bigint, number, number]}
 */
function civilFromDays(days) {
  // Howard Hinnant's days_from_civil inverse, in BigInt so any range is exact.
  const z = days + 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  const y = yoe + era * 400n + (m <= 2n ? 1n : 0n);
  return [y, Number(m), Number(d)];
}

/** @param {bigint} y */
function formatYear(y) {
  if (y >= 0n && y <= 9999n) return y.toString().padStart(4, '0');
  const a = (y < 0n ? -y : y).toString().padStart(4, '0');
  return (y < 0n ? '-' : '+') + a;
}

/** @param {number} n @param {number} w */
const pad = (n, w) => String(n).padStart(w, '0');

/**
 * DATE: "YYYY-MM-DD" from days since the Unix epoch (years outside 0000-9999 as "+10000-01-01"/"-0001-...").
 * @param {number | bigint} days
 * @returns {string}
 */
export function formatDate(days) {
  const [y, m, d] = civilFromDays(BigInt(days));
  return `${formatYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** @typedef {'millis' | 'micros' | 'nanos'} TimeUnit */

/** @type {Record<TimeUnit, bigint>} */
const PER_SECOND = { millis: 1000n, micros: 1000000n, nanos: 1000000000n };
/** @type {Record<TimeUnit, number>} */
const DIGITS = { millis: 3, micros: 6, nanos: 9 };

/**
 * floor division and non-negative remainder for BigInt.
 * @param {bigint} a @param {bigint} b
 * @returns {[bigint, bigint]}
 */
function floorDivMod(a, b) {
  let q = a / b;
  let r = a % b;
  if (r < 0n) {
    q -= 1n;
    r += b;
  }
  return [q, r];
}

/**
 * TIME: "HH:MM:SS.f" with 3/6/9 fractional digits for millis/micros/nanos, from a count since midnight.
 * @param {bigint | number} count
 * @param {TimeUnit} unit
 * @returns {string}
 */
export function formatTime(count, unit) {
  const [secs, frac] = floorDivMod(BigInt(count), PER_SECOND[unit]);
  const s = Number(secs);
  const hh = Math.floor(s / 3600);
  return `${pad(hh, 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}.${frac.toString().padStart(DIGITS[unit], '0')}`;
}

/**
 * TIMESTAMP: "YYYY-MM-DDTHH:MM:SS.f" (3/6/9 fractional digits) + "Z" when adjusted to UTC, from an epoch count.
 * @param {bigint | number} count
 * @param {TimeUnit} unit
 * @param {boolean} utc
 * @returns {string}
 */
export function formatTimestamp(count, unit, utc) {
  const [secs, frac] = floorDivMod(BigInt(count), PER_SECOND[unit]);
  const [days, sod] = floorDivMod(secs, 86400n);
  const t = Number(sod);
  return `${formatDate(days)}T${pad(Math.floor(t / 3600), 2)}:${pad(Math.floor(t / 60) % 60, 2)}:${pad(t % 60, 2)}.${frac
    .toString()
    .padStart(DIGITS[unit], '0')}${utc ? 'Z' : ''}`;
}

/**
 * INT96 timestamp (8 bytes little-endian nanoseconds of day, then 4 bytes little-endian Julian day) as a
 * canonical timestamp (9 fractional digits, no "Z").
 * @param {Uint8Array} bytes12
 * @returns {string}
 */
export function formatInt96(bytes12) {
  const nanos = littleEndianSigned(bytes12, 0, 8);
  const julian = littleEndianSigned(bytes12, 8, 4);
  return formatTimestamp((julian - 2440588n) * 86400000000000n + nanos, 'nanos', false);
}

/**
 * Rescales an epoch/midnight count between units; returns null when the conversion is not exact.
 * @param {bigint} count
 * @param {TimeUnit} from
 * @param {TimeUnit} to
 * @returns {bigint | null}
 */
export function rescale(count, from, to) {
  const f = PER_SECOND[from];
  const t = PER_SECOND[to];
  if (t >= f) return count * (t / f);
  const d = f / t;
  return count % d === 0n ? count / d : null;
}

/**
 * UUID: lowercase 8-4-4-4-12 from 16 bytes (big-endian, as Parquet stores it) or an unsigned 128-bit bigint.
 * @param {Uint8Array | bigint} v
 * @returns {string}
 */
export function formatUuid(v) {
  let hex;
  if (typeof v === 'bigint') hex = v.toString(16).padStart(32, '0');
  else hex = canonBinary(v).slice(4);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * IEEE 754 binary16 bits to a number.
 * @param {number} h
 * @returns {number}
 */
export function float16ToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/**
 * Parquet INTERVAL (12 bytes: three little-endian unsigned 32-bit months, days, millis) in canonical form.
 * @param {Uint8Array} b
 * @returns {{ months: number, days: number, millis: number }}
 */
export function canonInterval(b) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { months: dv.getUint32(0, true), days: dv.getUint32(4, true), millis: dv.getUint32(8, true) };
}

// ---------------------------------------------------------------------------------------------------------------
// Variant (VariantEncoding.md)

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * @param {Uint8Array} b @param {number} pos @param {number} n
 * @returns {number}
 */
function uintLE(b, pos, n) {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + (b[pos + i] ?? 0);
  return v;
}

/**
 * Decodes a Variant metadata block: its dictionary and its byte length.
 * @param {Uint8Array} m
 * @returns {{ dict: string[], length: number }}
 */
export function decodeVariantMetadata(m) {
  const h = m[0] ?? 0;
  if ((h & 0x0f) !== 1) throw new Error(`variant metadata: version ${h & 0x0f}, expected 1`);
  const os = ((h >> 6) & 3) + 1;
  const size = uintLE(m, 1, os);
  const offs = 1 + os;
  const base = offs + (size + 1) * os;
  /** @type {string[]} */
  const dict = [];
  for (let i = 0; i < size; i++) {
    const a = uintLE(m, offs + i * os, os);
    const z = uintLE(m, offs + (i + 1) * os, os);
    dict.push(utf8.decode(m.subarray(base + a, base + z)));
  }
  return { dict, length: base + uintLE(m, offs + size * os, os) };
}

/**
 * Decodes one Variant value to canonical form.
 * @param {string[]} dict
 * @param {Uint8Array} v
 * @param {number} [pos]
 * @returns {unknown}
 */
export function decodeVariantValue(dict, v, pos = 0) {
  const h = v[pos] ?? 0;
  const basic = h & 3;
  const vh = h >> 2;
  if (basic === 1) return utf8.decode(v.subarray(pos + 1, pos + 1 + vh));
  if (basic === 2) {
    const os = (vh & 3) + 1;
    const is = ((vh >> 2) & 3) + 1;
    const large = (vh >> 4) & 1;
    const nb = large ? 4 : 1;
    const n = uintLE(v, pos + 1, nb);
    const ids = pos + 1 + nb;
    const offs = ids + n * is;
    const base = offs + (n + 1) * os;
    /** @type {[string, unknown][]} */
    const fields = [];
    for (let i = 0; i < n; i++) {
      const key = dict[uintLE(v, ids + i * is, is)];
      if (key === undefined) throw new Error('variant: field id outside the dictionary');
      fields.push([key, decodeVariantValue(dict, v, base + uintLE(v, offs + i * os, os))]);
    }
    return sortedObject(fields);
  }
  if (basic === 3) {
    const os = (vh & 3) + 1;
    const large = (vh >> 2) & 1;
    const nb = large ? 4 : 1;
    const n = uintLE(v, pos + 1, nb);
    const offs = pos + 1 + nb;
    const base = offs + (n + 1) * os;
    const out = [];
    for (let i = 0; i < n; i++) out.push(decodeVariantValue(dict, v, base + uintLE(v, offs + i * os, os)));
    return out;
  }
  const p = pos + 1;
  const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
  switch (vh) {
    case 0: return null;
    case 1: return true;
    case 2: return false;
    case 3: return canonInt(dv.getInt8(p));
    case 4: return canonInt(dv.getInt16(p, true));
    case 5: return canonInt(dv.getInt32(p, true));
    case 6: return canonInt(dv.getBigInt64(p, true));
    case 7: return canonNumber(dv.getFloat64(p, true));
    case 8: return formatDecimal(BigInt(dv.getInt32(p + 1, true)), v[p] ?? 0);
    case 9: return formatDecimal(dv.getBigInt64(p + 1, true), v[p] ?? 0);
    case 10: return formatDecimal(littleEndianSigned(v, p + 1, 16), v[p] ?? 0);
    case 11: return formatDate(dv.getInt32(p, true));
    case 12: return formatTimestamp(dv.getBigInt64(p, true), 'micros', true);
    case 13: return formatTimestamp(dv.getBigInt64(p, true), 'micros', false);
    case 14: return canonNumber(dv.getFloat32(p, true));
    case 15: return canonBinary(v.subarray(p + 4, p + 4 + dv.getUint32(p, true)));
    case 16: return utf8.decode(v.subarray(p + 4, p + 4 + dv.getUint32(p, true)));
    case 17: return formatTime(dv.getBigInt64(p, true), 'micros');
    case 18: return formatTimestamp(dv.getBigInt64(p, true), 'nanos', true);
    case 19: return formatTimestamp(dv.getBigInt64(p, true), 'nanos', false);
    case 20: return formatUuid(v.subarray(p, p + 16));
    default: throw new Error(`variant: unknown primitive type id ${vh}`);
  }
}

/**
 * Decodes a Variant given as metadata followed by value in one buffer (the layout of upstream *.variant.bin).
 * @param {Uint8Array} bytes
 * @returns {unknown}
 */
export function decodeVariantBin(bytes) {
  const { dict, length } = decodeVariantMetadata(bytes);
  return decodeVariantValue(dict, bytes.subarray(length));
}

/**
 * An object with keys sorted by code unit (how Variant objects are canonicalised).
 * @param {[string, unknown][]} entries
 * @returns {Record<string, unknown>}
 */
export function sortedObject(entries) {
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  /** @type {Record<string, unknown>} */
  const o = {};
  for (const [k, val] of entries) o[k] = val;
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// Parquet schema hints (only what the canonical form needs beyond a peer's own types)

/**
 * One node of the Parquet schema tree, as needed by the converters.
 * @typedef {object} Hint
 * @property {string} name
 * @property {string | null} physical     BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY; null for groups
 * @property {string | null} repetition   REQUIRED, OPTIONAL, REPEATED
 * @property {string | null} converted    ConvertedType name
 * @property {string | null} logical      LogicalType rendered as text (DuckDB's parquet_schema form, or the union member name)
 * @property {number | null} scale
 * @property {Hint[]} children
 */

/**
 * Builds the schema tree from DuckDB's `parquet_schema(file)` rows (depth-first, with num_children).
 * @param {Array<Record<string, unknown>>} rows
 * @returns {Hint}
 */
export function hintTreeFromDuckDBSchema(rows) {
  let i = 0;
  /** @returns {Hint} */
  const node = () => {
    const r = rows[i++];
    if (!r) throw new Error('parquet_schema: truncated');
    const n = Number(r['num_children'] ?? 0);
    /** @type {Hint} */
    const h = {
      name: String(r['name']),
      physical: n > 0 || r['type'] == null ? null : String(r['type']),
      repetition: r['repetition_type'] == null ? null : String(r['repetition_type']),
      converted: r['converted_type'] == null ? null : String(r['converted_type']),
      logical: r['logical_type'] == null ? null : String(r['logical_type']),
      scale: r['scale'] == null ? null : Number(r['scale']),
      children: [],
    };
    for (let k = 0; k < n; k++) h.children.push(node());
    return h;
  };
  return node();
}

/**
 * The leaf semantics a hint implies for timestamp/time/uuid/interval/int96/variant.
 * @param {Hint | null | undefined} h
 * @returns {{ kind: 'timestamp', unit: TimeUnit, utc: boolean } | { kind: 'time', unit: TimeUnit } | { kind: 'int96' | 'uuid' | 'interval' | 'variant' | 'float16' } | { kind: 'decimal', scale: number } | null}
 */
export function leafKind(h) {
  if (!h) return null;
  const lt = h.logical ?? '';
  // DuckDB renders the TimeUnit union with every member: "TimeUnit(MILLIS=<null>, MICROS=MicroSeconds(), NANOS=<null>)";
  // the hyparquet fallback renders "unit=MICROS".
  const has = (/** @type {string} */ u) => new RegExp(`${u}=[A-Z]|unit=${u}\\b`).test(lt);
  /** @returns {TimeUnit} */
  const unitOf = () => (has('NANOS') ? 'nanos' : has('MICROS') ? 'micros' : 'millis');
  if (/^Variant/i.test(lt) || h.converted === 'VARIANT') return { kind: 'variant' };
  if (h.physical === 'INT96') return { kind: 'int96' };
  if (/^Timestamp/.test(lt)) return { kind: 'timestamp', unit: unitOf(), utc: /isAdjustedToUTC=(1|true)/.test(lt) };
  if (/^Time/.test(lt)) return { kind: 'time', unit: unitOf() };
  if (h.converted === 'TIMESTAMP_MILLIS') return { kind: 'timestamp', unit: 'millis', utc: true };
  if (h.converted === 'TIMESTAMP_MICROS') return { kind: 'timestamp', unit: 'micros', utc: true };
  if (h.converted === 'TIME_MILLIS') return { kind: 'time', unit: 'millis' };
  if (h.converted === 'TIME_MICROS') return { kind: 'time', unit: 'micros' };
  if (/^uuid/i.test(lt)) return { kind: 'uuid' };
  if (/^float16/i.test(lt)) return { kind: 'float16' };
  if (h.converted === 'INTERVAL') return { kind: 'interval' };
  if (h.converted === 'DECIMAL' || /^decimal/i.test(lt)) return { kind: 'decimal', scale: h.scale ?? 0 };
  return null;
}

/**
 * Child hint of a struct by field name.
 * @param {Hint | null | undefined} h
 * @param {string} name
 * @returns {Hint | null}
 */
export function structChild(h, name) {
  if (!h) return null;
  return h.children.find((c) => c.name === name) ?? null;
}

/**
 * Element hint of a list, following the LIST backward-compatibility rules (LogicalTypes.md).
 * @param {Hint | null | undefined} h
 * @returns {Hint | null}
 */
export function listElement(h) {
  if (!h) return null;
  if (h.repetition === 'REPEATED') return { ...h, repetition: 'REQUIRED', converted: null, logical: null };
  const rep = h.children.length === 1 ? h.children[0] : undefined;
  if (!rep) return null;
  if (rep.children.length === 0) return { ...rep, repetition: 'REQUIRED' };
  if (rep.children.length > 1 || rep.name === 'array' || rep.name === `${h.name}_tuple`) return { ...rep, repetition: 'REQUIRED' };
  return rep.children[0] ?? null;
}

/**
 * Key and value hints of a map.
 * @param {Hint | null | undefined} h
 * @returns {{ key: Hint | null, value: Hint | null }}
 */
export function mapEntry(h) {
  const kv = h?.children[0];
  return { key: kv?.children[0] ?? null, value: kv?.children[1] ?? null };
}

// ---------------------------------------------------------------------------------------------------------------
// DuckDB (@duckdb/node-api value objects)

/**
 * Converts one value read by DuckDB (@duckdb/node-api `getRows()` form) to canonical form.
 * `hint` is the Parquet schema node the value came from, when known (it supplies the timestamp unit and UTC flag,
 * INT96, INTERVAL, which DuckDB's own types do not keep).
 * @param {unknown} v
 * @param {Hint | null} [hint]
 * @returns {unknown}
 */
export function fromDuckDB(v, hint = null) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return canonNumber(v);
  if (typeof v === 'bigint') return canonInt(v);
  if (typeof v !== 'object') throw new Error(`canon: unexpected DuckDB value ${typeof v}`);
  const o = /** @type {any} */ (v);
  const k = leafKind(hint);
  switch (o.constructor?.name) {
    case 'DuckDBDecimalValue':
      return formatDecimal(o.value, o.scale);
    case 'DuckDBBlobValue':
    case 'DuckDBGeometryValue':
      return canonBinary(o.bytes);
    case 'DuckDBDateValue':
      return formatDate(o.days);
    case 'DuckDBTimeValue': {
      const unit = k?.kind === 'time' ? k.unit : 'micros';
      const c = rescale(o.micros, 'micros', unit);
      return c === null ? formatTime(o.micros, 'micros') : formatTime(c, unit);
    }
    case 'DuckDBTimeNSValue':
      return formatTime(o.nanos, 'nanos');
    case 'DuckDBTimestampValue':
    case 'DuckDBTimestampTZValue':
      return timestampFrom(o.micros, 'micros', o.constructor.name === 'DuckDBTimestampTZValue', k);
    case 'DuckDBTimestampMillisecondsValue':
      return timestampFrom(o.millis, 'millis', false, k);
    case 'DuckDBTimestampSecondsValue':
      return timestampFrom(o.seconds * 1000n, 'millis', false, k);
    case 'DuckDBTimestampNanosecondsValue':
      return timestampFrom(o.nanos, 'nanos', false, k);
    case 'DuckDBUUIDValue':
      return o.toString().toLowerCase();
    case 'DuckDBIntervalValue':
      return { months: o.months, days: o.days, millis: canonInt(o.micros / 1000n) };
    case 'DuckDBListValue':
    case 'DuckDBArrayValue': {
      const eh = listElement(hint);
      return o.items.map((/** @type {unknown} */ x) => fromDuckDB(x, eh));
    }
    case 'DuckDBStructValue': {
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const [name, x] of Object.entries(o.entries)) out[name] = fromDuckDB(x, structChild(hint, name));
      return out;
    }
    case 'DuckDBMapValue': {
      const e = mapEntry(hint);
      return o.entries.map((/** @type {{key: unknown, value: unknown}} */ x) => ({ key: fromDuckDB(x.key, e.key), value: fromDuckDB(x.value, e.value) }));
    }
    case 'DuckDBVariantValue':
      return variantFromDuckDB(o.value);
    case 'DuckDBUnionValue':
      return fromDuckDB(o.value, null);
    default:
      throw new Error(`canon: unsupported DuckDB value class ${o.constructor?.name}`);
  }
}

/**
 * A peer's timestamp count in its unit, formatted per the Parquet column's unit/UTC flag when the hint gives them.
 * @param {bigint} count
 * @param {TimeUnit} unit
 * @param {boolean} utc
 * @param {ReturnType<typeof leafKind>} k
 * @returns {string}
 */
function timestampFrom(count, unit, utc, k) {
  let target = unit;
  let z = utc;
  if (k?.kind === 'int96') {
    target = 'nanos';
    z = false;
  } else if (k?.kind === 'timestamp') {
    target = k.unit;
    z = k.utc;
  }
  const c = rescale(count, unit, target);
  // A peer that lost precision (a count that does not rescale exactly) keeps its own unit, so the loss shows.
  return c === null ? formatTimestamp(count, unit, z) : formatTimestamp(c, target, z);
}

/**
 * A DuckDB VARIANT's inner value to canonical form (objects with sorted keys, like the Variant encoding).
 * @param {unknown} v
 * @returns {unknown}
 */
function variantFromDuckDB(v) {
  if (v === null || v === undefined) return null;
  const o = /** @type {any} */ (v);
  switch (o.constructor?.name) {
    case 'DuckDBVariantValue':
      return variantFromDuckDB(o.value);
    case 'DuckDBStructValue':
      return sortedObject(Object.entries(o.entries).map(([name, x]) => [name, variantFromDuckDB(x)]));
    case 'DuckDBListValue':
    case 'DuckDBArrayValue':
      return o.items.map((/** @type {unknown} */ x) => variantFromDuckDB(x));
    case 'DuckDBMapValue':
      return sortedObject(o.entries.map((/** @type {{key: unknown, value: unknown}} */ x) => [String(x.key), variantFromDuckDB(x.value)]));
    default:
      return fromDuckDB(v, null);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Arrow (apache-arrow JS Data, e.g. parquet-wasm's table read through tableFromIPC)

// apache-arrow Type ids (stable in the Arrow format / Arrow JS enum).
const T = {
  Null: 1, Int: 2, Float: 3, Binary: 4, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Time: 9, Timestamp: 10, Interval: 11,
  List: 12, Struct: 13, Union: 14, FixedSizeBinary: 15, FixedSizeList: 16, Map: 17, Duration: 18, LargeBinary: 19,
  LargeUtf8: 20, Dictionary: -1,
};
/** @type {TimeUnit[]} */
const ARROW_UNIT = /** @type {any} */ ([null, 'millis', 'micros', 'nanos']); // TimeUnit: SECOND=0, MILLISECOND=1, MICROSECOND=2, NANOSECOND=3

/**
 * Whether slot `i` of an Arrow Data is valid.
 * @param {any} data
 * @param {number} i
 */
function arrowValid(data, i) {
  if (data.type.typeId === T.Null) return false;
  const bm = data.nullBitmap;
  if (!bm || bm.length === 0 || data.nullCount === 0) return true;
  const j = data.offset + i;
  return ((bm[j >> 3] ?? 0) & (1 << (j & 7))) !== 0;
}

/**
 * Converts slot `i` of an apache-arrow `Data` (one chunk of one column) to canonical form, from the raw buffers
 * (never through Arrow JS's number conversions, which round 64-bit timestamps and decimals).
 * @param {any} data
 * @param {number} i
 * @param {Hint | null} [hint]
 * @returns {unknown}
 */
export function fromArrow(data, i, hint = null) {
  if (!arrowValid(data, i)) return null;
  const type = data.type;
  // Arrow JS slices value/offset buffers with the Data, so they are indexed by i; only bitmaps use offset + i.
  const j = i;
  const k = leafKind(hint);
  switch (type.typeId) {
    case T.Bool: {
      const b = data.values;
      const bit = data.offset + i;
      return ((b[bit >> 3] ?? 0) & (1 << (bit & 7))) !== 0;
    }
    case T.Int: {
      const x = data.values[j];
      return typeof x === 'bigint' ? canonInt(x) : canonInt(Number(x));
    }
    case T.Float: {
      if (type.precision === 0) return canonNumber(float16ToNumber(data.values[j]));
      return canonNumber(data.values[j]);
    }
    case T.Utf8:
    case T.LargeUtf8: {
      const a = Number(data.valueOffsets[j]);
      const z = Number(data.valueOffsets[j + 1]);
      return utf8.decode(data.values.subarray(a, z));
    }
    case T.Binary:
    case T.LargeBinary: {
      const a = Number(data.valueOffsets[j]);
      const z = Number(data.valueOffsets[j + 1]);
      return canonBinary(data.values.subarray(a, z));
    }
    case T.FixedSizeBinary: {
      const w = type.byteWidth;
      const bytes = data.values.subarray(j * w, (j + 1) * w);
      if (k?.kind === 'uuid') return formatUuid(bytes);
      if (k?.kind === 'interval') return canonInterval(bytes);
      if (k?.kind === 'float16') return canonNumber(float16ToNumber(bytes[0] | (bytes[1] << 8)));
      if (k?.kind === 'int96') return formatInt96(bytes);
      return canonBinary(bytes);
    }
    case T.Decimal: {
      const words = type.bitWidth / 32;
      const u32 = data.values;
      let v = 0n;
      for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(u32[j * words + w] >>> 0);
      if (u32[j * words + words - 1] & 0x80000000) v -= 1n << BigInt(type.bitWidth);
      return formatDecimal(v, type.scale);
    }
    case T.Date: {
      // DateUnit: DAY=0, MILLISECOND=1
      if (type.unit === 0) return formatDate(data.values[j]);
      const ms = BigInt(data.values[j]);
      return formatDate(floorDivMod(ms, 86400000n)[0]);
    }
    case T.Time: {
      const unit = ARROW_UNIT[type.unit] ?? 'millis';
      const c = type.unit === 0 ? BigInt(data.values[j]) * 1000n : BigInt(data.values[j]);
      const want = k?.kind === 'time' ? k.unit : unit;
      const r = rescale(c, unit, want);
      return r === null ? formatTime(c, unit) : formatTime(r, want);
    }
    case T.Timestamp: {
      const unit = ARROW_UNIT[type.unit] ?? 'millis';
      const c = type.unit === 0 ? BigInt(data.values[j]) * 1000n : BigInt(data.values[j]);
      return timestampFrom(c, unit, type.timezone != null && type.timezone !== '', k);
    }
    case T.Interval: {
      const v = data.values;
      // IntervalUnit: YEAR_MONTH=0, DAY_TIME=1, MONTH_DAY_NANO=2
      if (type.unit === 0) return { months: v[j], days: 0, millis: 0 };
      if (type.unit === 1) return { months: 0, days: v[j * 2], millis: v[j * 2 + 1] };
      const nanos = (BigInt(v[j * 4 + 3]) << 32n) | BigInt(v[j * 4 + 2] >>> 0);
      return { months: v[j * 4], days: v[j * 4 + 1], millis: canonInt(nanos / 1000000n) };
    }
    case T.List:
    case T.FixedSizeList: {
      const child = data.children[0];
      const eh = listElement(hint);
      let a;
      let z;
      if (type.typeId === T.List) {
        a = Number(data.valueOffsets[j]);
        z = Number(data.valueOffsets[j + 1]);
      } else {
        a = j * type.listSize;
        z = a + type.listSize;
      }
      const out = [];
      for (let x = a; x < z; x++) out.push(fromArrow(child, x, eh));
      return out;
    }
    case T.Struct: {
      /** @type {Record<string, unknown>} */
      const out = {};
      type.children.forEach((/** @type {any} */ f, /** @type {number} */ ci) => {
        out[f.name] = fromArrow(data.children[ci], i, structChild(hint, f.name));
      });
      return out;
    }
    case T.Map: {
      const entries = data.children[0];
      const e = mapEntry(hint);
      const a = Number(data.valueOffsets[j]);
      const z = Number(data.valueOffsets[j + 1]);
      const out = [];
      for (let x = a; x < z; x++) out.push({ key: fromArrow(entries.children[0], x, e.key), value: fromArrow(entries.children[1], x, e.value) });
      return out;
    }
    case T.Null:
      return null;
    default:
      if (type.dictionary) {
        const idx = Number(data.values[j]);
        return fromArrow(data.dictionary.data[0], idx, hint);
      }
      throw new Error(`canon: unsupported Arrow type ${String(type)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Rows

/**
 * Canonical JSON text of rows (keys in the order the row objects hold them: schema order).
 * @param {unknown[]} rows
 * @returns {string}
 */
export function canonRows(rows) {
  return JSON.stringify(rows);
}

/**
 * sha256 (hex) of canonRows(rows).
 * @param {unknown[]} rows
 * @returns {string}
 */
export function digest(rows) {
  return createHash('sha256').update(canonRows(rows)).digest('hex');
}

/**
 * Canonical rows of a DuckDB materialized result (`runAndReadAll`), with the Parquet schema tree for hints.
 * @param {{ columnNames(): string[], getRows(): unknown[][] }} result
 * @param {Hint | null} [schema]
 * @returns {Record<string, unknown>[]}
 */
export function duckdbRows(result, schema = null) {
  const names = result.columnNames();
  const hints = names.map((n) => structChild(schema, n));
  return result.getRows().map((row) => {
    /** @type {Record<string, unknown>} */
    const o = {};
    names.forEach((n, c) => {
      o[n] = fromDuckDB(row[c], hints[c] ?? null);
    });
    return o;
  });
}

/**
 * Canonical rows of an apache-arrow Table (all record batches in order), with the Parquet schema tree for hints.
 * @param {any} table
 * @param {Hint | null} [schema]
 * @returns {Record<string, unknown>[]}
 */
export function arrowRows(table, schema = null) {
  /** @type {string[]} */
  const names = table.schema.fields.map((/** @type {any} */ f) => f.name);
  const hints = names.map((n) => structChild(schema, n));
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  for (const batch of table.batches) {
    const cols = batch.data.children;
    for (let i = 0; i < batch.numRows; i++) {
      /** @type {Record<string, unknown>} */
      const o = {};
      names.forEach((n, c) => {
        o[n] = fromArrow(cols[c], i, hints[c] ?? null);
      });
      rows.push(o);
    }
  }
  return rows;
}
