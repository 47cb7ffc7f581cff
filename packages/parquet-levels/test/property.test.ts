// Property tests: random schemas (random nesting of optional/required/repeated groups, standard and
// legacy lists, maps; generators in arbitraries.ts) with random records. shred -> assemble is the identity, the columnar form agrees
// with the row form, and the shredded levels survive the V1/V2 level codecs and validation.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ByteWriter, isParquetError } from '@parquetry/thrift-compact';
import {
  assembleColumnar, assembleRecords, decodeLevelsV1, decodeLevelsV2, encodeLevelsV1, encodeLevelsV2,
  shredRecords, validateColumnLevels,
} from '../src/index.js';
import { Type, rowOf } from './helpers.js';
import { BASIC_LEAVES, caseArbitrary, schemaOf } from './arbitraries.js';

const caseArb = caseArbitrary(BASIC_LEAVES);

describe('property: shred -> assemble', () => {
  test('is the identity, agrees with the columnar form, and survives the level codecs', () => {
    fc.assert(
      fc.property(caseArb, ({ top, records }) => {
        const schema = schemaOf(top);
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
        const schema = schemaOf(top);
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
