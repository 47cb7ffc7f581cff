/**
 * INT96 at the lower limit the writer accepts (Julian day 1, -4713-11-25T00:00:00Z; QA helper-77 F7) reads back
 * exactly in pyarrow, an independent reader, and what lies before it is refused. Measured while fixing: pyarrow 25
 * read a day before Julian day 0 2^32 days late (the day as unsigned) and every instant of Julian day 0 as the epoch.
 * Skipped without PARQUETRY_PYTHON.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { CompressionCodec } from '@parquetry/thrift-compact';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { createGzipCodec } from '@parquetry/codec-gzip';
import { openParquet } from '@parquetry/parquet-reader';
import { field, writeParquet } from '../src/index.js';

const PYTHON = process.env.PARQUETRY_PYTHON;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-int96-range-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const DAY1 = Date.UTC(-4713, 10, 25);

describe('INT96 from Julian day 1', () => {
  test('earlier instants are INVALID_VALUE naming the column and the row', async () => {
    const schema = { t: field.int96() };
    await expect(writeParquet([{ t: new Date(DAY1) }, { t: new Date(DAY1 - 1) }], { schema })).rejects.toMatchObject({ code: 'INVALID_VALUE', message: expect.stringMatching(/column 't': row 1: .*before -4713-11-25T00:00:00Z/) });
    await expect(writeParquet([{ t: BigInt(DAY1) * 1_000_000n - 1n }], { schema })).rejects.toMatchObject({ code: 'INVALID_VALUE' });
  });

  test.skipIf(PYTHON === undefined)('pyarrow reads Julian day 1 and later exactly, in ms and ns (skipped without PARQUETRY_PYTHON)', async () => {
    const ms = [DAY1, DAY1 + 45_296_789, DAY1 + 86_400_000 - 1, DAY1 + 86_400_000, Date.UTC(1, 0, 1), Date.UTC(1582, 9, 15), -1, 0, 1_700_000_000_123];
    const ns = ms.map((m, i) => BigInt(m) * 1_000_000n + BigInt(i)); // nanoseconds below the millisecond too
    const f = path.join(tmp, 'int96.parquet');
    fs.writeFileSync(f, await writeParquet(ms.map((m, i) => ({ d: new Date(m), b: ns[i] })), { schema: { d: field.int96(), b: field.int96() } }));
    const out = execFileSync(PYTHON!, ['-c', `
import pyarrow.parquet as pq, pyarrow as pa, json, sys
ms = pq.read_table(sys.argv[1], coerce_int96_timestamp_unit='ms')
us = pq.read_table(sys.argv[1], coerce_int96_timestamp_unit='us')
print(json.dumps([ms.column('d').cast(pa.int64()).to_pylist(), [str(x) for x in us.column('b').cast(pa.int64()).to_pylist()]]))
`, f]).toString();
    const [d, b] = JSON.parse(out) as [number[], string[]];
    expect(d).toEqual(ms);
    // microseconds: nanoseconds floored (pyarrow truncates toward zero; the values here are whole microseconds + i ns)
    expect(b).toEqual(ns.map((n) => String(n / 1000n - (n < 0n && n % 1000n !== 0n ? 1n : 0n))));
  });

  const SPARK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing/data/int96_from_spark.parquet');
  test.skipIf(!fs.existsSync(SPARK))("the corpus's int96_from_spark: its value before Julian day 1 (row 5, which pyarrow reads 2^32 days late) is refused when written back; the rest is written (skipped without ../shared)", async () => {
    const codecs = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec() };
    const file = await openParquet(new Uint8Array(fs.readFileSync(SPARK)), { codecs });
    const rows = await file.readRows();
    await expect(writeParquet(rows, { schema: file.metadata.schema })).rejects.toMatchObject({ code: 'INVALID_VALUE', message: expect.stringMatching(/column 'a': row 5: .*before -4713-11-25T00:00:00Z/) });
    const rest = rows.filter((_r, i) => i !== 5);
    expect(await (await openParquet(await writeParquet(rest, { schema: file.metadata.schema }), { codecs })).readRows()).toEqual(rest);
  });
});
