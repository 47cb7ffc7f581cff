// A footer whose DECIMAL scale or precision is outside what LogicalTypes.md allows (a corrupt or hostile footer) is
// refused when the file is opened, with INVALID_SCHEMA naming the column, its precision and scale and the rule
// broken (the schema tree checks it: parquet-levels test/decimal-schema.test.ts has every rule). (9 of the 10 failed
// before: the file opened, and readRows threw `RangeError: Invalid string length` from formatDecimal for scale
// 2^31 - 1, `Maximum BigInt size exceeded` for scale -2^31, or read wrong values — scale -5 read 1.25 as "12500000",
// scale 20 > precision 9 as "0.00000000000000000125", precision 2^31 - 1 on INT32 as if it were valid; the valid
// file read before too.)
import { beforeAll, describe, expect, test } from 'vitest';
import { ConvertedType, type FileMetaData, type SchemaElement } from '@parquetry/thrift-compact';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet } from '../src/index.js';
import { typedError, withFooter } from './helpers.js';

describe('a DECIMAL column whose footer declares an impossible scale or precision', () => {
  let good: Uint8Array;
  beforeAll(async () => {
    good = await writeParquet([{ d: '1.25' }, { d: '-3.50' }], { schema: { d: field.decimal(9, 2) }, compression: 'UNCOMPRESSED' });
    expect(await (await openParquet(good)).readRows()).toEqual([{ d: '1.25' }, { d: '-3.50' }]);
  });

  /** Both annotations set, as the QA report's footers: the LogicalType is the one read. */
  const both = (scale: number, precision: number) => (m: FileMetaData) => {
    const el = m.schema[1]!;
    el.logicalType = { DECIMAL: { scale, precision } };
    el.scale = scale;
    el.precision = precision;
  };
  /** Only the legacy converted_type DECIMAL, as files from before LogicalType. */
  const legacy = (changes: Partial<SchemaElement>) => (m: FileMetaData) => {
    const el = m.schema[1]!;
    delete el.logicalType;
    Object.assign(el, { converted_type: ConvertedType.DECIMAL }, changes);
  };
  const cases: [string, (m: FileMetaData) => void, string][] = [
    ['scale 2^31 - 1', both(2147483647, 9), 'DECIMAL(9, 2147483647) on INT32: scale 2147483647 is outside 0..precision'],
    ['scale 65535 > precision', both(65535, 9), 'DECIMAL(9, 65535) on INT32: scale 65535 is outside 0..precision'],
    ['negative scale', both(-5, 9), 'DECIMAL(9, -5) on INT32: scale -5 is outside 0..precision'],
    ['scale -2^31', both(-2147483648, 9), 'DECIMAL(9, -2147483648) on INT32: scale -2147483648 is outside 0..precision'],
    ['scale 20 > precision 9', both(20, 9), 'DECIMAL(9, 20) on INT32: scale 20 is outside 0..precision'],
    ['precision 2^31 - 1 on INT32', both(2, 2147483647), 'DECIMAL(2147483647, 2) on INT32: precision 2147483647 is outside 1..9'],
    ['precision and scale 10^6', both(1000000, 1000000), 'DECIMAL(1000000, 1000000) on INT32: precision 1000000 is outside 1..9'],
    ['legacy converted_type DECIMAL, scale 2^31 - 1', legacy({ scale: 2147483647, precision: 9 }), 'converted_type DECIMAL(9, 2147483647) on INT32: scale 2147483647 is outside 0..precision'],
    ['legacy converted_type DECIMAL, precision 10 on INT32', legacy({ scale: 2, precision: 10 }), 'converted_type DECIMAL(10, 2) on INT32: precision 10 is outside 1..9'],
  ];
  test.each(cases)('%s: openParquet is INVALID_SCHEMA naming the column, precision, scale and rule', async (_, edit, message) => {
    const bad = withFooter(good, edit);
    const e = await typedError(async () => (await openParquet(bad)).readRows());
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toBe(`parquet-levels: field 'd' (schema element 1): ${message}`);
  });

  test('legacy converted_type DECIMAL(9, 2) alone reads as the LogicalType does', async () => {
    const f = await openParquet(withFooter(good, legacy({ scale: 2, precision: 9 })));
    expect(await f.readRows()).toEqual([{ d: '1.25' }, { d: '-3.50' }]);
  });
});
