// Property tests: random schemas (random nesting of optional/required/repeated groups, standard and
// legacy lists, maps) with random records. shred -> assemble is the identity, the columnar form agrees
// with the row form, and the shredded levels survive the V1/V2 level codecs and validation.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ByteWriter, isParquetError } from '@parquetry/thrift-compact';
import {
  assembleColumnar, assembleRecords, buildSchemaTree, decodeLevelsV1, decodeLevelsV2, encodeLevelsV1, encodeLevelsV2,
  shredRecords, validateColumnLevels,
} from '../src/index.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';
import type { Node, Rep } from './helpers.js';
import { rowOf } from './helpers.js';

type LeafT = 'int' | 'str' | 'bool' | 'dbl';
type ListStyle = 'three' | 'prim' | 'multi' | 'array' | 'tuple' | 'nested2' | 'unannotated';
type Spec =
  | { k: 'leaf'; t: LeafT }
  | { k: 'struct'; fields: { spec: Spec; nullable: boolean }[] }
  | { k: 'list'; style: ListStyle; elem: Spec; elemNullable: boolean }
  | { k: 'map'; key: LeafT; value: Spec | null; valueNullable: boolean; mkv: boolean };

const leafT = fc.constantFrom<LeafT>('int', 'str', 'bool', 'dbl');

const specArb: fc.Arbitrary<Spec> = fc.letrec<{ spec: Spec }>((tie) => ({
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

function isUnannotated(s: Spec): boolean {
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

const TYPE: Record<LeafT, [Type, ConvertedType | undefined]> = {
  int: [Type.INT32, undefined], str: [Type.BYTE_ARRAY, ConvertedType.UTF8], bool: [Type.BOOLEAN, undefined], dbl: [Type.DOUBLE, undefined],
};

let uid = 0;
/** Schema elements for a field of type `s` with repetition `rep` (the caller guarantees legality). */
function node(name: string, rep: Rep, s: Spec): Node {
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

const leafValue = (t: LeafT): fc.Arbitrary<unknown> =>
  t === 'int' ? fc.integer() : t === 'str' ? fc.string({ maxLength: 4 }) : t === 'bool' ? fc.boolean() : fc.double();

/** Canonical records: every struct property present, null for absent optional values, Maps for maps. */
function valueArb(s: Spec, nullable: boolean, depth: number): fc.Arbitrary<unknown> {
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

const caseArb = fc
  .array(fc.record({ spec: specArb, rep: fc.constantFrom<Rep>('required', 'optional') }), { minLength: 1, maxLength: 3 })
  .chain((top) => {
    const fixed = top.map((t) => ({ spec: t.spec, nullable: t.rep === 'optional' && !(t.spec.k === 'list' && t.spec.style === 'unannotated') }));
    const rec = fc.tuple(...fixed.map((f) => valueArb(f.spec, f.nullable, 0))).map((vs) => Object.fromEntries(vs.map((v, i) => [`c${i}`, v])));
    return fc.record({ top: fc.constant(fixed), records: fc.array(rec, { maxLength: 6 }) });
  });

describe('property: shred -> assemble', () => {
  test('is the identity, agrees with the columnar form, and survives the level codecs', () => {
    fc.assert(
      fc.property(caseArb, ({ top, records }) => {
        const elements = flatten('root', top.map((t, i) => node(`c${i}`, t.nullable ? 'optional' : t.spec.k === 'list' && t.spec.style === 'unannotated' ? 'repeated' : 'required', t.spec)));
        const schema = buildSchemaTree(elements);
        const cols = shredRecords(schema, records);
        expect(assembleRecords(schema, cols)).toEqual(records);

        const vec = assembleColumnar(schema, cols);
        expect(vec.length).toBe(records.length);
        const rows = Array.from({ length: vec.length }, (_, i) => rowOf(vec, i));
        expect(rows).toEqual(records);

        // A reader drops definition levels that are all at the max: both assemblers give the same records.
        const dropped = cols.map((s, i) => {
          const c = schema.columns[i]!;
          let all = true;
          for (let k = 0; k < s.numLevels; k++) if (s.def[k] !== c.maxDef) all = false;
          return all ? { rep: s.rep, values: s.values, numLevels: s.numLevels } : s;
        });
        expect(assembleRecords(schema, dropped)).toEqual(records);
        const vec2 = assembleColumnar(schema, dropped);
        expect(Array.from({ length: vec2.length }, (_, i) => rowOf(vec2, i))).toEqual(records);

        // String columns given as BinaryValues: columnar assembly keeps them as offsets + bytes (BinaryVector),
        // row assembly gives one Uint8Array view per value.
        const enc = new TextEncoder();
        const asBinary = cols.map((s, i) => {
          if (schema.columns[i]!.type !== Type.BYTE_ARRAY) return s;
          const parts = (s.values as string[]).map((x) => enc.encode(x));
          const offsets = new Int32Array(parts.length + 1);
          const data = new Uint8Array(parts.reduce((a, p) => a + p.length, 0) + 3);
          // a nonzero first offset: offsets need not start at 0
          let at = 3;
          offsets[0] = 3;
          parts.forEach((p, k) => { data.set(p, at); at += p.length; offsets[k + 1] = at; });
          return { ...s, values: { offsets, data } };
        });
        const vec3 = assembleColumnar(schema, asBinary);
        expect(Array.from({ length: vec3.length }, (_, i) => rowOf(vec3, i))).toEqual(records);
        const viaViews = assembleRecords(schema, asBinary);
        const dec = new TextDecoder();
        const decodeViews = (x: unknown): unknown =>
          x instanceof Uint8Array ? dec.decode(x) : Array.isArray(x) ? x.map(decodeViews) : x instanceof Map ? new Map([...x].map(([k, v]) => [decodeViews(k), decodeViews(v)])) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, decodeViews(v)])) : x;
        expect(viaViews.map(decodeViews)).toEqual(records);

        // Projection onto the first top-level field's columns.
        const first = schema.field.fields[0]!;
        const some = cols.map((c, i) => (first.leaves.includes(i) ? c : undefined));
        expect(assembleRecords(schema, some)).toEqual(records.map((r) => ({ c0: r.c0 })));

        for (const c of schema.columns) {
          const s = cols[c.index]!;
          expect(validateColumnLevels(c, s)).toBe(records.length);
          const w = new ByteWriter();
          encodeLevelsV1(s.rep, 0, s.numLevels, c.maxRep, w);
          encodeLevelsV1(s.def, 0, s.numLevels, c.maxDef, w);
          const lenV2 = encodeLevelsV2(s.def, 0, s.numLevels, c.maxDef, w);
          const b = w.finish();
          const rep = new Int32Array(s.numLevels);
          const def = new Int32Array(s.numLevels);
          let pos = decodeLevelsV1(b, 0, b.length, c.maxRep, rep, 0, s.numLevels, undefined, 'repetition');
          pos = decodeLevelsV1(b, pos, b.length, c.maxDef, def, 0, s.numLevels);
          expect(rep).toEqual(s.rep.subarray(0, s.numLevels));
          expect(def).toEqual(s.def.subarray(0, s.numLevels));
          def.fill(-1);
          expect(decodeLevelsV2(b, pos, lenV2, c.maxDef, def, 0, s.numLevels)).toBe(b.length);
          expect(def).toEqual(s.def.subarray(0, s.numLevels));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('property: corrupted levels', () => {
  test('assembly throws only ParquetError (or succeeds), with and without validation', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), fc.nat(), fc.integer({ min: -1, max: 4 }), fc.constantFrom('def', 'rep', 'drop-value', 'extra-value', 'truncate'), ({ top, records }, ci, li, delta, how) => {
        const elements = flatten('root', top.map((t, i) => node(`c${i}`, t.nullable ? 'optional' : t.spec.k === 'list' && t.spec.style === 'unannotated' ? 'repeated' : 'required', t.spec)));
        const schema = buildSchemaTree(elements);
        const cols = shredRecords(schema, records);
        const col = cols[ci % cols.length]!;
        if (col.numLevels === 0) return;
        const i = li % col.numLevels;
        if (how === 'def') col.def[i] = col.def[i]! + delta;
        else if (how === 'rep') col.rep[i] = col.rep[i]! + delta;
        else if (how === 'drop-value') col.values.pop();
        else if (how === 'extra-value') col.values.push(1);
        else col.numLevels = i;
        for (const validate of [true, false]) {
          for (const run of [() => assembleRecords(schema, cols, { validate }), () => assembleColumnar(schema, cols, { validate })]) {
            try {
              run();
            } catch (e) {
              if (!isParquetError(e)) throw e;
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
