// Timestamps and dates read as `Date` (timestamps: 'date', dates: 'date') outside a JavaScript Date's range
// (±8.64e15 ms) are VALUE_OUT_OF_RANGE naming the column, not a silent Invalid Date (failed before: Invalid Date);
// the default bigint / day-number mapping reads them exactly, and the edges of the range read as Dates.
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet } from '../src/index.js';

const MAX_MS = 8_640_000_000_000_000;

describe('Date conversions outside the range of a JavaScript Date', () => {
  test('TIMESTAMP(MILLIS / MICROS / NANOS) and DATE', async () => {
    const bytes = await writeParquet(
      [
        { ms: BigInt(MAX_MS), us: BigInt(MAX_MS) * 1000n, ns: 9_000_000_000_000_000_000n, d: 100_000_000 },
        { ms: BigInt(MAX_MS) + 1n, us: -(BigInt(MAX_MS) * 1000n) - 1000n, ns: -9_000_000_000_000_000_000n, d: -100_000_001 },
      ],
      { schema: { ms: field.timestamp('millis'), us: field.timestamp('micros'), ns: field.timestamp('nanos'), d: field.date() }, compression: 'UNCOMPRESSED' },
    );
    const f = await openParquet(bytes);
    // exact by default
    expect(await f.readRows({ columns: ['ms', 'd'] })).toEqual([
      { ms: BigInt(MAX_MS), d: 100_000_000 },
      { ms: BigInt(MAX_MS) + 1n, d: -100_000_001 },
    ]);
    // the edge of the range is a Date
    expect(await f.readRows({ columns: ['ms', 'us', 'ns'], rowEnd: 1, timestamps: 'date' })).toEqual([{ ms: new Date(MAX_MS), us: new Date(MAX_MS), ns: new Date(9_000_000_000_000) }]);
    expect(await f.readRows({ columns: ['d'], rowEnd: 1, dates: 'date' })).toEqual([{ d: new Date(MAX_MS) }]);
    // one past it is an error naming the column
    await expect(f.readRows({ columns: ['ms'], timestamps: 'date' })).rejects.toMatchObject({
      code: 'VALUE_OUT_OF_RANGE',
      message: expect.stringMatching(/^parquet-column: column 'ms': 8640000000000001 ms from the epoch is outside the range of a JavaScript Date/),
    });
    await expect(f.readRows({ columns: ['us'], timestamps: 'date' })).rejects.toMatchObject({ code: 'VALUE_OUT_OF_RANGE', message: expect.stringContaining("column 'us'") });
    await expect(f.readRows({ columns: ['d'], dates: 'date' })).rejects.toMatchObject({ code: 'VALUE_OUT_OF_RANGE', message: expect.stringContaining("column 'd'") });
    // nanoseconds always fit (±2^63 ns is about ±292 years)
    expect((await f.readRows({ columns: ['ns'], timestamps: 'date' })).map((r) => (r.ns as Date).getTime())).toEqual([9_000_000_000_000, -9_000_000_000_000]);
  });
});
