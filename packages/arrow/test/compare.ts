// Table comparison for the tests, independent of the package's converters: schemas by a full description of every
// type parameter, values read from the raw Arrow buffers (bigints for 64-bit types, raw words for decimals, bits for
// float16), so a wrong unit, width or byte shows up.
import { type Data, type DataType, type Field, type Schema, type Table, Type, makeVector } from 'apache-arrow';

/** A field as text: name, nullability, every type parameter, children and metadata. */
export function describeField(f: Field): string {
  const md = [...f.metadata].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`);
  return `${f.name}${f.nullable ? '?' : ''}: ${describeType(f.type as DataType)}${md.length ? ` {${md.join(', ')}}` : ''}`;
}

/** A type as text with all of its parameters (apache-arrow's own toString leaves some out). */
export function describeType(t: DataType): string {
  const x = t as unknown as Record<string, unknown>;
  const kids = () => (t.children as Field[]).map(describeField).join(', ');
  switch (t.typeId) {
    case Type.Int: return `${x.isSigned ? 'Int' : 'Uint'}${x.bitWidth}`;
    case Type.Float: return `Float${['16', '32', '64'][x.precision as number]}`;
    case Type.Decimal: return `Decimal${x.bitWidth}(${x.precision}, ${x.scale})`;
    case Type.Date: return `Date(${x.unit === 0 ? 'day' : 'ms'})`;
    case Type.Time: return `Time${x.bitWidth}(${x.unit})`;
    case Type.Timestamp: return `Timestamp(${x.unit}, ${x.timezone ?? ''})`;
    case Type.Duration: return `Duration(${x.unit})`;
    case Type.Interval: return `Interval(${x.unit})`;
    case Type.FixedSizeBinary: return `FixedSizeBinary(${x.byteWidth})`;
    case Type.List: return `List<${kids()}>`;
    case Type.LargeList: return `LargeList<${kids()}>`;
    case Type.FixedSizeList: return `FixedSizeList(${x.listSize})<${kids()}>`;
    case Type.Struct: return `Struct<${kids()}>`;
    case Type.Map: return `Map(${x.keysSorted})<${kids()}>`;
    case Type.Dictionary: return `Dictionary<${describeType(x.indices as DataType)}, ${describeType(x.dictionary as DataType)}, ${x.isOrdered}>`;
    default: return String(t);
  }
}

/** The schema as text lines (and its metadata). */
export function describeSchema(s: Schema): string[] {
  const md = [...s.metadata].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`);
  return [...s.fields.map(describeField), `metadata {${md.join(', ')}}`];
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** The value of slot `i` of `d` (null when invalid), from the raw buffers. */
export function canon(d: Data, i: number): unknown {
  if (!d.getValid(i)) return null;
  const t = d.type as DataType;
  const x = t as unknown as Record<string, number>;
  const v = d.values as unknown as ArrayLike<number | bigint> & Uint8Array;
  switch (t.typeId) {
    case Type.Null: return null;
    case Type.Bool: {
      const j = d.offset + i;
      return ((v[j >> 3]! >> (j & 7)) & 1) === 1;
    }
    case Type.Int: case Type.Date: case Type.Time: case Type.Timestamp: case Type.Duration:
      return v[i];
    case Type.Float: {
      const n = v[i] as number;
      // float16 bits; any NaN as one (the reader gives numbers, so a NaN's payload is not kept)
      if (x.precision === 0) return (n & 0x7c00) === 0x7c00 && (n & 0x3ff) !== 0 ? 'NaN' : `half:${n}`;
      return Number.isNaN(n) ? 'NaN' : Object.is(n, -0) ? '-0' : n;
    }
    case Type.Decimal: {
      const s = x.bitWidth! / 32;
      return `dec:${Array.from((d.values as Uint32Array).subarray(i * s, (i + 1) * s)).join(',')}`;
    }
    case Type.Interval: {
      // int32 words per value: YEAR_MONTH (unit 0) 1, DAY_TIME (1) 2, MONTH_DAY_NANO (2) 4
      const k = [1, 2, 4][x.unit as number]!;
      return Array.from((d.values as Int32Array).subarray(i * k, i * k + k));
    }
    case Type.FixedSizeBinary: return `0x${hex((d.values as Uint8Array).subarray(i * x.byteWidth!, (i + 1) * x.byteWidth!))}`;
    case Type.Utf8: case Type.LargeUtf8: case Type.Utf8View:
    case Type.Binary: case Type.LargeBinary: case Type.BinaryView: {
      const got = makeVector(d).get(i) as string | Uint8Array;
      return typeof got === 'string' ? got : `0x${hex(got)}`;
    }
    case Type.List: case Type.LargeList: case Type.Map: {
      const o = d.valueOffsets as unknown as ArrayLike<number | bigint>;
      const a = Number(o[i]);
      const b = Number(o[i + 1]);
      const out: unknown[] = [];
      for (let k = a; k < b; k++) out.push(canon(d.children[0]!, k));
      return out;
    }
    case Type.FixedSizeList: {
      const n = x.listSize!;
      const out: unknown[] = [];
      for (let k = i * n; k < (i + 1) * n; k++) out.push(canon(d.children[0]!, k));
      return out;
    }
    case Type.Struct: return Object.fromEntries((t.children as Field[]).map((f, k) => [f.name, canon(d.children[k]!, i)]));
    case Type.Dictionary: {
      const k = Number(v[i]);
      const dict = d.dictionary!;
      let at = k;
      for (const chunk of dict.data) {
        if (at < chunk.length) return canon(chunk, at);
        at -= chunk.length;
      }
      throw new Error(`dictionary index ${k} out of range`);
    }
    default: throw new Error(`canon: ${String(t)}`);
  }
}

/** Every column's values, by name. */
export function columnsOf(t: Table): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  t.schema.fields.forEach((f, c) => {
    const vals: unknown[] = [];
    for (const b of t.batches) {
      const d = b.data.children[c]!;
      for (let i = 0; i < d.length; i++) vals.push(canon(d, i));
    }
    out[f.name] = vals;
  });
  return out;
}
