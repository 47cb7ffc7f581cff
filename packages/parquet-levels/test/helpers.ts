import { ConvertedType, FieldRepetitionType, Type } from '@parquetry/thrift-compact';
import type { SchemaElement } from '@parquetry/thrift-compact';
import type { ColumnarVector } from '../src/index.js';

/** Compact schema builder for tests: g(name, rep, children, annotation) / p(name, rep, type, annotation). */
export type Rep = 'required' | 'optional' | 'repeated';
const REP = { required: FieldRepetitionType.REQUIRED, optional: FieldRepetitionType.OPTIONAL, repeated: FieldRepetitionType.REPEATED } as const;

export interface Node { el: SchemaElement; children: Node[] }

export function p(name: string, rep: Rep, type: Type, converted?: ConvertedType): Node {
  const el: SchemaElement = { name, repetition_type: REP[rep], type };
  if (converted !== undefined) el.converted_type = converted;
  return { el, children: [] };
}
export function g(name: string, rep: Rep, children: Node[], converted?: ConvertedType): Node {
  const el: SchemaElement = { name, repetition_type: REP[rep], num_children: children.length };
  if (converted !== undefined) el.converted_type = converted;
  return { el, children };
}
export function flatten(rootName: string, children: Node[]): SchemaElement[] {
  const out: SchemaElement[] = [{ name: rootName, num_children: children.length }];
  const visit = (n: Node): void => {
    out.push(n.el);
    n.children.forEach(visit);
  };
  children.forEach(visit);
  return out;
}
export { ConvertedType, Type };

/** Independent reading of the columnar form back into rows. */
export function rowOf(v: ColumnarVector, i: number): unknown {
  if (v.validity && v.validity[i] === 0) return null;
  switch (v.kind) {
    case 'leaf': return v.values[i];
    case 'binary': return new TextDecoder().decode(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!));
    case 'struct': return Object.fromEntries(v.children.map((c) => [c.field.name, rowOf(c, i)]));
    case 'list': {
      const out = [];
      for (let j = v.offsets[i]!; j < v.offsets[i + 1]!; j++) out.push(rowOf(v.element, j));
      return out;
    }
    case 'map': {
      const m = new Map();
      for (let j = v.offsets[i]!; j < v.offsets[i + 1]!; j++) m.set(rowOf(v.keys, j), v.values ? rowOf(v.values, j) : null);
      return m;
    }
  }
}

