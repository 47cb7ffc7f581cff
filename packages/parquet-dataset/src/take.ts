/**
 * Gathers slots of the reader's Arrow-shaped vectors (to split columnar input by partition and by file): typed
 * arrays gathered element by element, binary values by their offsets, lists and maps through their offsets.
 * @module
 */
import type { BinaryVector, ColumnarVector, LeafVector, ListVector, MapVector, StructVector } from '@parquetry/parquet-levels';

type Typed = { [i: number]: unknown; readonly length: number };

function takeValidity(v: Uint8Array | null, idx: Int32Array): Uint8Array | null {
  if (v === null) return null;
  const out = new Uint8Array(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = v[idx[i]!]!;
  return out;
}

/** The child indexes of the slots `idx` of a list or map (each slot's run `offsets[s]..offsets[s + 1]`), and the new offsets. */
function childRuns(offsets: Int32Array, idx: Int32Array): { child: Int32Array; offsets: Int32Array } {
  const out = new Int32Array(idx.length + 1);
  let n = 0;
  for (let i = 0; i < idx.length; i++) {
    const s = idx[i]!;
    n += offsets[s + 1]! - offsets[s]!;
    out[i + 1] = n;
  }
  const child = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < idx.length; i++) {
    const s = idx[i]!;
    for (let j = offsets[s]!; j < offsets[s + 1]!; j++) child[k++] = j;
  }
  return { child, offsets: out };
}

/**
 * The slots `idx` of a vector, in that order, as a new vector of the same field.
 * @param v - the vector.
 * @param idx - slot indexes (each below `v.length`).
 * @returns the gathered vector.
 */
export function takeVector(v: ColumnarVector, idx: Int32Array): ColumnarVector {
  const validity = takeValidity(v.validity, idx);
  switch (v.kind) {
    case 'leaf': {
      const src = v.values;
      let values: ArrayLike<unknown>;
      if (ArrayBuffer.isView(src)) {
        // one loop per element width, 32-bit words for 8-byte elements (no BigInt per value)
        const w = (src as unknown as Int32Array).BYTES_PER_ELEMENT;
        const out = new (src.constructor as new (n: number) => Typed)(idx.length);
        if (w === 8) {
          const a = new Int32Array((src as unknown as Int32Array).buffer, (src as unknown as Int32Array).byteOffset, src.length * 2);
          const b = new Int32Array((out as unknown as Int32Array).buffer);
          for (let i = 0; i < idx.length; i++) {
            const s = idx[i]!;
            b[2 * i] = a[2 * s]!;
            b[2 * i + 1] = a[2 * s + 1]!;
          }
        } else {
          const a = src as unknown as Typed;
          for (let i = 0; i < idx.length; i++) out[i] = a[idx[i]!];
        }
        values = out as ArrayLike<unknown>;
      } else {
        const out = new Array<unknown>(idx.length);
        for (let i = 0; i < idx.length; i++) out[i] = src[idx[i]!];
        values = out;
      }
      return { kind: 'leaf', field: v.field, length: idx.length, validity, values } satisfies LeafVector;
    }
    case 'binary': {
      const offsets = new Int32Array(idx.length + 1);
      let n = 0;
      for (let i = 0; i < idx.length; i++) {
        const s = idx[i]!;
        n += v.offsets[s + 1]! - v.offsets[s]!;
        offsets[i + 1] = n;
      }
      const data = new Uint8Array(n);
      for (let i = 0; i < idx.length; i++) {
        const s = idx[i]!;
        data.set(v.data.subarray(v.offsets[s]!, v.offsets[s + 1]!), offsets[i]!);
      }
      return { kind: 'binary', field: v.field, length: idx.length, validity, offsets, data, utf8: v.utf8 } satisfies BinaryVector;
    }
    case 'struct':
      return { kind: 'struct', field: v.field, length: idx.length, validity, children: v.children.map((c) => takeVector(c, idx)) } satisfies StructVector;
    case 'list': {
      const r = childRuns(v.offsets, idx);
      return { kind: 'list', field: v.field, length: idx.length, validity, offsets: r.offsets, element: takeVector(v.element, r.child) } satisfies ListVector;
    }
    case 'map': {
      const r = childRuns(v.offsets, idx);
      return {
        kind: 'map',
        field: v.field,
        length: idx.length,
        validity,
        offsets: r.offsets,
        keys: takeVector(v.keys, r.child),
        values: v.values ? takeVector(v.values, r.child) : undefined,
      } satisfies MapVector;
    }
  }
}

/**
 * The value of one slot of a leaf or binary vector, as the reader's rows give it (UTF-8 binary as a string, other
 * binary as bytes), null for a null slot.
 * @param v - the vector.
 * @param i - the slot.
 * @returns the value.
 */
export function slotValue(v: ColumnarVector, i: number): unknown {
  if (v.validity !== null && v.validity[i] === 0) return null;
  if (v.kind === 'leaf') return v.values[i] ?? null;
  if (v.kind === 'binary') {
    const b = v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!);
    return v.utf8 ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(b) : b;
  }
  return undefined;
}
