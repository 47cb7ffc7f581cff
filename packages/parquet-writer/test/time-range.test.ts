/**
 * TIME is a time of day (LogicalTypes.md, "TIME": units since midnight): the writer takes values in [0, 24 h), the
 * range of Arrow's time32/time64 (pyarrow's validate rejects 86400000 ms and -1 ms), and rejects the others with
 * `INVALID_VALUE` naming the column, the row and the value — before, -1 ms and 86_400_000_001 µs were written, and
 * read back as `-00:00:00.001` (and by DuckDB/pyarrow as 23:59:59.999).
 */
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../src/index.js';

const schema = { t: field.time('millis'), u: field.time('micros'), n: field.time('nanos') };

describe('TIME values outside one day', () => {
  test('the ends of the day are written and read back', async () => {
    const rows = [
      { t: 0, u: 0n, n: 0n },
      { t: 86_399_999, u: 86_399_999_999n, n: 86_399_999_999_999n },
      { t: 43_200_000, u: 43_200_000_000, n: 1 }, // numbers for the int64 units too
    ];
    const f = await openParquet(await writeParquet(rows, { schema }), { codecs: builtinCodecs() });
    expect(await f.readRows()).toEqual([
      { t: 0, u: 0n, n: 0n },
      { t: 86_399_999, u: 86_399_999_999n, n: 86_399_999_999_999n },
      { t: 43_200_000, u: 43_200_000_000n, n: 1n },
    ]);
  });

  test.each([
    ['t', -1, /column 't': row 1: expected .*milliseconds since midnight in 0\.\.86399999 \(a time of day\), got number -1/],
    ['t', 86_400_000, /column 't': row 1: .*got number 86400000/],
    ['u', 86_400_000_001n, /column 'u': row 1: expected .*microseconds since midnight in 0\.\.86399999999 \(a time of day\), got bigint 86400000001n/],
    ['u', -1n, /column 'u': row 1: .*got bigint -1n/],
    ['n', 86_400_000_000_000n, /column 'n': row 1: expected .*nanoseconds since midnight in 0\.\.86399999999999 .*got bigint 86400000000000n/],
  ] as const)('%s = %s is INVALID_VALUE', async (column, value, message) => {
    const rows = [{ t: 1, u: 1n, n: 1n }, { t: 1, u: 1n, n: 1n, [column]: value }];
    const err = await writeParquet(rows, { schema }).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'INVALID_VALUE' });
    expect((err as Error).message).toMatch(message);
  });
});
