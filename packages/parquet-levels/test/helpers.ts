import { ConvertedType, FieldRepetitionType, Type } from '@parquetry/thrift-compact';
import type { SchemaElement } from '@parquetry/thrift-compact';

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
