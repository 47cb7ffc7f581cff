/**
 * Columnar batches of a dataset: the reader's Arrow-shaped vectors of each file, with the columns a file lacks as
 * all-null vectors, narrower columns widened (INT32→INT64 moved as 32-bit words, FLOAT→DOUBLE), and the partition
 * columns as constant vectors. The vectors made here take the forms the reader's columnar read gives the same column
 * under the same options (packed booleans with `booleans: 'bits'`, the annotated width with `integers: 'typed'`), so
 * that a column has one form in every batch whichever file it comes from.
 * @module
 */
import { Type } from '@parquetry/thrift-compact';
import { convertValues, type ValueOptions } from '@parquetry/parquet-column';
import { hasColumnarForm, type ColumnarValueOptions } from '@parquetry/parquet-column/columnar';
import type { BinaryVector, ColumnDescriptor, ColumnarVector, Field, LeafVector, SchemaTree } from '@parquetry/parquet-levels';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { Widening } from './schema.js';

type TypedCtor = new (n: number) => ArrayLike<unknown>;

/** Whether a BYTE_ARRAY leaf comes out as a {@link BinaryVector} (as the reader's columnar reads give it). */
function isBinaryLeaf(tree: SchemaTree, f: Field, binary: 'vector' | 'values'): boolean {
  if (f.kind !== 'leaf' || binary !== 'vector') return false;
  const c = tree.columns[f.column]!;
  return c.type === Type.BYTE_ARRAY && !c.node.logicalType?.DECIMAL;
}

function isUtf8(tree: SchemaTree, f: Field): boolean {
  const lt = f.kind === 'leaf' ? tree.columns[f.column]!.node.logicalType : undefined;
  return lt?.STRING !== undefined || lt?.ENUM !== undefined || lt?.JSON !== undefined;
}

/** The JS array kind the reader converts a leaf column to: a typed array constructor, or undefined (plain array). */
function leafArrayKind(tree: SchemaTree, column: number, options: ValueOptions): TypedCtor | undefined {
  const c = tree.columns[column]!;
  let empty: ColumnValues;
  switch (c.type) {
    case Type.BOOLEAN:
      empty = new Uint8Array(0);
      break;
    case Type.INT32:
      empty = new Int32Array(0);
      break;
    case Type.INT64:
      empty = new BigInt64Array(0);
      break;
    case Type.FLOAT:
      empty = new Float32Array(0);
      break;
    case Type.DOUBLE:
      empty = new Float64Array(0);
      break;
    case Type.BYTE_ARRAY:
      empty = { offsets: new Int32Array(1), data: new Uint8Array(0) };
      break;
    default:
      empty = { width: c.typeLength ?? 12, data: new Uint8Array(0) };
  }
  const out = convertValues(empty, c, options);
  return ArrayBuffer.isView(out) ? (out.constructor as TypedCtor) : undefined;
}

/** The options the vectors made here follow: the value mapping, the binary form and the reader's raw columnar forms. */
export type VectorOptions = ValueOptions & ColumnarValueOptions & { binary?: 'vector' | 'values' };

/**
 * `n` zeroed values of a leaf in the raw form a columnar read gives it under `options` (packed booleans, an integer
 * typed array of the annotated width), or undefined when it gives the value mapping's form.
 */
function rawForm(c: ColumnDescriptor, n: number, options: ColumnarValueOptions): { values: Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array; packed?: true } | undefined {
  if (!hasColumnarForm(c, options)) return undefined;
  if (c.type === Type.BOOLEAN) return { values: new Uint8Array((n + 7) >> 3), packed: true };
  // INTEGER(8, 16 or 32) on INT32 (what hasColumnarForm takes)
  const { bitWidth, isSigned } = c.node.logicalType!.INTEGER!;
  if (bitWidth === 8) return { values: isSigned ? new Int8Array(n) : new Uint8Array(n) };
  if (bitWidth === 16) return { values: isSigned ? new Int16Array(n) : new Uint16Array(n) };
  return { values: isSigned ? new Int32Array(n) : new Uint32Array(n) };
}

/**
 * An all-null vector of a field (a column a file does not have).
 * @param tree - the dataset's schema tree (the field's columns index it).
 * @param f - the field.
 * @param n - slots.
 * @param options - value mapping (decides typed array kinds) and the binary form.
 * @returns the vector: every slot null, typed arrays zeroed, lists and maps empty.
 */
export function nullVector(tree: SchemaTree, f: Field, n: number, options: VectorOptions): ColumnarVector {
  const validity = new Uint8Array(n);
  switch (f.kind) {
    case 'struct':
      return { kind: 'struct', field: f, length: n, validity, children: f.fields.map((c) => nullVector(tree, c, n, options)) };
    case 'list':
      return { kind: 'list', field: f, length: n, validity, offsets: new Int32Array(n + 1), element: nullVector(tree, f.element, 0, options) };
    case 'map':
      return {
        kind: 'map',
        field: f,
        length: n,
        validity,
        offsets: new Int32Array(n + 1),
        keys: nullVector(tree, f.key, 0, options),
        values: f.value ? nullVector(tree, f.value, 0, options) : undefined,
      };
    case 'leaf': {
      if (isBinaryLeaf(tree, f, options.binary ?? 'vector')) {
        return { kind: 'binary', field: f, length: n, validity, offsets: new Int32Array(n + 1), data: new Uint8Array(0), utf8: isUtf8(tree, f) } satisfies BinaryVector;
      }
      const raw = rawForm(tree.columns[f.column]!, n, options);
      if (raw) return { kind: 'leaf', field: f, length: n, validity, ...raw } satisfies LeafVector;
      const ctor = leafArrayKind(tree, f.column, options);
      return { kind: 'leaf', field: f, length: n, validity, values: ctor ? new ctor(n) : new Array<unknown>(n).fill(null) } satisfies LeafVector;
    }
  }
}

/**
 * A vector whose every slot holds one value (a partition column of a file).
 * @param tree - the dataset's schema tree.
 * @param f - the partition column's field (a leaf).
 * @param n - slots.
 * @param value - the value, in the reader's mapping (null for a null partition).
 * @param options - value mapping and binary form.
 * @returns the vector.
 */
export function constantVector(tree: SchemaTree, f: Field, n: number, value: unknown, options: VectorOptions): ColumnarVector {
  if (value === null || f.kind !== 'leaf') return nullVector(tree, f, n, options);
  if (typeof value === 'string' && isBinaryLeaf(tree, f, options.binary ?? 'vector')) {
    const bytes = new TextEncoder().encode(value);
    const w = bytes.length;
    const data = new Uint8Array(w * n);
    for (let i = 0; i < n; i++) data.set(bytes, i * w);
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i <= n; i++) offsets[i] = i * w;
    return { kind: 'binary', field: f, length: n, validity: null, offsets, data, utf8: true };
  }
  const raw = rawForm(tree.columns[f.column]!, n, options);
  if (raw) {
    if (raw.packed) {
      // every bit of the n slots set for true (the bits past n stay 0, as the reader leaves them)
      if (value === true) {
        raw.values.fill(0xff, 0, n >> 3);
        if (n & 7) raw.values[n >> 3] = (1 << (n & 7)) - 1;
      }
    } else raw.values.fill(Number(value));
    return { kind: 'leaf', field: f, length: n, validity: null, ...raw };
  }
  const ctor = leafArrayKind(tree, f.column, options);
  let values: ArrayLike<unknown>;
  if (ctor === BigInt64Array) values = new BigInt64Array(n).fill(BigInt(value as bigint));
  else if (ctor) values = (new ctor(n) as unknown as Float64Array).fill(Number(value));
  else values = new Array<unknown>(n).fill(value);
  return { kind: 'leaf', field: f, length: n, validity: null, values };
}

/**
 * Widens a file's top-level vector to the dataset's type, and gives it the dataset's field.
 * @param v - the file's vector.
 * @param f - the dataset's field.
 * @param widen - the widening (see `mapColumns`).
 * @param options - `int64: 'number'` widens INT32 to `Float64Array` instead of `BigInt64Array`.
 * @returns the vector as the dataset types it.
 */
export function widenVector(v: ColumnarVector, f: Field, widen: Widening, options: ValueOptions): ColumnarVector {
  if (widen === 'none' || v.kind !== 'leaf') return { ...v, field: f } as ColumnarVector;
  const src = v.values;
  const n = src.length;
  if (widen === 'double' || options.int64 === 'number') {
    const out = new Float64Array(n);
    const s = src as Float32Array | Int32Array;
    for (let i = 0; i < n; i++) out[i] = s[i]!;
    return { ...v, field: f, values: out };
  }
  // INT32 → INT64: each value as two 32-bit words (low, then the sign extension), no BigInt per value
  const s = src as Int32Array;
  const out = new BigInt64Array(n);
  const w = new Int32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const x = s[i]!;
    w[2 * i] = x;
    w[2 * i + 1] = x >> 31;
  }
  return { ...v, field: f, values: out };
}
