// Malformed shredded rows: the upstream shredded_variant rows (read with @parquetry/parquet-reader), with
// bytes of their `metadata`/`value` binaries mutated at any nesting level, must merge to a value or throw a
// ParquetError, never anything else.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { mergeShredded, variantColumnLayout, type ShreddedShape, type VariantSchemaNode } from '../src/index.js';

const DIR = path.resolve(import.meta.dirname, '../../../../shared/parquet-testing/shredded_variant');
const HAVE = fs.existsSync(path.join(DIR, 'cases.json'));
if (!HAVE) console.warn(`parquet-variant: ${DIR} absent, skipping the shredded-row fuzz`);

interface ReaderNode {
  name: string;
  element: { type?: number; type_length?: number };
  repetition: number;
  logicalType: VariantSchemaNode['logicalType'];
  children: readonly ReaderNode[];
}
const adapt = (n: ReaderNode): VariantSchemaNode => ({
  name: n.name,
  physicalType: n.element.type as VariantSchemaNode['physicalType'],
  typeLength: n.element.type_length,
  repetition: n.repetition as VariantSchemaNode['repetition'],
  logicalType: n.logicalType,
  children: n.element.type === undefined ? n.children.map(adapt) : undefined,
});
const READER = '@parquetry/parquet-reader';

type Row = { metadata: Uint8Array; value?: Uint8Array | null; typed_value?: unknown };

/** Every Uint8Array reachable in a row (depth-first). */
function binaries(x: unknown, out: Uint8Array[] = []): Uint8Array[] {
  if (x instanceof Uint8Array) out.push(x);
  else if (Array.isArray(x)) for (const e of x) binaries(e, out);
  else if (typeof x === 'object' && x !== null) for (const v of Object.values(x)) binaries(v, out);
  return out;
}
/** A deep copy of `x` with its n-th Uint8Array (depth-first) replaced by `f(it)`. */
function replaceNth(x: unknown, n: { i: number }, f: (b: Uint8Array) => Uint8Array): unknown {
  if (x instanceof Uint8Array) return n.i-- === 0 ? f(x) : x;
  if (Array.isArray(x)) return x.map((e) => replaceNth(e, n, f));
  if (typeof x === 'object' && x !== null) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, replaceNth(v, n, f)]));
  return x;
}

describe.skipIf(!HAVE)('shredded-row fuzz', () => {
  test('mutated binaries in real shredded rows: a value or a ParquetError', async () => {
    const { openParquet } = (await import(/* @vite-ignore */ READER)) as {
      openParquet(b: Uint8Array): Promise<{ schema: { root: ReaderNode }; readRows(o?: { variants: 'raw' }): Promise<Record<string, unknown>[]> }>;
    };
    const cases = JSON.parse(fs.readFileSync(path.join(DIR, 'cases.json'), 'utf8')) as { parquet_file?: string; error_message?: string }[];
    const rows: { row: Row; shape: ShreddedShape | null }[] = [];
    for (const c of cases) {
      if (c.parquet_file === undefined || c.error_message !== undefined) continue;
      const pf = await openParquet(new Uint8Array(fs.readFileSync(path.join(DIR, c.parquet_file))));
      const node = pf.schema.root.children.find((n) => n.logicalType?.VARIANT !== undefined)!;
      const shape = variantColumnLayout(adapt(node)).typed;
      for (const r of await pf.readRows({ variants: 'raw' })) {
        const v = r[node.name] as Row | null;
        if (v !== null && binaries(v).length > 1) rows.push({ row: v, shape });
      }
    }
    expect(rows.length).toBeGreaterThan(50);
    const tally = { ok: 0, error: 0 };
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean(), (r, which, at, byte, cut) => {
        const { row, shape } = rows[r % rows.length]!;
        const count = binaries(row).length;
        const mutated = replaceNth(row, { i: which % count }, (b) => {
          if (b.length === 0) return Uint8Array.of(byte);
          const c = cut ? b.slice(0, at % b.length) : b.slice();
          if (!cut) c[at % c.length] = byte;
          return c;
        }) as Row;
        try {
          mergeShredded(mutated.metadata, mutated.value, mutated.typed_value, shape);
          tally.ok++;
        } catch (e) {
          if (!isParquetError(e)) throw e;
          tally.error++;
        }
      }),
      { numRuns: 4_000 },
    );
    console.log(`parquet-variant: shredded-row fuzz 4000 mutated rows → ${tally.ok} merged, ${tally.error} ParquetError, 0 other`);
    expect(tally.error).toBeGreaterThan(200);
  });
});
