import { describe, expect, test } from 'vitest';
import { assembleRecords, buildSchemaTree } from '@parquetry/parquet-levels';

describe('field names that are Object.prototype keys', () => {
  test('a column named __proto__ is an own property of the row, not its prototype', () => {
    const schema = buildSchemaTree([
      { name: 'root', num_children: 2 },
      { name: '__proto__', type: 1, repetition_type: 0 },
      { name: 'constructor', type: 1, repetition_type: 0 },
    ]);
    const rows = assembleRecords(schema, [{ values: [1, 2] }, { values: [3, 4] }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.keys(rows[1]!)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(rows[1], '__proto__')?.value).toBe(2);
    expect(rows[1]!.constructor).toBe(4);
  });
});
