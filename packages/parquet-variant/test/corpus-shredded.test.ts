// The upstream shredded-variant cases (shredded_variant/cases.json): each case's parquet file is read
// with @parquetry/parquet-reader (row assembly only; its rows give `metadata`, `value` and the
// assembled `typed_value`), the shape is built from the file's schema, and mergeShredded must equal the
// decoded expected binary `case-NNN_row-R.variant.bin` — which is the metadata immediately followed by
// the value (the metadata is self-delimiting) — or raise a ParquetError for the error cases.
import fs from 'node:fs';
import path from 'node:path';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { decodeVariant, mergeShredded, splitVariantBinary, variantColumnLayout, type VariantSchemaNode } from '../src/index.js';

const DIR = path.resolve(import.meta.dirname, '../../../../shared/parquet-testing/shredded_variant');
const HAVE = fs.existsSync(path.join(DIR, 'cases.json'));
if (!HAVE) console.warn(`parquet-variant: ${DIR} absent, skipping the upstream shredded-variant cases`);

interface Case {
  case_number: number;
  test?: string;
  parquet_file?: string;
  variant_file?: string;
  variant_files?: (string | null)[];
  error_message?: string;
  notes?: string;
}

/** The reader's schema node, as far as this test uses it. */
interface ReaderNode {
  name: string;
  element: { type?: number; type_length?: number };
  repetition: number;
  logicalType: VariantSchemaNode['logicalType'];
  children: readonly ReaderNode[];
}
interface ReaderFile {
  schema: { root: ReaderNode };
  readRows(o?: { variants: 'raw' }): Promise<Record<string, unknown>[]>;
}

function adapt(n: ReaderNode): VariantSchemaNode {
  return {
    name: n.name,
    physicalType: n.element.type as VariantSchemaNode['physicalType'],
    typeLength: n.element.type_length,
    repetition: n.repetition as VariantSchemaNode['repetition'],
    logicalType: n.logicalType,
    children: n.element.type === undefined ? n.children.map(adapt) : undefined,
  };
}

// A non-literal specifier keeps this package's build free of a (cyclic) dependency on the reader;
// vitest resolves it to the reader's source through the workspace aliases.
const READER = '@parquetry/parquet-reader';

async function mergeFile(file: string): Promise<unknown[]> {
  const { openParquet } = (await import(/* @vite-ignore */ READER)) as { openParquet(b: Uint8Array): Promise<ReaderFile> };
  const pf = await openParquet(new Uint8Array(fs.readFileSync(path.join(DIR, file))));
  const node = pf.schema.root.children.find((c) => c.logicalType?.VARIANT !== undefined);
  if (node === undefined) throw new Error(`${file}: no VARIANT column`);
  const layout = variantColumnLayout(adapt(node));
  const rows = await pf.readRows({ variants: 'raw' });
  return rows.map((r) => {
    const v = r[node.name] as { metadata: Uint8Array; value?: Uint8Array | null; typed_value?: unknown } | null;
    if (v === null) return undefined; // the Variant column itself is null
    return mergeShredded(v.metadata, v.value, layout.typed === null ? null : v.typed_value, layout.typed);
  });
}

describe.skipIf(!HAVE)('upstream shredded_variant cases', () => {
  test('every case reconstructs its expected variant or is rejected', async () => {
    const cases = JSON.parse(fs.readFileSync(path.join(DIR, 'cases.json'), 'utf8')) as Case[];
    let valid = 0;
    let validPass = 0;
    let errors = 0;
    let errorsRejected = 0;
    const invalidOutcomes: string[] = [];
    const rejections: string[] = [];
    const failures: string[] = [];
    for (const c of cases) {
      if (c.parquet_file === undefined) continue; // upstream leaves case 3 empty
      const label = `case ${c.case_number} (${c.test})`;
      if (c.error_message !== undefined) {
        errors++;
        try {
          await mergeFile(c.parquet_file);
          failures.push(`${label}: not rejected (${c.error_message})`);
        } catch (e) {
          // Rejected by this package (not by the reader for some unrelated reason).
          if (isParquetError(e) && e.code.startsWith('VARIANT_')) {
            errorsRejected++;
            rejections.push(`${c.case_number}: ${e.message}`);
          } else failures.push(`${label}: rejected with ${String(e)}`);
        }
        continue;
      }
      const files = c.variant_files ?? [c.variant_file ?? null];
      if (c.notes !== undefined) {
        // Upstream: "not valid according to the spec and implementations can choose to error, or read the shredded value".
        try {
          const got = await mergeFile(c.parquet_file);
          const bin = new Uint8Array(fs.readFileSync(path.join(DIR, files[0]!)));
          const { metadata, value } = splitVariantBinary(bin);
          expect(got[0], label).toEqual(decodeVariant(metadata, value));
          invalidOutcomes.push(`${c.case_number}: read`);
        } catch (e) {
          if (!isParquetError(e)) throw e;
          invalidOutcomes.push(`${c.case_number}: rejected (${e.code})`);
        }
        continue;
      }
      valid++;
      try {
        const got = await mergeFile(c.parquet_file);
        expect(got.length, label).toBe(files.length);
        files.forEach((f, i) => {
          if (f === null) return void expect(got[i], `${label} row ${i}`).toBeUndefined();
          const { metadata, value } = splitVariantBinary(new Uint8Array(fs.readFileSync(path.join(DIR, f))));
          expect(got[i], `${label} row ${i}`).toEqual(decodeVariant(metadata, value));
        });
        validPass++;
      } catch (e) {
        failures.push(`${label}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    }
    console.log(
      `parquet-variant: shredded cases passing ${validPass}/${valid}, error cases rejected ${errorsRejected}/${errors}; ` +
        `spec-invalid cases (either outcome allowed): ${invalidOutcomes.join('; ')}`,
    );
    console.log(`parquet-variant: error cases rejected with:\n  ${rejections.join('\n  ')}`);
    expect(failures).toEqual([]);
    expect(valid).toBeGreaterThan(100);
  });
});
