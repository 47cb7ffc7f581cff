// Property tests of the writer: random schemas × random rows × random options → write → read (our reader) → the
// same rows; the columnar path (readRowGroupColumns → writeColumns) gives the same rows too; chunk statistics bound
// every value and count nulls and NaNs exactly; and rows that do not fit their schema are rejected with a
// ParquetError naming the column and the row, the sink aborted and never closed.
//
// Expectations come from test/arbitraries.ts (values in the reader's documented shape, leaf slots walked from the
// specs, sort orders from LogicalTypes.md), not from the writer.
//
// Runs: PARQUETRY_PROPERTY_RUNS=<n> runs each property n times (default: a count that keeps this file well under a
// minute on two shared cores); PARQUETRY_PROPERTY_SEED=<seed> replays a reported failure.
import { CompressionCodec, builtinCodecs, type CodecMap } from '@parquetry/parquet-codecs';
import { createGzipCodec } from '@parquetry/codec-gzip';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { Encoding, isParquetError } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet, type ByteSink, type Row, type SchemaSpec, type WriterOptions } from '../src/index.js';
import {
  COMPRESSIONS,
  altRows,
  badValueArb,
  decimalString,
  firstDifference,
  halfToNumber,
  isFloating,
  leafSlots,
  leavesOf,
  optionsArb,
  orderOf,
  physicalOf,
  resolvedColumn,
  rowsArb,
  schemaArb,
  siteRequired,
  sitesOf,
  statisticsOn,
  uuidString,
  type Site,
} from './arbitraries.js';

const ENV_RUNS = Number(process.env.PARQUETRY_PROPERTY_RUNS ?? '');
const LONG = Number.isInteger(ENV_RUNS) && ENV_RUNS > 0;
const SEED = process.env.PARQUETRY_PROPERTY_SEED === undefined ? undefined : Number(process.env.PARQUETRY_PROPERTY_SEED);
/** fast-check parameters: `runs` by default, the environment's count for long runs. */
const params = (runs: number): fc.Parameters<unknown> => ({ numRuns: LONG ? ENV_RUNS : runs, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true });
/** Test timeout: none for long runs. */
const timeout = (ms: number) => (LONG ? 24 * 3600_000 : ms);

const gzip: CodecMap = { [CompressionCodec.GZIP]: createGzipCodec() };
const readCodecs: CodecMap = { ...builtinCodecs(), ...gzip };
const open = (bytes: Uint8Array) => openParquet(bytes, { codecs: readCodecs });

/** A schema with rows and options for it. */
const caseArb = schemaArb.chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    rows: rowsArb(schema),
    options: optionsArb(schema),
    // how the rows reach the writer: one call, or batches with row groups flushed between some of them
    batches: fc.array(fc.nat({ max: 30 }), { maxLength: 4 }),
    flush: fc.boolean(),
  }),
);

const describeCase = (c: { schema: SchemaSpec; options: WriterOptions }) => JSON.stringify({ schema: c.schema, options: c.options }, (_, v: unknown) => (v === Infinity ? 'Infinity' : v));

/** Writes rows through the streaming writer: in batches of the given sizes (the rest at the end), flushing row groups between them when asked. */
async function writeRows(rows: readonly Row[], options: WriterOptions, batches: readonly number[], flush: boolean): Promise<Uint8Array> {
  if (batches.length === 0) return writeParquet(rows, options);
  const sink = memorySink();
  const w = createWriter(sink, options);
  let at = 0;
  for (const n of batches) {
    await w.write(rows.slice(at, at + n));
    at = Math.min(rows.length, at + n);
    if (flush) await w.flushRowGroup();
  }
  await w.write(rows.slice(at));
  await w.close();
  return sink.bytes();
}

function expectSame(expected: unknown, actual: unknown, context: () => string): void {
  const d = firstDifference(expected, actual);
  if (d !== undefined) expect.fail(`${d}\n${context()}`);
}

/** Row ranges of the file's row groups. */
function rowGroupRanges(f: ParquetFile): [number, number][] {
  let at = 0;
  return f.metadata.row_groups.map((g) => {
    const r: [number, number] = [at, at + Number(g.num_rows)];
    at = r[1];
    return r;
  });
}

describe('generators and comparison (what the properties rely on)', () => {
  test('firstDifference tells -0 from +0, bigint from number, Map entry order, bytes and key order; NaN equals NaN', () => {
    expect(firstDifference(NaN, NaN)).toBeUndefined();
    expect(firstDifference(0, -0)).toMatch(/-0/);
    expect(firstDifference(1n, 1)).toBeDefined();
    expect(firstDifference(new Map([[1, 'a'], [2, 'b']]), new Map([[2, 'b'], [1, 'a']]))).toBeDefined();
    expect(firstDifference(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBeDefined();
    expect(firstDifference({ a: 1, b: 2 }, { b: 2, a: 1 })).toBeDefined();
    expect(firstDifference([{ a: new Map([[1n, [null]]]) }], [{ a: new Map([[1n, [null]]]) }])).toBeUndefined();
  });

  test('value helpers follow the spec: half floats, decimal strings, UUID text', () => {
    expect([0x0000, 0x8000, 0x3c00, 0xc000, 0x7bff, 0x0001, 0x0400, 0x7c00, 0xfc00].map(halfToNumber)).toEqual([0, -0, 1, -2, 65504, 2 ** -24, 2 ** -14, Infinity, -Infinity]);
    expect(halfToNumber(0x7e00)).toBeNaN();
    expect([decimalString(-12340n, 3), decimalString(5n, 2), decimalString(-5n, 2), decimalString(0n, 2), decimalString(7n, 0)]).toEqual(['-12.340', '0.05', '-0.05', '0.00', '7']);
    expect(uuidString(Uint8Array.from({ length: 16 }, (_, i) => i * 17))).toBe('00112233-4455-6677-8899-aabbccddeeff');
  });

  test('the generators reach every leaf type, every group kind, nesting 4, nulls, empty lists and maps, every codec', () => {
    const kinds = new Set<string>();
    let deepest = 0;
    const walk = (s: SchemaSpec[string], depth: number): void => {
      kinds.add(s.type === 'decimal' ? `decimal:${s.physical ?? 'default'}` : s.type === 'int' ? `int${s.bitWidth}${s.signed ? '' : 'u'}` : s.type);
      deepest = Math.max(deepest, depth);
      if (s.type === 'struct') for (const f of Object.values(s.fields)) walk(f, depth + 1);
      if (s.type === 'list') walk(s.element, depth + 1);
      if (s.type === 'map') {
        walk(s.key, depth + 1);
        if (s.value) walk(s.value, depth + 1);
      }
    };
    const codecs = new Set<string>();
    let nulls = 0;
    let empties = 0;
    for (const c of fc.sample(caseArb, { numRuns: 400, seed: 1 })) {
      for (const f of Object.values(c.schema)) walk(f, 0);
      if (c.options.compression) codecs.add(c.options.compression);
      const text = JSON.stringify(c.rows, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Map ? { map: [...v] } : v));
      nulls += (text.match(/null/g) ?? []).length;
      empties += (text.match(/\[\]/g) ?? []).length;
    }
    for (const k of ['boolean', 'int32', 'int64', 'float', 'double', 'string', 'binary', 'json', 'bson', 'enum', 'uuid', 'float16', 'date', 'interval', 'int96',
      'int8', 'int8u', 'int16', 'int16u', 'int32u', 'int64u', 'decimal:int32', 'decimal:int64', 'decimal:fixed', 'decimal:binary', 'decimal:default',
      'timestamp', 'time', 'fixed', 'struct', 'list', 'map']) {
      expect(kinds, k).toContain(k);
    }
    expect(deepest).toBe(4);
    expect([...codecs].sort()).toEqual([...COMPRESSIONS].sort());
    expect(nulls).toBeGreaterThan(100);
    expect(empties).toBeGreaterThan(20);
  });
});

describe('write → read', () => {
  test('rows: every schema, value and option combination reads back exactly (bigints, -0, NaN, bytes, Map order)', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const options: WriterOptions = { ...c.options, schema: c.schema, codecs: gzip };
        const bytes = await writeRows(c.rows, options, c.batches, c.flush);
        const f = await open(bytes);
        expect(f.numRows).toBe(c.rows.length);
        expect(f.schema.columns.map((col) => col.pathString)).toEqual(leavesOf(c.schema).map((l) => l.path));
        expectSame(c.rows, await f.readRows(), () => describeCase(c));
        // the options took effect: row group sizes, each chunk's codec, and its value encoding where no dictionary may be used
        const leaves = leavesOf(c.schema);
        for (const g of f.metadata.row_groups) {
          if (c.options.rowGroupRows !== undefined) expect(Number(g.num_rows)).toBeLessThanOrEqual(c.options.rowGroupRows);
          g.columns.forEach((chunk, i) => {
            const md = chunk.meta_data!;
            const r = resolvedColumn(c.options, leaves[i]!.path);
            const where = `column '${leaves[i]!.path}'\n${describeCase(c)}`;
            expect(md.codec, where).toBe(CompressionCodec[r.compression]);
            if (!r.dictionary || physicalOf(leaves[i]!.spec) === 'BOOLEAN') {
              expect(md.dictionary_page_offset, where).toBeUndefined();
              expect(md.encodings, where).not.toContain(Encoding.RLE_DICTIONARY);
              const e = r.encoding === 'PLAIN' && physicalOf(leaves[i]!.spec) === 'BOOLEAN' && c.options.pageVersion === 2 ? 'RLE' : r.encoding;
              if (md.num_values > 0) expect(md.encodings, where).toContain(Encoding[e]);
            }
          });
        }
      }),
      params(300),
    );
  }, timeout(60_000));

  test('other accepted input forms (numbers for INT64, Dates, decimal numbers/bigints/exponents, UTF-8 bytes, upper-case UUIDs, typed-array lists, object maps, missing properties) read back in the canonical form', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, fc.integer(), async (c, seed) => {
        const { input, expected } = altRows(c.schema, c.rows, seed);
        const bytes = await writeRows(input, { ...c.options, schema: c.schema, codecs: gzip }, c.batches, c.flush);
        expectSame(expected, await (await open(bytes)).readRows(), () => describeCase(c));
      }),
      params(300),
    );
  }, timeout(60_000));

  test('columns: readRowGroupColumns → writeColumns (the struct vector with or without the schema, or vectors by name in another order) → the same rows', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, optionsArb({ x: field.int32() }), fc.constantFrom('struct', 'struct+schema', 'by name'), fc.nat(), fc.constantFrom('vector' as const, 'values' as const), async (c, second, mode, rotate, binary) => {
        const withSchema = mode !== 'struct';
        const bytes = await writeParquet(c.rows, { ...c.options, schema: c.schema, codecs: gzip });
        const f = await open(bytes);
        const sink = memorySink();
        // file-wide options only: the second options were made for another schema
        const { columns: _drop, ...fileWide } = second;
        void _drop;
        const w = createWriter(sink, { ...fileWide, codecs: gzip, ...(withSchema ? { schema: f.schema } : {}) });
        for (let g = 0; g < f.metadata.row_groups.length; g++) {
          const sv = await f.readRowGroupColumns(g, { binary });
          if (mode !== 'by name') await w.writeColumns(sv);
          else {
            // by field name, keys rotated out of schema order
            const names = Object.keys(c.schema);
            const k = rotate % names.length;
            const order = [...names.slice(k), ...names.slice(0, k)].reverse();
            await w.writeColumns(Object.fromEntries(order.map((n) => [n, sv.children[names.indexOf(n)]!])));
          }
        }
        if (f.metadata.row_groups.length === 0) {
          // nothing to take the schema from: an empty file needs it given
          if (!withSchema) return;
        }
        await w.close();
        const g = await open(sink.bytes());
        expectSame(c.rows, await g.readRows(), () => describeCase(c));
      }),
      params(200),
    );
  }, timeout(60_000));

  test('statistics: each chunk min/max bound its values (exact bounds are its extremes), null and NaN counts are exact', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const options: WriterOptions = { ...c.options, schema: c.schema, codecs: gzip };
        const f = await open(await writeRows(c.rows, options, c.batches, c.flush));
        const leaves = leavesOf(c.schema);
        const ctx = () => describeCase(c);
        for (const [g, [from, to]] of rowGroupRanges(f).entries()) {
          const slots = leafSlots(c.schema, c.rows.slice(from, to));
          const stats = await Promise.all(leaves.map((_, i) => f.statistics(g, i)));
          leaves.forEach((leaf, i) => {
            const where = `row group ${g}, column '${leaf.path}'\n${ctx()}`;
            const s = stats[i];
            if (!statisticsOn(c.options, leaf.path)) {
              expect(s, where).toBeUndefined();
              return;
            }
            expect(s, where).toBeDefined();
            const all = slots[i]!;
            const values = all.filter((v) => v !== null);
            expect(s!.numValues, where).toBe(all.length);
            expect(s!.nullCount, where).toBe(all.length - values.length);
            const ordered = isFloating(leaf.spec) ? values.filter((v) => !Number.isNaN(v)) : values;
            if (isFloating(leaf.spec)) expect(s!.nanCount, where).toBe(values.length - ordered.length);
            const cmp = orderOf(leaf.spec);
            if (cmp === undefined || ordered.length === 0) {
              // undefined sort order (INTERVAL, INT96), no values, or only NaNs: no bounds
              expect([s!.min, s!.max], where).toEqual([undefined, undefined]);
              return;
            }
            expect(s!.min, where).toBeDefined();
            expect(s!.max, where).toBeDefined();
            let lo = ordered[0];
            let hi = ordered[0];
            for (const v of ordered) {
              if (cmp(v, lo) < 0) lo = v;
              if (cmp(v, hi) > 0) hi = v;
            }
            if (cmp(s!.min, lo) > 0 || cmp(s!.max, hi) < 0) {
              expect.fail(`bounds [${String(s!.min)}, ${String(s!.max)}] do not hold [${String(lo)}, ${String(hi)}] at ${where}`);
            }
            if (s!.minExact && cmp(s!.min, lo) !== 0) expect.fail(`exact min ${String(s!.min)} is not the least value ${String(lo)} at ${where}`);
            if (s!.maxExact && cmp(s!.max, hi) !== 0) expect.fail(`exact max ${String(s!.max)} is not the greatest value ${String(hi)} at ${where}`);
          });
        }
      }),
      params(300),
    );
  }, timeout(60_000));
});

// Found by the input-forms property: the shredder read record fields with `obj[name]`, so a missing property whose
// name is an Object.prototype member ('constructor', 'toString', '__proto__', …) read the inherited value instead of
// null. Fixed in parquet-levels (such names are read as own properties only).
describe('a missing property named like an Object.prototype member is null', () => {
  const roundTrip = async (schema: SchemaSpec, row: Row) => (await open(await writeParquet([row], { schema }))).readRows();
  test("'constructor' (a leaf) and 'toString' (a list), at the top level and in a struct", async () => {
    expectSame([{ constructor: null, toString: null }], await roundTrip(Object.fromEntries([['constructor', field.int32()], ['toString', field.list(field.int32())]]), {}), () => 'top level');
    expectSame([{ s: { constructor: null } }], await roundTrip({ s: field.struct({ constructor: field.int32() }) }, { s: {} }), () => 'in a struct');
  });
  test("'__proto__' (a map, a struct): null, not an empty map or a struct of nulls", async () => {
    expectSame([Object.fromEntries([['__proto__', null]])], await roundTrip(Object.fromEntries([['__proto__', field.map(field.string(), field.int32())]]), {}), () => 'map');
    expectSame([Object.fromEntries([['__proto__', null]])], await roundTrip(Object.fromEntries([['__proto__', field.struct({ a: field.int32() })]]), {}), () => 'struct');
  });
});

describe('columnar input by field name (bugs found by the columns property)', () => {
  const schema = { a: field.int32(), b: field.string() };
  const vectorsOf = async () => {
    const f = await open(await writeParquet([{ a: 1, b: 'x' }, { a: 3, b: null }], { schema }));
    const [a, b] = (await f.readRowGroupColumns(0)).children;
    return { a: a!, b: b! };
  };

  test('vectors are matched to fields by name, not by key order', async () => {
    const { a, b } = await vectorsOf();
    const g = await open(await writeParquet({ b, a }, { schema }));
    expectSame([{ a: 1, b: 'x' }, { a: 3, b: null }], await g.readRows(), () => 'b before a');
  });

  test('a missing or unknown field name, a non-vector, or input that is not an object is a ParquetError, not silence or a TypeError', async () => {
    const { a, b } = await vectorsOf();
    const codeOf = async (input: unknown): Promise<string> => {
      try {
        await writeParquet(input as Record<string, never>, { schema });
      } catch (e) {
        if (isParquetError(e)) return `${e.code}: ${e.message}`;
        return `not a ParquetError: ${String(e)}`;
      }
      return 'no error';
    };
    expect(await codeOf({ a, c: b })).toMatch(/^INVALID_VECTOR: .*'c'/);
    expect(await codeOf({ a })).toMatch(/^INVALID_VECTOR: .*'b'/);
    expect(await codeOf({ a: 1, b: 2 })).toMatch(/^INVALID_VECTOR: .*'a'/);
    expect(await codeOf({ a, b: { ...b, length: 1 } })).toMatch(/^INVALID_VECTOR: .*'b'/);
    for (const bad of [null, undefined, 5, 'x', true]) expect(await codeOf(bad)).toMatch(/^INVALID_ARGUMENT: /);
  });
});

describe('bad input', () => {
  /** A sink that records what the writer did to it. */
  function recordingSink(): ByteSink & { calls: string[] } {
    const inner = memorySink();
    const calls: string[] = [];
    return {
      calls,
      write(b) {
        calls.push('write');
        return inner.write(b);
      },
      close() {
        calls.push('close');
      },
      abort(reason) {
        calls.push('abort');
        return inner.abort?.(reason);
      },
    };
  }

  const badCaseArb = schemaArb.chain((schema) =>
    fc.tuple(rowsArb(schema, 1), optionsArb(schema)).chain(([rows, options]) => {
      const sites = sitesOf(schema, rows);
      return fc.integer({ min: 0, max: sites.length - 1 }).chain((k) => {
        const site = sites[k]!;
        return fc.record({
          schema: fc.constant(schema),
          rows: fc.constant(rows),
          options: fc.constant(options),
          site: fc.constant(site),
          bad: badValueArb(site.spec, siteRequired(site), options.strictUtf8 === true),
          batch: fc.integer({ min: 1, max: 40 }),
        });
      });
    }),
  );


  test('past the first 65,536-row slice and across write calls, messages still count rows from the start of the file', async () => {
    const schema = { id: field.int32({ required: true }), s: field.struct({ t: field.string({ required: true }) }) };
    const rows = Array.from({ length: 70_000 }, (_, i) => ({ id: i, s: { t: 'x' } }));
    const cases: [Row[], RegExp][] = [
      [rows.map((r, i) => (i === 65_540 ? { ...r, id: 2 ** 31 } : r)), /'id'.*\brow 65540\b/],
      [rows.map((r, i) => (i === 66_001 ? { ...r, s: { t: null } } : r)), /'s\.t'.*\brow 66001\b/],
    ];
    for (const [input, message] of cases) {
      for (const batch of [70_000, 30_000]) {
        const w = createWriter(memorySink(), { schema, rowGroupRows: 50_000 });
        const error = await (async () => {
          for (let at = 0; at < input.length; at += batch) await w.write(input.slice(at, at + batch));
        })().then(() => undefined, (e: unknown) => e);
        expect(isParquetError(error) ? error.message : String(error)).toMatch(message);
      }
    }
  });

  test('a value that does not fit is a ParquetError naming the column and the row; the sink is aborted, never closed', async () => {
    await fc.assert(
      fc.asyncProperty(badCaseArb, async (c) => {
        const site: Site = c.site;
        const rows = site.replace(c.rows, c.bad);
        const sink = recordingSink();
        const w = createWriter(sink, { ...c.options, schema: c.schema, codecs: gzip });
        const ctx = () => `bad value ${fc.stringify(c.bad)} at row ${site.row}, '${site.path}'\n${describeCase(c)}`;
        let error: unknown;
        try {
          // in batches: row numbers in messages count from the start of the file
          for (let at = 0; at < rows.length; at += c.batch) await w.write(rows.slice(at, at + c.batch));
          await w.close();
        } catch (e) {
          error = e;
        }
        if (error === undefined) expect.fail(`no error\n${ctx()}`);
        if (!isParquetError(error)) expect.fail(`not a ParquetError: ${String(error)}\n${ctx()}`);
        expect(['INVALID_VALUE', 'INVALID_RECORD'], ctx()).toContain(error.code);
        expect(error.message, ctx()).toContain(`'${site.path}'`);
        expect(error.message, ctx()).toMatch(new RegExp(`\\brow ${site.row}\\b`));
        expect(sink.calls, ctx()).toContain('abort');
        expect(sink.calls, ctx()).not.toContain('close');
        // the writer stays failed
        await expect(w.close()).rejects.toMatchObject({ code: 'WRITER_FAILED' });
        expect(sink.calls.filter((x) => x === 'abort'), ctx()).toHaveLength(1);
      }),
      params(600),
    );
  }, timeout(60_000));
});
