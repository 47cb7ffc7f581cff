/**
 * Bad input never escapes as a RangeError/TypeError, never hangs, never allocates by an untrusted length.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ByteReader,
  CompactReader,
  CompactWriter,
  decodeThrift,
  encodeThrift,
  isParquetError,
  readFileMetaData,
  readPageHeader,
  readSchemaElement,
  writeFileMetaData,
  type FileMetaData,
} from '@parquetry/thrift-compact';

function errorOf(f: () => unknown): { code: string; offset: number | undefined } | undefined {
  try {
    f();
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { code: e.code, offset: e.offset };
  }
  return undefined;
}

const sample: FileMetaData = {
  version: 2,
  schema: [
    { name: 'schema', num_children: 2 },
    { name: 'id', type: 2, repetition_type: 0 },
    { name: 's', type: 6, repetition_type: 1, converted_type: 0, logicalType: { STRING: {} } },
  ],
  num_rows: 3,
  row_groups: [
    {
      columns: [
        {
          file_offset: 4,
          meta_data: {
            type: 2,
            encodings: [0, 3],
            path_in_schema: ['id'],
            codec: 1,
            num_values: 3,
            total_uncompressed_size: 100,
            total_compressed_size: 90,
            data_page_offset: 4,
            statistics: { min_value: new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]), null_count: 0, is_min_value_exact: true },
          },
        },
      ],
      total_byte_size: 100,
      num_rows: 3,
    },
  ],
  key_value_metadata: [{ key: 'k', value: 'v' }],
  created_by: 'parquetry test',
  column_orders: [{ TYPE_ORDER: {} }, { TYPE_ORDER: {} }],
};

describe('malformed compact input', () => {
  const good = encodeThrift(writeFileMetaData, sample);

  test('the sample round-trips', () => {
    expect(decodeThrift(readFileMetaData, good).value).toEqual(sample);
  });

  test('every truncation is a typed EOF error', () => {
    for (let n = 0; n < good.length; n++) {
      const e = errorOf(() => decodeThrift(readFileMetaData, good.subarray(0, n)));
      expect(e, `truncated to ${n}`).toBeDefined();
    }
  });

  test('a varint longer than 10 bytes', () => {
    const bytes = new Uint8Array([0x36, ...new Array(11).fill(0xff), 0x01, 0x00]); // field 3 (i64) with an 12-byte varint
    expect(errorOf(() => decodeThrift(readFileMetaData, bytes))?.code).toBe('VARINT_TOO_LONG');
  });

  test('a string length beyond the remaining bytes, without allocating it', () => {
    // SchemaElement field 4 (name, binary) claiming 2^31 bytes
    const bytes = new Uint8Array([0x48, 0x80, 0x80, 0x80, 0x80, 0x08, 0x41]);
    const e = errorOf(() => decodeThrift(readSchemaElement, bytes, 0, bytes.length, 1000));
    expect(e?.code).toBe('THRIFT_BAD_LENGTH');
    expect(e?.offset).toBe(1006);
  });

  test('a list count beyond the remaining bytes', () => {
    // FileMetaData field 2 (schema, list<struct>) claiming 1e9 elements
    const bytes = new Uint8Array([0x29, 0xfc, 0x80, 0x94, 0xeb, 0xdc, 0x03, 0x00]);
    expect(errorOf(() => decodeThrift(readFileMetaData, bytes))?.code).toBe('THRIFT_BAD_LENGTH');
  });

  test('nesting deeper than the limit', () => {
    const w = new CompactWriter();
    // an unknown field 100 of nested structs, 200 deep
    for (let i = 0; i < 200; i++) {
      w.structBegin();
      w.fieldBegin(12, 100);
    }
    const bytes = w.finish();
    expect(errorOf(() => decodeThrift(readFileMetaData, bytes))?.code).toBe('THRIFT_TOO_DEEP');
    // and lists of lists
    const deepLists = new Uint8Array([0x19, ...new Array(300).fill(0x19)]);
    expect(errorOf(() => decodeThrift(readFileMetaData, new Uint8Array([0x09 | 0xa0, ...deepLists])))?.code).toMatch(/THRIFT_TOO_DEEP|EOF|THRIFT_BAD_LENGTH/);
  });

  test('a missing required field', () => {
    const bytes = new Uint8Array([0x15, 0x00, 0x00]); // PageHeader with only type = 0
    expect(errorOf(() => decodeThrift(readPageHeader, bytes))?.code).toBe('THRIFT_REQUIRED_FIELD');
  });

  test('a wrong wire type for a required field; an optional one is skipped as Apache Thrift does', () => {
    // PageHeader field 1 (type, i32) sent as binary
    expect(errorOf(() => decodeThrift(readPageHeader, new Uint8Array([0x18, 0x01, 0x41, 0x00])))?.code).toBe('THRIFT_WRONG_TYPE');
    // SchemaElement: field 4 name "a", then field 5 (num_children, i32) sent as binary "zz": skipped
    const v = decodeThrift(readSchemaElement, new Uint8Array([0x48, 0x01, 0x61, 0x18, 0x02, 0x7a, 0x7a, 0x00])).value;
    expect(v).toEqual({ name: 'a' });
  });

  test('unknown fields of every type are skipped at any depth, including field id 32767', () => {
    const w = new CompactWriter();
    w.structBegin();
    w.fieldBegin(8, 4);
    w.string('x');
    w.fieldBegin(12, 32767); // extension field: a struct holding one of everything
    w.structBegin();
    w.boolField(1, true);
    w.fieldBegin(3, 2);
    w.byte(-1);
    w.fieldBegin(4, 3);
    w.i16(-300);
    w.fieldBegin(6, 4);
    w.i64(2 ** 40);
    w.fieldBegin(7, 5);
    w.double(1.5);
    w.fieldBegin(9, 6);
    w.listBegin(1, 20);
    for (let i = 0; i < 20; i++) w.bool(i % 2 === 0);
    w.fieldBegin(11, 7);
    w.mapBegin(8, 12, 2);
    for (let i = 0; i < 2; i++) {
      w.string('k');
      w.structBegin();
      w.structEnd();
    }
    w.fieldBegin(10, 8);
    w.listBegin(8, 1);
    w.binary(new Uint8Array([1, 2]));
    w.fieldBegin(11, 9);
    w.mapBegin(8, 8, 0);
    w.structEnd();
    w.fieldBegin(5, 32766); // a second unknown field with a long-form (negative delta) header
    w.i32(5);
    w.structEnd();
    const bytes = w.finish();
    const r = decodeThrift(readSchemaElement, bytes);
    expect(r.value).toEqual({ name: 'x' });
    expect(r.end).toBe(bytes.length);
  });

  test('random mutations of a real footer: a value or a ParquetError, never anything else', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.nat(good.length),
        (muts, cut) => {
          const b = good.slice(0, Math.max(cut, 1));
          for (const [i, v] of muts) if (i < b.length) b[i] = v;
          try {
            decodeThrift(readFileMetaData, b);
          } catch (e) {
            expect(isParquetError(e), String(e)).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('random bytes: a value or a ParquetError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        try {
          decodeThrift(readFileMetaData, b);
        } catch (e) {
          expect(isParquetError(e), String(e)).toBe(true);
        }
        try {
          const r = new CompactReader(new ByteReader(b));
          r.skip(12);
        } catch (e) {
          expect(isParquetError(e), String(e)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
