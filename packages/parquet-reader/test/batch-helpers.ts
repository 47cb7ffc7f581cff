// Helpers of the batch-iteration tests (here and in apps/conformance/test/batches.test.ts): all batches of an
// iteration with their bookkeeping checked, columnar batches turned back into rows by an independent walk of the
// Arrow-shaped layout, and a batch iteration's scan statistics checked against those of readRows.
import { expect } from 'vitest';
import type { ColumnarVector, ParquetFile, ReadOptions, ScanStats } from '@parquetry/parquet-reader';
import { firstDifference } from '../../parquet-writer/test/arbitraries.js';

/** Slot `i` of a vector as a row value (an independent walk of the Arrow-shaped layout). */
export function slot(v: ColumnarVector, i: number): unknown {
  if (v.validity && v.validity[i] === 0) return null;
  switch (v.kind) {
    case 'leaf':
      return v.values[i];
    case 'binary':
      return v.data.slice(v.offsets[i]!, v.offsets[i + 1]!);
    case 'struct': {
      const o: Record<string, unknown> = {};
      for (const c of v.children) Object.defineProperty(o, c.field.name, { value: slot(c, i), enumerable: true, writable: true, configurable: true });
      return o;
    }
    case 'list': {
      const out: unknown[] = [];
      for (let j = v.offsets[i]!; j < v.offsets[i + 1]!; j++) out.push(slot(v.element, j));
      return out;
    }
    case 'map': {
      const out: unknown[] = [];
      for (let j = v.offsets[i]!; j < v.offsets[i + 1]!; j++) out.push([slot(v.keys, j), v.values ? slot(v.values, j) : null]);
      return out;
    }
  }
}
export const rowsOf = (v: ColumnarVector): unknown[] => Array.from({ length: v.length }, (_, i) => slot(v, i));

export function same(expected: unknown, actual: unknown, what: string): void {
  const d = firstDifference(expected, actual);
  if (d !== undefined) expect.fail(`${what}: ${d}`);
}

/** All batches of a rows-form iteration, checking their bookkeeping on the way. */
export async function batchRows(file: ParquetFile, options: ReadOptions & { batchSize?: number; batchBytes?: number }): Promise<{ rows: Record<string, unknown>[]; batches: number }> {
  const rows: Record<string, unknown>[] = [];
  let batches = 0;
  let prevEnd = -1;
  let prevGroup = -1;
  for await (const b of file.iterateBatches(options)) {
    batches++;
    // in file order within a row group (row groups come in the order asked for)
    if (b.rowGroup === prevGroup) expect(b.rowStart).toBeGreaterThanOrEqual(prevEnd);
    if (!options.filter) {
      expect(b.rows.length).toBe(b.rowEnd - b.rowStart);
      // batches are full except the last of a row group (or of the row range)
      expect(b.rows.length).toBeLessThanOrEqual(options.batchSize ?? 10_000);
      if (prevGroup === b.rowGroup) expect(b.rowStart).toBe(prevEnd);
    } else {
      expect(b.rows.length).toBeLessThanOrEqual(b.rowEnd - b.rowStart);
      expect(b.rows.length).toBeGreaterThan(0);
    }
    prevEnd = b.rowEnd;
    prevGroup = b.rowGroup;
    for (const r of b.rows) rows.push(r);
  }
  return { rows, batches };
}

/** Rows of every row group's columnar read, and of the columnar batches, grouped by row group. */
export async function columnsBoth(file: ParquetFile, batchSize: number, options: ReadOptions = {}): Promise<{ whole: unknown[][]; batched: unknown[][] }> {
  const whole = await Promise.all(file.metadata.row_groups.map(async (_, g) => rowsOf(await file.readRowGroupColumns(g, options))));
  const batched: unknown[][] = file.metadata.row_groups.map(() => []);
  for await (const b of file.iterateBatches({ ...options, form: 'columns', batchSize })) {
    expect(b.columns.length).toBe(options.filter ? b.columns.length : b.rowEnd - b.rowStart);
    for (const r of rowsOf(b.columns)) batched[b.rowGroup]!.push(r);
  }
  return { whole, batched };
}

/**
 * The batches' statistics against readRows': equal bytes and requests by kind, row groups, pages skipped, chunks and
 * rows returned; pages, rows and values decoded no more, and equal when `exact` (with the page index: every page
 * fetched holds a row wanted). A chunk read whole is decoded by batches only as far as the last row they need (the
 * end of a row range, the last batch holding a match), by readRows to its end.
 */
export function agree(b: ScanStats, r: ScanStats, exact: boolean): void {
  expect(b.bytes).toEqual(r.bytes);
  expect(b.requests).toEqual(r.requests);
  expect(b.rowGroups).toEqual(r.rowGroups);
  expect(b.pages.skipped).toBe(r.pages.skipped);
  expect(b.rowsReturned).toBe(r.rowsReturned);
  expect(Object.keys(b.columns).sort()).toEqual(Object.keys(r.columns).sort());
  for (const [path, c] of Object.entries(r.columns)) {
    const d = b.columns[path]!;
    expect({ path, chunks: d.chunks, pagesSkipped: d.pagesSkipped }).toEqual({ path, chunks: c.chunks, pagesSkipped: c.pagesSkipped });
    if (exact) expect({ path, pagesRead: d.pagesRead }).toEqual({ path, pagesRead: c.pagesRead });
    else expect(d.pagesRead).toBeLessThanOrEqual(c.pagesRead);
  }
  const decoded = (s: ScanStats) => ({ pages: s.pages.read, rows: s.rowsDecoded, values: s.valuesDecoded });
  if (exact) expect(decoded(b)).toEqual(decoded(r));
  else {
    expect(b.pages.read).toBeLessThanOrEqual(r.pages.read);
    expect(b.rowsDecoded).toBeLessThanOrEqual(r.rowsDecoded);
    expect(b.valuesDecoded).toBeLessThanOrEqual(r.valuesDecoded);
  }
}
