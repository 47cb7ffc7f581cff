/**
 * Which statistics bounds the reader trusts for pruning and reports (QA helper-86 F1, F2, F3): files written by our
 * writer, their bounds then rewritten as other writers leave them, read with and without pruning. A bound the reader
 * must not trust can only lose pruning, never rows: every filtered read is compared with the same read unpruned.
 */
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { decodeThrift, encodeThrift, readColumnIndex, readFileMetaData, writeColumnIndex, writeFileMetaData, type ColumnIndex, type FileMetaData } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { field, writeParquet, type Row, type SchemaSpec } from '../../parquet-writer/src/index.js';
import { openParquet, type Filter, type ScanStats } from '../src/index.js';
import { withFooter } from './helpers.js';

const codecs = builtinCodecs();
const B = (...x: number[]) => Uint8Array.from(x);
const utf8 = (s: string) => new TextEncoder().encode(s);

/** INT96 bytes of a count of nanoseconds since the epoch (nanoseconds of the day, then the Julian day). */
function int96(ns: bigint): Uint8Array {
  const b = new Uint8Array(12);
  const v = new DataView(b.buffer);
  const day = 86_400_000_000_000n;
  v.setBigUint64(0, ns % day, true);
  v.setUint32(8, Number(2_440_588n + ns / day), true);
  return b;
}

/** Reads `filter` with pruning (its stats) and without, and checks both give the same rows. */
async function both(bytes: Uint8Array, filter: Filter): Promise<{ rows: Row[]; skipped: ScanStats['rowGroups']['skipped']; pagesSkipped: number }> {
  const f = await openParquet(bytes, { codecs });
  let stats: ScanStats | undefined;
  const rows = await f.readRows({ filter, onScan: (s) => (stats = s) });
  const all = await (await openParquet(bytes, { codecs })).readRows({ filter, prune: false });
  expect(rows).toEqual(all);
  return { rows, skipped: stats!.rowGroups.skipped, pagesSkipped: stats!.pages.skipped };
}

async function file(rows: Row[], schema: SchemaSpec, o: { rowGroupRows?: number; pageIndex?: boolean; pageRows?: number } = {}): Promise<Uint8Array> {
  return writeParquet(rows, { schema, codecs, pageIndex: false, ...o });
}

describe('INT96 (no sort order unless INT96_TIMESTAMP_ORDER)', () => {
  const rows = [{ t: 0n }, { t: 5n }];
  test('bounds under TYPE_ORDER are not used (they were, and t = 0 read no row: F1)', async () => {
    const bytes = withFooter(await file(rows, { t: field.int96() }), (m) => {
      m.row_groups[0]!.columns[0]!.meta_data!.statistics = { min_value: int96(10n ** 18n), max_value: int96(2n * 10n ** 18n), null_count: 0 };
    });
    const r = await both(bytes, { column: 't', op: '=', value: 0n });
    expect(r.rows).toEqual([{ t: 0n }]);
    const s = await (await openParquet(bytes, { codecs })).statistics(0, 't');
    expect([s?.min, s?.max]).toEqual([undefined, undefined]);
  });

  test('bounds under INT96_TIMESTAMP_ORDER are used', async () => {
    const bytes = withFooter(await file(rows, { t: field.int96() }), (m) => {
      m.column_orders = [{ INT96_TIMESTAMP_ORDER: {} }];
      m.row_groups[0]!.columns[0]!.meta_data!.statistics = { min_value: int96(0n), max_value: int96(5n), null_count: 0 };
    });
    expect((await both(bytes, { column: 't', op: '=', value: 0n })).rows).toEqual([{ t: 0n }]);
    const r = await both(bytes, { column: 't', op: '>', value: 5n });
    expect(r.rows).toEqual([]);
    expect(r.skipped.statistics).toBe(1);
    const s = await (await openParquet(bytes, { codecs })).statistics(0, 't');
    expect([s?.min, s?.max]).toEqual([0n, 5n]);
  });
});

describe('string bounds that are not well-formed UTF-8 (F2: a writer truncating by bytes)', () => {
  const rows = [{ s: 'ab€x' }, { s: 'a😀' }];
  const edit = (m: FileMetaData): void => {
    // row group 0 holds 'ab€x': min 'ab' + the first byte of '€' (E2 82 AC); row group 1 holds 'a😀': max 'a' + two of
    // the four bytes of '😀' (F0 9F 98 80), one past them (a valid upper bound byte-wise: F0 A0 > F0 9F)
    m.row_groups[0]!.columns[0]!.meta_data!.statistics = { min_value: B(0x61, 0x62, 0xe2), max_value: B(0x61, 0x63), is_min_value_exact: false, is_max_value_exact: false, null_count: 0 };
    m.row_groups[1]!.columns[0]!.meta_data!.statistics = { min_value: B(0x61), max_value: B(0x61, 0xf0, 0xa0), is_min_value_exact: false, is_max_value_exact: false, null_count: 0 };
  };
  test('chunk statistics: each value is found (it was pruned away); the min is cut to its valid prefix, the max dropped', async () => {
    const bytes = withFooter(await file(rows, { s: field.string() }, { rowGroupRows: 1 }), edit);
    for (const r of rows) expect((await both(bytes, { column: 's', op: '=', value: r.s })).rows).toEqual([r]);
    const f = await openParquet(bytes, { codecs });
    expect(await f.statistics(0, 's')).toMatchObject({ min: 'ab', minExact: false, max: 'ac' });
    expect(await f.statistics(1, 's')).toMatchObject({ min: 'a', max: undefined, maxExact: false });
    // the bounds still prune what they exclude
    const r = await both(bytes, { column: 's', op: '<', value: 'a' });
    expect(r.rows).toEqual([]);
    expect(r.skipped.statistics).toBe(2);
  });

  test('page index: the same bounds in a ColumnIndex', async () => {
    // one row group, two pages ('ab€x', then 'a😀'); the chunk statistics say nothing, the ColumnIndex has the cut bounds
    const good = await file(rows, { s: field.string() }, { pageIndex: true, pageRows: 1 });
    const dv = new DataView(good.buffer, good.byteOffset, good.byteLength);
    const start = good.length - 8 - dv.getUint32(good.length - 8, true);
    const meta = decodeThrift(readFileMetaData, good, start, good.length - 8).value;
    const cc = meta.row_groups[0]!.columns[0]!;
    const ci: ColumnIndex = decodeThrift(readColumnIndex, good, cc.column_index_offset!, cc.column_index_offset! + cc.column_index_length!).value;
    expect(ci.null_pages.length).toBe(2);
    ci.min_values = [B(0x61, 0x62, 0xe2), B(0x61)];
    ci.max_values = [B(0x61, 0x63), B(0x61, 0xf0, 0xa0)];
    delete cc.meta_data!.statistics;
    const enc = encodeThrift(writeColumnIndex, ci);
    cc.column_index_offset = start;
    cc.column_index_length = enc.length;
    const footer = encodeThrift(writeFileMetaData, meta);
    const bytes = new Uint8Array(start + enc.length + footer.length + 8);
    bytes.set(good.subarray(0, start));
    bytes.set(enc, start);
    bytes.set(footer, start + enc.length);
    new DataView(bytes.buffer).setUint32(start + enc.length + footer.length, footer.length, true);
    bytes.set(good.subarray(good.length - 4), bytes.length - 4);
    for (const r of rows) expect((await both(bytes, { column: 's', op: '=', value: r.s })).rows).toEqual([r]);
    expect((await both(bytes, { column: 's', op: '<=', value: 'ab€x' })).rows).toEqual([{ s: 'ab€x' }]);
    // the cut min of page 0 ('ab') still skips it
    const r = await both(bytes, { column: 's', op: '<', value: 'ab' });
    expect(r.rows).toEqual([]);
    expect(r.pagesSkipped).toBeGreaterThanOrEqual(1);
  });
});

describe('a min above the max (F3: a writer that compared wrongly) gives no bounds', () => {
  test('DECIMAL on FIXED_LEN_BYTE_ARRAY with its bounds ordered as unsigned bytes', async () => {
    const rows = [{ d: '-1.50' }, { d: '2.25' }];
    const bytes = withFooter(await file(rows, { d: field.decimal(9, 2, { physical: 'fixed', byteLength: 4 }) }), (m) => {
      // byte-wise, 2.25 (00 00 00 E1) is below -1.50 (FF FF FF 6A): min 2.25, max -1.50
      m.row_groups[0]!.columns[0]!.meta_data!.statistics = { min_value: B(0, 0, 0, 0xe1), max_value: B(0xff, 0xff, 0xff, 0x6a), null_count: 0 };
    });
    expect((await both(bytes, { column: 'd', op: '=', value: '-1.50' })).rows).toEqual([{ d: '-1.50' }]);
    const s = await (await openParquet(bytes, { codecs })).statistics(0, 'd');
    expect([s?.min, s?.max]).toEqual([undefined, undefined]);
  });
});

describe('deprecated min/max', () => {
  test('not used for an INT32 column with a logical type this library does not order (UNKNOWN)', async () => {
    const bytes = withFooter(await file([{ n: 1 }, { n: 9 }], { n: field.int32() }), (m) => {
      m.schema[1]!.logicalType = { UNKNOWN: {} };
      m.row_groups[0]!.columns[0]!.meta_data!.statistics = { min: B(50, 0, 0, 0), max: B(60, 0, 0, 0), null_count: 0 };
    });
    const s = await (await openParquet(bytes, { codecs })).statistics(0, 'n');
    expect([s?.min, s?.max]).toEqual([undefined, undefined]);
  });
});
