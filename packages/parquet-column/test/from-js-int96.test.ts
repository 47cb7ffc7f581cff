/**
 * INT96 values before Julian day 1 (-4713-11-25T00:00:00Z, proleptic Gregorian) are INVALID_VALUE naming the column
 * and the row, as out-of-range values of other types are (QA helper-77 F7). Before, a Date or bigint before
 * -4713-11-24 was written with a negative Julian day, which pyarrow reads as unsigned (3.6e17 ms late); and pyarrow 25
 * reads every instant of Julian day 0 as the epoch (measured on files this writer made: day 1 reads exactly, see
 * parquet-writer's int96-range.test). The expected bytes are computed here by hand: nanoseconds of the day (int64 LE)
 * then the Julian day (int32 LE), 1970-01-01 being Julian day 2440588.
 */
import { describe, expect, test } from 'vitest';
import { buildSchemaTree } from '@parquetry/parquet-levels';
import { FieldRepetitionType, ParquetError, Type } from '@parquetry/thrift-compact';
import { fromJsValues } from '../src/from-js.js';

const c = buildSchemaTree([{ name: 'schema', num_children: 1 }, { name: 't', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.INT96 }]).columns[0]!;
const NS_DAY = 86_400_000_000_000n;
const DAY1_MS = Date.UTC(-4713, 10, 25); // proleptic Gregorian, as Date is
const DAY1_NS = BigInt(DAY1_MS) * 1_000_000n;

function bytes(nanos: bigint, day: number): number[] {
  const b = new Uint8Array(12);
  const v = new DataView(b.buffer);
  v.setBigUint64(0, nanos, true);
  v.setInt32(8, day, true);
  return Array.from(b);
}
function outcome(values: unknown[]): string {
  try {
    return JSON.stringify(Array.from((fromJsValues(values, 0, values.length, c, undefined, (i) => i + 40) as { data: Uint8Array }).data));
  } catch (e) {
    if (!(e instanceof ParquetError)) throw e;
    return `${e.code}: ${e.message}`;
  }
}

describe('INT96 from Julian day 1', () => {
  test('the boundary: -4713-11-25T00:00:00Z is Julian day 1, 2440587 days before the epoch', () => {
    expect(new Date(DAY1_MS).toISOString()).toBe('-004713-11-25T00:00:00.000Z');
    expect(DAY1_MS / 86_400_000).toBe(1 - 2440588);
  });

  test('the first instant of Julian day 1 is written (Date and bigint), with the bytes computed by hand', () => {
    expect(outcome([new Date(DAY1_MS)])).toBe(JSON.stringify(bytes(0n, 1)));
    expect(outcome([DAY1_NS])).toBe(JSON.stringify(bytes(0n, 1)));
    expect(outcome([DAY1_NS + NS_DAY + 5n])).toBe(JSON.stringify(bytes(5n, 2)));
  });

  test.each([
    ['the last millisecond of Julian day 0 (Date)', new Date(DAY1_MS - 1)],
    ['the last nanosecond of Julian day 0 (bigint)', DAY1_NS - 1n],
    ['the first instant of Julian day 0', new Date(DAY1_MS - 86_400_000)],
    ['Julian day -1', DAY1_NS - 2n * NS_DAY],
    ['the earliest Date', new Date(-8.64e15)],
    ['a bigint whose day does not fit in 32 bits either', -(2n ** 80n)],
  ])('%s is INVALID_VALUE naming the column, the row and the limit', (_n, v) => {
    expect(outcome([new Date(0), v])).toMatch(/^INVALID_VALUE: parquet-column: column 't': row 41: expected a bigint of nanoseconds since the epoch or a valid Date, got .* \(before -4713-11-25T00:00:00Z, Julian day 1 \(proleptic Gregorian\): Arrow reads earlier INT96 days wrong\)$/);
  });

  test('the upper limit is unchanged: Julian day 2^31-1', () => {
    const last = (2147483647n - 2440588n) * NS_DAY + NS_DAY - 1n;
    expect(outcome([last])).toBe(JSON.stringify(bytes(NS_DAY - 1n, 2147483647)));
    expect(outcome([last + 1n])).toMatch(/^INVALID_VALUE: .*its Julian day does not fit in 31 bits/);
    expect(outcome([new Date(8.64e15)])).toBe(JSON.stringify(bytes(0n, 8.64e15 / 86_400_000 + 2440588)));
  });
});
