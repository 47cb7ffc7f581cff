/**
 * Filters that never fail silently: every malformed filter, unknown column or value of the wrong type is a typed
 * error (FILTER_INVALID naming the column, its type and the value; INVALID_ARGUMENT for a `columns` string) raised
 * before anything but the footer is read, in every read method; and a value given in another exact form (a `Date`,
 * an ISO-8601 string with or without a zone, a number for a bigint, any-case UUIDs…) selects the same rows as the
 * column's native value — a property test over random values, operators and forms. The alternative forms are built
 * here with `Date.prototype.toISOString` and string arithmetic, not with the reader's own parser or formatter.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet, bufferSource, type ByteSource, type Filter, type ParquetFile, type ReadOptions } from '@parquetry/parquet-reader';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { typedError } from './helpers.js';

const codecs = builtinCodecs();
const N = 240;
const DAY_MS = 86400000;

/** Deterministic pseudo-random integers (the table is fixed; the property draws filters over it). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Row {
  id: bigint;
  i32: number | null;
  d: number | null;
  s: string | null;
  ts_ms: bigint | null;
  ts_us_local: bigint | null;
  ts_ns: bigint | null;
  day: number | null;
  t_ms: number | null;
  t_us: bigint | null;
  dec: string | null;
  uid: string | null;
  i96: bigint | null;
  flag: boolean | null;
  xs: bigint[] | null;
}

const schema = {
  id: field.int64({ required: true }),
  i32: field.int32(),
  d: field.double(),
  s: field.string(),
  ts_ms: field.timestamp('millis'),
  ts_us_local: field.timestamp('micros', { utc: false }),
  ts_ns: field.timestamp('nanos'),
  day: field.date(),
  t_ms: field.time('millis'),
  t_us: field.time('micros'),
  dec: field.decimal(9, 2),
  uid: field.uuid(),
  i96: field.int96(),
  flag: field.boolean(),
  xs: field.list(field.int64({ required: true })),
};

function makeRows(): Row[] {
  const r = lcg(14);
  const pick = <T>(v: () => T): T | null => (r() < 0.1 ? null : v());
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  // a few distinct values per column, so that = and in hit
  const msBase = Date.UTC(2024, 1, 29, 12, 30, 45, 123);
  return Array.from({ length: N }, (_, i) => ({
    id: BigInt(i * 7 - 500) * (i % 11 === 0 ? 1000000000n : 1n),
    i32: pick(() => int(-50, 50)),
    d: pick(() => int(-40, 40) / 4),
    s: pick(() => `s${int(0, 30)}`),
    ts_ms: pick(() => BigInt(msBase + int(-20, 20) * 3600123)),
    ts_us_local: pick(() => BigInt(msBase) * 1000n + BigInt(int(-30, 30)) * 86400001234n + BigInt(int(0, 999))),
    ts_ns: pick(() => BigInt(msBase) * 1000000n + BigInt(int(-30, 30)) * 3600000000007n),
    day: pick(() => int(-800, 800) * 37),
    t_ms: pick(() => int(0, 86399) * 1000 + int(0, 1) * 999),
    t_us: pick(() => BigInt(int(0, 86399)) * 1000000n + BigInt(int(0, 3) * 250001)),
    dec: pick(() => (int(-99999, 99999) / 100).toFixed(2)),
    uid: pick(() => ['0123abcd-0000-4000-8000-00000000000a', 'fedcba98-7654-4321-8fed-cba987654321', '00000000-0000-0000-0000-000000000000'][int(0, 2)]!),
    i96: pick(() => BigInt(msBase) * 1000000n + BigInt(int(-5, 5)) * 86400000000123n),
    flag: pick(() => r() < 0.5),
    xs: pick(() => [BigInt(int(0, 3))]),
  }));
}

let rows: Row[];
let file: ParquetFile;
let bytes: Uint8Array;

beforeAll(async () => {
  rows = makeRows();
  bytes = await writeParquet(rows as unknown as Record<string, unknown>[], { schema, rowGroupRows: 60, pageRows: 20, compression: 'UNCOMPRESSED' });
  file = await openParquet(bytes, { codecs });
});

const pad = (n: number | bigint, w: number) => String(n).padStart(w, '0');
/** `Date.toISOString` of whole milliseconds, plus finer digits; `zone` replaces its `Z`. */
const isoOf = (ms: number, finer = '', zone = 'Z') => new Date(ms).toISOString().slice(0, -1) + finer + zone;
const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
/** An instant written with a zone offset of `minutes`: the wall time there, then `±HH:MM`. */
function withOffset(ms: number, finer: string, minutes: number): string {
  const wall = new Date(ms + minutes * 60000).toISOString().slice(0, -1);
  const a = Math.abs(minutes);
  return `${wall}${finer}${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60), 2)}:${pad(a % 60, 2)}`;
}
const clock = (sec: number) => `${pad(Math.floor(sec / 3600), 2)}:${pad(Math.floor(sec / 60) % 60, 2)}:${pad(sec % 60, 2)}`;

/** Other exact forms of a native value of a column (the ones a user may write instead). */
function altForms(column: keyof Row, v: unknown, offset: number): unknown[] {
  switch (column) {
    case 'id':
      return Number.isSafeInteger(Number(v)) ? [Number(v)] : [];
    case 'i32':
    case 'd':
      return Number.isInteger(v) ? [BigInt(v as number)] : [];
    case 'ts_ms': {
      const ms = Number(v);
      return [new Date(ms), isoOf(ms), withOffset(ms, '', offset), isoOf(ms).replace('T', ' ')];
    }
    case 'ts_us_local': {
      const c = v as bigint;
      const ms = floorDiv(c, 1000n);
      const finer = pad(c - ms * 1000n, 3);
      const out: unknown[] = [isoOf(Number(ms), finer, ''), isoOf(Number(ms), `${finer}000`, '')];
      if (finer === '000') out.push(new Date(Number(ms)), isoOf(Number(ms), '', ''));
      return out;
    }
    case 'ts_ns': {
      const c = v as bigint;
      const ms = floorDiv(c, 1000000n);
      const finer = pad(c - ms * 1000000n, 6);
      return [isoOf(Number(ms), finer), withOffset(Number(ms), finer, offset)];
    }
    case 'i96': {
      const c = v as bigint;
      const ms = floorDiv(c, 1000000n);
      return [isoOf(Number(ms), pad(c - ms * 1000000n, 6), '')];
    }
    case 'day': {
      const d = new Date((v as number) * DAY_MS);
      return [d, d.toISOString().slice(0, 10), BigInt(v as number)];
    }
    case 't_ms': {
      const n = v as number;
      return [`${clock(Math.floor(n / 1000))}.${pad(n % 1000, 3)}`, BigInt(n)];
    }
    case 't_us': {
      const n = v as bigint;
      const sec = Number(n / 1000000n);
      const frac = pad(n % 1000000n, 6);
      return [`${clock(sec)}.${frac}`, `${clock(sec)}.${frac}000`, Number(n)];
    }
    case 'dec': {
      const s = v as string;
      return [Number(s), ...(s.endsWith('.00') ? [BigInt(s.slice(0, -3))] : [])];
    }
    case 'uid': {
      const s = v as string;
      return [s.toUpperCase(), s.replaceAll('-', '')];
    }
    default:
      return [];
  }
}

/** The test's own evaluation of a comparison on native values (SQL: null never matches). */
function cmp(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string' && /^-?\d+\.\d+$/.test(a)) return Number(a) - Number(b);
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}
function holds(op: string, v: unknown, want: unknown): boolean {
  if (v === null) return false;
  const c = cmp(v, want);
  return op === '=' ? c === 0 : op === '!=' ? c !== 0 : op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

const ids = (rs: Record<string, unknown>[]) => rs.map((r) => r.id);
const COLUMNS: (keyof Row)[] = ['id', 'i32', 'd', 'ts_ms', 'ts_us_local', 'ts_ns', 'i96', 'day', 't_ms', 't_us', 'dec', 'uid'];

describe('values in other exact forms select the same rows as native values', () => {
  test('property: random column, operator, stored value and form; rows and batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COLUMNS),
        fc.constantFrom('=', '!=', '<', '<=', '>', '>=', 'in'),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        async (column, op, at, which, offset) => {
          const present = rows.map((r) => r[column]).filter((v) => v !== null);
          const native = present[at % present.length]!;
          const forms = altForms(column, native, offset);
          if (forms.length === 0) return;
          const alt = forms[which % forms.length];
          const f = (v: unknown): Filter => (op === 'in' ? { column, op, values: [v] } : { column, op: op as '=', value: v });
          const want = rows.filter((r) => holds(op === 'in' ? '=' : op, r[column], native)).map((r) => r.id);
          const got = await file.readRows({ filter: f(alt), columns: ['id'] });
          expect(ids(got), `${column} ${op} ${String(alt)}`).toEqual(want);
          expect(ids(await file.readRows({ filter: f(native), columns: ['id'] }))).toEqual(want);
          const batched: unknown[] = [];
          for await (const b of file.iterateBatches({ filter: f(alt), columns: ['id'], batchSize: 17 })) batched.push(...ids(b.rows));
          expect(batched).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('timestamps and dates read as Dates take ISO strings, Dates and whole-millisecond counts', async () => {
    const ms = Number(rows.find((r) => r.ts_ms !== null)!.ts_ms);
    const options: ReadOptions = { timestamps: 'date', dates: 'date', columns: ['id'] };
    const want = ids(await file.readRows({ ...options, filter: { column: 'ts_ms', op: '>=', value: new Date(ms) } }));
    expect(want).toEqual(rows.filter((r) => r.ts_ms !== null && r.ts_ms >= BigInt(ms)).map((r) => r.id));
    expect(ids(await file.readRows({ ...options, filter: { column: 'ts_ms', op: '>=', value: isoOf(ms) } }))).toEqual(want);
    expect(ids(await file.readRows({ ...options, filter: { column: 'ts_ms', op: '>=', value: BigInt(ms) } }))).toEqual(want);
    const day = rows.find((r) => r.day !== null)!.day!;
    const wantDay = rows.filter((r) => r.day === day).map((r) => r.id);
    expect(ids(await file.readRows({ ...options, filter: { column: 'day', op: '=', value: new Date(day * DAY_MS).toISOString().slice(0, 10) } }))).toEqual(wantDay);
    expect(ids(await file.readRows({ ...options, filter: { column: 'day', op: '=', value: day } }))).toEqual(wantDay);
    // a ns column read as Dates (whole milliseconds) refuses a finer value rather than rounding it
    const e = await typedError(() => file.readRows({ ...options, filter: { column: 'ts_ns', op: '=', value: '2024-02-29T12:30:45.123000001Z' } }));
    expect(e.code).toBe('FILTER_INVALID');
  });

  test("values: 'json' rows filter on native values (a filter on the JSON form's ISO strings works too)", async () => {
    const c = rows.find((r) => r.ts_us_local !== null)!.ts_us_local!;
    const native = await file.readRows({ filter: { column: 'ts_us_local', op: '<', value: c }, columns: ['id', 'ts_us_local'] });
    const asJson = await file.readRows({ values: 'json', filter: { column: 'ts_us_local', op: '<', value: c }, columns: ['id', 'ts_us_local'] });
    expect(asJson.map((r) => r.id)).toEqual(native.map((r) => Number(r.id)));
    const iso = asJson[0]!.ts_us_local as string;
    const again = await file.readRows({ values: 'json', filter: { column: 'ts_us_local', op: '=', value: iso }, columns: ['id'] });
    expect(again.length).toBeGreaterThan(0);
    expect(again.map((r) => r.id)).toEqual(rows.filter((r) => r.ts_us_local === (native[0]!.ts_us_local as bigint)).map((r) => Number(r.id)));
  });
});

/** A source that records the ranges read after the footer. */
function recording(b: Uint8Array): { source: ByteSource; reads: number[][] } {
  const inner = bufferSource(b);
  const reads: number[][] = [];
  return {
    reads,
    source: { ...inner, read: (start: number, end: number) => (reads.push([start, end]), inner.read(start, end)) } as ByteSource,
  };
}

/** Every read method, each checked to fail the same way. */
const methods: [string, (f: ParquetFile, o: ReadOptions) => Promise<unknown>][] = [
  ['readRows', (f, o) => f.readRows(o)],
  ['readRowGroupColumns', (f, o) => f.readRowGroupColumns(0, o)],
  ['iterateBatches rows', async (f, o) => {
    for await (const b of f.iterateBatches(o)) void b;
  }],
  ['iterateBatches columns', async (f, o) => {
    for await (const b of f.iterateBatches({ ...o, form: 'columns' })) void b;
  }],
];

describe('malformed filters are typed errors, before any read', () => {
  const cases: [string, unknown, RegExp][] = [
    ["op '=='", { column: 'id', op: '==', value: 5n }, /filter on column 'id' \(INT64\): unknown op "==" \(did you mean '='\?\)/],
    ['a missing op', { column: 'id', value: 5n }, /filter on column 'id' \(INT64\): missing op/],
    ["'5' on INT64", { column: 'id', op: '=', value: '5' }, /column 'id' \(INT64\): value "5" cannot be compared; expected a bigint, or a number that is a safe integer/],
    ['a fraction on INT64', { column: 'id', op: '<', value: 2.5 }, /column 'id' \(INT64\): value 2\.5 cannot be compared: 2\.5 is not an integer/],
    ['an unsafe number on INT64', { column: 'id', op: '<', value: 2 ** 60 }, /not a safe integer: give it as a bigint/],
    ['a string on DOUBLE', { column: 'd', op: '>', value: 'x' }, /column 'd' \(DOUBLE\): value "x" cannot be compared; expected a number/],
    ['a number on a string column', { column: 's', op: '=', value: 5 }, /column 's' \(BYTE_ARRAY STRING\): value 5 cannot be compared/],
    ['a number on BOOLEAN', { column: 'flag', op: '=', value: 1 }, /column 'flag' \(BOOLEAN\): value 1 cannot be compared; expected a boolean/],
    ['an unknown column', { column: 'nope', op: '=', value: 1 }, /filter: no leaf column 'nope' in the schema \(leaf columns: id, i32, d, s, /],
    ['a group column', { column: 'xs', op: 'is null' }, /'xs' is a group, not a leaf column; filter on one of its leaves: xs\.list\.element/],
    ['a zone on a local timestamp', { column: 'ts_us_local', op: '<', value: '2024-01-01T00:00:00Z' }, /\(INT64 TIMESTAMP\(microseconds, local\)\): value "2024-01-01T00:00:00Z" cannot be compared: the column holds local date-times/],
    ['a finer fraction than the unit', { column: 'ts_ms', op: '=', value: '2024-01-01T00:00:00.0001Z' }, /TIMESTAMP\(milliseconds, UTC\)\): value .* is more precise than the column's unit \(milliseconds\)/],
    ['not a date', { column: 'ts_ms', op: '=', value: '2024-02-30' }, /"2024-02-30" is not a calendar date/],
    ['a Date with a time of day on DATE', { column: 'day', op: '=', value: new Date(Date.UTC(2024, 0, 1, 5)) }, /\(INT32 DATE\): value Date 2024-01-01T05:00:00\.000Z cannot be compared: .* is not at UTC midnight/],
    ['an invalid Date', { column: 'ts_ms', op: '=', value: new Date(NaN) }, /value an invalid Date cannot be compared: the Date is invalid/],
    ['not a UUID', { column: 'uid', op: '=', value: 'abc' }, /\(FIXED_LEN_BYTE_ARRAY\(16\) UUID\): value "abc" cannot be compared: "abc" is not a UUID/],
    ['not a decimal', { column: 'dec', op: '=', value: '1,5' }, /\(INT32 DECIMAL\(9, 2\)\): value "1,5" cannot be compared: "1,5" is not a decimal number/],
    ['null as a value', { column: 'i32', op: '=', value: null }, /value is null, which no comparison matches; use op 'is null'/],
    ['a missing value', { column: 'i32', op: '<' }, /column 'i32' \(INT32\): missing value/],
    ["'in' with value", { column: 'i32', op: 'in', value: 1 }, /op 'in' needs values: \[\.\.\.\] \(not value\)/],
    ["'in' with a bad element", { column: 'i32', op: 'in', values: [1, '2'] }, /values\[1\] "2" cannot be compared/],
    ['and not an array', { and: { column: 'id', op: 'is null' } }, /filter: and must be an array of filters, got an object/],
    ['nested bad filter', { or: [{ column: 'id', op: 'is null' }, { not: { column: 'i32', op: 'IN', values: [] } }] }, /filter\.or\[1\]\.not on column 'i32' \(INT32\): unknown op "IN" \(did you mean 'in'\?\)/],
    ['not an object', 'id = 5', /filter: expected a filter object .* got "id = 5"/],
    ['both column and and', { column: 'id', op: 'is null', and: [] }, /exactly one of column, and, or, not/],
  ];

  test.each(cases)('%s: FILTER_INVALID in every read method, nothing but the footer read', async (_name, filter, message) => {
    for (const [name, run] of methods) {
      const { source, reads } = recording(bytes);
      const f = await openParquet(source, { codecs });
      reads.length = 0;
      const e = await typedError(() => run(f, { filter: filter as Filter }));
      expect(e.code, name).toBe('FILTER_INVALID');
      expect(e.message, name).toMatch(/^parquet-reader: filter/);
      expect(e.message, name).toMatch(message);
      expect(reads, name).toEqual([]);
    }
  });

  test("columns: 'id' (a string) is INVALID_ARGUMENT with a hint, not a TypeError", async () => {
    for (const [name, run] of methods) {
      const e = await typedError(() => run(file, { columns: 'id' as unknown as string[] }));
      expect(e.code, name).toBe('INVALID_ARGUMENT');
      expect(e.message, name).toBe(`parquet-reader: the option columns must be an array of column paths, got "id" (did you mean columns: ["id"]?)`);
    }
    expect((await typedError(() => file.readRows({ columns: [5 as unknown as string] }))).message).toBe('parquet-reader: columns[0] must be a dotted path or an array of names, got 5');
  });

  test('a filter on a list element stays FILTER_UNSUPPORTED, a cycle is refused', async () => {
    expect((await typedError(() => file.readRows({ filter: { column: 'xs.list.element', op: '=', value: 1n } }))).code).toBe('FILTER_UNSUPPORTED');
    const loop: { not: unknown } = { not: null };
    loop.not = loop;
    const e = await typedError(() => file.readRows({ filter: loop as Filter }));
    expect(e.code).toBe('FILTER_INVALID');
    expect(e.message).toMatch(/nested more than 1000 deep \(or refers to itself\)/);
  });
});
