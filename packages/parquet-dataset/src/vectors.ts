/**
 * Columnar batches of a dataset: the reader's Arrow-shaped vectors of each file, with the columns a file lacks as
 * all-null vectors, narrower columns widened (INT32→INT64 moved as 32-bit words, FLOAT→DOUBLE), and the partition
 * columns as constant vectors. The vectors made here take the forms the reader's columnar read gives the same column
 * under the same options (packed booleans with `booleans: 'bits'`, the annotated width with `integers: 'typed'`), so
 * that a column has one form in every batch whichever file it comes from: parquet-column's `emptyColumnarValues`
 * chooses them, the rule the reader's columnar reads follow, not one of this package's own.
 * @module
 */
import type { ValueOptions } from '@parquetry/parquet-column';
import { emptyColumnarValues, type ColumnarFormOptions, type ColumnarValuesForm } from '@parquetry/parquet-column';
import type { ColumnarVector, Field, LeafField, SchemaTree } from '@parquetry/parquet-levels';
import type { Widening } from './schema.js';

/** The options the vectors made here follow: the value mapping, the binary form and the reader's raw columnar forms. */
export type VectorOptions = ColumnarFormOptions;

/**
 * A leaf vector over values in one of the forms a columnar read gives them (as `assembleColumnar` makes it: byte
 * arrays as a binary vector, packed bits as a packed leaf).
 */
function leafVector(f: LeafField, n: number, validity: Uint8Array | null, v: ColumnarValuesForm): ColumnarVector {
  if ('bits' in v) return { kind: 'leaf', field: f, length: n, validity, values: v.bits, packed: true };
  if ('offsets' in v) {
    const lt = f.node.logicalType;
    return { kind: 'binary', field: f, length: n, validity, offsets: v.offsets, data: v.data, utf8: !!(lt?.STRING || lt?.ENUM || lt?.JSON) };
  }
  return { kind: 'leaf', field: f, length: n, validity, values: v };
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
    case 'leaf':
      return leafVector(f, n, validity, emptyColumnarValues(tree.columns[f.column]!, n, options));
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
  const v = emptyColumnarValues(tree.columns[f.column]!, n, options);
  if ('bits' in v) {
    // every bit of the n slots set for true (the bits past n stay 0, as the reader leaves them)
    if (value === true) {
      v.bits.fill(0xff, 0, n >> 3);
      if (n & 7) v.bits[n >> 3] = (1 << (n & 7)) - 1;
    }
    return leafVector(f, n, null, v);
  }
  if ('offsets' in v) {
    // a partition value is a string (or a number or boolean written as one) where the column is a byte array
    const bytes = new TextEncoder().encode(String(value));
    const w = bytes.length;
    const data = new Uint8Array(w * n);
    for (let i = 0; i < n; i++) data.set(bytes, i * w);
    const offsets = v.offsets;
    for (let i = 0; i <= n; i++) offsets[i] = i * w;
    return leafVector(f, n, null, { offsets, data });
  }
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) v.fill(BigInt(value as bigint));
  else if (ArrayBuffer.isView(v)) (v as unknown as Float64Array).fill(Number(value));
  else (v as unknown[]).fill(value);
  return leafVector(f, n, null, v);
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
