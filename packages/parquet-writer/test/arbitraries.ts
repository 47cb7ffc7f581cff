/**
 * fast-check generators for the writer's property tests: random schemas (field specs of every leaf type the builder
 * has, nested up to four groups deep), random rows for a schema in exactly the shape the reader returns them
 * (`convertValues` in parquet-column/src/to-js.ts: bigint for INT64, exact decimal strings, lower-case UUIDs, `Map`s
 * for maps, `null` for every absent optional value), random write options, and random rows that do not fit a schema.
 *
 * Expectations are derived from the specs here, independently of the writer and reader: the leaf columns of a schema
 * and their paths (README.md "Nested encoding", LogicalTypes.md "Lists"/"Maps"), the values and null slots of each
 * leaf column (one level entry per null, empty list or empty map, as Dremel shredding gives), and the sort order of
 * each leaf type (LogicalTypes.md "Sort order").
 */
import fc from 'fast-check';
import type { ColumnOptions, CompressionName, EncodingName, FieldSpec, Row, SchemaSpec, WriterOptions } from '../src/index.js';

// ---------------------------------------------------------------------------------------------------------------
// schemas

/** Most nested groups (struct, list, map) on any path from the root. */
export const MAX_NESTING = 4;

const SIMPLE = ['boolean', 'int32', 'int64', 'float', 'double', 'string', 'binary', 'json', 'bson', 'enum', 'uuid', 'float16', 'date', 'interval', 'int96'] as const;

/** Field names: plain, with spaces and non-ASCII, and names that are also Object.prototype members or Parquet group names. */
const nameArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'id', 'value', 'n', 'x y', 'ü', '名前', '😀', 'key', 'element', 'list', 'key_value') },
  { weight: 1, arbitrary: fc.constantFrom('constructor', 'toString', 'hasOwnProperty', '__proto__') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }).filter((s) => !s.includes('.')) },
);

/** Fewest bytes whose two's complement range holds every unscaled value of `precision` digits. */
export function decimalMinBytes(precision: number): number {
  const max = 10n ** BigInt(precision) - 1n;
  let n = 1;
  while ((1n << BigInt(8 * n - 1)) - 1n < max) n++;
  return n;
}

const withRequired = <T extends FieldSpec>(spec: T, required: boolean | undefined): FieldSpec =>
  required === undefined ? spec : ({ ...spec, required } as FieldSpec);

const decimalArb: fc.Arbitrary<FieldSpec> = fc.oneof(
  fc.integer({ min: 1, max: 9 }).map((p) => ({ p, physical: 'int32' as const })),
  fc.integer({ min: 1, max: 18 }).map((p) => ({ p, physical: 'int64' as const })),
  fc.integer({ min: 1, max: 38 }).map((p) => ({ p, physical: undefined })),
  fc.integer({ min: 1, max: 60 }).map((p) => ({ p, physical: 'binary' as const })),
  fc.tuple(fc.integer({ min: 1, max: 45 }), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined })).map(([p, extra]) => ({ p, physical: 'fixed' as const, extra })),
).chain((d) =>
  fc.integer({ min: 0, max: d.p }).map((scale): FieldSpec => {
    const spec: { type: 'decimal'; precision: number; scale: number; physical?: 'int32' | 'int64' | 'fixed' | 'binary'; byteLength?: number } = { type: 'decimal', precision: d.p, scale };
    if (d.physical !== undefined) spec.physical = d.physical;
    if ('extra' in d && d.extra !== undefined) spec.byteLength = decimalMinBytes(d.p) + d.extra;
    return spec;
  }),
);

const unitArb = fc.constantFrom('millis' as const, 'micros' as const, 'nanos' as const);

/** A leaf field spec without `required`. */
export const leafSpecArb: fc.Arbitrary<FieldSpec> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SIMPLE).map((type): FieldSpec => ({ type })) },
  { weight: 2, arbitrary: fc.record({ bitWidth: fc.constantFrom(8 as const, 16 as const, 32 as const, 64 as const), signed: fc.boolean() }).map((o): FieldSpec => ({ type: 'int', ...o })) },
  { weight: 3, arbitrary: decimalArb },
  { weight: 1, arbitrary: fc.record({ unit: unitArb, utc: fc.boolean() }).map((o): FieldSpec => ({ type: 'timestamp', ...o })) },
  { weight: 1, arbitrary: fc.record({ unit: unitArb, utc: fc.boolean() }).map((o): FieldSpec => ({ type: 'time', ...o })) },
  { weight: 1, arbitrary: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 9, max: 40 })).map((length): FieldSpec => ({ type: 'fixed', length })) },
);

const requiredArb = fc.option(fc.boolean(), { nil: undefined, freq: 3 });

function fieldsArb(depth: number, maxFields: number): fc.Arbitrary<SchemaSpec> {
  return fc
    .uniqueArray(fc.tuple(nameArb, fieldAt(depth)), { minLength: 1, maxLength: maxFields, selector: (t) => t[0] })
    .map((entries) => Object.fromEntries(entries) as SchemaSpec);
}

const fieldCache: fc.Arbitrary<FieldSpec>[] = [];

/** A field at nesting `depth` (the number of groups above it); groups only while `depth < MAX_NESTING`. */
function fieldAt(depth: number): fc.Arbitrary<FieldSpec> {
  const cached = fieldCache[depth];
  if (cached) return cached;
  const leaf = fc.tuple(leafSpecArb, requiredArb).map(([s, r]) => withRequired(s, r));
  let arb: fc.Arbitrary<FieldSpec>;
  if (depth >= MAX_NESTING) arb = leaf;
  else {
    const inner = fc.constant(null).chain(() => fieldAt(depth + 1)); // lazy: built on first use
    arb = fc.oneof(
      { weight: 6, arbitrary: leaf },
      { weight: 1, arbitrary: fc.tuple(fc.constant(null).chain(() => fieldsArb(depth + 1, 3)), requiredArb).map(([fields, r]) => withRequired({ type: 'struct', fields }, r)) },
      { weight: 2, arbitrary: fc.tuple(inner, requiredArb).map(([element, r]) => withRequired({ type: 'list', element }, r)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(leafSpecArb, fc.boolean(), fc.option(inner, { nil: undefined, freq: 6 }), requiredArb)
          .map(([key, keyRequired, value, r]) => {
            const k: FieldSpec = keyRequired ? ({ ...key, required: true } as FieldSpec) : key;
            return withRequired(value === undefined ? { type: 'map', key: k } : { type: 'map', key: k, value }, r);
          }),
      },
    );
  }
  fieldCache[depth] = arb;
  return arb;
}

/** A schema: 1 to 4 top-level fields, groups nested up to {@link MAX_NESTING} deep. */
export const schemaArb: fc.Arbitrary<SchemaSpec> = fieldsArb(0, 4);

// ---------------------------------------------------------------------------------------------------------------
// leaf columns of a schema

/** The physical type of a leaf spec (README.md "Types", LogicalTypes.md). */
export type Physical = 'BOOLEAN' | 'INT32' | 'INT64' | 'INT96' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY' | 'FIXED_LEN_BYTE_ARRAY';

/** The physical type of a leaf spec. */
export function physicalOf(spec: FieldSpec): Physical {
  switch (spec.type) {
    case 'boolean': return 'BOOLEAN';
    case 'int32': case 'date': return 'INT32';
    case 'int64': case 'timestamp': return 'INT64';
    case 'int': return spec.bitWidth === 64 ? 'INT64' : 'INT32';
    case 'time': return spec.unit === 'millis' ? 'INT32' : 'INT64';
    case 'float': return 'FLOAT';
    case 'double': return 'DOUBLE';
    case 'int96': return 'INT96';
    case 'string': case 'binary': case 'json': case 'bson': case 'enum': return 'BYTE_ARRAY';
    case 'uuid': case 'float16': case 'interval': case 'fixed': return 'FIXED_LEN_BYTE_ARRAY';
    case 'decimal': {
      const p = spec.physical ?? (spec.precision <= 9 ? 'int32' : spec.precision <= 18 ? 'int64' : 'fixed');
      return p === 'int32' ? 'INT32' : p === 'int64' ? 'INT64' : p === 'binary' ? 'BYTE_ARRAY' : 'FIXED_LEN_BYTE_ARRAY';
    }
    default: throw new Error(`not a leaf: ${spec.type}`);
  }
}

/** A leaf column: its dotted column path (as in the file) and spec. */
export interface Leaf {
  path: string;
  spec: FieldSpec;
}

/** The leaf columns of a schema in file order, with their column paths. */
export function leavesOf(schema: SchemaSpec): Leaf[] {
  const out: Leaf[] = [];
  const walk = (spec: FieldSpec, path: string): void => {
    switch (spec.type) {
      case 'struct': for (const [n, f] of Object.entries(spec.fields)) walk(f, `${path}.${n}`); return;
      case 'list': walk(spec.element, `${path}.list.element`); return;
      case 'map':
        walk(spec.key, `${path}.key_value.key`);
        if (spec.value) walk(spec.value, `${path}.key_value.value`);
        return;
      default: out.push({ path, spec });
    }
  };
  for (const [n, f] of Object.entries(schema)) walk(f, n);
  return out;
}

/** Group paths (structs, lists, maps and their inner groups) of a schema. */
export function groupPathsOf(schema: SchemaSpec): string[] {
  const out: string[] = [];
  const walk = (spec: FieldSpec, path: string): void => {
    switch (spec.type) {
      case 'struct': out.push(path); for (const [n, f] of Object.entries(spec.fields)) walk(f, `${path}.${n}`); return;
      case 'list': out.push(path, `${path}.list`); walk(spec.element, `${path}.list.element`); return;
      case 'map':
        out.push(path, `${path}.key_value`);
        walk(spec.key, `${path}.key_value.key`);
        if (spec.value) walk(spec.value, `${path}.key_value.value`);
        return;
      default:
    }
  };
  for (const [n, f] of Object.entries(schema)) walk(f, n);
  return out;
}

/**
 * The level slots of every leaf column for some rows, in column order: the value, or `null` for a slot without a
 * value (a null at any optional level, an empty list or map). One slot is one level entry.
 */
export function leafSlots(schema: SchemaSpec, rows: readonly Row[]): unknown[][] {
  const leaves = leavesOf(schema);
  const index = new Map(leaves.map((l, i) => [l.path, i]));
  const out: unknown[][] = leaves.map(() => []);
  const nulls = (spec: FieldSpec, path: string): void => {
    for (const l of leavesOf({ x: spec })) out[index.get(path + l.path.slice(1))!]!.push(null);
  };
  const walk = (spec: FieldSpec, v: unknown, path: string): void => {
    if (v === null || v === undefined) return nulls(spec, path);
    switch (spec.type) {
      case 'struct':
        for (const [n, f] of Object.entries(spec.fields)) walk(f, (v as Record<string, unknown>)[n], `${path}.${n}`);
        return;
      case 'list': {
        const a = v as unknown[];
        if (a.length === 0) return nulls(spec, path);
        for (const e of a) walk(spec.element, e, `${path}.list.element`);
        return;
      }
      case 'map': {
        const m = v as Map<unknown, unknown>;
        if (m.size === 0) return nulls(spec, path);
        for (const [k, val] of m) {
          walk(spec.key, k, `${path}.key_value.key`);
          if (spec.value) walk(spec.value, val, `${path}.key_value.value`);
        }
        return;
      }
      default:
        out[index.get(path)!]!.push(v);
    }
  };
  for (const r of rows) for (const [n, f] of Object.entries(schema)) walk(f, Object.prototype.hasOwnProperty.call(r, n) ? r[n] : undefined, n);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// values, in the reader's shape

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const NANOS_PER_DAY = 86_400_000_000_000n;
const JULIAN_EPOCH = 2_440_588n;

/** IEEE 754 binary16 bits → number (exact: every half is a double). */
export function halfToNumber(bits: number): number {
  const exp = (bits >>> 10) & 31;
  const frac = bits & 1023;
  const sign = bits >>> 15 ? -1 : 1;
  if (exp === 31) return frac === 0 ? sign * Infinity : NaN;
  const mag = exp === 0 ? Math.pow(2, -14) * (frac / 1024) : Math.pow(2, exp - 15) * (1 + frac / 1024);
  return sign * mag;
}

/** An exact decimal string of an unscaled integer with `scale` fraction digits, as LogicalTypes.md DECIMAL defines it. */
export function decimalString(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return neg ? `-${body}` : body;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Lower-case 8-4-4-4-12 form of 16 bytes. */
export function uuidString(b: Uint8Array): string {
  const h = Array.from(b, hex2).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Arbitrary of an integer range, biased to its ends and to a few small values (so dictionaries and runs happen). */
const intIn = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max, Math.max(min, Math.min(max, 0)), Math.max(min, Math.min(max, 1))) },
    { weight: 3, arbitrary: fc.integer({ min: Math.max(min, -3), max: Math.min(max, Math.max(min, -3) + 6) }) },
  );
const bigIn = (min: bigint, max: bigint) => {
  const lo = min > -3n ? min : -3n;
  const hi = max < lo + 6n ? max : lo + 6n;
  return fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max, min > 0n ? min : max < 0n ? max : 0n) },
    { weight: 3, arbitrary: fc.bigInt({ min: lo, max: hi }) },
  );
};

const stringArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  { weight: 3, arbitrary: fc.constantFrom('', 'a', 'b', 'ab', 'é', '😀', '\uFFFF', '\uE000', '\u{10FFFF}', 'a😀b') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 50, maxLength: 120 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }), fc.integer({ min: 20, max: 1500 })).map(([s, n]) => s.repeat(n)) },
);

const bytesArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1, 2).map((n) => new Uint8Array(n).fill(0xff)) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 60, maxLength: 300 }) },
);

const u32 = intIn(0, 0xffffffff);

/** The non-null values of a leaf spec, in the reader's shape. */
export function leafValueArb(spec: FieldSpec): fc.Arbitrary<unknown> {
  switch (spec.type) {
    case 'boolean': return fc.boolean();
    case 'int32': return intIn(-0x80000000, 0x7fffffff);
    case 'int64': return bigIn(I64_MIN, I64_MAX);
    case 'int': {
      const { bitWidth: w, signed } = spec;
      if (w === 64) return signed ? bigIn(I64_MIN, I64_MAX) : bigIn(0n, 2n ** 64n - 1n);
      return signed ? intIn(-(2 ** (w - 1)), 2 ** (w - 1) - 1) : intIn(0, 2 ** w - 1);
    }
    case 'float':
      return fc.oneof(fc.float(), fc.constantFrom(NaN, 0, -0, Infinity, -Infinity, 2 ** -149, -(2 ** -149), 2 ** -126, 3.4028234663852886e38, 1, -1));
    case 'double':
      return fc.oneof(fc.double(), fc.constantFrom(NaN, 0, -0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, Number.MAX_VALUE, 0.1, 1, -1));
    case 'float16':
      return fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x3c00)).map(halfToNumber);
    case 'decimal': {
      const lim = 10n ** BigInt(spec.precision) - 1n;
      return bigIn(-lim, lim).map((u) => decimalString(u, spec.scale));
    }
    case 'string': return stringArb;
    case 'json': return fc.oneof(fc.json({ maxDepth: 2 }), fc.constantFrom('null', '{}', '[]', '"😀"'));
    case 'enum': return fc.oneof(fc.constantFrom('RED', 'GREEN', 'BLUE', ''), fc.string({ unit: 'grapheme-ascii', maxLength: 8 }));
    case 'binary': case 'bson': return bytesArb;
    case 'uuid':
      return fc.oneof(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.constantFrom(0, 0xff).map((b) => new Uint8Array(16).fill(b))).map(uuidString);
    case 'date': return intIn(-0x80000000, 0x7fffffff);
    case 'time':
      return spec.unit === 'millis' ? intIn(0, 86_399_999) : bigIn(0n, spec.unit === 'micros' ? 86_399_999_999n : 86_399_999_999_999n);
    case 'timestamp': return bigIn(I64_MIN, I64_MAX);
    case 'interval': return fc.record({ months: u32, days: u32, millis: u32 });
    case 'int96':
      return fc
        .tuple(intIn(-0x80000000, 0x7fffffff), fc.oneof(fc.bigInt({ min: 0n, max: NANOS_PER_DAY - 1n }), fc.constantFrom(0n, NANOS_PER_DAY - 1n)), fc.boolean())
        .map(([day, nanos, nearEpoch]) => ((nearEpoch ? BigInt(day % 1000) : BigInt(day) - JULIAN_EPOCH) * NANOS_PER_DAY + nanos));
    case 'fixed':
      return fc.oneof(fc.uint8Array({ minLength: spec.length, maxLength: spec.length }), fc.constantFrom(0, 0xff).map((b) => new Uint8Array(spec.length).fill(b)));
    default:
      throw new Error(`not a leaf: ${spec.type}`);
  }
}

/** Builds an object with own properties in order (also `__proto__`, which an object literal or assignment would not create). */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  return Object.fromEntries(entries) as Record<string, unknown>;
}

/** A map key's identity by content: numbers as a Map compares them (-0 is +0), bytes by their bytes, intervals by their fields. */
function keyIdentity(k: unknown): string {
  if (typeof k === 'number') return `n:${Object.is(k, -0) ? 0 : k}`;
  if (typeof k === 'bigint') return `b:${k}`;
  if (typeof k === 'string') return `s:${k}`;
  if (k instanceof Uint8Array) return `u:${Array.from(k, hex2).join('')}`;
  return `o:${JSON.stringify(k)}`;
}

const valueCache = new WeakMap<FieldSpec, fc.Arbitrary<unknown>>();

/** A value of a field: `null` now and then where the field is optional, lists and maps of 0 to 5 entries. */
export function valueArb(spec: FieldSpec): fc.Arbitrary<unknown> {
  const cached = valueCache.get(spec);
  if (cached) return cached;
  const inner = nonNullArb(spec);
  const arb = spec.required === true ? inner : fc.option(inner, { nil: null, freq: 4 });
  valueCache.set(spec, arb);
  return arb;
}

function nonNullArb(spec: FieldSpec): fc.Arbitrary<unknown> {
  switch (spec.type) {
    case 'struct': {
      const names = Object.keys(spec.fields);
      return fc.tuple(...names.map((n) => valueArb(spec.fields[n]!))).map((vs) => objectOf(names.map((n, i) => [n, vs[i]])));
    }
    case 'list':
      return fc.array(valueArb(spec.element), { maxLength: 5 });
    case 'map': {
      const key = leafValueArb(spec.key);
      const value = spec.value ? valueArb(spec.value) : fc.constant(null);
      // keys unique by content (a file's duplicate keys collapse into the last entry when read)
      return fc.uniqueArray(fc.tuple(key, value), { maxLength: 5, selector: (t) => keyIdentity(t[0]) }).map((e) => new Map(e));
    }
    default:
      return leafValueArb(spec);
  }
}

/** One row of a schema. */
export function rowArb(schema: SchemaSpec): fc.Arbitrary<Row> {
  const names = Object.keys(schema);
  return fc.tuple(...names.map((n) => valueArb(schema[n]!))).map((vs) => objectOf(names.map((n, i) => [n, vs[i]])));
}

/** Rows of a schema: mostly a few, sometimes a few hundred (many pages and row groups under tiny limits). */
export function rowsArb(schema: SchemaSpec, minLength = 0): fc.Arbitrary<Row[]> {
  const row = rowArb(schema);
  return fc.oneof(
    { weight: 5, arbitrary: fc.array(row, { minLength, maxLength: Math.max(minLength, 25) }) },
    { weight: 1, arbitrary: fc.array(row, { minLength: Math.max(minLength, 60), maxLength: 220 }) },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// write options

/** Compression codecs with a compressor here (GZIP through `@parquetry/codec-gzip`, given in the codecs option). */
export const COMPRESSIONS: readonly CompressionName[] = ['UNCOMPRESSED', 'SNAPPY', 'LZ4_RAW', 'LZ4', 'LZO', 'GZIP'];

/** The value encodings a physical type can be written with (Encodings.md). */
export function encodingsFor(p: Physical): readonly EncodingName[] {
  switch (p) {
    case 'BOOLEAN': return ['PLAIN', 'RLE'];
    case 'INT32': case 'INT64': return ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'];
    case 'FLOAT': case 'DOUBLE': return ['PLAIN', 'BYTE_STREAM_SPLIT', 'ALP'];
    case 'BYTE_ARRAY': return ['PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY'];
    case 'FIXED_LEN_BYTE_ARRAY': return ['PLAIN', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'];
    case 'INT96': return ['PLAIN'];
  }
}

const compressionArb = fc.constantFrom(...COMPRESSIONS);

/** Write options for a schema (without `schema` and `codecs`): tiny limits to force many pages, row groups and fallbacks. */
export function optionsArb(schema: SchemaSpec): fc.Arbitrary<WriterOptions> {
  const leaves = leavesOf(schema);
  const groups = groupPathsOf(schema);
  const leafOptions = fc.tuple(
    fc.subarray(leaves, { maxLength: Math.min(4, leaves.length) }),
    fc.array(fc.record({
      encoding: fc.nat(),
      dictionary: fc.boolean(),
      compression: compressionArb,
      statistics: fc.boolean(),
    }, { requiredKeys: [] }), { minLength: 4, maxLength: 4 }),
  ).map(([ls, os]) => ls.map((l, i): [string, ColumnOptions] => {
    const o = os[i]!;
    const out: { encoding?: EncodingName; dictionary?: boolean; compression?: CompressionName; statistics?: boolean } = {};
    if (o.encoding !== undefined) {
      const es = encodingsFor(physicalOf(l.spec));
      out.encoding = es[o.encoding % es.length]!;
    }
    if (o.dictionary !== undefined) out.dictionary = o.dictionary;
    if (o.compression !== undefined) out.compression = o.compression;
    if (o.statistics !== undefined) out.statistics = o.statistics;
    return [l.path, out];
  }));
  const groupOptions = groups.length === 0
    ? fc.constant([] as [string, ColumnOptions][])
    : fc.tuple(fc.subarray(groups, { maxLength: Math.min(2, groups.length) }), fc.array(fc.record({ dictionary: fc.boolean(), compression: compressionArb, statistics: fc.boolean() }, { requiredKeys: [] }), { minLength: 2, maxLength: 2 }))
      .map(([gs, os]) => gs.map((g, i): [string, ColumnOptions] => [g, os[i]!]));
  return fc.record({
    pageVersion: fc.constantFrom(1 as const, 2 as const),
    compression: compressionArb,
    dictionary: fc.boolean(),
    pageSize: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 4096 })),
    pageRows: fc.integer({ min: 1, max: 40 }),
    rowGroupRows: fc.integer({ min: 1, max: 150 }),
    rowGroupBytes: fc.integer({ min: 1, max: 20_000 }),
    dictionaryPageSize: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 2000 })),
    checksum: fc.boolean(),
    statistics: fc.boolean(),
    pageStatistics: fc.boolean(),
    truncateLength: fc.oneof(fc.integer({ min: 1, max: 80 }), fc.constant(Infinity)),
    strictUtf8: fc.boolean(),
    contentDefinedChunking: fc.oneof(
      fc.boolean(),
      // minChunkSize below maxChunkSize when both are given (the writer refuses the other way round)
      fc
        .record({ minChunkSize: fc.integer({ min: 1, max: 256 }), maxChunkSize: fc.integer({ min: 1, max: 2048 }) }, { requiredKeys: [] })
        .map((c) => (c.minChunkSize !== undefined && c.maxChunkSize !== undefined && c.minChunkSize >= c.maxChunkSize ? { ...c, maxChunkSize: c.minChunkSize + c.maxChunkSize } : c)),
    ),
    columns: fc.tuple(groupOptions, leafOptions).map(([g, l]) => Object.fromEntries([...g, ...l]) as Record<string, ColumnOptions>),
  }, { requiredKeys: [] }) as fc.Arbitrary<WriterOptions>;
}

/** A leaf's options as the writer documents their resolution. */
export interface ResolvedColumn {
  compression: CompressionName;
  dictionary: boolean;
  encoding: EncodingName;
  statistics: boolean;
}

/**
 * A leaf's options, resolved as documented: the file-level options (defaults SNAPPY, dictionary on, PLAIN,
 * statistics on), then the per-column options whose path is a prefix of the leaf's, the longer path winning.
 */
export function resolvedColumn(options: WriterOptions, leafPath: string): ResolvedColumn {
  const out: ResolvedColumn = {
    compression: options.compression ?? 'SNAPPY',
    dictionary: options.dictionary ?? true,
    encoding: options.encoding ?? 'PLAIN',
    statistics: options.statistics ?? true,
  };
  const parts = leafPath.split('.');
  const matching = Object.entries(options.columns ?? {})
    .map(([p, o]) => ({ p: p.split('.'), o }))
    .filter(({ p }) => p.length <= parts.length && p.every((x, i) => parts[i] === x))
    .sort((a, b) => a.p.length - b.p.length);
  for (const { o } of matching) {
    if (o.compression !== undefined) out.compression = o.compression;
    if (o.dictionary !== undefined) out.dictionary = o.dictionary;
    if (o.encoding !== undefined) out.encoding = o.encoding;
    if (o.statistics !== undefined) out.statistics = o.statistics;
  }
  return out;
}

/** Whether statistics are on for a leaf under these options. */
export const statisticsOn = (options: WriterOptions, leafPath: string): boolean => resolvedColumn(options, leafPath).statistics;

// ---------------------------------------------------------------------------------------------------------------
// comparison

/**
 * The first difference between an expected and an actual value, or undefined when they are the same: numbers by
 * `Object.is` (so -0 ≠ +0, NaN = NaN), bigints and strings by value, `Uint8Array`s by bytes, `Map`s entry by entry in
 * order, arrays element by element, plain objects by their own keys in order. Types must match exactly.
 */
export function firstDifference(expected: unknown, actual: unknown, at = '$'): string | undefined {
  const show = (v: unknown) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'number' && Object.is(v, -0) ? '-0' : v instanceof Uint8Array ? `Uint8Array[${Array.from(v).join(',')}]` : typeof v === 'string' ? JSON.stringify(v) : String(v));
  if (typeof expected !== typeof actual) return `${at}: expected ${typeof expected} ${show(expected)}, got ${typeof actual} ${show(actual)}`;
  if (expected === null || actual === null || typeof expected !== 'object') {
    return Object.is(expected, actual) ? undefined : `${at}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (expected instanceof Uint8Array) {
    if (!(actual instanceof Uint8Array) || actual.constructor !== Uint8Array) return `${at}: expected a Uint8Array, got ${Object.prototype.toString.call(actual)}`;
    if (actual.length !== expected.length || actual.some((b, i) => b !== expected[i])) return `${at}: expected ${show(expected)}, got ${show(actual)}`;
    return undefined;
  }
  if (expected instanceof Map) {
    if (!(actual instanceof Map)) return `${at}: expected a Map, got ${Object.prototype.toString.call(actual)}`;
    if (actual.size !== expected.size) return `${at}: expected a Map of ${expected.size}, got ${actual.size} entries`;
    const a = [...actual];
    let i = 0;
    for (const [k, v] of expected) {
      const [ak, av] = a[i]!;
      const d = firstDifference(k, ak, `${at}.key[${i}]`) ?? firstDifference(v, av, `${at}.value[${i}]`);
      if (d) return d;
      i++;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${Object.prototype.toString.call(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (Array.isArray(actual) || actual instanceof Map || ArrayBuffer.isView(actual)) return `${at}: expected a plain object, got ${Object.prototype.toString.call(actual)}`;
  const ek = Object.keys(expected);
  const ak = Object.keys(actual as object);
  if (ek.join('\u0000') !== ak.join('\u0000')) return `${at}: expected keys ${JSON.stringify(ek)}, got ${JSON.stringify(ak)}`;
  for (const k of ek) {
    const d = firstDifference((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], `${at}.${k}`);
    if (d) return d;
  }
  return undefined;
}

const utf8 = new TextEncoder();

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

const unscaled = (s: string) => BigInt(s.replace('.', ''));
const cmpNum = (a: number | bigint, b: number | bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The sort order of a leaf type (LogicalTypes.md "Sort order"), on values in the reader's shape, or undefined when
 * the order is undefined (INTERVAL, INT96: no min/max may be written). NaN is not ordered (callers skip it).
 */
export function orderOf(spec: FieldSpec): ((a: unknown, b: unknown) => number) | undefined {
  switch (spec.type) {
    case 'interval': case 'int96': return undefined;
    case 'boolean': return (a, b) => Number(a) - Number(b);
    case 'decimal': return (a, b) => cmpNum(unscaled(a as string), unscaled(b as string));
    case 'string': case 'json': case 'enum': return (a, b) => compareBytes(utf8.encode(a as string), utf8.encode(b as string));
    case 'binary': case 'bson': case 'fixed': return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array);
    case 'uuid': return (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0); // lower-case hex: byte order
    default: return (a, b) => cmpNum(a as number | bigint, b as number | bigint);
  }
}

/** Whether a leaf type counts NaNs (`nan_count`): FLOAT, DOUBLE, FLOAT16. */
export const isFloating = (spec: FieldSpec): boolean => spec.type === 'float' || spec.type === 'double' || spec.type === 'float16';

// ---------------------------------------------------------------------------------------------------------------
// bad input

/** A place in some rows where a value sits: its row, the column path of its field, its spec, and how to replace it. */
export interface Site {
  /** Row index. */
  row: number;
  /** Column path of the field (a leaf column path, or a group's path). */
  path: string;
  /** The field's spec. */
  spec: FieldSpec;
  /** Whether the current value is null. */
  isNull: boolean;
  /** Returns rows with this one value replaced (the input is not changed). */
  replace: (rows: readonly Row[], v: unknown) => Row[];
}

type Step = { k: 'field'; name: string } | { k: 'elem' | 'key' | 'val'; i: number };

function setAt(v: unknown, steps: readonly Step[], at: number, nv: unknown): unknown {
  if (at === steps.length) return nv;
  const s = steps[at]!;
  const next = (x: unknown) => setAt(x, steps, at + 1, nv);
  switch (s.k) {
    case 'field':
      return objectOf(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, k === s.name ? next(x) : x]));
    case 'elem':
      return (v as unknown[]).map((x, j) => (j === s.i ? next(x) : x));
    case 'key':
      return new Map([...(v as Map<unknown, unknown>)].map(([k, x], j) => [j === s.i ? next(k) : k, x]));
    case 'val':
      return new Map([...(v as Map<unknown, unknown>)].map(([k, x], j) => [k, j === s.i ? next(x) : x]));
  }
}

/** Every site of some rows: every field value of every row, and inside structs, lists and maps (keys and values). */
export function sitesOf(schema: SchemaSpec, rows: readonly Row[]): Site[] {
  const out: Site[] = [];
  rows.forEach((row, r) => {
    const visit = (spec: FieldSpec, v: unknown, path: string, steps: readonly Step[]): void => {
      out.push({
        row: r,
        path,
        spec,
        isNull: v === null || v === undefined,
        replace: (rs, nv) => rs.map((x, i) => (i === r ? (setAt(x, steps, 0, nv) as Row) : x)),
      });
      if (v === null || v === undefined) return;
      switch (spec.type) {
        case 'struct':
          for (const [n, f] of Object.entries(spec.fields)) visit(f, (v as Record<string, unknown>)[n], `${path}.${n}`, [...steps, { k: 'field', name: n }]);
          return;
        case 'list':
          (v as unknown[]).forEach((e, i) => visit(spec.element, e, `${path}.list.element`, [...steps, { k: 'elem', i }]));
          return;
        case 'map':
          [...(v as Map<unknown, unknown>)].forEach(([k, val], i) => {
            visit(spec.key, k, `${path}.key_value.key`, [...steps, { k: 'key', i }]);
            if (spec.value) visit(spec.value, val, `${path}.key_value.value`, [...steps, { k: 'val', i }]);
          });
          return;
        default:
      }
    };
    for (const [n, f] of Object.entries(schema)) visit(f, row[n], n, [{ k: 'field', name: n }]);
  });
  return out;
}

/** Whether a site's value must not be null: REQUIRED fields, and map keys (always REQUIRED). */
export function siteRequired(site: Site): boolean {
  return site.spec.required === true || site.path.endsWith('.key_value.key');
}

/**
 * Values that do not fit a field: the wrong JavaScript type, out-of-range integers, decimals with too many digits
 * or malformed, wrong fixed lengths, bad UUID strings, non-arrays for lists, non-objects for structs, non-maps for
 * maps, and null/undefined where the field is required. Every one of them must be rejected.
 */
export function badValueArb(spec: FieldSpec, required: boolean, strictUtf8 = false): fc.Arbitrary<unknown> {
  const common = [5, 1n, true, {}] as unknown[];
  const forType = ((): unknown[] => {
    switch (spec.type) {
      case 'struct': return [5, 'x', true, [], new Map(), 1n, new Uint8Array(2), [{}]];
      case 'list': return ['abc', 5, {}, new Map([[1, 2]]), true, 1n];
      case 'map': return [5, 'x', [1], [], true, 1n, new Uint8Array(1)];
      case 'boolean': return [0, 1, 'true', 1n, {}, [], NaN];
      case 'int32': case 'date': case 'int': case 'time': case 'int64': case 'timestamp': {
      const p = physicalOf(spec);
        const unsigned = spec.type === 'int' && !spec.signed;
        if (p === 'INT32') {
          const bits = spec.type === 'int' ? spec.bitWidth : 32;
          const lo = unsigned ? 0 : -(2 ** (bits - 1));
          const hi = unsigned ? 2 ** bits - 1 : 2 ** (bits - 1) - 1;
          const out: unknown[] = [1.5, NaN, Infinity, -Infinity, lo - 1, hi + 1, BigInt(hi) + 1n, BigInt(lo) - 1n, '1', true, {}, -0.5];
          if (spec.type === 'date') out.push(new Date(NaN));
          else out.push(new Date(0));
          return out;
        }
        const out: unknown[] = [1.5, 2 ** 53, -(2 ** 60), NaN, Infinity, '1', true, {}, unsigned ? -1n : 2n ** 63n, unsigned ? 2n ** 64n : -(2n ** 63n) - 1n];
        if (unsigned) out.push(-1);
        if (spec.type === 'timestamp') out.push(new Date(NaN), ...(spec.unit === 'nanos' ? [new Date(8.64e15), new Date(-8.64e15)] : []));
        else out.push(new Date(0));
        return out;
      }
      case 'int96': return [5, 'x', true, 2n ** 200n, -(2n ** 200n), new Date(NaN), {}];
      case 'float': return ['1', 1n, true, {}, 1e39, -1e39, Number.MAX_VALUE];
      case 'double': return ['1', 1n, true, {}, [], new Date(0)];
      case 'float16': return [65520, -1e6, Number.MAX_VALUE, '1', 1n, true];
      case 'decimal': {
        const { precision: p, scale: s } = spec;
        return [
          'abc', '', '1.2.3', '1e', '.', '-', ' 1', '1_0', '0x10', NaN, Infinity, -Infinity, true, {}, [],
          '9'.repeat(p - s + 1), `-${'9'.repeat(p - s + 1)}`, `0.${'0'.repeat(s)}1`, 10n ** BigInt(p - s), -(10n ** BigInt(p - s)),
          `1e${p - s}`, 2 * 10 ** (p - s), // not 10 ** (p - s): that double may print as 26 nines (9.999999999999999e+25), which fits
        ];
      }
      case 'string': case 'json': case 'enum':
        // under strictUtf8, lone surrogates and bytes that are not UTF-8 too
        return [5, true, {}, 1n, [], new Date(0), new Uint16Array(2), ...(strictUtf8 ? ['a\uD800', '\uDC00b', 'x\uDBFF\uDBFF', Uint8Array.of(0xff), Uint8Array.of(0xc0, 0x80), Uint8Array.of(0xed, 0xa0, 0x80)] : [])];
      case 'binary': return [5, true, {}, 1n, [], new Int8Array(2)];
      case 'bson': return ['x', 5, true, {}, 1n, []];
      case 'uuid':
        return ['not-a-uuid', 'g'.repeat(8) + '-0000-0000-0000-000000000000', '0'.repeat(36), '0'.repeat(32), '00000000-0000-0000-0000-0000000000000', '00000000_0000_0000_0000_000000000000', new Uint8Array(15), new Uint8Array(17), 5, 1n, {}];
      case 'interval':
        return [{ months: -1, days: 0, millis: 0 }, { months: 0, days: 2 ** 32, millis: 0 }, { months: 0, days: 0, millis: 1.5 }, { months: 1n, days: 0, millis: 0 }, {}, 5, 'x', new Uint8Array(11), new Uint8Array(13), [1, 2, 3]];
      case 'fixed': {
        const n = spec.length;
        return [new Uint8Array(n + 1), new Uint8Array(n - 1), 'x'.repeat(n), 5, 1n, {}, Array.from({ length: n }, () => 0)];
      }
      default: return common;
    }
  })();
  const values = required ? [...forType, null, undefined] : forType;
  return fc.constantFrom(...values);
}

// ---------------------------------------------------------------------------------------------------------------
// other accepted input forms

/** A small deterministic PRNG (mulberry32) for choices made while rewriting values. */
export function prng(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MS_PER_DAY = 86_400_000;
const MAX_DATE_MS = 8.64e15;
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** An ULP of a float32 / float16 normal or subnormal value `x` (finite, not 0). */
function ulp(x: number, mantBits: number, minExp: number): number {
  const e = Math.max(Math.floor(Math.log2(Math.abs(x))), minExp);
  // log2 can be off by one next to powers of two: take the exponent whose range holds |x|
  const ee = Math.abs(x) < 2 ** e ? e - 1 : Math.abs(x) >= 2 ** (e + 1) ? e + 1 : e;
  return 2 ** (Math.max(ee, minExp) - mantBits);
}

/**
 * Another input form the writer documents for the same value (from-js.ts module table), or the value itself:
 * `number` for INT64 values within ±(2^53-1), `bigint` for INT32 values, `Date` for timestamps/dates/INT96 on whole
 * milliseconds, `bigint`/`number`/exponent/padded strings for decimals, UTF-8 bytes for strings, a string for
 * unannotated binary holding UTF-8, upper-case or byte UUIDs, 12 bytes for an interval, a double that rounds to the
 * FLOAT/FLOAT16 value.
 */
export function altLeaf(spec: FieldSpec, v: unknown, rnd: () => number): unknown {
  const pick = rnd() < 0.6;
  if (!pick) return v;
  switch (spec.type) {
    case 'int32': case 'date': case 'int':
      if (typeof v === 'number') {
        if (spec.type === 'date' && rnd() < 0.6 && Math.abs(v) < 1e8) return new Date(v * MS_PER_DAY + Math.floor(rnd() * MS_PER_DAY)); // the time of day is dropped
        return BigInt(v);
      }
      if (typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
      return v;
    case 'int64': case 'time':
      if (typeof v === 'number') return BigInt(v);
      return typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    case 'timestamp': {
      const b = v as bigint;
      const per = spec.unit === 'millis' ? 1n : spec.unit === 'micros' ? 1000n : 1000000n;
      if (rnd() < 0.5 && b % per === 0n && b / per >= -BigInt(MAX_DATE_MS) && b / per <= BigInt(MAX_DATE_MS)) return new Date(Number(b / per));
      return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
    }
    case 'int96': {
      const b = v as bigint;
      if (b % 1000000n === 0n && b / 1000000n >= -BigInt(MAX_DATE_MS) && b / 1000000n <= BigInt(MAX_DATE_MS)) return new Date(Number(b / 1000000n));
      return v;
    }
    case 'decimal': {
      const s = v as string;
      const neg = s.startsWith('-');
      const [int = '', frac = ''] = (neg ? s.slice(1) : s).split('.');
      const r = rnd();
      if (r < 0.2 && /^0*$/.test(frac)) return BigInt(s.split('.')[0]!); // the value itself, a bigint
      if (r < 0.4) {
        // a double whose shortest form is exactly this decimal
        const n = Number(s);
        if (Number.isFinite(n) && sameDecimal(String(n), s)) return n;
      }
      if (r < 0.7) return `${neg ? '-' : rnd() < 0.5 ? '+' : ''}${int}${frac}e-${frac.length}`; // exponent form
      return `${neg ? '-' : ''}00${int}.${frac}000`; // padded with zeros
    }
    case 'string': case 'json': case 'enum':
      return new TextEncoder().encode(v as string);
    case 'binary':
      try {
        return utf8Strict.decode(v as Uint8Array);
      } catch {
        return v;
      }
    case 'uuid':
      return rnd() < 0.5 ? (v as string).toUpperCase() : Uint8Array.from((v as string).replace(/-/g, '').match(/../g)!, (h) => parseInt(h, 16));
    case 'interval': {
      const { months, days, millis } = v as { months: number; days: number; millis: number };
      const b = new Uint8Array(12);
      const dv = new DataView(b.buffer);
      dv.setUint32(0, months, true);
      dv.setUint32(4, days, true);
      dv.setUint32(8, millis, true);
      return b;
    }
    case 'float': {
      const x = v as number;
      if (!Number.isFinite(x) || x === 0) return x;
      // strictly inside the rounding interval of x (below a power of two the spacing halves: 0.2 ulp stays inside)
      return x + (rnd() < 0.5 ? 1 : -1) * ulp(x, 23, -126) * 0.2;
    }
    case 'float16': {
      const x = v as number;
      if (!Number.isFinite(x) || x === 0) return Number.isNaN(x) ? -NaN : x;
      return x + (rnd() < 0.5 ? 1 : -1) * ulp(x, 10, -14) * 0.2;
    }
    default:
      return v;
  }
}

/** Whether two decimal strings (plain or exponent form) denote the same number. */
function sameDecimal(a: string, b: string): boolean {
  const norm = (s: string): string => {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(s);
    if (!m) return s;
    const digits = (m[2] ?? '') + (m[3] ?? '');
    const exp = Number(m[4] ?? 0) - (m[3] ?? '').length;
    const trimmed = digits.replace(/^0+/, '');
    if (trimmed === '') return '0';
    const t = trimmed.replace(/0+$/, '');
    return `${m[1] === '-' ? '-' : ''}${t}e${exp + (trimmed.length - t.length)}`;
  };
  return norm(a) === norm(b);
}

/**
 * Rewrites a canonical value into other accepted forms, returning the input and what the reader must return for it
 * (the canonical value, except for maps given as plain objects, whose entries come back in `Object.entries` order):
 * leaves as {@link altLeaf}; `undefined` or a missing property for null; typed arrays for lists of required numeric
 * leaves; plain objects for maps with string keys.
 */
export function altValue(spec: FieldSpec, v: unknown, rnd: () => number): { input: unknown; expected: unknown } {
  if (v === null) return { input: rnd() < 0.5 ? undefined : null, expected: null };
  switch (spec.type) {
    case 'struct': {
      const inEntries: [string, unknown][] = [];
      const exEntries: [string, unknown][] = [];
      for (const [n, f] of Object.entries(spec.fields)) {
        const r = altValue(f, (v as Record<string, unknown>)[n], rnd);
        exEntries.push([n, r.expected]);
        // a missing property is null (also for names Object.prototype has: 'constructor', '__proto__', …)
        if (!(r.input === undefined && rnd() < 0.5)) inEntries.push([n, r.input]);
      }
      return { input: objectOf(inEntries), expected: objectOf(exEntries) };
    }
    case 'list': {
      const a = v as unknown[];
      const el = spec.element;
      if (el.required === true && rnd() < 0.5) {
        if (el.type === 'int32' && a.every((x) => typeof x === 'number')) return { input: Int32Array.from(a as number[]), expected: a };
        if (el.type === 'double') return { input: Float64Array.from(a as number[]), expected: a };
        if (el.type === 'int64' || (el.type === 'int' && el.bitWidth === 64 && el.signed)) return { input: BigInt64Array.from(a as bigint[]), expected: a };
        if (el.type === 'float') return { input: Float32Array.from(a as number[]), expected: a };
      }
      const rs = a.map((x) => altValue(el, x, rnd));
      return { input: rs.map((r) => r.input), expected: rs.map((r) => r.expected) };
    }
    case 'map': {
      const m = v as Map<unknown, unknown>;
      const rs = [...m].map(([k, x]) => ({ k: altLeaf(spec.key, k, rnd), ck: k, x: spec.value ? altValue(spec.value, x, rnd) : { input: null, expected: null } }));
      if (spec.key.type === 'string' && rnd() < 0.5) {
        const obj = objectOf([...m].map(([k], i) => [k as string, rs[i]!.x.input]));
        const exp = objectOf([...m].map(([k], i) => [k as string, rs[i]!.x.expected]));
        return { input: obj, expected: new Map(Object.entries(exp)) };
      }
      return { input: new Map(rs.map((r) => [r.k, r.x.input])), expected: new Map(rs.map((r) => [r.ck, r.x.expected])) };
    }
    default:
      return { input: altLeaf(spec, v, rnd), expected: v };
  }
}

/** {@link altValue} over rows (a missing property for a null top-level field now and then). */
export function altRows(schema: SchemaSpec, rows: readonly Row[], seed: number): { input: Row[]; expected: Row[] } {
  const rnd = prng(seed);
  const input: Row[] = [];
  const expected: Row[] = [];
  for (const row of rows) {
    const r = altValue({ type: 'struct', fields: schema }, row, rnd);
    input.push(r.input as Row);
    expected.push(r.expected as Row);
  }
  return { input, expected };
}
