// checkDecimals, which the reader runs when it opens a file, checks DECIMAL annotations (LogicalTypes.md, DECIMAL):
// it annotates INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY; 1 <= precision <= the digits the physical type
// holds (9 in INT32, 18 in INT64, floor(log10(2^(8n-1) - 1)) in FIXED_LEN_BYTE_ARRAY(n)) and, on BYTE_ARRAY, whose
// precision the spec leaves unbounded, this reader's bound of 2^16 digits; 0 <= scale <= precision. Both the
// LogicalType and the legacy converted_type DECIMAL with the element's scale/precision are checked; where both are
// present the LogicalType is the one read (and checked), as in parquet-cpp. arrow-rs checks the same rules when it
// parses a schema (with no bound on BYTE_ARRAY). (checkDecimals is new. Before it the reader opened a file with any
// of the 30 invalid cases below, and reading the column threw a RangeError from formatDecimal — "Invalid string
// length" for scale 2^31 - 1, "Maximum BigInt size exceeded" for scale -2^31 — or returned wrong values: scale -5
// read 1.25 as "12500000", scale 20 > precision 9 as "0.00000000000000000125". parquet-reader's
// test/decimal-footer.test.ts, through openParquet, failed before the fix.)
import { describe, expect, test } from 'vitest';
import { ConvertedType, FieldRepetitionType, Type, isParquetError, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { buildSchemaTree, checkDecimals } from '../src/index.js';

/** A schema of one leaf `d` (element 1). */
function schemaOf(leaf: Omit<SchemaElement, 'name'>): SchemaElement[] {
  return [{ name: 'root', num_children: 1 }, { name: 'd', repetition_type: FieldRepetitionType.OPTIONAL, ...leaf }];
}
const dec = (precision: number, scale: number): LogicalType => ({ DECIMAL: { precision, scale } });

function outcome(elements: SchemaElement[]): string {
  try {
    const t = buildSchemaTree(elements);
    checkDecimals(t);
    return `ok ${JSON.stringify(t.columns[0]?.node.logicalType?.DECIMAL ?? null)}`;
  } catch (e) {
    return isParquetError(e) ? `${e.code}: ${e.message}` : `non-ParquetError ${String(e)}`;
  }
}

describe('DECIMAL precision and scale against the physical type', () => {
  const valid: [string, Omit<SchemaElement, 'name'>][] = [
    ['INT32 precision 1', { type: Type.INT32, logicalType: dec(1, 0) }],
    ['INT32 precision 9, scale 9', { type: Type.INT32, logicalType: dec(9, 9) }],
    ['INT64 precision 18, scale 0', { type: Type.INT64, logicalType: dec(18, 0) }],
    ['INT64 precision 10 (INT32 would do; allowed)', { type: Type.INT64, logicalType: dec(10, 3) }],
    ['FIXED_LEN_BYTE_ARRAY(1) precision 2', { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 1, logicalType: dec(2, 1) }],
    ['FIXED_LEN_BYTE_ARRAY(11) precision 26', { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 11, logicalType: dec(26, 2) }],
    ['FIXED_LEN_BYTE_ARRAY(16) precision 38', { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 16, logicalType: dec(38, 10) }],
    ['FIXED_LEN_BYTE_ARRAY(32) precision 76', { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 32, logicalType: dec(76, 38) }],
    ['FIXED_LEN_BYTE_ARRAY(418) precision 1006', { type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 418, logicalType: dec(1006, 0) }],
    ['BYTE_ARRAY precision 1000 (the writer\'s limit)', { type: Type.BYTE_ARRAY, logicalType: dec(1000, 500) }],
    ['BYTE_ARRAY precision 65536, scale 65536 (the bound)', { type: Type.BYTE_ARRAY, logicalType: dec(65536, 65536) }],
    ['legacy converted_type DECIMAL(9, 2) on INT32', { type: Type.INT32, converted_type: ConvertedType.DECIMAL, precision: 9, scale: 2 }],
    ['legacy converted_type DECIMAL without scale (0)', { type: Type.INT64, converted_type: ConvertedType.DECIMAL, precision: 12 }],
    ['a LogicalType DECIMAL is read over contrary legacy fields', { type: Type.INT32, logicalType: dec(5, 2), converted_type: ConvertedType.DECIMAL, precision: 50, scale: 70 }],
    ['legacy DECIMAL fields under a non-DECIMAL LogicalType are not read', { type: Type.BYTE_ARRAY, logicalType: { STRING: {} }, converted_type: ConvertedType.DECIMAL }],
  ];
  test.each(valid)('%s is read', (_, leaf) => {
    expect(outcome(schemaOf(leaf))).toMatch(/^ok /);
  });

  const rule = { type: 'DECIMAL annotates INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY' };
  const invalid: [Omit<SchemaElement, 'name'>, string][] = [
    // the QA report's footers (scale/precision set in both annotations, the LogicalType read)
    [{ type: Type.INT32, logicalType: dec(9, 2147483647) }, `DECIMAL(9, 2147483647) on INT32: scale 2147483647 is outside 0..precision`],
    [{ type: Type.INT32, logicalType: dec(9, 65535) }, `DECIMAL(9, 65535) on INT32: scale 65535 is outside 0..precision`],
    [{ type: Type.INT32, logicalType: dec(9, -5) }, `DECIMAL(9, -5) on INT32: scale -5 is outside 0..precision`],
    [{ type: Type.INT32, logicalType: dec(9, -2147483648) }, `DECIMAL(9, -2147483648) on INT32: scale -2147483648 is outside 0..precision`],
    [{ type: Type.INT32, logicalType: dec(9, 20) }, `DECIMAL(9, 20) on INT32: scale 20 is outside 0..precision`],
    [{ type: Type.INT32, logicalType: dec(2147483647, 2) }, `DECIMAL(2147483647, 2) on INT32: precision 2147483647 is outside 1..9`],
    [{ type: Type.INT32, logicalType: dec(1000000, 1000000) }, `DECIMAL(1000000, 1000000) on INT32: precision 1000000 is outside 1..9`],
    // precision by physical type
    [{ type: Type.INT32, logicalType: dec(0, 0) }, `DECIMAL(0, 0) on INT32: precision 0 is outside 1..9`],
    [{ type: Type.INT32, logicalType: dec(-1, 0) }, `DECIMAL(-1, 0) on INT32: precision -1 is outside 1..9`],
    [{ type: Type.INT32, logicalType: dec(10, 0) }, `DECIMAL(10, 0) on INT32: precision 10 is outside 1..9`],
    [{ type: Type.INT64, logicalType: dec(19, 2) }, `DECIMAL(19, 2) on INT64: precision 19 is outside 1..18`],
    [{ type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 1, logicalType: dec(3, 0) }, `DECIMAL(3, 0) on FIXED_LEN_BYTE_ARRAY(1): precision 3 is outside 1..2`],
    [{ type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 4, logicalType: dec(10, 0) }, `DECIMAL(10, 0) on FIXED_LEN_BYTE_ARRAY(4): precision 10 is outside 1..9`],
    [{ type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 16, logicalType: dec(39, 0) }, `DECIMAL(39, 0) on FIXED_LEN_BYTE_ARRAY(16): precision 39 is outside 1..38`],
    [{ type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 418, logicalType: dec(1007, 0) }, `DECIMAL(1007, 0) on FIXED_LEN_BYTE_ARRAY(418): precision 1007 is outside 1..1006`],
    [{ type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 2147483647, logicalType: dec(65537, 0) }, `DECIMAL(65537, 0) on FIXED_LEN_BYTE_ARRAY(2147483647): precision 65537 is outside 1..65536`],
    [{ type: Type.FIXED_LEN_BYTE_ARRAY, logicalType: dec(5, 0) }, `DECIMAL(5, 0) on FIXED_LEN_BYTE_ARRAY(0): precision 5 is outside 1..-1`],
    [{ type: Type.BYTE_ARRAY, logicalType: dec(65537, 2) }, `DECIMAL(65537, 2) on BYTE_ARRAY: precision 65537 is outside 1..65536`],
    [{ type: Type.BYTE_ARRAY, logicalType: dec(2147483647, 2147483647) }, `DECIMAL(2147483647, 2147483647) on BYTE_ARRAY: precision 2147483647 is outside 1..65536`],
    // physical types DECIMAL does not annotate
    [{ type: Type.DOUBLE, logicalType: dec(9, 2) }, `DECIMAL(9, 2) on DOUBLE: ${rule.type}`],
    [{ type: Type.BOOLEAN, logicalType: dec(1, 0) }, `DECIMAL(1, 0) on BOOLEAN: ${rule.type}`],
    [{ type: Type.INT96, converted_type: ConvertedType.DECIMAL, precision: 9, scale: 0 }, `converted_type DECIMAL(9, 0) on INT96: ${rule.type}`],
    // the legacy converted_type with the element's scale/precision
    [{ type: Type.INT32, converted_type: ConvertedType.DECIMAL, precision: 9, scale: 2147483647 }, `converted_type DECIMAL(9, 2147483647) on INT32: scale 2147483647 is outside 0..precision`],
    [{ type: Type.INT32, converted_type: ConvertedType.DECIMAL, precision: 9, scale: -1 }, `converted_type DECIMAL(9, -1) on INT32: scale -1 is outside 0..precision`],
    [{ type: Type.INT64, converted_type: ConvertedType.DECIMAL, precision: 40, scale: 2 }, `converted_type DECIMAL(40, 2) on INT64: precision 40 is outside 1..18`],
    [{ type: Type.INT32, converted_type: ConvertedType.DECIMAL, scale: 2 }, `converted_type DECIMAL(undefined, 2) on INT32: precision undefined is outside 1..9`],
    [{ type: Type.BYTE_ARRAY, converted_type: ConvertedType.DECIMAL }, `converted_type DECIMAL(undefined, 0) on BYTE_ARRAY: precision undefined is outside 1..65536`],
    // an empty LogicalType union falls back to the converted_type
    [{ type: Type.INT32, logicalType: {}, converted_type: ConvertedType.DECIMAL, precision: 4, scale: 5 }, `converted_type DECIMAL(4, 5) on INT32: scale 5 is outside 0..precision`],
  ];
  test.each(invalid)('%j is INVALID_SCHEMA naming the field, precision, scale and rule', (leaf, message) => {
    expect(outcome(schemaOf(leaf))).toBe(`INVALID_SCHEMA: parquet-levels: field 'd' (schema element 1): ${message}`);
  });

  test('a group annotated DECIMAL, and a DECIMAL leaf deep in a list, are named by path and element', () => {
    const group: SchemaElement[] = [{ name: 'root', num_children: 1 }, { name: 'g', num_children: 1, logicalType: dec(9, 2) }, { name: 'x', type: Type.INT32 }];
    expect(outcome(group)).toBe(`INVALID_SCHEMA: parquet-levels: field 'g' (schema element 1): DECIMAL(9, 2) on a group: ${rule.type}`);
    const nested: SchemaElement[] = [
      { name: 'root', num_children: 1 },
      { name: 'l', repetition_type: FieldRepetitionType.OPTIONAL, num_children: 1, converted_type: ConvertedType.LIST },
      { name: 'list', repetition_type: FieldRepetitionType.REPEATED, num_children: 1 },
      { name: 'element', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.FIXED_LEN_BYTE_ARRAY, type_length: 8, converted_type: ConvertedType.DECIMAL, precision: 19, scale: 4 },
    ];
    expect(outcome(nested)).toBe(`INVALID_SCHEMA: parquet-levels: field 'l.list.element' (schema element 3): converted_type DECIMAL(19, 4) on FIXED_LEN_BYTE_ARRAY(8): precision 19 is outside 1..18`);
  });

  test('the FIXED_LEN_BYTE_ARRAY bound is floor(log10(2^(8n-1) - 1)), exactly, up to the 2^16-digit bound', () => {
    // every length up to 64 bytes, then a sample up to past the bound (27,214 bytes are the first to hold 65,536 digits)
    const lengths = [...Array.from({ length: 64 }, (_, i) => i + 1), ...Array.from({ length: 280 }, (_, i) => 65 + i * 97), 27212, 27213, 27214];
    for (const n of lengths) {
      const digits = ((1n << BigInt(8 * n - 1)) - 1n).toString().length - 1;
      const at = (p: number) => outcome(schemaOf({ type: Type.FIXED_LEN_BYTE_ARRAY, type_length: n, logicalType: dec(p, 0) }));
      const max = Math.min(digits, 65536);
      expect(at(max), `n=${n}`).toMatch(/^ok /);
      expect(at(max + 1), `n=${n}`).toMatch(/^INVALID_SCHEMA/);
    }
  });
});
