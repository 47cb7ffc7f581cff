// checkOptions: an options object is checked name by name against the rules of the function taking it; a misspelt
// name or a value outside its rule is a ParquetError naming it, what it takes, and the nearest known name.
import { describe, expect, test } from 'vitest';
import { checkOptions, editDistance, nearestName } from '../src/check-options.js';
import type { OptionRules } from '../src/index.js';

const rules: OptionRules = {
  columns: 'any',
  rowStart: 'count',
  batchSize: 'positive',
  maxBytes: 'limit',
  verify: 'boolean',
  name: 'string',
  onScan: 'function',
  codecs: 'object',
  rowGroups: 'array',
  timestamps: ['bigint', 'date'],
  even: (v) => (typeof v === 'number' && v % 2 === 0 ? undefined : 'an even number'),
};
const check = (o: unknown) => () => checkOptions(o, rules, 'pkg: f');

describe('checkOptions', () => {
  test('valid options, absent ones and undefined values pass', () => {
    expect(check(undefined)).not.toThrow();
    expect(check({})).not.toThrow();
    expect(check({ columns: 5, rowStart: 0, batchSize: 1, maxBytes: Infinity, verify: false, name: '', onScan: () => 1, codecs: {}, rowGroups: [], timestamps: 'date', even: 4 })).not.toThrow();
    // an unknown name is refused even with an undefined value: it is still a misspelling
    expect(check({ batchSize2: undefined })).toThrow("pkg: f: unknown option 'batchSize2' (did you mean 'batchSize'?)");
    expect(check({ rowStart: undefined, timestamps: undefined })).not.toThrow();
  });

  test('an unknown name: the nearest known one, and the list of names', () => {
    expect(check({ colums: [] })).toThrow(
      "pkg: f: unknown option 'colums' (did you mean 'columns'?); it takes columns, rowStart, batchSize, maxBytes, verify, name, onScan, codecs, rowGroups, timestamps, even",
    );
    expect(check({ zzz: 1 })).toThrow(/^pkg: f: unknown option 'zzz'; it takes columns, /);
    expect(check({ TimeStamps: 'date' })).toThrow(/did you mean 'timestamps'/);
    // a name from another object's prototype is not an option
    expect(check({ toString: 1 })).toThrow(/unknown option 'toString'/);
  });

  test('each rule names what it takes and what was given', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ rowStart: -1 }, "option 'rowStart' must be an integer ≥ 0, got -1"],
      [{ rowStart: 1.5 }, "option 'rowStart' must be an integer ≥ 0, got 1.5"],
      [{ rowStart: '3' }, "option 'rowStart' must be an integer ≥ 0, got '3'"],
      [{ rowStart: 3n }, "option 'rowStart' must be an integer ≥ 0, got 3n"],
      [{ batchSize: 0 }, "option 'batchSize' must be an integer ≥ 1, got 0"],
      [{ maxBytes: 0 }, "option 'maxBytes' must be a number > 0 (Infinity for no limit), got 0"],
      [{ maxBytes: Number.NaN }, "option 'maxBytes' must be a number > 0 (Infinity for no limit), got NaN"],
      [{ verify: 'yes' }, "option 'verify' must be true or false, got 'yes'"],
      [{ name: 1 }, "option 'name' must be a string, got 1"],
      [{ onScan: {} }, "option 'onScan' must be a function, got an object"],
      [{ codecs: [] }, "option 'codecs' must be an object, got an array"],
      [{ codecs: null }, "option 'codecs' must be an object, got null"],
      [{ rowGroups: 1 }, "option 'rowGroups' must be an array, got 1"],
      [{ timestamps: 'Date' }, "option 'timestamps' must be one of 'bigint', 'date', got 'Date'"],
      [{ timestamps: new Date(0) }, "option 'timestamps' must be one of 'bigint', 'date', got a Date"],
      [{ even: 3 }, "option 'even' must be an even number, got 3"],
    ];
    for (const [o, message] of cases) {
      expect(check(o)).toThrow(expect.objectContaining({ name: 'ParquetError', code: 'INVALID_ARGUMENT', message: `pkg: f: ${message}` }));
    }
  });

  test('options that are not an object; the code can be chosen', () => {
    expect(check(null)).toThrow('pkg: f: options must be an object, got null');
    expect(check('x')).toThrow("pkg: f: options must be an object, got 'x'");
    expect(check([])).toThrow('pkg: f: options must be an object, got an array');
    expect(() => checkOptions({ x: 1 }, rules, 'pkg: f', 'INVALID_OPTION')).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

describe('nearestName', () => {
  const writer = ['pageSize', 'pageRows', 'dictionaryPageSize', 'rowGroupRows', 'bloom', 'statistics', 'compression'];
  test.each([
    ['dataPageSize', 'pageSize'],
    ['bloomFilter', 'bloom'],
    ['compresion', 'compression'],
    ['PAGESIZE', 'pageSize'],
    ['rowGroupSize', 'rowGroupRows'],
    ['statistic', 'statistics'],
  ])('%s -> %s', (name, near) => expect(nearestName(name, writer)).toBe(near));
  test('nothing near: undefined', () => {
    expect(nearestName('limt', ['limits', 'columns'])).toBeUndefined();
    expect(nearestName('xyz', writer)).toBeUndefined();
    expect(nearestName('ab', ['ac'])).toBe('ac');
  });
  test('editDistance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
  });
});
