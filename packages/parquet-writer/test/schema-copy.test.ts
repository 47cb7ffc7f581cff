/**
 * schemaFromElements: every schema of the parquet-testing corpus (plain and encrypted footers, read with
 * @parquetry/parquet-reader) is accepted and copied unchanged, from the element list and from the reader's schema
 * tree; malformed lists are INVALID_SCHEMA.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { FieldRepetitionType as R, ParquetError, Type as T, decodeThrift, readFileMetaData, type SchemaElement } from '@parquetry/thrift-compact';
import { buildSchemaTree, type SchemaTree } from '@parquetry/parquet-levels';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field, schemaElements, schemaFromElements } from '../src/schema.js';

// The reader is not a dependency of this package: a non-literal specifier keeps the typecheck independent of it,
// and vitest resolves it to the reader's source through the workspace aliases.
const READER = '@parquetry/parquet-reader';
interface ReaderModule {
  openParquet(bytes: Uint8Array, options: { codecs: unknown; decryption?: unknown }): Promise<{ metadata: { schema: SchemaElement[] }; schema: SchemaTree }>;
}

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing');
const HAVE_CORPUS = fs.existsSync(CORPUS);
if (!HAVE_CORPUS) console.warn(`parquet-writer schema-copy: ${CORPUS} not found; corpus schema tests are skipped`);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, keep));
    else if (keep(e.name)) out.push(path.relative(CORPUS, p));
  }
  return out.sort();
}

const plain = HAVE_CORPUS ? [...walk(path.join(CORPUS, 'data'), (n) => n.endsWith('.parquet')), ...walk(path.join(CORPUS, 'shredded_variant'), (n) => n.endsWith('.parquet'))] : [];
const encrypted = HAVE_CORPUS ? walk(path.join(CORPUS, 'data'), (n) => n.endsWith('.parquet.encrypted') && !n.startsWith('external_key_material')) : [];

// keys from parquet-testing/data's README (the same the reader's encryption tests use)
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const keys128 = { footerKey: enc('0123456789012345'), columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') } };
const cols256 = ['double_field', 'float_field', 'boolean_field', 'int32_field', 'ba_field', 'flba_field', 'int64_field', 'int96_field'];
const keys256 = {
  footerKey: enc('01234567890123456789012345678901'),
  columnKeys: Object.fromEntries(cols256.map((c, i) => [c === 'int64_field' ? 'int64_field.list.element' : c, enc(`123456789012345678901234567890${12 + i}`)])),
};
function decryptionFor(f: string): unknown {
  if (!f.endsWith('.encrypted')) return undefined;
  const base = f.includes('aes256') ? keys256 : keys128;
  return f.includes('_aad') || f.includes('disable_aad_storage') ? { ...base, aadPrefix: 'tester' } : base;
}

async function open(f: string): Promise<{ metadata: { schema: SchemaElement[] }; schema: SchemaTree }> {
  const { openParquet } = (await import(/* @vite-ignore */ READER)) as ReaderModule;
  const decryption = decryptionFor(f);
  return openParquet(new Uint8Array(fs.readFileSync(path.join(CORPUS, f))), { codecs: builtinCodecs(), ...(decryption === undefined ? {} : { decryption }) });
}

describe.skipIf(!HAVE_CORPUS)('corpus schemas are copied unchanged', () => {
  test('the set of files', () => {
    expect(plain.length).toBeGreaterThan(200);
    expect(encrypted.length).toBeGreaterThanOrEqual(10);
  });

  test.each([...plain, ...encrypted])('%s', async (f) => {
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(f);
    } catch (e) {
      // shredded_variant cases 127 and 137 are invalid on purpose (the reader rejects their Variant layout when it
      // opens them); their schema is still a valid Parquet schema: decode the footer directly and copy it
      expect(f).toMatch(/^shredded_variant\//);
      expect((e as ParquetError).code).toBe('VARIANT_SHREDDING_UNSUPPORTED');
      const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, f)));
      const len = new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 8, true);
      const schema = decodeThrift(readFileMetaData, bytes, bytes.length - 8 - len, bytes.length - 8).value.schema;
      expect(schemaFromElements(schema)).toStrictEqual(schema);
      return;
    }
    const schema = file.metadata.schema;
    const copy = schemaFromElements(schema);
    expect(copy).toStrictEqual(schema);
    expect(schemaFromElements(file.schema)).toStrictEqual(schema);
    // a deep copy: no element or logical type object is shared with the input
    copy.forEach((e, i) => {
      expect(e).not.toBe(schema[i]);
      if (e.logicalType !== undefined) expect(e.logicalType).not.toBe(schema[i]!.logicalType);
    });
    // and it builds the same tree
    expect(buildSchemaTree(copy).columns.map((c) => [c.pathString, c.maxDef, c.maxRep]))
      .toStrictEqual(file.schema.columns.map((c) => [c.pathString, c.maxDef, c.maxRep]));
  });
});

describe('schemaFromElements', () => {
  const good: SchemaElement[] = [
    { name: 'schema', num_children: 2 },
    { type: T.INT32, repetition_type: R.REQUIRED, name: 'a' },
    { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 3, repetition_type: R.OPTIONAL, name: 'b', logicalType: { UNKNOWN: {} } },
  ];

  test('accepts what schemaElements writes and what buildSchemaTree builds', () => {
    const els = schemaElements({ a: field.list(field.map(field.string(), field.variant({ shredding: field.int64() }))), d: field.decimal(30, 4) });
    expect(schemaFromElements(els)).toStrictEqual(els);
    expect(schemaFromElements(buildSchemaTree(els))).toStrictEqual(els);
    expect(schemaFromElements(good)).toStrictEqual(good);
  });

  test('the copy is independent of the input', () => {
    const input = structuredClone(good);
    const copy = schemaFromElements(input);
    input[2]!.logicalType = { STRING: {} };
    input[1]!.name = 'z';
    expect(copy).toStrictEqual(good);
  });

  const bad: [string, unknown, RegExp][] = [
    ['not a list', 5, /schema: expected a SchemaElement list or a SchemaTree, got 5 \(number\)/],
    ['null', null, /got null/],
    ['an object without elements', { root: {} }, /expected a SchemaElement list or a SchemaTree/],
    ['empty list', [], /empty schema element list/],
    ['element null', [{ name: 'schema', num_children: 1 }, null], /schema element 1: expected a SchemaElement object, got null/],
    ['name not a string', [{ name: 'schema', num_children: 1 }, { type: T.INT32, name: 7 }], /schema element 1: 'name' must be a string, got 7/],
    ['unknown physical type', [{ name: 'schema', num_children: 1 }, { type: 9, name: 'a' }], /schema element 1: \('a'\) unknown physical type 9/],
    ['FLBA without length', [{ name: 'schema', num_children: 1 }, { type: T.FIXED_LEN_BYTE_ARRAY, name: 'a' }], /\('a'\) FIXED_LEN_BYTE_ARRAY needs a positive type_length, got undefined/],
    ['FLBA length 0', [{ name: 'schema', num_children: 1 }, { type: T.FIXED_LEN_BYTE_ARRAY, type_length: 0, name: 'a' }], /needs a positive type_length, got 0/],
    ['fractional num_children', [{ name: 'schema', num_children: 1.5 }], /'num_children' must be an int32, got 1.5/],
    ['unknown repetition', [{ name: 'schema', num_children: 1 }, { type: T.INT32, repetition_type: 3, name: 'a' }], /\('a'\) unknown repetition_type 3/],
    ['logicalType not an object', [{ name: 'schema', num_children: 1 }, { type: T.INT32, name: 'a', logicalType: 'STRING' }], /logicalType must be an object, got 'STRING'/],
    ['num_children past the end', [{ name: 'schema', num_children: 2 }, { type: T.INT32, name: 'a' }], /num_children 2 but only 1 elements follow/],
    ['elements left over', [{ name: 'schema', num_children: 1 }, { type: T.INT32, name: 'a' }, { type: T.INT32, name: 'b' }], /covers 2 of 3 schema elements/],
    ['primitive with children', [{ name: 'schema', num_children: 1 }, { type: T.INT32, name: 'a', num_children: 1 }, { type: T.INT32, name: 'b' }], /primitive element 1 \('a'\) has num_children 1/],
  ];
  test.each(bad)('%s is INVALID_SCHEMA', (_n, input, message) => {
    let err: unknown;
    try {
      schemaFromElements(input as SchemaElement[]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParquetError);
    expect((err as ParquetError).code).toBe('INVALID_SCHEMA');
    expect((err as ParquetError).message).toMatch(/^parquet-writer: /);
    expect((err as ParquetError).message).toMatch(message);
  });
});
