/**
 * `convert --type ts=timestamptz` (and other time and timestamp units) of a value with more fraction digits than the
 * unit holds. DuckDB drops the extra digits when it casts such text to TIMESTAMPTZ (checked below); the package
 * README's CSV rules make it an error, not a rounding, and CSV said so ("at most 6 fraction digits"). NDJSON and
 * JSON said the valid timestamp "is not a timestamp value", and a fraction finer than nanoseconds was "not a
 * timestamp" in CSV too. Now both name the digits, the unit's limit and the unit that holds them; with that unit the
 * value converts and reads back as DuckDB's TIMESTAMP_NS of the same text.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { duckRows, run } from './cli-helpers.js';
import { openFile } from '../src/node.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-fraction-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string): string => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

describe('fraction digits finer than the unit', () => {
  test('DuckDB truncates such text to its unit (the difference this CLI keeps as an error)', async () => {
    const { rows } = await duckRows(`SELECT epoch_us('2024-01-01T00:00:00.123456789Z'::TIMESTAMPTZ)::VARCHAR AS us, epoch_ns('2024-01-01T00:00:00.123456789Z'::TIMESTAMPTZ::TIMESTAMP_NS)::VARCHAR AS ns`);
    expect(rows[0]).toEqual({ us: '1704067200123456', ns: '1704067200123456000' });
  });

  test('NDJSON, JSON and CSV name the digits, the limit and the finer unit (before: NDJSON and JSON said "is not a timestamp value")', async () => {
    const text = '2024-01-01T00:00:00.123456789Z';
    const inputs = [
      ['NDJSON line 1', put('a.ndjson', `{"ts":"${text}"}\n`), 'the string '],
      ['JSON element', put('a.json', `[{"ts":"${text}"}]`), 'the string '],
      ['CSV line 2', put('a.csv', `ts\n${text}\n`), ''],
    ] as const;
    for (const [where, input, lead] of inputs) {
      const out = path.join(dir, 'o.parquet');
      const us = await run('convert', input, out, '--type', 'ts=timestamptz');
      expect({ input, code: us.code }).toEqual({ input, code: 1 });
      expect(us.err[0]).toMatch(new RegExp(`^parquetry: INVALID_VALUE: ${where}.*column 'ts': ${lead}"2024-01-01T00:00:00\\.123456789Z" has 9 fraction digits, more than timestamp\\[micros, UTC\\] holds \\(at most 6\\); give the column a finer unit with --type \\(timestamptz\\[ns\\]\\)$`));
      const ms = await run('convert', input, out, '--type', 'ts=timestamptz[ms]');
      expect(ms.err[0]).toMatch(/has 9 fraction digits, more than timestamp\[millis, UTC\] holds \(at most 3\); give the column a finer unit with --type \(timestamptz\[ns\]\)$/);
      expect(fs.existsSync(out)).toBe(false);
      // the unit the message names holds the value: DuckDB's TIMESTAMP_NS of the text
      expect((await run('convert', input, out, '--type', 'ts=timestamptz[ns]')).code).toBe(0);
      const f = await openFile(out);
      const [row] = await f.readRows();
      await f.close();
      const { rows } = await duckRows(`SELECT epoch_ns('${text}'::TIMESTAMP_NS)::VARCHAR AS ns`);
      expect(String((row as { ts: unknown }).ts)).toBe(rows[0]!['ns']);
      fs.rmSync(out);
    }
  });

  test('times, a few digits past milliseconds, and digits past nanoseconds', async () => {
    for (const [input, where] of [
      [put('t.ndjson', '{"t":"12:00:00.1234"}\n'), 'the string "12:00:00.1234"'],
      [put('t.csv', 't\n12:00:00.1234\n'), '"12:00:00.1234"'],
    ] as const) {
      const r = await run('convert', input, path.join(dir, 't.parquet'), '--type', 't=time[ms]');
      expect(r.err[0]).toMatch(new RegExp(`column 't': ${where.replaceAll('.', '\\.')} has 4 fraction digits, more than time\\[millis\\] holds \\(at most 3\\); give the column a finer unit with --type \\(time\\[us\\]\\)$`));
    }
    const ten = '2024-01-01T00:00:00.1234567891Z';
    for (const input of [put('ten.ndjson', `{"ts":"${ten}"}\n`), put('ten.csv', `ts\n${ten}\n`)]) {
      const r = await run('convert', input, path.join(dir, 'ten.parquet'), '--type', 'ts=timestamptz[ns]');
      expect(r.code).toBe(1);
      expect(r.err[0]).toMatch(/has 10 fraction digits, more than timestamp\[nanos, UTC\] holds \(at most 9\); nanoseconds, the finest unit, hold 9$/);
    }
    // other refusals keep their messages
    const local = await run('convert', put('z.ndjson', '{"ts":"2024-01-01T00:00:00Z"}\n'), path.join(dir, 'z.parquet'), '--type', 'ts=timestamp');
    expect(local.err[0]).toMatch(/the string "2024-01-01T00:00:00Z" is not a timestamp value$/);
    const bad = await run('convert', put('bad.csv', 'ts\n2024-01-01T00:00:00.12x\n'), path.join(dir, 'bad.parquet'), '--type', 'ts=timestamptz');
    expect(bad.err[0]).toMatch(/expected a timestamp/);
  });
});
