// fromJsValues on string columns: runs of strings go through TextEncoder joined (ASCII runs) or value by value (runs
// holding other characters); either way each value's bytes are its own UTF-8 and errors name the same value.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ByteArrays } from '@parquetry/parquet-encodings';
import { FieldRepetitionType, Type, isParquetError } from '@parquetry/thrift-compact';
import { fromJsValues } from '../src/from-js.js';

function stringColumn(): ColumnDescriptor {
  return buildSchemaTree([
    { name: 'schema', num_children: 1 },
    { name: 's', repetition_type: FieldRepetitionType.REQUIRED, type: Type.BYTE_ARRAY, logicalType: { STRING: {} } },
  ]).columns[0]!;
}

const enc = new TextEncoder();
/** Each value's UTF-8 as TextEncoder gives it (lone surrogates as U+FFFD). */
function expected(values: readonly string[]): number[][] {
  return values.map((s) => Array.from(enc.encode(s)));
}
function actual(v: ByteArrays): number[][] {
  const out: number[][] = [];
  for (let i = 0; i + 1 < v.offsets.length; i++) out.push(Array.from(v.data.subarray(v.offsets[i]! - v.offsets[0]!, v.offsets[i + 1]! - v.offsets[0]!)));
  return out;
}

const col = stringColumn();
const ascii = fc.string({ unit: fc.constantFrom(...'abcdefghij0123456789-_ '), maxLength: 40 });
const other = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('é', '日本', '\ud800', 'x\udc00y', '😀'));

describe('fromJsValues: strings in runs', () => {
  test('long arrays of mostly ASCII strings with other ones anywhere: every value its own UTF-8', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: ascii, weight: 20 }, { arbitrary: other, weight: 1 }), { maxLength: 3000 }), fc.nat(), fc.nat(), (values, a, b) => {
        const start = values.length === 0 ? 0 : a % values.length;
        const end = start + (values.length === start ? 0 : b % (values.length - start + 1));
        const got = fromJsValues(values, start, end, col) as ByteArrays;
        expect(got.offsets.length).toBe(end - start + 1);
        expect(actual(got)).toEqual(expected(values.slice(start, end)));
      }),
      { numRuns: 60 },
    );
  });

  test('all ASCII, over several runs: offsets are the cumulative lengths', () => {
    const values = Array.from({ length: 2000 }, (_, i) => 'v'.repeat(i % 37));
    const got = fromJsValues(values, 0, values.length, col) as ByteArrays;
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      at += values[i]!.length;
      expect(got.offsets[i + 1]).toBe(at);
    }
    expect(new TextDecoder().decode(got.data)).toBe(values.join(''));
  });

  test('strictUtf8: a lone surrogate after ASCII runs is an error naming its value', () => {
    const values = Array.from({ length: 1500 }, () => 'abc');
    values[1234] = 'ok\ud800';
    try {
      fromJsValues(values, 0, values.length, col, { strictUtf8: true }, (i) => i);
      expect.unreachable();
    } catch (e) {
      expect(isParquetError(e) && e.code).toBe('INVALID_VALUE');
      expect((e as Error).message).toContain('1234');
      expect((e as Error).message).toContain('lone surrogate');
    }
  });

  test('a value that is not a string or bytes is still an error', () => {
    const values: unknown[] = Array.from({ length: 700 }, () => 'abc');
    values[600] = 5;
    expect(() => fromJsValues(values, 0, values.length, col)).toThrow(/INVALID_VALUE|string/);
  });
});
