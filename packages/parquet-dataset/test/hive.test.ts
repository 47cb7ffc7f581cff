/**
 * Hive paths: parsing (hand-written paths with the expected segments), type inference, value conversion, and the
 * write → parse round trip of every value form (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HIVE_NULL, formatDate, formatPartitionValue, inferPartitionType, parseHivePath, partitionElement, partitionValue } from '../src/index.js';
import { Type } from '@parquetry/thrift-compact';

describe('parseHivePath', () => {
  test('key=value directories, not the file name, URL-decoded, the null marker', () => {
    expect(parseHivePath('year=2024/region=eu%2Fwest/part-0.parquet')).toEqual([
      { key: 'year', value: '2024' },
      { key: 'region', value: 'eu/west' },
    ]);
    expect(parseHivePath(`a=${HIVE_NULL}/b=/x=1.parquet`)).toEqual([
      { key: 'a', value: null },
      { key: 'b', value: '' },
    ]);
    expect(parseHivePath('plain/dirs/file.parquet')).toEqual([]);
    expect(parseHivePath('k%3Dey=v%3D1/f')).toEqual([{ key: 'k=ey', value: 'v=1' }]);
  });

  test('bad encodings, empty keys and repeated keys are INVALID_PARTITION', () => {
    for (const p of ['a=%E0%A4%A/f', '=1/f', 'a=1/a=2/f']) expect(() => parseHivePath(p)).toThrow(expect.objectContaining({ code: 'INVALID_PARTITION' }));
  });
});

describe('types', () => {
  test('inference: int64 when every value is an integer within 64 bits, date when every value is a date, else string', () => {
    expect(inferPartitionType(['1', '-20', null, '0'])).toBe('int64');
    // only the text an integer prints as: a leading zero, '+' or '-0' keeps the folders apart as strings
    for (const t of ['007', '00', '+3', '-0', '-05', ' 5', '5 ', '0x10']) expect(inferPartitionType(['1', t]), t).toBe('string');
    expect(inferPartitionType(['9223372036854775807'])).toBe('int64');
    expect(inferPartitionType(['9223372036854775808'])).toBe('string');
    expect(inferPartitionType(['2024-01-31', '1999-12-01'])).toBe('date');
    expect(inferPartitionType(['2024-02-30'])).toBe('string');
    expect(inferPartitionType(['1', 'a'])).toBe('string');
    expect(inferPartitionType([null])).toBe('string');
  });

  test('values in the reader mapping', () => {
    expect(partitionValue('2024', 'int64', {}, 'w')).toBe(2024n);
    expect(partitionValue('2024', 'int64', { int64: 'number' }, 'w')).toBe(2024);
    // a type given (not inferred) reads any integer text
    expect(partitionValue('007', 'int64', {}, 'w')).toBe(7n);
    expect(partitionValue('+3', 'int64', {}, 'w')).toBe(3n);
    expect(partitionValue('1970-01-02', 'date', {}, 'w')).toBe(1);
    expect(partitionValue('1970-01-02', 'date', { dates: 'date' }, 'w')).toEqual(new Date(86400000));
    expect(partitionValue(null, 'int64', {}, 'w')).toBe(null);
    expect(partitionValue('true', 'boolean', {}, 'w')).toBe(true);
    expect(partitionValue('1.5', 'double', {}, 'w')).toBe(1.5);
    expect(() => partitionValue('x', 'int32', {}, 'w')).toThrow(expect.objectContaining({ code: 'INVALID_PARTITION' }));
    expect(() => partitionValue('3000000000', 'int32', {}, 'w')).toThrow(expect.objectContaining({ code: 'INVALID_PARTITION' }));
  });

  test('partition elements: OPTIONAL, with the logical type', () => {
    expect(partitionElement({ name: 'd', type: 'date' })).toMatchObject({ name: 'd', type: Type.INT32, repetition_type: 1, logicalType: { DATE: {} } });
    expect(partitionElement({ name: 's', type: 'string' })).toMatchObject({ type: Type.BYTE_ARRAY, logicalType: { STRING: {} } });
  });

  test('formatDate: days since the epoch, hand-checked', () => {
    expect(formatDate(0)).toBe('1970-01-01');
    expect(formatDate(19723)).toBe('2024-01-01');
    expect(formatDate(-1)).toBe('1969-12-31');
  });
});

describe('formatting round trips through parsing', () => {
  const parse = (text: string) => parseHivePath(`k=${text}/f.parquet`)[0]!.value;
  test('strings (any text, "/", "=", "%", non-ASCII)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const text = formatPartitionValue(s, false, 'w');
        expect(text).not.toContain('/');
        expect(parse(text)).toBe(s);
      }),
    );
  });
  test('integers and dates keep their type and value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.integer({ min: -700000, max: 2900000 }), (i, d) => {
        const it = parse(formatPartitionValue(i, false, 'w'));
        expect(inferPartitionType([it])).toBe('int64');
        expect(partitionValue(it, 'int64', {}, 'w')).toBe(i);
        const dt = parse(formatPartitionValue(d, true, 'w'));
        expect(inferPartitionType([dt])).toBe('date');
        expect(partitionValue(dt, 'date', {}, 'w')).toBe(d);
      }),
    );
  });
  test('null is the Hive marker; values without a text form are refused', () => {
    expect(formatPartitionValue(null, false, 'w')).toBe(HIVE_NULL);
    expect(() => formatPartitionValue(new Uint8Array(1), false, 'w')).toThrow(expect.objectContaining({ code: 'INVALID_PARTITION' }));
    expect(() => formatPartitionValue(1.5, true, 'w')).toThrow(expect.objectContaining({ code: 'INVALID_PARTITION' }));
  });
});
