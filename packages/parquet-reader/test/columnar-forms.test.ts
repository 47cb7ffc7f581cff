// The columnar reads' raw forms (ColumnarValueOptions): BOOLEAN columns as packed bits and INTEGER(8/16/32) columns as
// typed arrays of their width. Each is checked against the default mapping of the same read (one boolean / number
// per slot): bit i of the packed bytes (LSB first) is slot i's boolean, null slots 0; every typed value is the
// default's number. Files come from the writer with random pages (sizes, V1/V2, RLE or PLAIN booleans, dictionary or
// not), so page boundaries fall at every bit offset.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { chunkBooleanBits, chunkIntegers, convertChunk, type DecodedChunk } from '@parquetry/parquet-column';
import { buildSchemaTree } from '@parquetry/parquet-levels';
import type { ColumnarVector, LeafVector, ListVector, StructVector } from '@parquetry/parquet-levels';
import { ConvertedType, FieldRepetitionType, Type } from '@parquetry/thrift-compact';
import { openParquet, type ColumnBatch, type ParquetFile } from '../src/index.js';
import * as columnarEntry from '../src/columnar.js';
import * as mainEntry from '../src/index.js';
import { writeParquet, type Row, type SchemaSpec } from '../../parquet-writer/src/index.js';

const schema: SchemaSpec = {
  b: { type: 'boolean' },
  rb: { type: 'boolean', required: true },
  bl: { type: 'list', element: { type: 'boolean' } },
  u8: { type: 'int', bitWidth: 8, signed: false },
  u16: { type: 'int', bitWidth: 16, signed: false },
  u32: { type: 'int', bitWidth: 32, signed: false },
  i8: { type: 'int', bitWidth: 8, signed: true },
  i16: { type: 'int', bitWidth: 16, signed: true },
  i32: { type: 'int', bitWidth: 32, signed: true },
};

const rowArb: fc.Arbitrary<Row> = fc.record({
  b: fc.option(fc.boolean()),
  rb: fc.boolean(),
  bl: fc.option(fc.array(fc.option(fc.boolean()), { maxLength: 4 })),
  u8: fc.option(fc.integer({ min: 0, max: 255 })),
  u16: fc.option(fc.integer({ min: 0, max: 65535 })),
  u32: fc.option(fc.integer({ min: 0, max: 2 ** 32 - 1 })),
  i8: fc.option(fc.integer({ min: -128, max: 127 })),
  i16: fc.option(fc.integer({ min: -32768, max: 32767 })),
  i32: fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
});

const optionsArb = fc.record({
  pageRows: fc.integer({ min: 1, max: 40 }),
  rowGroupRows: fc.integer({ min: 1, max: 300 }),
  pageVersion: fc.constantFrom(1 as const, 2 as const),
  dictionary: fc.boolean(),
  encoding: fc.constantFrom('PLAIN' as const, 'RLE' as const),
});

const byName = (root: StructVector, name: string): ColumnarVector => root.children.find((c) => c.field.node.name === name)!;

/** Bit i of LSB-first packed bytes. */
const bit = (bytes: Uint8Array, i: number): boolean => ((bytes[i >> 3]! >> (i & 7)) & 1) === 1;

/** A raw vector against the default one of the same slots. */
function expectSameValues(raw: ColumnarVector, plain: ColumnarVector, what: string): void {
  expect(raw.kind, what).toBe(plain.kind);
  expect(raw.length, what).toBe(plain.length);
  expect(raw.validity === null ? null : Array.from(raw.validity), what).toEqual(plain.validity === null ? null : Array.from(plain.validity));
  if (raw.kind === 'list') return expectSameValues(raw.element, (plain as ListVector).element, `${what}.element`);
  const r = raw as LeafVector;
  const p = plain as LeafVector;
  const n = raw.length;
  if (p.values instanceof Array && typeof p.values.find((x) => x !== null) !== 'number') {
    // booleans: packed bits, null slots 0, bits past the length 0
    expect(r.packed, what).toBe(true);
    const bytes = r.values as Uint8Array;
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length, what).toBeGreaterThanOrEqual(Math.ceil(n / 8));
    const want = Array.from({ length: n }, (_, i) => p.values[i] === true);
    expect(Array.from({ length: n }, (_, i) => bit(bytes, i)), what).toEqual(want);
    for (let i = n; i < bytes.length * 8; i++) expect(bit(bytes, i), `${what}: bit ${i} past the end`).toBe(false);
    return;
  }
  expect(r.packed, what).toBeUndefined();
  expect(Array.from(r.values as ArrayLike<number>), what).toEqual(Array.from(p.values as ArrayLike<number>));
}

const TYPED: Record<string, unknown> = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i8: Int8Array, i16: Int16Array, i32: Int32Array };

async function checkFile(file: ParquetFile, rows: readonly Row[]): Promise<void> {
  const raw = { booleans: 'bits', integers: 'typed' } as const;
  let row = 0;
  for (let g = 0; g < file.metadata.row_groups.length; g++) {
    const plain = await file.readRowGroupColumns(g);
    const got = await file.readRowGroupColumns(g, raw);
    for (const name of Object.keys(schema)) {
      expectSameValues(byName(got, name), byName(plain, name), `row group ${g}, ${name}`);
      if (TYPED[name]) expect((byName(got, name) as LeafVector).values, name).toBeInstanceOf(TYPED[name] as typeof Int8Array);
    }
    // the booleans are the rows' (not only the default mapping's)
    const b = byName(got, 'b') as LeafVector;
    for (let i = 0; i < got.length; i++) expect(bit(b.values as Uint8Array, i)).toBe(rows[row + i]!.b === true);
    row += got.length;
  }
  // batches of the columns form, with a filter on the boolean column (its converted values are not reused)
  const batches: ColumnBatch[] = [];
  for await (const x of file.iterateBatches({ form: 'columns', batchSize: 13, ...raw, filter: { column: 'rb', op: '=', value: true } })) batches.push(x as ColumnBatch);
  const kept = rows.filter((r) => r.rb === true);
  expect(batches.reduce((s, x) => s + x.columns.length, 0)).toBe(kept.length);
  let k = 0;
  for (const x of batches) {
    const rb = byName(x.columns, 'rb') as LeafVector;
    const u32 = byName(x.columns, 'u32') as LeafVector;
    expect(rb.packed).toBe(true);
    expect(u32.values).toBeInstanceOf(Uint32Array);
    for (let i = 0; i < x.columns.length; i++, k++) {
      expect(bit(rb.values as Uint8Array, i)).toBe(true);
      expect(u32.validity === null || u32.validity[i] === 1 ? (u32.values as Uint32Array)[i] : null).toBe(kept[k]!.u32);
    }
  }
}

describe('columnar raw forms: booleans as bits, integers as typed arrays of their width', () => {
  test('property: equal to the default mapping of the same read, on random pages', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 250 }), optionsArb, async (rows, o) => {
        const bytes = await writeParquet(rows, { schema, compression: 'UNCOMPRESSED', ...o, columns: { u8: { encoding: 'PLAIN' }, u16: { encoding: 'PLAIN' }, u32: { encoding: 'PLAIN' }, i8: { encoding: 'PLAIN' }, i16: { encoding: 'PLAIN' }, i32: { encoding: 'PLAIN' }, bl: { encoding: 'PLAIN' } } });
        await checkFile(await openParquet(bytes), rows);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  test('UINT_32 as a Uint32Array, 8 and 16 bits narrowed; row reads and values: json ignore the forms', async () => {
    const rows: Row[] = Array.from({ length: 100 }, (_, i) => ({ b: i % 3 === 0, rb: true, bl: null, u8: 255, u16: 65535, u32: 2 ** 32 - 1 - i, i8: -1, i16: -2, i32: -3 }));
    const file = await openParquet(await writeParquet(rows, { schema, dictionary: false, compression: 'UNCOMPRESSED' }));
    const v = await file.readRowGroupColumns(0, { integers: 'typed', booleans: 'bits' });
    const u32 = byName(v, 'u32') as LeafVector;
    expect(u32.values).toBeInstanceOf(Uint32Array);
    expect((u32.values as Uint32Array)[5]).toBe(2 ** 32 - 6);
    expect((byName(v, 'u8') as LeafVector).values).toEqual(new Uint8Array(100).fill(255));
    expect((byName(v, 'i16') as LeafVector).values).toEqual(new Int16Array(100).fill(-2));
    const readRows = await file.readRows({ integers: 'typed', booleans: 'bits' });
    expect(readRows[5]).toEqual({ ...rows[5], u32: 2 ** 32 - 6 });
    const json = await file.readRowGroupColumns(0, { integers: 'typed', booleans: 'bits', values: 'json' });
    expect((byName(json, 'b') as LeafVector).packed).toBeUndefined();
    expect(Array.from((byName(json, 'b') as LeafVector).values).slice(0, 4)).toEqual([true, false, false, true]);
  });
});

describe('chunkBooleanBits and chunkIntegers on hand-made chunks', () => {
  const boolCol = buildSchemaTree([{ name: 's', num_children: 1 }, { name: 'b', repetition_type: FieldRepetitionType.REQUIRED, type: Type.BOOLEAN }]).columns[0]!;
  const u16Col = buildSchemaTree([{ name: 's', num_children: 1 }, { name: 'u', repetition_type: FieldRepetitionType.REQUIRED, type: Type.INT32, converted_type: ConvertedType.UINT_16 }]).columns[0]!;

  /** A chunk of the given segments (values or dictionary indices). */
  function chunk(segments: DecodedChunk['segments'], dictionary: DecodedChunk['dictionary'], numValues: number): DecodedChunk {
    return { def: undefined, rep: undefined, numLevels: numValues, dictionary, segments, numValues, pages: segments.length };
  }

  test('property: the bits unpacked equal convertChunk\'s booleans, for segments of any length and dictionary runs', () => {
    const segArb = fc.oneof(
      fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 30 }).map((v) => ({ values: Uint8Array.from(v) })),
      fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 30 }).map((v) => ({ indices: Int32Array.from(v) })),
    );
    fc.assert(fc.property(fc.array(segArb, { maxLength: 8 }), (segs) => {
      const n = segs.reduce((s, x) => s + ('values' in x ? x.values.length : x.indices.length), 0);
      const c = chunk(segs as DecodedChunk['segments'], Uint8Array.of(0, 1), n);
      const want = Array.from(convertChunk(c, boolCol));
      const got = chunkBooleanBits(c);
      expect(got.count).toBe(n);
      expect(got.bits.length).toBe(Math.ceil(n / 8));
      expect(Array.from({ length: n }, (_, i) => bit(got.bits, i))).toEqual(want);
    }), { numRuns: 300 });
  });

  test('chunkIntegers: UINT_16 values from plain and dictionary runs, as convertChunk\'s numbers', () => {
    const c = chunk([{ values: Int32Array.of(1, 65535, 7) }, { indices: Int32Array.of(1, 0, 1) }], Int32Array.of(300, 40000), 6);
    const got = chunkIntegers(c, u16Col);
    expect(got).toBeInstanceOf(Uint16Array);
    expect(Array.from(got)).toEqual(Array.from(convertChunk(c, u16Col)));
    expect(Array.from(got)).toEqual([1, 65535, 7, 40000, 300, 40000]);
  });

  test('the reader\'s /columnar subpath gives columnarValues and hasColumnarForm (the main entry does not: it keeps them out of the initial load)', () => {
    const c = chunk([{ values: Int32Array.of(1, 65535, 7) }], undefined, 3);
    expect(columnarEntry.hasColumnarForm(u16Col, { integers: 'typed' })).toBe(true);
    expect(columnarEntry.hasColumnarForm(u16Col, {})).toBe(false);
    const got = columnarEntry.columnarValues(c, u16Col, { integers: 'typed' });
    expect(got).toBeInstanceOf(Uint16Array);
    expect(Array.from(got as Uint16Array)).toEqual([1, 65535, 7]);
    expect(columnarEntry.columnarValues(c, u16Col, {})).toBeUndefined();
    expect('columnarValues' in mainEntry).toBe(false);
    expect('hasColumnarForm' in mainEntry).toBe(false);
  });
});
