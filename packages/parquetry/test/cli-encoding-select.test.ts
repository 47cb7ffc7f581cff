/**
 * `rewrite`/`convert --encoding ENC` (no column) is for every column whose physical type ENC can write: those get
 * it (without a dictionary), the others keep the defaults; only when no column can take it is it a usage error.
 * Before, the writer failed on the first column of another type (`INVALID_OPTION`, exit 1), so the documented
 * "(or every column)" form failed on any file of mixed types. `--encoding COL=ENC` on a column ENC cannot write is
 * a usage error naming the column, its type and the types ENC takes.
 *
 * The source is written by DuckDB (INT32, INT64, BYTE_ARRAY, DOUBLE, FLOAT, BOOLEAN, a UUID as
 * FIXED_LEN_BYTE_ARRAY(16), a struct of INT32 and BYTE_ARRAY); the footer's encodings are read back with
 * `meta --json`; the rows with our reader, DuckDB (which reads these encodings but ALP, and BYTE_STREAM_SPLIT of
 * FLOAT and DOUBLE only) and pyarrow for BYTE_STREAM_SPLIT (when PARQUETRY_PYTHON is set). The types each encoding
 * takes are Encodings.md's, written out here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckRows, duckdb, lit, run } from './cli-helpers.js';
import { openFile } from '../src/node.js';

const PYTHON = process.env['PARQUETRY_PYTHON'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-encoding-'));
const src = path.join(dir, 'mixed.parquet');
const ints = path.join(dir, 'ints.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const db = await duckdb();
  await db.run(`COPY (SELECT i::INTEGER AS i32, (i * 1000000007)::BIGINT AS i64, 'name ' || (i % 17) AS s, (i * 1.25)::DOUBLE AS d,
      (i / 8)::FLOAT AS f, i % 3 = 0 AS b, uuid() AS u, {'a': i::INTEGER, 'z': 'z' || (i % 5)} AS st
    FROM range(0, 2000) t(i)) TO ${lit(src)} (FORMAT parquet)`);
  await db.run(`COPY (SELECT i::INTEGER AS a, i::BIGINT AS b FROM range(0, 100) t(i)) TO ${lit(ints)} (FORMAT parquet)`);
});

/** Encodings.md: the physical types each value encoding takes. */
const TAKES: Record<string, string[]> = {
  DELTA_BYTE_ARRAY: ['BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'],
  DELTA_LENGTH_BYTE_ARRAY: ['BYTE_ARRAY'],
  DELTA_BINARY_PACKED: ['INT32', 'INT64'],
  BYTE_STREAM_SPLIT: ['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'FIXED_LEN_BYTE_ARRAY'],
  ALP: ['FLOAT', 'DOUBLE'],
  RLE: ['BOOLEAN'],
};
const PHYSICAL: Record<string, string> = { i32: 'INT32', i64: 'INT64', s: 'BYTE_ARRAY', d: 'DOUBLE', f: 'FLOAT', b: 'BOOLEAN', u: 'FIXED_LEN_BYTE_ARRAY', 'st.a': 'INT32', 'st.z': 'BYTE_ARRAY' };

interface Chunk {
  path: string;
  encodings: string[];
  dictionary_page_offset: unknown;
}
async function chunks(file: string): Promise<Chunk[]> {
  const r = await run('meta', file, '--json');
  expect(r.code).toBe(0);
  return (JSON.parse(r.out.join('\n')) as { row_groups: { columns: Chunk[] }[] }).row_groups[0]!.columns;
}
async function rowsOf(file: string): Promise<unknown[]> {
  const f = await openFile(file);
  try {
    return await f.readRows();
  } finally {
    await f.close();
  }
}

describe('--encoding ENC for every column', () => {
  test('each encoding goes to the columns whose type takes it, without a dictionary; the others keep theirs', async () => {
    const expectedRows = await rowsOf(src);
    const before = await chunks(src);
    expect(before.map((c) => c.path)).toEqual(Object.keys(PHYSICAL));
    for (const [enc, types] of Object.entries(TAKES)) {
      const out = path.join(dir, `every-${enc}.parquet`);
      const r = await run('rewrite', src, out, '--encoding', enc);
      expect({ enc, code: r.code, err: r.err }).toEqual({ enc, code: 0, err: [] });
      const after = await chunks(out);
      for (const c of after) {
        const where = { enc, path: c.path };
        if (types.includes(PHYSICAL[c.path]!)) {
          // the values in the encoding (levels are RLE), no dictionary
          expect({ ...where, encodings: [...new Set(c.encodings)].sort() }).toEqual({ ...where, encodings: [...new Set(['RLE', enc])].sort() });
          expect({ ...where, dict: c.dictionary_page_offset }).toEqual({ ...where, dict: null });
        } else {
          // the defaults: PLAIN, or a dictionary (RLE_DICTIONARY) where it pays
          expect({ ...where, default: c.encodings.some((e) => e === 'PLAIN' || e === 'RLE_DICTIONARY'), has: enc !== 'RLE' && c.encodings.includes(enc) }).toEqual({ ...where, default: true, has: false });
        }
      }
      // a column the encoding cannot write keeps the default: a dictionary where the source's strings had one
      if (!types.includes('BYTE_ARRAY')) expect(after.find((c) => c.path === 's')!.encodings).toContain('RLE_DICTIONARY');
      expect(await rowsOf(out)).toEqual(expectedRows);
      // DuckDB 1.5 reads BYTE_STREAM_SPLIT of FLOAT and DOUBLE only ("only supported for FLOAT or DOUBLE data"), and
      // no ALP; pyarrow reads BYTE_STREAM_SPLIT of every type it is written for
      if (enc !== 'ALP' && enc !== 'BYTE_STREAM_SPLIT') {
        const { rows } = await duckRows(`SELECT count(*) AS n FROM (SELECT * FROM read_parquet(${lit(src)}) EXCEPT ALL SELECT * FROM read_parquet(${lit(out)}))`);
        expect(rows[0]!['n']).toBe('0');
      }
      if (enc === 'BYTE_STREAM_SPLIT' && PYTHON !== undefined) {
        const py = execFileSync(PYTHON, ['-c', 'import sys, pyarrow.parquet as pq; print(pq.read_table(sys.argv[1]).equals(pq.read_table(sys.argv[2])))', src, out], { encoding: 'utf8' });
        expect(py.trim()).toBe('True');
      }
    }
  });

  test('a per-column encoding wins over the every-column one; convert of a CSV settles it on the inferred schema', async () => {
    const out = path.join(dir, 'mixed-override.parquet');
    expect((await run('rewrite', src, out, '--encoding', 'BYTE_STREAM_SPLIT', '--encoding', 'i32=DELTA_BINARY_PACKED')).code).toBe(0);
    const byPath = new Map((await chunks(out)).map((c) => [c.path, c.encodings]));
    expect(byPath.get('i32')).toContain('DELTA_BINARY_PACKED');
    expect(byPath.get('i32')).not.toContain('BYTE_STREAM_SPLIT');
    expect(byPath.get('st.a')).toContain('BYTE_STREAM_SPLIT');
    expect(byPath.get('d')).toContain('BYTE_STREAM_SPLIT');
    expect(byPath.get('s')).not.toContain('BYTE_STREAM_SPLIT');

    const csv = path.join(dir, 'mixed.csv');
    fs.writeFileSync(csv, 'id,name,price\n1,a,1.5\n2,b,2.25\n3,a,3\n');
    const fromCsv = path.join(dir, 'from-csv.parquet');
    expect((await run('convert', csv, fromCsv, '--encoding', 'DELTA_BYTE_ARRAY')).code).toBe(0);
    const csvChunks = new Map((await chunks(fromCsv)).map((c) => [c.path, c.encodings]));
    expect(csvChunks.get('name')).toContain('DELTA_BYTE_ARRAY');
    expect(csvChunks.get('id')).not.toContain('DELTA_BYTE_ARRAY');
  });

  test('no column can take it: a usage error naming the types it takes and the columns\' types', async () => {
    const out = path.join(dir, 'ints-alp.parquet');
    const r = await run('rewrite', ints, out, '--encoding', 'ALP');
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`parquetry: --encoding ALP: no column of the output can take it (ALP takes FLOAT, DOUBLE; the columns are INT32, INT64)`]);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('--encoding COL=ENC on a column ENC cannot write: a usage error naming the column, its type and ENC\'s types', async () => {
    const cases: [string, string][] = [
      ['i32=ALP', `--encoding i32=ALP: column 'i32' is INT32; ALP takes FLOAT, DOUBLE`],
      ['s=DELTA_BINARY_PACKED', `--encoding s=DELTA_BINARY_PACKED: column 's' is BYTE_ARRAY; DELTA_BINARY_PACKED takes INT32, INT64`],
      ['st=DELTA_LENGTH_BYTE_ARRAY', `--encoding st=DELTA_LENGTH_BYTE_ARRAY: column 'st.a' (under 'st') is INT32; DELTA_LENGTH_BYTE_ARRAY takes BYTE_ARRAY`],
      ['u=DELTA_LENGTH_BYTE_ARRAY', `--encoding u=DELTA_LENGTH_BYTE_ARRAY: column 'u' is FIXED_LEN_BYTE_ARRAY; DELTA_LENGTH_BYTE_ARRAY takes BYTE_ARRAY`],
      ['b=BYTE_STREAM_SPLIT', `--encoding b=BYTE_STREAM_SPLIT: column 'b' is BOOLEAN; BYTE_STREAM_SPLIT takes INT32, INT64, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY`],
    ];
    for (const [arg, message] of cases) {
      const out = path.join(dir, 'bad.parquet');
      const r = await run('rewrite', src, out, '--encoding', arg);
      expect({ arg, code: r.code, err: r.err }).toEqual({ arg, code: 2, err: [`parquetry: ${message}`] });
      expect(fs.existsSync(out)).toBe(false);
    }
  });
});
