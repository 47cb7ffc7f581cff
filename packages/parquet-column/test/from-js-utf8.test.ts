/**
 * fromJsValues checks bytes given for STRING, ENUM and JSON columns for UTF-8 by default (QA helper-77 F2b;
 * LogicalTypes.md: STRING "the byte array should be interpreted as a UTF-8 encoded character string", ENUM and JSON
 * likewise): a `Uint8Array` value, and all the values as one `{ offsets, data }` (the writer's columnar input), each
 * value on its own boundaries. Before, they were copied unchecked unless `strictUtf8` was set, and DuckDB, polars and
 * pyarrow's validate refused the files. The expectation here is the platform's `TextDecoder` with `fatal: true` (the
 * WHATWG decoder, independent of the code under test) applied to each value alone. BSON and unannotated BYTE_ARRAY
 * stay unchecked; JavaScript strings still write lone surrogates as U+FFFD unless `strictUtf8`.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { FieldRepetitionType, ParquetError, Type, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { fromJsValues } from '../src/from-js.js';

function leaf(type: Type, extra: Partial<SchemaElement> = {}): ColumnDescriptor {
  return buildSchemaTree([{ name: 'schema', num_children: 1 }, { name: 'a', repetition_type: FieldRepetitionType.REQUIRED, type, ...extra }]).columns[0]!;
}
const TEXT: [string, ColumnDescriptor][] = ([{ STRING: {} }, { ENUM: {} }, { JSON: {} }] as LogicalType[]).map((logicalType) => [Object.keys(logicalType)[0]!, leaf(Type.BYTE_ARRAY, { logicalType })]);
const BINARY: [string, ColumnDescriptor][] = [['unannotated', leaf(Type.BYTE_ARRAY)], ['BSON', leaf(Type.BYTE_ARRAY, { logicalType: { BSON: {} } })]];
const fatal = new TextDecoder('utf-8', { fatal: true });
const valid = (b: Uint8Array): boolean => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};
const enc = new TextEncoder();

/** `parts` as one `{ offsets, data }`, the bytes starting at `shift` in their buffer (so word reads are unaligned). */
function pack(parts: readonly Uint8Array[], shift = 0, base = 0): { offsets: Int32Array; data: Uint8Array } {
  const offsets = new Int32Array(parts.length + 1);
  let n = base;
  offsets[0] = base;
  parts.forEach((p, i) => (offsets[i + 1] = n += p.length));
  const buf = new Uint8Array(n + shift + 3);
  const data = buf.subarray(shift, shift + n);
  parts.forEach((p, i) => data.set(p, offsets[i]!));
  return { offsets, data };
}

function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    if (!(e instanceof ParquetError)) throw e;
    const m = /row (\d+)/.exec(e.message);
    return `${e.code} ${m ? m[1] : e.message}`;
  }
}

// values: valid UTF-8 of any code point, ASCII, random bytes, and pieces of multi-byte characters
const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => enc.encode(s)),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => enc.encode(s)),
  fc.uint8Array({ maxLength: 6 }),
  fc.constantFrom('€', '😀', 'é', '\u{10ffff}', '\ufffd').chain((c) => fc.integer({ min: 0, max: enc.encode(c).length }).map((k) => enc.encode(c).subarray(0, k))),
);
const mostlyValid = fc.oneof({ weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => enc.encode(s)) }, { weight: 1, arbitrary: piece });

describe('bytes for STRING, ENUM and JSON are checked for UTF-8 by default', () => {
  test.each(TEXT)('%s: a Uint8Array value is accepted exactly when TextDecoder(fatal) decodes it, the error naming its row', (_n, c) => {
    fc.assert(fc.property(fc.array(fc.oneof(piece, fc.string().map((s) => s as unknown as Uint8Array)), { maxLength: 20 }), (vs) => {
      const firstBad = vs.findIndex((v) => v instanceof Uint8Array && !valid(v));
      const expected = firstBad < 0 ? 'ok' : `INVALID_VALUE ${firstBad + 100}`;
      expect(outcome(() => fromJsValues(vs, 0, vs.length, c, undefined, (i) => i + 100))).toBe(expected);
      expect(outcome(() => fromJsValues(vs, 0, vs.length, c, { strictUtf8: true }, (i) => i + 100))).toBe(expected);
    }), { numRuns: 400 });
  });

  test.each(TEXT)('%s: { offsets, data } is accepted exactly when every value decodes on its own; returned as is', (_n, c) => {
    fc.assert(fc.property(fc.array(mostlyValid, { maxLength: 60 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 5 }), (parts, shift, base) => {
      const v = pack(parts, shift, base);
      const firstBad = parts.findIndex((p) => !valid(p));
      expect(outcome(() => fromJsValues(v, 0, parts.length, c, undefined, (i) => i))).toBe(firstBad < 0 ? 'ok' : `INVALID_VALUE ${firstBad}`);
      if (firstBad < 0) expect(fromJsValues(v, 0, parts.length, c)).toBe(v);
      // a sub-range checks only its own values
      const lo = Math.floor(parts.length / 3);
      const hi = parts.length - lo;
      const bad = parts.slice(lo, hi).findIndex((p) => !valid(p));
      expect(outcome(() => fromJsValues(v, lo, hi, c, undefined, (i) => i))).toBe(bad < 0 ? 'ok' : `INVALID_VALUE ${lo + bad}`);
    }), { numRuns: 600 });
  });

  test('a character split across two values is invalid in both: the first is reported; each alone is refused', () => {
    const [, c] = TEXT[0]!;
    const euro = enc.encode('€'); // e2 82 ac
    const split = [enc.encode('ab'), euro.subarray(0, 2), euro.subarray(2), enc.encode('cd')];
    // the bytes together are valid UTF-8: only per-value boundaries make them invalid
    expect(valid(pack(split).data)).toBe(true);
    expect(outcome(() => fromJsValues(pack(split), 0, 4, c, undefined, (i) => i))).toBe('INVALID_VALUE 1');
    expect(outcome(() => fromJsValues(pack(split), 2, 4, c, undefined, (i) => i))).toBe('INVALID_VALUE 2');
    expect(outcome(() => fromJsValues(split, 0, 4, c, undefined, (i) => i))).toBe('INVALID_VALUE 1');
    expect(outcome(() => fromJsValues(split, 2, 4, c, undefined, (i) => i))).toBe('INVALID_VALUE 2');
  });

  test('long ASCII runs with one bad byte anywhere (the word-at-a-time scan, every alignment)', () => {
    const [, c] = TEXT[0]!;
    for (let shift = 0; shift < 4; shift++) {
      for (const at of [0, 1, 3, 4, 5, 15, 16, 17, 63, 64, 999]) {
        const parts = Array.from({ length: 40 }, (_, i) => enc.encode(`value ${i} `.padEnd(25, 'x')));
        const joined = pack(parts, shift);
        expect(fromJsValues(joined, 0, 40, c)).toBe(joined);
        const pos = Math.min(at, joined.data.length - 1);
        joined.data[pos] = 0xff;
        const row = parts.findIndex((_p, i) => joined.offsets[i + 1]! > pos);
        expect(outcome(() => fromJsValues(joined, 0, 40, c, undefined, (i) => i))).toBe(`INVALID_VALUE ${row}`);
      }
    }
  });

  test('the message names the column, the row, the byte and the bytes around it', () => {
    const [, c] = TEXT[0]!;
    const bad = Uint8Array.of(0x61, 0x62, 0x63, 0xc3, 0x28, 0x64);
    expect(() => fromJsValues([enc.encode('ok'), bad], 0, 2, c, undefined, (i) => i + 7)).toThrow(
      "parquet-column: column 'a': row 8: expected a string or a Uint8Array of UTF-8 (well-formed UTF-8), got Uint8Array(6) (invalid UTF-8 at byte 3: … 62 63 [c3] 28 64)",
    );
    expect(() => fromJsValues(pack([enc.encode('ok'), bad]), 0, 2, c, undefined, (i) => i + 7)).toThrow(
      "parquet-column: column 'a': row 8: expected a value of well-formed UTF-8, got Uint8Array(6) (invalid UTF-8 at byte 3: … 62 63 [c3] 28 64)",
    );
  });

  test('STRING on FIXED_LEN_BYTE_ARRAY: the bytes are checked too', () => {
    const c = leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 2, logicalType: { STRING: {} } });
    expect(outcome(() => fromJsValues([Uint8Array.of(0xc3, 0xa9)], 0, 1, c))).toBe('ok');
    expect(outcome(() => fromJsValues([Uint8Array.of(0xc3, 0x28)], 0, 1, c, undefined, (i) => i))).toBe('INVALID_VALUE 0');
  });

  test.each(BINARY)('%s BYTE_ARRAY stays unchecked (bytes, not text)', (_n, c) => {
    const parts = [Uint8Array.of(0xff, 0xfe), Uint8Array.of(0xc3), Uint8Array.of(0xed, 0xa0, 0x80)];
    expect(outcome(() => fromJsValues(parts, 0, 3, c))).toBe('ok');
    const v = pack(parts);
    expect(fromJsValues(v, 0, 3, c)).toBe(v);
  });

  test('JavaScript strings are unchanged: a lone surrogate is U+FFFD, or an error under strictUtf8', () => {
    const [, c] = TEXT[0]!;
    const got = fromJsValues(['a\ud800b'], 0, 1, c) as { offsets: Int32Array; data: Uint8Array };
    expect(Array.from(got.data)).toEqual([0x61, 0xef, 0xbf, 0xbd, 0x62]);
    expect(outcome(() => fromJsValues(['a\ud800b'], 0, 1, c, { strictUtf8: true }, (i) => i))).toBe('INVALID_VALUE 0');
  });

  test('{ offsets, data } for a column that is not BYTE_ARRAY, or a bad range, is INVALID_ARGUMENT; DECIMAL bytes pass', () => {
    const v = pack([enc.encode('a')]);
    expect(outcome(() => fromJsValues(v, 0, 1, leaf(Type.INT32)))).toMatch(/^INVALID_ARGUMENT .*are for BYTE_ARRAY columns/);
    // DECIMAL on BYTE_ARRAY: the bytes are the unscaled values, taken as they are
    const d = leaf(Type.BYTE_ARRAY, { logicalType: { DECIMAL: { precision: 5, scale: 0 } } });
    expect(fromJsValues(v, 0, 1, d)).toBe(v);
    expect(outcome(() => fromJsValues(v, 0, 2, TEXT[0]![1]))).toMatch(/^INVALID_ARGUMENT .*value range 0..2 is not inside 0..1/);
  });
});
