/**
 * The generated model covers every enum value, struct, union and field of parquet.thrift as listed in
 * ../shared/spec/parquet-thrift-facts.json, and the committed generated code is what the generator makes.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as pq from '@parquetry/thrift-compact';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const factsPath = path.resolve(repo, '../shared/spec/parquet-thrift-facts.json');
const HAVE = fs.existsSync(factsPath);
if (!HAVE) console.warn(`skipping model-vs-facts tests: ${factsPath} not found`);

interface Field { id: number; name: string; type: string; requiredness: string }
interface Facts { enums: Record<string, Record<string, number>>; structs: Record<string, Field[]>; unions: Record<string, Field[]> }

describe.skipIf(!HAVE)('model vs parquet.thrift facts', () => {
  const facts = (HAVE ? JSON.parse(fs.readFileSync(factsPath, 'utf8')) : { enums: {}, structs: {}, unions: {} }) as Facts;
  const model = pq as unknown as Record<string, unknown>;

  test('every enum and enum value', () => {
    expect(Object.keys(facts.enums).length).toBeGreaterThan(5);
    for (const [name, members] of Object.entries(facts.enums)) {
      expect(model[name], `enum ${name}`).toEqual(members);
    }
  });

  test('every enum\'s names map (built from the enum when the module loads) names each value once, as the facts do', () => {
    for (const [name, members] of Object.entries(facts.enums)) {
      const expected: Record<string, string> = {};
      for (const [m, v] of Object.entries(members)) expected[v] = m;
      const names = model[`${name}Names`] as Record<number, string>;
      expect(names, `${name}Names`).toEqual(expected);
      expect(Object.keys(names).length, `${name}Names`).toBe(new Set(Object.values(members)).size);
    }
    expect(pq.TypeNames[7]).toBe('FIXED_LEN_BYTE_ARRAY');
    expect(pq.EncodingNames[8]).toBe('RLE_DICTIONARY');
    expect(pq.CompressionCodecNames[1]).toBe('SNAPPY');
  });

  test('every struct and union, with every field id, name, type and requiredness', () => {
    const norm = (fs: readonly Field[]) => [...fs].map(({ id, name, type, requiredness }) => ({ id, name, type, requiredness })).sort((a, b) => a.id - b.id);
    for (const [name, fields] of Object.entries(facts.structs)) {
      expect(pq.THRIFT_STRUCTS[name], `struct ${name}`).toBeDefined();
      expect(norm(pq.THRIFT_STRUCTS[name]!), `struct ${name}`).toEqual(norm(fields));
    }
    for (const [name, fields] of Object.entries(facts.unions)) {
      expect(pq.THRIFT_UNIONS[name], `union ${name}`).toBeDefined();
      expect(norm(pq.THRIFT_UNIONS[name]!), `union ${name}`).toEqual(norm(fields));
    }
    for (const name of [...Object.keys(facts.structs), ...Object.keys(facts.unions)]) {
      expect(typeof model[`read${name}`], `read${name}`).toBe('function');
      expect(typeof model[`write${name}`], `write${name}`).toBe('function');
    }
    expect(Object.keys(facts.unions.LogicalType ?? []).length).toBe(18);
  });

  test('each field is read from its field id', () => {
    // write a struct holding only field `id` by hand, then check the generated reader puts it under `name`
    for (const [name, fields] of Object.entries(facts.structs)) {
      for (const f of fields) {
        if (f.type !== 'i32' && f.type !== 'i64') continue;
        const w = new pq.CompactWriter();
        w.structBegin();
        for (const g of fields) {
          if (g.requiredness !== 'required' && g !== f) continue;
          // required siblings: write a zero/empty value of their type so the reader accepts the struct
          w.fieldBegin(wireOf(g.type), g.id);
          writeZero(w, g.type, g === f ? 7 : 0);
        }
        w.structEnd();
        const read = model[`read${name}`] as (r: pq.CompactReader) => Record<string, unknown>;
        const v = pq.decodeThrift(read, w.finish()).value;
        expect(v[f.name], `${name}.${f.name} (id ${f.id})`).toBe(7);
      }
    }
  });

  test('the committed generated code matches the generator output (no drift)', () => {
    execFileSync(process.execPath, [path.join(repo, 'tools/thrift-codegen/generate.mjs'), '--check', factsPath], { stdio: 'pipe' });
  });

  function wireOf(t: string): number {
    if (t.startsWith('list<')) return 9;
    if (t in facts.enums) return 5;
    return ({ bool: 1, i8: 3, i16: 4, i32: 5, i64: 6, double: 7, binary: 8, string: 8 } as Record<string, number>)[t] ?? 12;
  }
  function writeZero(w: pq.CompactWriter, t: string, v: number): void {
    const wire = wireOf(t);
    if (wire === 9) w.listBegin(5, 0);
    else if (wire === 12) {
      // a struct or union: the smallest valid value is one with its required fields set
      const fields = facts.structs[t] ?? facts.unions[t]!;
      w.structBegin();
      const req = facts.unions[t] ? fields.slice(0, 1) : fields.filter((g) => g.requiredness === 'required');
      for (const g of req) {
        w.fieldBegin(wireOf(g.type), g.id);
        writeZero(w, g.type, 0);
      }
      w.structEnd();
    } else if (wire === 8) w.binary(new Uint8Array(0));
    else if (wire === 7) w.double(v);
    else if (wire === 6) w.i64(v);
    else if (wire === 1) return; // a struct field's boolean lives in its header
    else w.i32(v);
  }
});
