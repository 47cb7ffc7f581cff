// Zero copy, proven on the objects themselves: the reader's columnar vectors are captured as readArrowTable /
// readArrowBatches receive them, and the Arrow data's buffers must be the very same memory (same ArrayBuffer, same
// byte offset; a write through the reader's array shows in the Arrow vector). Plus the bit packing (validity bitmaps,
// booleans) against a bit-by-bit reference over random bytes, aligned and not.
import fc from 'fast-check';
import { Bool, Field, Float64, Int32, RecordBatch, Schema, Struct, Table, Uint16, Uint32, Uint64, Uint8, Utf8, makeData, type Data } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import type { ColumnarVector, LeafVector, BinaryVector, StructVector } from '@parquetry/parquet-levels';
import { openParquet, type ColumnBatch, type ParquetFile } from '@parquetry/parquet-reader';
import { readArrowBatches, readArrowTable, writeArrowTable } from '../src/index.js';
import { toBitmap } from '../src/to-arrow.js';

const N = 5000;
const enc = new TextEncoder();

/** A table of non-null PLAIN-friendly columns (and one with nulls), built from buffers. */
function sourceTable(): Table {
  const types = { i32: new Int32(), f64: new Float64(), s: new Utf8(), u64: new Uint64(), flag: new Bool(), u32: new Uint32(), u16: new Uint16(), u8: new Uint8() };
  const fields = Object.entries(types).map(([name, type]) => new Field(name, type, false));
  const strings = Array.from({ length: N }, (_, i) => `value ${i} ${'x'.repeat(i % 7)}`);
  const parts = strings.map((s) => enc.encode(s));
  const offsets = new Int32Array(N + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const bytes = new Uint8Array(offsets[N]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  const bits = new Uint8Array((N + 7) >> 3);
  for (let i = 0; i < N; i++) if (i % 3 === 0) bits[i >> 3]! |= 1 << (i & 7);
  const children = [
    makeData({ type: types.i32, length: N, nullCount: 0, data: Int32Array.from({ length: N }, (_, i) => i * 7 - 100) }),
    makeData({ type: types.f64, length: N, nullCount: 0, data: Float64Array.from({ length: N }, (_, i) => i / 4) }),
    makeData({ type: types.s, length: N, nullCount: 0, valueOffsets: offsets, data: bytes }),
    makeData({ type: types.u64, length: N, nullCount: 0, data: BigUint64Array.from({ length: N }, (_, i) => 2n ** 64n - 1n - BigInt(i)) }),
    makeData({ type: types.flag, length: N, nullCount: 0, data: bits }),
    makeData({ type: types.u32, length: N, nullCount: 0, data: Uint32Array.from({ length: N }, (_, i) => 2 ** 32 - 1 - i * 3) }),
    makeData({ type: types.u16, length: N, nullCount: 0, data: Uint16Array.from({ length: N }, (_, i) => 65535 - i) }),
    makeData({ type: types.u8, length: N, nullCount: 0, data: Uint8Array.from({ length: N }, (_, i) => 255 - (i % 256)) }),
  ] as Data[];
  const schema = new Schema(fields);
  return new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(fields), length: N, nullCount: 0, children }))]);
}

/** PLAIN pages without dictionary or compression, several per column chunk and two row groups. */
async function plainFile(): Promise<ParquetFile> {
  const bytes = await writeArrowTable(sourceTable(), { dictionary: false, encoding: 'PLAIN', compression: 'UNCOMPRESSED', rowGroupRows: 3000, pageRows: 1000 });
  const file = await openParquet(bytes);
  for (const c of file.metadata.row_groups[0]!.columns) expect(c.meta_data?.dictionary_page_offset).toBeUndefined();
  return file;
}

/** Records every root vector the reader hands out (whole row groups and batches). */
function capture(file: ParquetFile): StructVector[] {
  const seen: StructVector[] = [];
  const readGroup = file.readRowGroupColumns.bind(file);
  const iterate = file.iterateBatches.bind(file);
  Object.assign(file, {
    readRowGroupColumns: async (...args: Parameters<typeof readGroup>) => {
      const v = await readGroup(...args);
      seen.push(v);
      return v;
    },
    iterateBatches: (...args: Parameters<typeof iterate>) => {
      const it = iterate(...args) as AsyncGenerator<ColumnBatch>;
      return (async function* () {
        for await (const b of it) {
          seen.push(b.columns);
          yield b;
        }
      })();
    },
  });
  return seen;
}

const child = (root: StructVector, name: string): ColumnarVector => root.children.find((c) => c.field.node.name === name)!;

/** Same memory: same ArrayBuffer, same start, and the Arrow view no longer than the reader's. */
function expectSameMemory(arrow: ArrayBufferView, reader: ArrayBufferView): void {
  expect(arrow.buffer).toBe(reader.buffer);
  expect(arrow.byteOffset).toBe(reader.byteOffset);
  expect(arrow.byteLength).toBeLessThanOrEqual(reader.byteLength);
}

function checkBatch(batch: RecordBatch, root: StructVector): void {
  expect(batch.numRows).toBe(root.length);
  const i32 = batch.getChild('i32')!.data[0]!;
  const f64 = batch.getChild('f64')!.data[0]!;
  const s = batch.getChild('s')!.data[0]!;
  const u64 = batch.getChild('u64')!.data[0]!;
  const ri32 = child(root, 'i32') as LeafVector;
  const rf64 = child(root, 'f64') as LeafVector;
  const rs = child(root, 's') as BinaryVector;
  const ru64 = child(root, 'u64') as LeafVector;
  expect(ri32.values).toBeInstanceOf(Int32Array);
  expect(rf64.values).toBeInstanceOf(Float64Array);
  expectSameMemory(i32.values, ri32.values as Int32Array);
  expectSameMemory(f64.values, rf64.values as Float64Array);
  // UTF-8: the bytes and the offsets are the reader's (Arrow allows offsets that do not start at 0)
  expectSameMemory(s.values, rs.data);
  expectSameMemory(s.valueOffsets, rs.offsets);
  // UINT_64: the reader's BigUint64Array, viewed as it is
  expectSameMemory(u64.values, ru64.values as BigUint64Array);
  // UINT_32: the reader's Uint32Array (a view of the decoded Int32Array under integers: 'typed'), UINT_16 and UINT_8
  // its typed arrays of their width; BOOLEAN: the reader's packed bits (booleans: 'bits') are the Arrow buffer
  const ru32 = child(root, 'u32') as LeafVector;
  const ru16 = child(root, 'u16') as LeafVector;
  const ru8 = child(root, 'u8') as LeafVector;
  const rflag = child(root, 'flag') as LeafVector;
  expect(ru32.values).toBeInstanceOf(Uint32Array);
  expect(ru16.values).toBeInstanceOf(Uint16Array);
  expect(ru8.values).toBeInstanceOf(Uint8Array);
  expect(rflag.packed).toBe(true);
  expectSameMemory(batch.getChild('u32')!.data[0]!.values, ru32.values as Uint32Array);
  expectSameMemory(batch.getChild('u16')!.data[0]!.values, ru16.values as Uint16Array);
  expectSameMemory(batch.getChild('u8')!.data[0]!.values, ru8.values as Uint8Array);
  expectSameMemory(batch.getChild('flag')!.data[0]!.values, rflag.values as Uint8Array);
  // a write through the reader's arrays is seen by the Arrow vectors: one memory, not equal copies
  const before = batch.getChild('i32')!.get(1) as number;
  (ri32.values as Int32Array)[1] = before + 1;
  expect(batch.getChild('i32')!.get(1)).toBe(before + 1);
  (rf64.values as Float64Array)[1] = -0.5;
  expect(batch.getChild('f64')!.get(1)).toBe(-0.5);
  const at = rs.offsets[0]!;
  const first = batch.getChild('s')!.get(0) as string;
  rs.data[at] = 'V'.charCodeAt(0);
  expect(batch.getChild('s')!.get(0)).toBe(`V${first.slice(1)}`);
}

describe('zero copy: the Arrow buffers are the reader\'s arrays', () => {
  test('readArrowTable: PLAIN INT32, DOUBLE, UTF-8 (bytes and offsets), UINT_8/16/32/64 and BOOLEAN of every row group', async () => {
    const file = await plainFile();
    const seen = capture(file);
    const table = await readArrowTable(file);
    expect(seen.length).toBe(2);
    expect(table.batches.length).toBe(2);
    table.batches.forEach((b, k) => checkBatch(b, seen[k]!));
    // the values themselves are right (before the writes above): the first row group's first rows
    const again = await readArrowTable(await plainFile(), { columns: ['i32', 's', 'u64', 'flag', 'u32', 'u16', 'u8'] });
    expect([0, 1, 3001, 4999].map((i) => again.getChild('u32')!.get(i))).toEqual([2 ** 32 - 1, 2 ** 32 - 4, 2 ** 32 - 1 - 9003, 2 ** 32 - 1 - 14997]);
    expect([0, 4999].map((i) => again.getChild('u16')!.get(i))).toEqual([65535, 65535 - 4999]);
    expect([0, 300].map((i) => again.getChild('u8')!.get(i))).toEqual([255, 255 - 44]);
    expect(again.getChild('i32')!.get(4)).toBe(4 * 7 - 100);
    expect(again.getChild('s')!.get(3001)).toBe('value 3001 xxxxx');
    expect(again.getChild('u64')!.get(2)).toBe(2n ** 64n - 3n);
    expect([0, 1, 2, 3, 4999].map((i) => again.getChild('flag')!.get(i))).toEqual([true, false, false, true, false]);
  });

  test('readArrowBatches: every batch views the reader\'s batch vectors', async () => {
    const file = await plainFile();
    const seen = capture(file);
    const batches: RecordBatch[] = [];
    for await (const b of readArrowBatches(file, { batchSize: 1200 })) batches.push(b);
    expect(batches.map((b) => b.numRows)).toEqual([1200, 1200, 600, 1200, 800]);
    expect(seen.length).toBe(batches.length);
    batches.forEach((b, k) => checkBatch(b, seen[k]!));
  });
});

describe('bit packing against a bit-by-bit reference', () => {
  /** The LSB-first bitmap of 0/1 bytes, one bit at a time. */
  const reference = (bytes: Uint8Array): { bits: number[]; nulls: number } => {
    const bits = new Array<number>((bytes.length + 7) >> 3).fill(0);
    let nulls = 0;
    bytes.forEach((b, i) => (b === 1 ? (bits[i >> 3]! |= 1 << (i & 7)) : nulls++));
    return { bits, nulls };
  };

  test('toBitmap of validity bytes at any byte offset (the word path and the byte path) equals the reference', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 300 }), fc.integer({ min: 0, max: 7 }), fc.double({ min: 0, max: 1, noNaN: true }), (flags, shift, pNull) => {
        const backing = new Uint8Array(flags.length + shift);
        const validity = backing.subarray(shift);
        flags.forEach((f, i) => (validity[i] = f || i / flags.length >= pNull ? 1 : 0));
        const { bitmap, nulls } = toBitmap(validity, validity.length);
        const ref = reference(validity);
        expect(nulls).toBe(ref.nulls);
        if (ref.nulls === 0) expect(bitmap).toBeUndefined();
        else expect(Array.from(bitmap!)).toEqual(ref.bits);
      }),
      { numRuns: 400 },
    );
  });

  test('toBitmap of validity whose first nulls come late (a valid prefix, not packed) equals the reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.array(fc.boolean(), { maxLength: 40 }), fc.integer({ min: 0, max: 7 }), (prefix, rest, shift) => {
        const n = prefix + rest.length;
        const validity = new Uint8Array(n + shift).subarray(shift);
        validity.fill(1, 0, prefix);
        rest.forEach((f, i) => (validity[prefix + i] = f ? 1 : 0));
        const { bitmap, nulls } = toBitmap(validity, n);
        const ref = reference(validity);
        expect(nulls).toBe(ref.nulls);
        if (ref.nulls === 0) expect(bitmap).toBeUndefined();
        else expect(Array.from(bitmap!)).toEqual(ref.bits);
      }),
      { numRuns: 400 },
    );
  });

  test('booleans read back bit-exact through the writer and the reader', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 200 }), async (flags) => {
        const n = flags.length;
        const bits = new Uint8Array((n + 7) >> 3);
        flags.forEach((f, i) => f && (bits[i >> 3]! |= 1 << (i & 7)));
        const schema = new Schema([new Field('b', new Bool(), false)]);
        const data = makeData({ type: new Bool(), length: n, nullCount: 0, data: bits });
        const t = new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: [data] }))]);
        const back = await readArrowTable(await openParquet(await writeArrowTable(t, { compression: 'UNCOMPRESSED' })));
        const got = back.batches[0]!.data.children[0]!.values as Uint8Array;
        expect(Array.from(got.subarray(0, bits.length))).toEqual(Array.from(bits));
      }),
      { numRuns: 100 },
    );
  });
});
