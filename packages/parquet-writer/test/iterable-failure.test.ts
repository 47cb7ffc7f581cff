// A write whose rows come from an iterable that throws, or that is given something that is not rows, fails the
// writer as any failed call does: the sink is aborted, later calls reject, and no footer is written — so the rows the
// iterable gave before it failed never end up in a file that looks whole. A sink without a write method is refused
// at createWriter, not at the first byte.
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { createWriter, field, type ByteSink } from '../src/index.js';

const schema = { id: field.int32({ required: true }) };

/** A sink recording what reaches it. */
function recordingSink(): ByteSink & { bytes: number; closed: boolean; aborted: unknown } {
  const s = {
    bytes: 0,
    closed: false,
    aborted: undefined as unknown,
    write(b: Uint8Array) {
      s.bytes += b.length;
    },
    close() {
      s.closed = true;
    },
    abort(reason?: unknown) {
      s.aborted = reason ?? 'aborted';
    },
  };
  return s;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

function* rowsThenThrow(n: number): Generator<{ id: number }> {
  for (let i = 0; i < n; i++) yield { id: i };
  throw new Error('source failed');
}

async function* asyncRowsThenThrow(n: number): AsyncGenerator<{ id: number }> {
  for (let i = 0; i < n; i++) yield { id: i };
  throw new Error('source failed');
}

describe('a failing source fails the writer', () => {
  // 70,000 rows: the first 65,536-row batch is written into the row group before the source throws
  for (const [name, source] of [
    ['async generator, 70,000 rows', () => asyncRowsThenThrow(70_000)],
    ['sync generator, 70,000 rows', () => rowsThenThrow(70_000)],
    ['async generator, 10 rows', () => asyncRowsThenThrow(10)],
  ] as const) {
    test(`${name}: write rejects with the source's error, the sink is aborted, close rejects WRITER_FAILED`, async () => {
      const sink = recordingSink();
      const w = createWriter(sink, { schema, rowGroupRows: 50_000 });
      const e = await rejection(w.write(source()));
      expect((e as Error).message).toBe('source failed');
      expect(sink.aborted).toBe(e);
      const c = await rejection(w.close());
      expect(isParquetError(c) && c.code).toBe('WRITER_FAILED');
      expect(sink.closed).toBe(false);
    });
  }

  test('rows written by earlier calls do not make a later failing call succeed', async () => {
    const sink = recordingSink();
    const w = createWriter(sink, { schema });
    await w.write([{ id: 1 }]);
    await rejection(w.write(rowsThenThrow(3)));
    const later = await rejection(w.write([{ id: 2 }]));
    expect(isParquetError(later) && later.code).toBe('WRITER_FAILED');
    expect(sink.aborted).toBeDefined();
    expect(sink.closed).toBe(false);
  });
});

describe('write and createWriter arguments', () => {
  for (const [what, rows, pattern] of [
    ['one row object', { id: 1 }, /an object that is not iterable \(one row\? pass an array of rows\)/],
    ['a number', 5, /got number/],
    ['null', null, /got null/],
    ['undefined', undefined, /got undefined/],
  ] as const) {
    test(`write(${what}) is INVALID_ARGUMENT and fails the writer`, async () => {
      const sink = recordingSink();
      const w = createWriter(sink, { schema });
      const e = await rejection(w.write(rows as never));
      expect(isParquetError(e) && e.code).toBe('INVALID_ARGUMENT');
      expect((e as Error).message).toMatch(/parquet-writer: write: expected an array, iterable or async iterable of row objects/);
      expect((e as Error).message).toMatch(pattern);
      expect(sink.aborted).toBe(e);
      const c = await rejection(w.close());
      expect(isParquetError(c) && c.code).toBe('WRITER_FAILED');
    });
  }

  for (const [what, sink, pattern] of [
    ['null', null, /the sink must be an object with a write method .* got null/],
    ['an empty object', {}, /the sink's write must be a function, got undefined/],
    ['a string', 'out.parquet', /got string/],
    ['close that is not a function', { write() {}, close: 5 }, /the sink's close must be a function, got number/],
    ['abort that is not a function', { write() {}, abort: 'no' }, /the sink's abort must be a function, got string/],
  ] as const) {
    test(`createWriter with ${what} as the sink is INVALID_ARGUMENT at once`, () => {
      let e: unknown;
      try {
        createWriter(sink as never, { schema });
      } catch (err) {
        e = err;
      }
      expect(isParquetError(e) && e.code).toBe('INVALID_ARGUMENT');
      expect((e as Error).message).toMatch(pattern);
    });
  }
});

describe('a struct value that is not a plain object', () => {
  // a Date or Set has no own properties: it was written as a struct of nulls without a word
  for (const [what, value] of [
    ['a Date', new Date(0)],
    ['a Set', new Set([1])],
    ['a Map', new Map([['x', 1]])],
  ] as const) {
    test(`${what} given for a struct is INVALID_RECORD naming the field and row`, async () => {
      const w = createWriter(recordingSink(), { schema: { s: field.struct({ x: field.int32() }) } });
      const e = await rejection(w.write([{ s: { x: 1 } }, { s: value }]));
      expect(isParquetError(e) && e.code).toBe('INVALID_RECORD');
      expect((e as Error).message).toMatch(new RegExp(`struct value is not an object \\(${value.constructor.name}\\), at field 's' of row 1`));
    });
  }
});
