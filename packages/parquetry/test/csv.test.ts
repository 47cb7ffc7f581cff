/**
 * The byte-level text parsers and the CSV record parser of `parquetry convert`, against independent expectations:
 * `BigInt(text)`, `Number(text)`, `Date.UTC` / `Date.parse` (the engine's own parsers), records written down by
 * hand from RFC 4180, and the same input parsed whole or cut into random windows.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CsvParser, columnNames, sniffBatch, sniffedSpec, startSniff, type CsvBatch } from '../src/node/csv.js';
import { TypeBit, classify, integerNumber, readDate, readInteger, readNumber, readTime, readTimestamp, textResult, toInt64, toUint64, toUnitCount, wordsValue } from '../src/node/text-values.js';

const enc = new TextEncoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const r = textResult();

function int64Of(text: string): bigint | undefined {
  const b = bytes(text);
  if (!readInteger(b, 0, b.length, r) || !toInt64(r)) return undefined;
  return BigInt.asIntN(64, (BigInt(r.hi) << 32n) + BigInt(r.lo));
}

describe('text values', () => {
  test('integers: the int64 words equal BigInt(text), out-of-range and malformed text is rejected', () => {
    fc.assert(
      fc.property(fc.bigInt(-(2n ** 70n), 2n ** 70n), fc.constantFrom('', '+'), (v, plus) => {
        const text = v >= 0n ? `${plus}${v}` : String(v);
        const inRange = v >= -(2n ** 63n) && v < 2n ** 63n;
        expect(int64Of(text)).toBe(inRange ? v : undefined);
        const b = bytes(text);
        expect(readInteger(b, 0, b.length, r)).toBe(true);
        const u = v >= 0n && v < 2n ** 64n;
        expect(toUint64(r)).toBe(u);
        if (u) expect((BigInt(r.hi >>> 0) << 32n) + BigInt(r.lo)).toBe(v);
        expect(readInteger(b, 0, b.length, r) && integerNumber(r)).toBe(r.digits <= 15 ? Number(v) : NaN);
      }),
    );
    for (const t of ['', '-', '+', '1.0', '1e3', ' 1', '1 ', '0x10', '--1', '١']) expect(int64Of(t), t).toBeUndefined();
    expect(int64Of('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(int64Of('9223372036854775808')).toBeUndefined();
    expect(int64Of('-0')).toBe(0n);
  });

  test('numbers: equal to Number(text) for the shortest form of any double and for random decimal text', () => {
    const num = (t: string): number | undefined => {
      const b = bytes(t);
      return readNumber(b, 0, b.length, r) ? r.num : undefined;
    };
    fc.assert(
      fc.property(fc.double(), (v) => {
        expect(num(String(v))).toBe(Number(String(v)));
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[+-]?([0-9]{1,25}(\.[0-9]{0,25})?|\.[0-9]{1,25})([eE][+-]?[0-9]{1,3})?$/), (t) => {
        expect(num(t)).toBe(Number(t));
      }),
    );
    expect(num('inf')).toBe(Infinity);
    expect(num('-Infinity')).toBe(-Infinity);
    expect(num('NaN')).toBeNaN();
    for (const t of ['', '.', '-', 'e5', '1e', '1.2.3', '0x1', ' 1', '1,5', 'infinit']) expect(num(t), t).toBeUndefined();
  });

  test('dates: days equal to Date.UTC for every day of years 0..9999; invalid days are rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(0, 0, 1) / 864e5, max: Date.UTC(9999, 11, 31) / 864e5 }), (days) => {
        const iso = new Date(days * 864e5).toISOString().slice(0, 10);
        const b = bytes(iso);
        expect(readDate(b, 0, b.length, r)).toBe(true);
        expect(r.days).toBe(days);
      }),
    );
    for (const t of ['2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-1-01', '24-01-01', '2024-01-01x']) {
      const b = bytes(t);
      expect(readDate(b, 0, b.length, r), t).toBe(false);
    }
    const leap = bytes('2000-02-29');
    expect(readDate(leap, 0, leap.length, r)).toBe(true);
  });

  test('timestamps: UTC counts in ms, µs and ns equal to Date.parse plus the fraction, with any zone offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1, 0, 1) / 1000, max: Date.UTC(9999, 11, 31) / 1000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: -18 * 60, max: 18 * 60 }),
        fc.constantFrom('T', ' '),
        (sec, nanos, digits, offsetMin, sep) => {
          const frac = digits === 0 ? 0 : Math.floor(nanos / 10 ** (9 - digits));
          const fracNanos = frac * 10 ** (9 - digits);
          const local = new Date((sec + offsetMin * 60) * 1000).toISOString().slice(0, 19).replace('T', sep);
          const zone = offsetMin === 0 ? 'Z' : `${offsetMin < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offsetMin) / 60)).padStart(2, '0')}:${String(Math.abs(offsetMin) % 60).padStart(2, '0')}`;
          const text = `${local}${digits ? `.${String(frac).padStart(digits, '0')}` : ''}${zone}`;
          const b = bytes(text);
          expect(readTimestamp(b, 0, b.length, r)).toBe(true);
          expect(r.offset).toBe(true);
          const wholeMs = BigInt(Date.parse(`${text.slice(0, 19).replace(' ', 'T')}${zone}`));
          expect(wholeMs).toBe(BigInt(sec) * 1000n);
          for (const [per, div] of [[1000, 1_000_000], [1_000_000, 1000], [1_000_000_000, 1]] as const) {
            expect(readTimestamp(b, 0, b.length, r)).toBe(true);
            const fit = toUnitCount(r, per);
            if (fracNanos % div !== 0) {
              expect(fit).toBe(0);
              continue;
            }
            const want = BigInt(sec) * BigInt(per) + BigInt(fracNanos / div);
            if (want >= 2n ** 63n || want < -(2n ** 63n)) expect(fit).toBe(-1);
            else {
              expect(fit).toBe(1);
              expect(BigInt(wordsValue(r))).toBe(want);
            }
          }
        },
      ),
    );
  });

  test('times of day and the classification of fields (by hand)', () => {
    const t = bytes('23:59:58.25');
    expect(readTime(t, 0, t.length, r)).toBe(true);
    expect(toUnitCount(r, 1_000_000)).toBe(1);
    expect(wordsValue(r)).toBe(86398_250000);
    const cases: [string, number][] = [
      ['true', TypeBit.BOOLEAN],
      ['FALSE', TypeBit.BOOLEAN],
      ['t', 0],
      ['12', TypeBit.INT64 | TypeBit.DOUBLE],
      ['-9223372036854775808', TypeBit.INT64 | TypeBit.DOUBLE],
      ['9223372036854775808', TypeBit.DOUBLE],
      ['007', 0],
      ['0', TypeBit.INT64 | TypeBit.DOUBLE],
      ['0.5', TypeBit.DOUBLE],
      ['00.5', 0],
      ['1e-7', TypeBit.DOUBLE],
      ['nan', TypeBit.DOUBLE],
      ['2024-02-29', TypeBit.DATE | TypeBit.TIMESTAMP],
      ['2024-02-30', 0],
      ['2024-02-29 10:00', TypeBit.TIMESTAMP],
      ['2024-02-29T10:00:00.123456789', TypeBit.TIMESTAMP],
      ['2024-02-29T10:00:00.1234567890', 0],
      ['2024-02-29T10:00:00+0530', TypeBit.TIMESTAMPTZ],
      ['2024-02-29T10:00:00z', TypeBit.TIMESTAMPTZ],
      ['2024-02-29T24:00:00', 0],
      ['10:00:00', TypeBit.TIME],
      ['10:60', 0],
      ['abc', 0],
      ['1,5', 0],
    ];
    for (const [text, mask] of cases) {
      const b = bytes(text);
      expect(classify(b, 0, b.length, r), text).toBe(mask);
    }
  });
});

/** Records of a whole input as text fields (quotes undone), parsed in windows cut at `cuts`. */
function parseAll(text: string, cuts: number[] = [], delimiter = 44): { fields: string[][]; lines: number[] } {
  const all = bytes(text);
  const p = new CsvParser(delimiter);
  const fields: string[][] = [];
  const lines: number[] = [];
  let carry = new Uint8Array(0);
  let at = 0;
  const ends = [...cuts.filter((c) => c > 0 && c < all.length).sort((a, b) => a - b), all.length];
  for (let k = 0; k <= ends.length; k++) {
    const end = k < ends.length ? ends[k]! : all.length;
    const final = k === ends.length;
    const win = new Uint8Array(carry.length + end - at);
    win.set(carry);
    win.set(all.subarray(at, end), carry.length);
    at = end;
    const { batch, consumed } = p.parse(win, final);
    collect(batch, fields, lines);
    carry = win.slice(consumed);
  }
  return { fields, lines };
}

function collect(b: CsvBatch, fields: string[][], lines: number[]): void {
  const dec = new TextDecoder();
  for (let row = 0; row < b.rows; row++) {
    const rec: string[] = [];
    for (let c = 0; c < b.width; c++) {
      const i = row * b.width + c;
      const t = dec.decode(b.buf.subarray(b.starts[i]!, b.ends[i]!));
      rec.push(b.escaped[i] ? t.replaceAll('""', '"') : t);
    }
    fields.push(rec);
    lines.push(b.lines[row]!);
  }
}

describe('CSV records', () => {
  test('RFC 4180 cases written down by hand', () => {
    expect(parseAll('a,b\n1,2\n')).toEqual({ fields: [['a', 'b'], ['1', '2']], lines: [1, 2] });
    expect(parseAll('a,b\r\n1,2')).toEqual({ fields: [['a', 'b'], ['1', '2']], lines: [1, 2] });
    expect(parseAll('a,b\n"x,""y""\nz",\n\n3,"4"\r\n')).toEqual({ fields: [['a', 'b'], ['x,"y"\nz', ''], ['3', '4']], lines: [1, 2, 5] });
    expect(parseAll('a\n""\n\n"b"\n')).toEqual({ fields: [['a'], [''], ['b']], lines: [1, 2, 4] });
    expect(parseAll('a;b\n1;2', [], 59).fields).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseAll('a,b\n1,2"x\n').fields).toEqual([['a', 'b'], ['1', '2"x']]);
    expect(parseAll('a,b,\n1,,\n').fields).toEqual([['a', 'b', ''], ['1', '', '']]);
    expect(parseAll('')).toEqual({ fields: [], lines: [] });
  });

  test('errors name the line', () => {
    expect(() => parseAll('a,b\n1,2\n3\n')).toThrow(/line 3: 1 fields, but the first record has 2/);
    expect(() => parseAll('a,b\n1,2,3\n')).toThrow(/line 2: more than 2 fields/);
    expect(() => parseAll('a,b\n"1\n2,3\n')).toThrow(/line 2: a quoted field is not closed/);
    expect(() => parseAll('a,b\n"1"x,2\n')).toThrow(/line 2: unexpected 'x' after the closing quote of field 1/);
    expect(() => parseAll('a\n"x"y')).toThrow(expect.objectContaining({ code: 'INVALID_CSV', name: 'ParquetError' }));
  });

  test('any input cut into any windows gives the records of the whole input', () => {
    const field = fc.oneof(fc.constantFrom('', '"', '""', ',', '\n', '\r\n', 'a', 'é', '日本'), fc.string({ maxLength: 6 }));
    const arb = fc.record({
      width: fc.integer({ min: 1, max: 4 }),
      rows: fc.array(fc.array(field, { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
      crlf: fc.boolean(),
      quoteAll: fc.boolean(),
      trailing: fc.boolean(),
      cuts: fc.array(fc.nat(300), { maxLength: 8 }),
    });
    fc.assert(
      fc.property(arb, ({ width, rows, crlf, quoteAll, trailing, cuts }) => {
        const want = rows.map((r) => r.slice(0, width));
        const quote = (f: string): string => (quoteAll || f === '' || /[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
        const text = want.map((r) => r.map(quote).join(',')).join(crlf ? '\r\n' : '\n') + (trailing ? (crlf ? '\r\n' : '\n') : '');
        const whole = parseAll(text);
        expect(whole.fields).toEqual(want);
        expect(parseAll(text, cuts)).toEqual(whole);
      }),
    );
  });

  test('sniffing picks the first type every sampled value fits; column names are made unique', () => {
    const p = new CsvParser(44);
    const text = 'a,b,c,d,e,f,g\n1,1,true,2024-01-01,2024-01-01,10:00,x\n2,1.5,false,2024-01-02,2024-01-02 10:00:00.1234567,10:00:00.5,\n,,,,,,\n';
    const { batch } = p.parse(bytes(text), true);
    const sniff = startSniff(batch.width);
    sniffBatch(batch, 1, batch.rows, sniff, undefined);
    expect(sniff.map(sniffedSpec)).toEqual([
      { type: 'int64' },
      { type: 'double' },
      { type: 'boolean' },
      { type: 'date' },
      { type: 'timestamp', unit: 'nanos', utc: false },
      { type: 'time', unit: 'micros', utc: false },
      { type: 'string' },
    ]);
    expect(columnNames(['a', '', 'a', 'a_1', undefined, 'a'])).toEqual(['a', 'column1', 'a_1', 'a_1_1', 'column4', 'a_2']);
  });
});
