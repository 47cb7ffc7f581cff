// Every upstream `variant/*.metadata` + `*.value` pair decoded and compared with data_dictionary.json.
//
// Conventions of data_dictionary.json (read from the file itself): binary is base64; date is an ISO
// date; time is `HH:MM:SS:ffffff`; timestamps are ISO-like text with an offset for the UTC types and
// without one for NTZ; uuid is its text form; decimals and int64 are JSON numbers (so int64 is
// compared with the literal's exact text, decimals numerically and, when the literal has no exponent,
// textually); float is the shortest text of the float32 value.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeVariant, type VariantDecimal, type VariantValue } from '../src/index.js';

const DIR = path.resolve(import.meta.dirname, '../../../../shared/parquet-testing/variant');
const HAVE = fs.existsSync(path.join(DIR, 'data_dictionary.json'));
if (!HAVE) console.warn(`parquet-variant: ${DIR} absent, skipping the upstream variant corpus test`);

const MICROS_PER_DAY = 86_400_000_000n;

/** Parses `YYYY-MM-DD[ T]HH:MM:SS[.fffffffff][±HH:MM]` to units since the epoch (UTC when no offset). */
function parseTimestamp(s: string, unit: 'us' | 'ns'): bigint {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([+-])(\d{2}):(\d{2}))?$/.exec(s);
  if (m === null) throw new Error(`unparsed timestamp ${s}`);
  const secs = BigInt(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) / 1000);
  const digits = unit === 'us' ? 6 : 9;
  const frac = BigInt((m[7] ?? '').padEnd(digits, '0'));
  const per = unit === 'us' ? 1_000_000n : 1_000_000_000n;
  let v = secs * per + frac;
  if (m[8] !== undefined) v -= (m[8] === '-' ? -1n : 1n) * BigInt(+m[9]! * 3600 + +m[10]! * 60) * per;
  return v;
}

function compare(decoded: VariantValue, expected: unknown, raw: string | undefined, where: string): void {
  if (expected === null || typeof expected === 'boolean') return void expect(decoded, where).toBe(expected);
  if (Array.isArray(expected)) {
    expect(Array.isArray(decoded), where).toBe(true);
    const d = decoded as VariantValue[];
    expect(d.length, where).toBe(expected.length);
    expected.forEach((e, i) => compare(d[i]!, e, undefined, `${where}[${i}]`));
    return;
  }
  if (typeof expected === 'object') {
    const d = decoded as Record<string, VariantValue>;
    expect(Object.keys(d).sort(), where).toEqual(Object.keys(expected).sort());
    for (const [k, e] of Object.entries(expected)) compare(d[k]!, e, undefined, `${where}.${k}`);
    return;
  }
  if (typeof decoded === 'bigint') return void expect(decoded, where).toBe(BigInt(raw!));
  if (typeof expected === 'number') {
    if (typeof decoded === 'number') {
      // float32 values are written as the shortest text of the float32; compare after rounding to float32.
      if (decoded !== expected) expect(decoded, where).toBe(Math.fround(expected));
      return;
    }
    if (typeof decoded === 'object' && decoded !== null && 'type' in decoded && decoded.type === 'decimal') {
      const dec = decoded as VariantDecimal;
      expect(Number(dec.value), where).toBe(expected);
      // JSON drops trailing fractional zeros that the decimal's scale keeps ("12345678.90" vs 12345678.9).
      if (raw !== undefined && !/[eE]/.test(raw)) expect(dec.value.replace(/\.?0+$/, ''), where).toBe(raw.replace(/\.?0+$/, ''));
      return;
    }
    throw new Error(`${where}: number expected, decoded ${String(decoded)}`);
  }
  const s = expected as string;
  if (typeof decoded === 'string') return void expect(decoded, where).toBe(s);
  if (decoded instanceof Uint8Array) return void expect(Buffer.from(decoded).toString('base64'), where).toBe(s);
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw new Error(`${where}: unexpected ${String(decoded)}`);
  switch (decoded.type) {
    case 'date':
      return void expect(decoded.days, where).toBe(Date.parse(`${s}T00:00:00Z`) / 86_400_000);
    case 'uuid':
      return void expect(decoded.value, where).toBe(s);
    case 'time': {
      const m = /^(\d{2}):(\d{2}):(\d{2}):(\d{6})$/.exec(s)!;
      const v = BigInt((+m[1]! * 3600 + +m[2]! * 60 + +m[3]!) * 1_000_000) + BigInt(m[4]!);
      expect(v < MICROS_PER_DAY).toBe(true);
      return void expect(decoded.value, where).toBe(v);
    }
    case 'timestamp':
      // The text carries an offset exactly for the UTC-adjusted types.
      expect(/[+-]\d{2}:\d{2}$/.test(s), `${where} offset vs utc`).toBe(decoded.utc);
      return void expect(decoded.value, where).toBe(parseTimestamp(s, decoded.unit as 'us' | 'ns'));
    default:
      throw new Error(`${where}: unexpected decoded ${JSON.stringify(decoded)}`);
  }
}

describe.skipIf(!HAVE)('upstream variant corpus', () => {
  test('every metadata/value pair decodes to data_dictionary.json', () => {
    // The upstream file has a trailing comma before the closing brace; strip it.
    const text = fs.readFileSync(path.join(DIR, 'data_dictionary.json'), 'utf8').replace(/,\s*}\s*$/, '}');
    const dict = JSON.parse(text) as Record<string, unknown>;
    const names = fs.readdirSync(DIR).filter((f) => f.endsWith('.value')).map((f) => f.slice(0, -6)).sort();
    expect(names.length).toBeGreaterThan(25);
    let compared = 0;
    const undocumented: string[] = [];
    for (const name of names) {
      const metadata = new Uint8Array(fs.readFileSync(path.join(DIR, `${name}.metadata`)));
      const value = new Uint8Array(fs.readFileSync(path.join(DIR, `${name}.value`)));
      const decoded = decodeVariant(metadata, value);
      if (!(name in dict)) {
        undocumented.push(name);
        continue;
      }
      const raw = new RegExp(`"${name}"\\s*:\\s*(-?[0-9][0-9.eE+-]*)`).exec(text)?.[1];
      compare(decoded, dict[name], raw, name);
      compared++;
    }
    console.log(`parquet-variant: ${compared}/${names.length} upstream variant pairs equal data_dictionary.json; no entry for: ${undocumented.join(', ')}`);
    expect(compared).toBe(Object.keys(dict).length);
  });

  test('long_string (no dictionary entry) decodes to a long string primitive', () => {
    const metadata = new Uint8Array(fs.readFileSync(path.join(DIR, 'long_string.metadata')));
    const value = new Uint8Array(fs.readFileSync(path.join(DIR, 'long_string.value')));
    expect(value[0]).toBe(16 << 2); // primitive string, not a short string
    const s = decodeVariant(metadata, value) as string;
    expect(new TextEncoder().encode(s).length).toBe(value.length - 5);
    expect(s.startsWith('This string is for sure and certainly longer than 64 bytes')).toBe(true);
  });
});
