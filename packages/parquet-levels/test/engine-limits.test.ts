// Levels from an untrusted file may describe more than JavaScript can build (an array past the engine's length
// limit): assembly turns the engine's RangeError into a typed LIMIT_EXCEEDED, never lets it escape.
import { describe, expect, test } from 'vitest';
import { FieldRepetitionType, Type } from '@parquetry/thrift-compact';
import { assembleColumnar, assembleRecords, buildSchemaTree, type ColumnData } from '../src/index.js';
import { withinEngineLimits } from '../src/assemble.js';

const schema = buildSchemaTree([
  { name: 'schema', num_children: 1 },
  { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: Type.INT32 },
]);
/** A column claiming 2^32 + 5 levels (more than a typed array or an Array can hold). */
const huge: ColumnData = { def: undefined, rep: undefined, numLevels: 2 ** 32 + 5, values: { length: 2 ** 32 + 5 } as ArrayLike<unknown> };

describe('assembly past what JavaScript can hold', () => {
  test('assembleRecords and assembleColumnar: LIMIT_EXCEEDED with the RangeError as cause', () => {
    for (const f of [() => assembleRecords(schema, [huge]), () => assembleColumnar(schema, [huge])]) {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect((e as { name: string }).name).toBe('ParquetError');
        expect((e as { code: string }).code).toBe('LIMIT_EXCEEDED');
        expect((e as Error).message).toMatch(/more than JavaScript can hold/);
        expect((e as { cause?: unknown }).cause).toBeInstanceOf(RangeError);
      }
    }
  });

  test('withinEngineLimits passes results and other errors through', () => {
    expect(withinEngineLimits('x', () => 42)).toBe(42);
    const other = new TypeError('not mine');
    expect(() => withinEngineLimits('x', () => { throw other; })).toThrow(other);
    const deep = (n: number): number => (n === 0 ? 0 : 1 + deep(n - 1));
    expect(() => withinEngineLimits('records', () => deep(1e7))).toThrow(/LIMIT_EXCEEDED|more than JavaScript can hold/);
  });
});
