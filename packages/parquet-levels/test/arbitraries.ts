// fast-check generators shared by the property tests: random schemas (random nesting of optional/required/repeated
// groups, standard and legacy lists, unannotated repeated fields, maps incl. key-only and MAP_KEY_VALUE) and random
// canonical records for them.
import fc from 'fast-check';
import { buildSchemaTree } from '../src/index.js';
import type { SchemaTree } from '../src/index.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';
import type { Node, Rep } from './helpers.js';

/**
 * Leaf kinds: int (INT32), str (UTF8 BYTE_ARRAY), bool, dbl (DOUBLE); and for value-layout tests i64 (INT64 as
 * bigint), f32 (FLOAT, values exact in float32) and i16 (INT32 annotated INT_16, values within int16).
 */
export type LeafT = 'int' | 'str' | 'bool' | 'dbl' | 'i64' | 'f32' | 'i16';
export type ListStyle = 'three' | 'prim' | 'multi' | 'array' | 'tuple' | 'nested2' | 'unannotated';
export type Spec =
  | { k: 'leaf'; t: LeafT }
  | { k: 'struct'; fields: { spec: Spec; nullable: boolean }[] }
  | { k: 'list'; style: ListStyle; elem: Spec; elemNullable: boolean }
  | { k: 'map'; key: LeafT; value: Spec | null; valueNullable: boolean; mkv: boolean };

/** The leaf kinds of the original property test. */
export const BASIC_LEAVES: readonly LeafT[] = ['int', 'str', 'bool', 'dbl'];
/** Every leaf kind. */
export const ALL_LEAVES: readonly LeafT[] = ['int', 'str', 'bool', 'dbl', 'i64', 'f32', 'i16'];

/** Random field types over the given leaf kinds. */
export function specArbitrary(leaves: readonly LeafT[] = BASIC_LEAVES): fc.Arbitrary<Spec> {
  const leafT = fc.constantFrom<LeafT>(...leaves);
  return fc.letrec<{ spec: Spec }>((tie) => ({
    spec: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leafT.map((t): Spec => ({ k: 'leaf', t })),
      fc.array(fc.record({ spec: tie('spec'), nullable: fc.boolean() }), { minLength: 1, maxLength: 3 })
        .map((fields): Spec => ({ k: 'struct', fields: fields.map((f) => ({ spec: f.spec, nullable: f.nullable && !isUnannotated(f.spec) })) })),
      fc.record({ style: fc.constantFrom<ListStyle>('three', 'prim', 'multi', 'array', 'tuple', 'nested2', 'unannotated'), elem: tie('spec'), elemNullable: fc.boolean() })
        .map(({ style, elem, elemNullable }): Spec => fixList(style, elem, elemNullable)),
      fc.record({ key: fc.constantFrom<LeafT>('int', 'str'), value: fc.option(tie('spec'), { nil: null }), valueNullable: fc.boolean(), mkv: fc.boolean() })
        .map((m): Spec => ({ k: 'map', ...m, value: m.value && wrapUnannotated(m.value) })),
    ),
  })).spec;
}

export function isUnannotated(s: Spec): boolean {
  return s.k === 'list' && s.style === 'unannotated';
}
/** A repeated field cannot stand where a list element or map value goes without changing its meaning. */
function wrapUnannotated(s: Spec): Spec {
  return isUnannotated(s) ? { k: 'struct', fields: [{ spec: s, nullable: false }] } : s;
}

/** Makes the element fit what each legacy list style can express. */
function fixList(style: ListStyle, elem: Spec, elemNullable: boolean): Spec {
  switch (style) {
    case 'three': return { k: 'list', style, elem: wrapUnannotated(elem), elemNullable };
    case 'prim': return { k: 'list', style, elem: elem.k === 'leaf' ? elem : { k: 'leaf', t: 'int' }, elemNullable: false };
    case 'multi': {
      const fields = elem.k === 'struct' ? elem.fields : [{ spec: elem, nullable: elemNullable && !isUnannotated(elem) }];
      return { k: 'list', style, elem: { k: 'struct', fields: [...fields, { spec: { k: 'leaf', t: 'int' }, nullable: true }] }, elemNullable: false };
    }
    case 'array': case 'tuple':
      return { k: 'list', style, elem: { k: 'struct', fields: [{ spec: elem, nullable: elemNullable && !isUnannotated(elem) }] }, elemNullable: false };
    case 'nested2': return { k: 'list', style, elem: { k: 'list', style: 'prim', elem: { k: 'leaf', t: 'int' }, elemNullable: false }, elemNullable: false };
    case 'unannotated':
      return { k: 'list', style, elem: elem.k === 'leaf' || elem.k === 'struct' ? elem : { k: 'struct', fields: [{ spec: elem, nullable: elemNullable && !isUnannotated(elem) }] }, elemNullable: false };
  }
}

export const TYPE: Record<LeafT, [Type, ConvertedType | undefined]> = {
  int: [Type.INT32, undefined],
  str: [Type.BYTE_ARRAY, ConvertedType.UTF8],
  bool: [Type.BOOLEAN, undefined],
  dbl: [Type.DOUBLE, undefined],
  i64: [Type.INT64, undefined],
  f32: [Type.FLOAT, undefined],
  i16: [Type.INT32, ConvertedType.INT_16],
};

let uid = 0;
/** Schema elements for a field of type `s` with repetition `rep` (the caller guarantees legality). */
export function node(name: string, rep: Rep, s: Spec): Node {
  switch (s.k) {
    case 'leaf': return p(name, rep, ...TYPE[s.t]);
    case 'struct': return g(name, rep, s.fields.map((f, i) => node(`f${i}`, f.nullable ? 'optional' : 'required', f.spec)));
    case 'map': {
      const kv = [p('key', 'required', ...TYPE[s.key])];
      if (s.value) kv.push(node('value', s.valueNullable ? 'optional' : 'required', s.value));
      return g(name, rep, [g(s.mkv ? 'map' : 'key_value', 'repeated', kv, s.mkv ? ConvertedType.MAP_KEY_VALUE : undefined)], ConvertedType.MAP);
    }
    case 'list': {
      const e = s.elem;
      switch (s.style) {
        case 'three': return g(name, rep, [g('list', 'repeated', [node('element', s.elemNullable ? 'optional' : 'required', e)])], ConvertedType.LIST);
        case 'prim': return g(name, rep, [node('element', 'repeated', e)], ConvertedType.LIST);
        case 'multi': return g(name, rep, [node('element', 'repeated', e)], ConvertedType.LIST);
        case 'array': return g(name, rep, [node('array', 'repeated', e)], ConvertedType.LIST);
        case 'tuple': return g(name, rep, [node(`${name}_tuple`, 'repeated', e)], ConvertedType.LIST);
        case 'nested2': return g(name, rep, [g(`bag${uid++}`, 'repeated', [p('item', 'repeated', Type.INT32)], ConvertedType.LIST)], ConvertedType.LIST);
        case 'unannotated': return node(name, 'repeated', e);
      }
    }
  }
}

export const leafValue = (t: LeafT): fc.Arbitrary<unknown> => {
  switch (t) {
    case 'int': return fc.integer();
    case 'str': return fc.string({ maxLength: 4 });
    case 'bool': return fc.boolean();
    case 'dbl': return fc.double();
    case 'i64': return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 'f32': return fc.float();
    case 'i16': return fc.integer({ min: -32768, max: 32767 });
  }
};

/** Canonical records: every struct property present, null for absent optional values, Maps for maps. */
export function valueArb(s: Spec, nullable: boolean, depth: number): fc.Arbitrary<unknown> {
  const v = nonNull(s, depth);
  return nullable ? fc.option(v, { nil: null, freq: 4 }) : v;
}
function nonNull(s: Spec, depth: number): fc.Arbitrary<unknown> {
  const maxLength = depth > 3 ? 1 : 3;
  switch (s.k) {
    case 'leaf': return leafValue(s.t);
    case 'struct':
      return fc.tuple(...s.fields.map((f) => valueArb(f.spec, f.nullable, depth + 1)))
        .map((vs) => Object.fromEntries(vs.map((v, i) => [`f${i}`, v])));
    case 'list': return fc.array(valueArb(s.elem, s.elemNullable, depth + 1), { maxLength });
    case 'map':
      return fc.uniqueArray(leafValue(s.key), { maxLength, comparator: 'SameValueZero' }).chain((keys) =>
        fc.tuple(...keys.map(() => (s.value ? valueArb(s.value, s.valueNullable, depth + 1) : fc.constant(null))))
          .map((vals) => new Map(keys.map((k, i) => [k, vals[i]]))));
  }
}

/** Top-level fields of a random schema. */
export interface TopField {
  spec: Spec;
  nullable: boolean;
}

/** A random schema (1–3 top-level fields) and up to `maxRecords` canonical records for it. */
export function caseArbitrary(leaves: readonly LeafT[] = BASIC_LEAVES, maxRecords = 6): fc.Arbitrary<{ top: TopField[]; records: Record<string, unknown>[] }> {
  return fc
    .array(fc.record({ spec: specArbitrary(leaves), rep: fc.constantFrom<Rep>('required', 'optional') }), { minLength: 1, maxLength: 3 })
    .chain((top) => {
      const fixed = top.map((t) => ({ spec: t.spec, nullable: t.rep === 'optional' && !isUnannotated(t.spec) }));
      const rec = fc.tuple(...fixed.map((f) => valueArb(f.spec, f.nullable, 0))).map((vs) => Object.fromEntries(vs.map((v, i) => [`c${i}`, v])));
      return fc.record({ top: fc.constant(fixed), records: fc.array(rec, { maxLength: maxRecords }) });
    });
}

/** The schema of a case's top-level fields (`c0`, `c1`, …). */
export function schemaOf(top: readonly TopField[]): SchemaTree {
  return buildSchemaTree(flatten('root', top.map((t, i) => node(`c${i}`, t.nullable ? 'optional' : isUnannotated(t.spec) ? 'repeated' : 'required', t.spec))));
}
