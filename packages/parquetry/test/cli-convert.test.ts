/**
 * `parquetry convert` and `parquetry rewrite`: inputs generated in a temp dir, outputs checked with DuckDB reading
 * the same input (`read_csv`, `read_json`, `read_parquet` of the source) and with our reader; the rewrite matrix
 * (every codec × page version) read back and its footer inspected; options taking effect in the footer; errors,
 * exit codes, and no output left by a failed or interrupted convert.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { convertFile, type ConvertJob } from '../src/node/convert.js';
import { main, openFile } from '../src/node.js';

let con: DuckDBConnection;
let dir: string;
beforeAll(async () => {
  con = await (await DuckDBInstance.create(':memory:')).connect();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-convert-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const at = (name: string): string => path.join(dir, name);

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, (l) => out.push(l), { error: (l) => err.push(l) });
  return { code, out, err };
}

async function duck(sql: string, params: string[] = []): Promise<Record<string, unknown>[]> {
  return (await con.runAndReadAll(sql, params)).getRowObjectsJson() as Record<string, unknown>[];
}

async function types(from: string, params: string[]): Promise<string[]> {
  return (await duck(`DESCRIBE SELECT * FROM ${from}`, params)).map((r) => `${String(r.column_name)}: ${String(r.column_type)}`);
}

/** Rows of `a` not in `b` plus rows of `b` not in `a` (multiset difference), as DuckDB computes it; `$1`, `$2` are `params`. */
async function difference(a: string, b: string, params: string[]): Promise<number> {
  const [x] = await duck(`SELECT (SELECT count(*) FROM (SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b})) + (SELECT count(*) FROM (SELECT * FROM ${b} EXCEPT ALL SELECT * FROM ${a})) AS n`, params);
  return Number(x!.n);
}

/** Files in the temp dir now (to see that a failed convert leaves neither the output nor its temporary file). */
const listing = (): string[] => fs.readdirSync(dir).sort();

/** A seeded generator (mulberry32), so the fixtures are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** A CSV of every sniffed type, nulls, quoting, multi-line and non-ASCII strings; > 1 MiB so it spans reads. */
function makeCsv(rows: number): string {
  const rand = rng(7);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const nul = (s: string): string => (rand() < 0.05 ? '' : s);
  const words = ['plain', 'with, comma', 'say "hi"', 'two\nlines', 'crlf\r\ninside', 'café', '日本語', '🙂 emoji', 'a;b', '  spaced  out'];
  const quote = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const lines = ['id,big,name,price,flag,day,seen,seen_tz,at,zip'];
  for (let i = 0; i < rows; i++) {
    const big = (BigInt(Math.floor(rand() * 2 ** 32)) << 31n) ^ BigInt(Math.floor(rand() * 2 ** 31));
    const sec = Math.floor(rand() * 4e9) - 1e9;
    const iso = new Date(sec * 1000).toISOString();
    const digits = Math.floor(rand() * 7);
    const frac = digits ? `.${String(Math.floor(rand() * 10 ** digits)).padStart(digits, '0')}` : '';
    const off = pick([0, 60, -90, 330, -600]);
    const zoned = new Date((sec + off * 60) * 1000).toISOString().slice(0, 19);
    const zone = off === 0 ? 'Z' : `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
    lines.push([
      String(i),
      nul(String(rand() < 0.5 ? -big : big)),
      nul(quote(`${pick(words)} ${i}`)),
      nul(pick([() => (rand() * 1e6 - 5e5).toFixed(Math.floor(rand() * 7)), () => String(rand() * 1e-8), () => String(Math.floor(rand() * 100))])()),
      nul(pick(['true', 'false', 'TRUE', 'False'])),
      nul(iso.slice(0, 10)),
      nul(`${iso.slice(0, 10)}${pick(['T', ' '])}${iso.slice(11, 19)}${frac}`),
      nul(`${zoned}${frac}${zone}`),
      nul(`${iso.slice(11, 19)}${frac}`),
      nul(`0${Math.floor(rand() * 9999)}`),
    ].join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe('convert CSV', () => {
  test('every type, nulls and quoting, across reads: the same types and rows as DuckDB read_csv', async () => {
    const csv = at('mixed.csv');
    fs.writeFileSync(csv, makeCsv(20_000));
    expect(fs.statSync(csv).size).toBeGreaterThan(1.5 * 2 ** 20);
    const out = at('mixed.parquet');
    expect(await run('convert', csv, out)).toEqual({ code: 0, out: [], err: [] });
    const want = await types('read_csv(?, header = true)', [csv]);
    expect(want).toEqual([
      'id: BIGINT', 'big: BIGINT', 'name: VARCHAR', 'price: DOUBLE', 'flag: BOOLEAN', 'day: DATE', 'seen: TIMESTAMP',
      'seen_tz: TIMESTAMP WITH TIME ZONE', 'at: TIME', 'zip: VARCHAR',
    ]);
    expect(await types('read_parquet(?)', [out])).toEqual(want);
    expect(await difference('read_csv($1, header = true)', 'read_parquet($2)', [csv, out])).toBe(0);
    const [{ n }] = (await duck('SELECT count(*)::INTEGER AS n FROM read_parquet(?)', [out])) as [{ n: number }];
    expect(n).toBe(20_000);
    // and our reader: row 0 computed from the same generator, independently of both parsers
    const f = await openFile(out);
    const [row] = await f.readRows({ rowEnd: 1 });
    await f.close();
    const line = makeCsv(1).split('\n')[1]!;
    expect(row!.id).toBe(0n);
    expect(row!.zip).toBe(line.split(',').at(-1) || null);
  });

  test('--type overrides win over the sniffer: int32, decimal, timestamp[ms], uint8, string; --schema file; --null-value, --delimiter, --no-header', async () => {
    const csv = at('typed.csv');
    fs.writeFileSync(csv, 'id;price;ts;small;code;note\n1;12.50;2024-01-02T03:04:05.123;200;0042;NA\n2;-0.01;2024-01-02 00:00:00;0;17;x\n3;NA;NA;;NA;NA\n');
    const schemaFile = at('typed.schema.json');
    fs.writeFileSync(schemaFile, JSON.stringify({ code: { type: 'string' }, id: { type: 'int64', required: true } }));
    const out = at('typed.parquet');
    const r = await run('convert', csv, out, '--delimiter', ';', '--null-value', 'NA', '--schema', schemaFile, '--type', 'id=int32', '--type', 'price=decimal(10,2)', '--type', 'ts=timestamp[ms]', '--type', 'small=uint8');
    expect(r).toEqual({ code: 0, out: [], err: [] });
    const schema = await duck('SELECT name, type, converted_type, logical_type::VARCHAR AS lt, repetition_type FROM parquet_schema(?)', [out]);
    expect(schema.slice(1).map((x) => [x.name, x.type, x.converted_type])).toEqual([
      ['id', 'INT32', null], ['price', 'INT64', 'DECIMAL'], ['ts', 'INT64', 'TIMESTAMP_MILLIS'], ['small', 'INT32', 'UINT_8'], ['code', 'BYTE_ARRAY', 'UTF8'], ['note', 'BYTE_ARRAY', 'UTF8'],
    ]);
    const rows = await duck('SELECT id, price::VARCHAR AS price, ts::VARCHAR AS ts, small, code, note FROM read_parquet(?)', [out]);
    expect(rows).toEqual([
      { id: 1, price: '12.50', ts: '2024-01-02 03:04:05.123', small: 200, code: '0042', note: null },
      { id: 2, price: '-0.01', ts: '2024-01-02 00:00:00', small: 0, code: '17', note: 'x' },
      { id: 3, price: null, ts: null, small: null, code: null, note: null },
    ]);
    // --schema alone (required field): the --type of id above won; here the schema's int64 applies
    const out2 = at('typed2.parquet');
    expect((await run('convert', csv, out2, '--delimiter=;', '--null-value=NA', '--schema', schemaFile)).code).toBe(0);
    const s2 = await duck('SELECT name, type, repetition_type FROM parquet_schema(?) WHERE name = ?', [out2, 'id']);
    expect(s2).toEqual([{ name: 'id', type: 'INT64', repetition_type: 'REQUIRED' }]);
    // without a header: column0.., the first line is data
    const out3 = at('noheader.parquet');
    expect((await run('convert', csv, out3, '--delimiter', ';', '--no-header')).code).toBe(0);
    const s3 = await duck('SELECT column0, column5 FROM read_parquet(?) LIMIT 1', [out3]);
    expect(s3).toEqual([{ column0: 'id', column5: 'note' }]);
  });

  test('the other --type forms: float, uint64, time[ms], time[ns], int8, uint16, json, enum, uuid, binary (DuckDB reads them back)', async () => {
    const csv = at('forms.csv');
    fs.writeFileSync(csv, 'f,u,t,tn,i8,u16,j,e,id,b\n3.25,18446744073709551615,12:00:00.5,23:59:59.123456789,-128,65535,[1],b,123E4567-e89b-12d3-a456-426614174000,xyz\n-0.5,0,00:00,00:00:00,127,0,{"a":1},a,,\n');
    const out = at('forms.parquet');
    const r = await run('convert', csv, out, '--type', 'f=float', '--type', 'u=uint64', '--type', 't=time[ms]', '--type', 'tn=time64[ns]', '--type', 'i8=tinyint', '--type', 'u16=uint16',
      '--type', 'j=json', '--type', 'e=enum', '--type', 'id=uuid', '--type', 'b=blob');
    expect(r).toEqual({ code: 0, out: [], err: [] });
    expect(await types('read_parquet(?)', [out])).toEqual([
      'f: FLOAT', 'u: UBIGINT', 't: TIME', 'tn: TIME_NS', 'i8: TINYINT', 'u16: USMALLINT', 'j: JSON', 'e: VARCHAR', 'id: UUID', 'b: BLOB',
    ]);
    expect(await duck('SELECT f, u::VARCHAR AS u, t::VARCHAR AS t, tn::VARCHAR AS tn, i8, u16, j::VARCHAR AS j, e, id::VARCHAR AS id, b::VARCHAR AS b FROM read_parquet(?)', [out])).toEqual([
      { f: 3.25, u: '18446744073709551615', t: '12:00:00.5', tn: '23:59:59.123456789', i8: -128, u16: 65535, j: '[1]', e: 'b', id: '123e4567-e89b-12d3-a456-426614174000', b: 'xyz' },
      { f: -0.5, u: '0', t: '00:00:00', tn: '00:00:00', i8: 127, u16: 0, j: '{"a":1}', e: 'a', id: null, b: null },
    ]);
    const f = await openFile(out);
    expect((await f.readRows({ columns: ['tn'] }))[0]).toEqual({ tn: 86399_123456789n });
    await f.close();
    const over = await run('convert', csv, at('forms-bad.parquet'), '--type', 'u16=uint8');
    expect(over.code).toBe(1);
    expect(over.err[0]).toBe('parquetry: INVALID_VALUE: CSV line 2, column \'u16\': expected an integer in 0..255 (uint8), got "65535"');
  });

  test('a json column takes JSON text only (QA helper-85 F19: a cell that is not JSON was written, and DuckDB refused the whole file)', async () => {
    // every value DuckDB takes as JSON, whitespace around it included, and an empty field (null)
    const good = at('json-good.csv');
    fs.writeFileSync(good, 'i,j\n1,"{""a"": [1, 2.5e3, null]}"\n2,\n3," ""text"" "\n4,-0.5\n5,true\n');
    const out = at('json-good.parquet');
    expect(await run('convert', good, out, '--type', 'j=json')).toEqual({ code: 0, out: [], err: [] });
    expect(await duck('SELECT i, j::VARCHAR AS j, json_valid(j::VARCHAR) AS valid FROM read_parquet(?) ORDER BY i', [out])).toEqual([
      { i: '1', j: '{"a": [1, 2.5e3, null]}', valid: true },
      { i: '2', j: null, valid: null },
      { i: '3', j: ' "text" ', valid: true },
      { i: '4', j: '-0.5', valid: true },
      { i: '5', j: 'true', valid: true },
    ]);
    // a field that is not JSON, after 3,000 good ones: INVALID_VALUE naming the line, the column, the text and why; no
    // output file
    const bad = at('json-bad.csv');
    fs.writeFileSync(bad, `i,j\n${Array.from({ length: 3000 }, (_, k) => `${k},"{""k"": ${k}}"\n`).join('')}3000,{bad\n`);
    const badOut = at('json-bad.parquet');
    const r = await run('convert', bad, badOut, '--type', 'j=json');
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^parquetry: INVALID_VALUE: CSV line 3002, column 'j': expected JSON text \(RFC 8259\), got "\{bad" \(.*JSON.*\)$/);
    expect(fs.existsSync(badOut)).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.includes('json-bad.parquet'))).toEqual([]);
    // a text that is JSON's prefix or holds two values is not one document
    for (const text of ['{"a":1', '1 2', "{'a':1}", 'NaN']) {
      fs.writeFileSync(bad, `j\n"${text.replaceAll('"', '""')}"\n`);
      const e = await run('convert', bad, badOut, '--type', 'j=json');
      expect([text, e.code, e.err[0]]).toEqual([text, 1, expect.stringMatching(/^parquetry: INVALID_VALUE: CSV line 2, column 'j': expected JSON text/)]);
      expect(fs.existsSync(badOut)).toBe(false);
    }
  });

  test('NDJSON and JSON: a string for a top-level json column must be JSON text', async () => {
    const nd = at('json-col.ndjson');
    fs.writeFileSync(nd, '{"i":1,"j":"{\\"a\\":1}"}\n{"i":2,"j":null}\n{"i":3,"j":"not json"}\n');
    const out = at('json-col.parquet');
    const r = await run('convert', nd, out, '--type', 'j=json');
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^parquetry: INVALID_VALUE: NDJSON line 3, column 'j': the string "not json" is not JSON text \(RFC 8259: .*\); a JSON column holds JSON documents$/);
    expect(fs.existsSync(out)).toBe(false);
    const js = at('json-col.json');
    fs.writeFileSync(js, JSON.stringify([{ i: 1, j: '[1]' }, { i: 2, j: '[1' }]));
    const j = await run('convert', js, out, '--type', 'j=json');
    expect(j.code).toBe(1);
    expect(j.err[0]).toMatch(/column 'j': the string "\[1" is not JSON text/);
    expect(fs.existsSync(out)).toBe(false);
    // the valid rows: written, DuckDB reads them as JSON
    fs.writeFileSync(nd, '{"i":1,"j":"{\\"a\\":1}"}\n{"i":2,"j":null}\n');
    expect((await run('convert', nd, out, '--type', 'j=json')).code).toBe(0);
    expect(await duck('SELECT j::VARCHAR AS j, json_valid(j::VARCHAR) AS v FROM read_parquet(?) ORDER BY i', [out])).toEqual([{ j: '{"a":1}', v: true }, { j: null, v: null }]);
  });

  test('a tab-separated .tsv and a byte order mark: as DuckDB reads them', async () => {
    const tsv = at('tabs.tsv');
    fs.writeFileSync(tsv, '\ufeffk\tv\n1\ta b\n2\t"c\td"\n');
    const out = at('tabs.parquet');
    expect((await run('convert', tsv, out)).code).toBe(0);
    expect(await difference("read_csv($1, delim = '\t', header = true)", 'read_parquet($2)', [tsv, out])).toBe(0);
    expect(await duck('SELECT * FROM read_parquet(?)', [out])).toEqual([{ k: '1', v: 'a b' }, { k: '2', v: 'c\td' }]);
  });

  test('random tables with random layout, read in tiny windows: our reader returns the values that were written as text', async () => {
    type Kind = 'int64' | 'double' | 'boolean' | 'date' | 'ts' | 'tstz' | 'string';
    const kinds: Kind[] = ['int64', 'double', 'boolean', 'date', 'ts', 'tstz', 'string'];
    const MIN_US = BigInt(Date.UTC(1, 0, 1)) * 1000n;
    const MAX_US = BigInt(Date.UTC(9999, 11, 31)) * 1000n;
    const value = (k: Kind): fc.Arbitrary<{ text: string; want: unknown }> => {
      switch (k) {
        case 'int64': return fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).map((v) => ({ text: String(v), want: v }));
        case 'double': return fc.double().map((v) => ({ text: String(v), want: Number(String(v)) }));
        case 'boolean': return fc.boolean().chain((b) => fc.constantFrom(...(b ? ['true', 'TRUE', 't', '1', 'yes'] : ['false', 'False', 'f', '0', 'no'])).map((text) => ({ text, want: b })));
        case 'date': return fc.integer({ min: Date.UTC(0, 0, 1) / 864e5, max: Date.UTC(9999, 11, 31) / 864e5 }).map((d) => ({ text: new Date(d * 864e5).toISOString().slice(0, 10), want: d }));
        case 'ts':
        case 'tstz':
          return fc.tuple(fc.bigInt(MIN_US, MAX_US), fc.integer({ min: -14 * 60, max: 14 * 60 })).map(([us, off]) => {
            const ms = Number(us / 1000n - (us % 1000n < 0n ? 1n : 0n));
            const micros = String(Number(((us % 1_000_000n) + 1_000_000n) % 1_000_000n)).padStart(6, '0');
            if (k === 'ts') return { text: `${new Date(ms).toISOString().slice(0, 19)}.${micros}`, want: us };
            const zone = `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
            return { text: `${new Date(ms + off * 60000).toISOString().slice(0, 19)}.${micros}${zone}`, want: us };
          });
        case 'string': return fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }).map((s) => ({ text: s, want: s }));
      }
    };
    const table = fc
      .record({ cols: fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 5 }), rows: fc.integer({ min: 0, max: 30 }) })
      .chain(({ cols, rows }) =>
        fc.record({
          cols: fc.constant(cols),
          data: fc.array(fc.tuple(...cols.map((k) => fc.option(value(k), { freq: 6 }))), { minLength: rows, maxLength: rows }),
          delimiter: fc.constantFrom(',', ';', '\t', '|'),
          eol: fc.constantFrom('\n', '\r\n'),
          quoteAll: fc.boolean(),
          trailing: fc.boolean(),
          readSize: fc.integer({ min: 1, max: 200 }),
        }),
      );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(table, async ({ cols, data, delimiter, eol, quoteAll, trailing, readSize }) => {
        const names = cols.map((_, i) => `c${i}`);
        const quote = (s: string): string => (quoteAll || s.includes(delimiter) || /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
        // a null is an empty field; a record of one null field is written "" (an empty line would be skipped)
        const lines = [names.join(delimiter), ...data.map((row) => row.map((v) => (v === null ? (cols.length === 1 ? '""' : '') : quote(v.text))).join(delimiter))];
        const file = at(`prop-${n++}.csv`);
        fs.writeFileSync(file, lines.join(eol) + (trailing ? eol : ''));
        const out = `${file}.parquet`;
        const typesByKind: Record<Kind, string> = { int64: 'int64', double: 'double', boolean: 'boolean', date: 'date', ts: 'timestamp[us]', tstz: 'timestamptz[us]', string: 'string' };
        const { parseType } = await import('../src/node/cli-types.js');
        const job: ConvertJob = {
          input: file, output: out, format: 'csv', write: {}, sample: 1 + (n % 7), readSize, sync: false,
          types: Object.fromEntries(cols.map((k, i) => [`c${i}`, parseType(typesByKind[k], `c${i}`)])),
          csv: { delimiter: delimiter.charCodeAt(0), header: true, nullValue: undefined },
        };
        const res = await convertFile(job);
        expect(res.rows).toBe(data.length);
        const f = await openFile(out);
        const got = await f.readRows();
        await f.close();
        expect(got).toEqual(data.map((row) => Object.fromEntries(row.map((v, i) => [`c${i}`, v === null ? null : v.want]))));
        fs.rmSync(file);
        fs.rmSync(out);
      }),
      { numRuns: 60 },
    );
  });
});

describe('convert NDJSON and JSON', () => {
  function makeRows(n: number): Record<string, unknown>[] {
    const rand = rng(11);
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < n; i++) {
      const row: Record<string, unknown> = { id: i, score: Math.round(rand() * 1e6) / 1e3 + 0.5, name: rand() < 0.1 ? null : `n "${i}"\n\u00e9`, ok: rand() < 0.5 };
      if (rand() < 0.8) row.tags = Array.from({ length: Math.floor(rand() * 4) }, (_, k) => k * i);
      if (rand() < 0.8) row.pos = { x: Math.floor(rand() * 1000) - 500, label: rand() < 0.5 ? null : `p${i}` };
      rows.push(row);
    }
    return rows;
  }
  const asJson = async (sql: string, params: string[]): Promise<unknown[]> =>
    (await duck(`SELECT to_json(t)::VARCHAR AS j FROM ${sql} t ORDER BY t.id`, params)).map((r) => JSON.parse(String(r.j)) as unknown);

  test('NDJSON (blank lines, CRLF, missing keys, nested values, > 1 MiB): the rows DuckDB read_json reads', async () => {
    const rows = makeRows(15_000);
    const file = at('rows.ndjson');
    fs.writeFileSync(file, rows.map((r, i) => JSON.stringify(r) + (i % 1000 === 5 ? '\r\n\n' : '\n')).join(''));
    expect(fs.statSync(file).size).toBeGreaterThan(2 ** 20);
    const out = at('rows-ndjson.parquet');
    expect(await run('convert', file, out, '--compression', 'zstd')).toEqual({ code: 0, out: [], err: [] });
    const want = await asJson("read_json(?, format = 'newline_delimited')", [file]);
    expect(want.length).toBe(15_000);
    expect(await asJson('read_parquet(?)', [out])).toEqual(want);
    const f = await openFile(out);
    expect(f.metadata.row_groups[0]!.columns[0]!.meta_data!.codec).toBe(6); // ZSTD
    await f.close();
  });

  test('a JSON array (loaded whole), with a timestamp column given by --type from ISO strings', async () => {
    const rows = makeRows(3000).map((r, i) => ({ ...r, when: new Date(Date.UTC(2020, 0, 1) + i * 3_600_123).toISOString() }));
    const file = at('rows.json');
    fs.writeFileSync(file, JSON.stringify(rows));
    const out = at('rows-json.parquet');
    expect((await run('convert', file, out, '--type', 'when=timestamptz[ms]', '--type', 'id=int64')).code).toBe(0);
    expect(await types('read_parquet(?)', [out])).toContain('when: TIMESTAMP WITH TIME ZONE');
    expect(await types('read_parquet(?)', [out])).toContain('id: BIGINT');
    const a = await duck("SELECT id, \"when\"::TIMESTAMPTZ::VARCHAR AS w FROM read_json(?, format = 'array', columns = {id: 'BIGINT', \"when\": 'VARCHAR'}) ORDER BY id", [file]);
    const b = await duck('SELECT id, "when"::VARCHAR AS w FROM read_parquet(?) ORDER BY id', [out]);
    expect(b).toEqual(a);
    expect(await asJson("read_json(?, format = 'array', columns = {id: 'BIGINT', score: 'DOUBLE', name: 'VARCHAR', ok: 'BOOLEAN', tags: 'BIGINT[]', pos: 'STRUCT(x BIGINT, label VARCHAR)'})", [file]))
      .toEqual(await asJson('(SELECT * EXCLUDE ("when") FROM read_parquet(?))', [out]));
  });
});

/** A DuckDB-written file with nested and logical types in 3 row groups. */
async function duckFile(name: string): Promise<string> {
  const file = at(name);
  await con.run(`COPY (SELECT i::INTEGER AS i, (i * 1000000007)::BIGINT AS b, 'n' || (i % 50) AS s, i / 7 AS d, (i / 3)::DECIMAL(10,2) AS dec,
      DATE '2020-01-01' + i::INTEGER AS day, TIMESTAMP '2020-01-01' + INTERVAL (i) SECOND AS ts, CASE WHEN i % 5 = 0 THEN NULL ELSE [i, i + 1] END AS l,
      {'a': i, 'b': 'x' || i} AS st, MAP {'k' || i: i} AS m, (i % 2 = 0) AS bo, encode('b' || i) AS bl FROM range(3000) t(i))
    TO '${file}' (ROW_GROUP_SIZE 1000)`);
  return file;
}

describe('Parquet in: convert and rewrite', () => {
  let src: string;
  let srcRows: Record<string, unknown>[];
  let srcGroups: number;
  beforeAll(async () => {
    src = await duckFile('duck.parquet');
    const f = await openFile(src);
    srcRows = await f.readRows();
    srcGroups = f.metadata.row_groups.length;
    await f.close();
  });

  test('convert Parquet → Parquet keeps rows, schema and row groups (DuckDB compares)', async () => {
    const out = at('copy.parquet');
    expect((await run('convert', src, out, '-c', 'gzip', '--level', '9')).code).toBe(0);
    expect(await types('read_parquet(?)', [out])).toEqual(await types('read_parquet(?)', [src]));
    expect(await difference('read_parquet($1)', 'read_parquet($2)', [src, out])).toBe(0);
    expect(srcGroups).toBeGreaterThan(1);
    expect(await duck('SELECT num_row_groups::INTEGER AS g FROM parquet_file_metadata(?)', [out])).toEqual([{ g: srcGroups }]);
    expect(new Set((await duck('SELECT compression FROM parquet_metadata(?)', [out])).map((r) => r.compression))).toEqual(new Set(['GZIP']));
  });

  const CODECS = ['uncompressed', 'snappy', 'gzip', 'lzo', 'brotli', 'lz4', 'zstd', 'lz4_raw'] as const;
  const NUMBER: Record<string, number> = { uncompressed: 0, snappy: 1, gzip: 2, lzo: 3, brotli: 4, lz4: 5, zstd: 6, lz4_raw: 7 };
  for (const codec of CODECS) {
    for (const pv of ['1', '2'] as const) {
      test(`rewrite -c ${codec} --page-version ${pv}: same rows, the footer names the codec and page version`, async () => {
        const out = at(`rw-${codec}-${pv}.parquet`);
        expect(await run('rewrite', src, out, '-c', codec, '--page-version', pv)).toEqual({ code: 0, out: [], err: [] });
        const f = await openFile(out);
        try {
          expect(f.metadata.row_groups.length).toBe(srcGroups);
          expect(f.metadata.version).toBe(Number(pv));
          for (const rg of f.metadata.row_groups) {
            for (const cc of rg.columns) {
              const md = cc.meta_data!;
              expect(md.codec).toBe(NUMBER[codec]);
              const pages = new Set(md.encoding_stats!.map((s) => s.page_type).filter((t) => t !== 2));
              expect([...pages]).toEqual([pv === '2' ? 3 : 0]); // DATA_PAGE_V2 : DATA_PAGE
            }
          }
          expect(await f.readRows()).toEqual(srcRows);
        } finally {
          await f.close();
        }
        const meta = await run('meta', out);
        const chunkLines = meta.out.filter((l) => /^ {2}\S/.test(l));
        expect(chunkLines.length).toBeGreaterThan(0);
        expect(chunkLines.every((l) => l.includes(`: ${codec.toUpperCase()} `))).toBe(true);
        if (codec !== 'lzo' && codec !== 'lz4') expect(await difference('read_parquet($1)', 'read_parquet($2)', [src, out])).toBe(0);
      });
    }
  }

  test('rewrite options reach the footer: --no-dictionary, --encoding, --row-group-size, --page-size', async () => {
    const pagesOf = async (file: string): Promise<number> => {
      const f = await openFile(file);
      const i = f.schema.columns.findIndex((c) => c.pathString === 'i');
      let n = 0;
      for (const rg of f.metadata.row_groups) for (const s of rg.columns[i]!.meta_data!.encoding_stats!) if (s.page_type === 0) n += s.count;
      await f.close();
      return n;
    };
    const small = at('rw-pages.parquet');
    const base = at('rw-base.parquet');
    expect((await run('rewrite', src, small, '--page-size', '1k', '--no-dictionary')).code).toBe(0);
    expect((await run('rewrite', src, base, '--no-dictionary')).code).toBe(0);
    expect(await pagesOf(base)).toBe(srcGroups);
    // 3000 INT32s of 4 bytes in pages of about 1 KiB (cut at the writer's 1024-value runs): more than one per group
    expect(await pagesOf(small)).toBeGreaterThan(srcGroups);
    const out = at('rw-options.parquet');
    const r = await run('rewrite', src, out, '--no-dictionary', '--encoding', 'b=DELTA_BINARY_PACKED', '--encoding', 's=delta_byte_array', '--encoding', 'st.a=DELTA_BINARY_PACKED', '--encoding', 'd=BYTE_STREAM_SPLIT', '--row-group-size', '700');
    expect(r).toEqual({ code: 0, out: [], err: [] });
    const f = await openFile(out);
    try {
      expect(f.metadata.row_groups.map((g) => Number(g.num_rows))).toEqual([700, 700, 700, 700, 200]);
      const byPath = (p: string) => f.metadata.row_groups[0]!.columns[f.schema.columns.findIndex((c) => c.pathString === p)]!.meta_data!;
      expect(byPath('b').encodings).toContain(5);
      expect(byPath('s').encodings).toContain(7);
      expect(byPath('st.a').encodings).toContain(5);
      expect(byPath('d').encodings).toContain(9);
      expect(byPath('i').encodings).not.toContain(5);
      for (const cc of f.metadata.row_groups[0]!.columns) expect(cc.meta_data!.dictionary_page_offset).toBeUndefined();
      expect(await f.readRows()).toEqual(srcRows);
    } finally {
      await f.close();
    }
    expect(await difference('read_parquet($1)', 'read_parquet($2)', [src, out])).toBe(0);
  });
});

describe('errors and exit codes', () => {
  test('usage errors exit 2 with one line naming what was wrong', async () => {
    const csv = at('ok.csv');
    fs.writeFileSync(csv, 'a,b\n1,x\n');
    const cases: [string[], RegExp][] = [
      [['bogus'], /unknown command 'bogus'/],
      [['convert'], /convert takes an input and an output file, none was given/],
      [['convert', csv], /only '.*ok\.csv' was given/],
      [['convert', csv, at('o.parquet'), '--bogus'], /unknown option '--bogus'/],
      [['convert', csv, at('o.parquet'), '-c'], /option '--compression' needs a value|option '-c' needs a value/],
      [['convert', csv, at('o.parquet'), '-c', 'zip'], /unknown codec 'zip'/],
      [['convert', csv, at('o.parquet'), '--page-version', '3'], /--page-version is 1 or 2/],
      [['convert', csv, at('o.parquet'), '--row-group-size', '0'], /--row-group-size takes a positive whole number/],
      [['convert', csv, at('o.parquet'), '--type', 'a=int128'], /--type a=int128: unknown type 'int128'/],
      [['convert', csv, at('o.parquet'), '--type', 'a=decimal(3,5)'], /--type a=decimal\(3,5\)/],
      [['convert', csv, at('o.parquet'), '--type', 'nope=int64'], /'nope' is not a column of the CSV input \(columns: a, b\)/],
      [['convert', csv, at('o.parquet'), '--encoding', 'a=ZIGZAG'], /unknown encoding 'ZIGZAG'/],
      [['convert', csv, at('o.parquet'), '--encoding', 'zz=PLAIN'], /no column 'zz' in the output schema/],
      [['convert', csv, at('o.parquet'), '--level', '5'], /--level applies to gzip, zstd and brotli, not snappy/],
      [['convert', csv, at('o.parquet'), '-c', 'zstd', '--level', '99'], /--level for zstd is 1..22/],
      [['convert', at('x.txt'), at('o.parquet')], /cannot tell the format of '.*x\.txt'/],
      // QA helper-84 F8: the input given as the output was replaced by the Parquet file (exit 0); '-' made a file '-'
      [['convert', csv, csv], /convert: the output '.*ok\.csv' is the input file; it would be replaced by the Parquet file: give another output path/],
      [['convert', csv, '-'], /convert writes a Parquet file to a path; '-' \(standard output\) is not one/],
      // QA helper-84 F12: a second value of an option that takes one replaced the first silently
      [['convert', csv, at('o.parquet'), '-c', 'zstd', '-c', 'snappy'], /convert: option '--compression' was given twice \('zstd' and 'snappy'\); give it once$/],
      [['head', csv, '--where', 'a > 1', '--where', 'a < 5'], /head: option '--where' was given twice \('a > 1' and 'a < 5'\); give it once \(join conditions with and\)$/],
      [['head', csv, '--columns', 'a', '--columns', 'b'], /head: option '--columns' was given twice \('a' and 'b'\); give it once \(one comma-separated list\)$/],
      [['convert', at('x.parquet'), at('o.parquet'), '--delimiter', ';'], /--delimiter: CSV options, but the input is parquet/],
      [['convert', csv, at('o.parquet'), '--delimiter', 'ab'], /--delimiter takes one ASCII character/],
      [['rewrite', csv, at('o.parquet'), '--type', 'a=int64'], /unknown option '--type'/],
      [['head', csv, '--bogus'], /unknown option '--bogus'/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err[0], argv.join(' ')).toMatch(message);
      expect(r.err.length, argv.join(' ')).toBe(1);
      expect(r.out).toEqual([]);
    }
    expect(listing().filter((n) => n.startsWith('o.parquet') || n.startsWith('.o.parquet') || n === '-')).toEqual([]);
    expect(fs.readFileSync(csv, 'utf8')).toBe('a,b\n1,x\n');
    const help = await run('help', 'convert');
    expect(help.code).toBe(0);
    expect(help.out[0]).toMatch(/^usage: parquetry convert <in> <out> \[options\]/);
  });

  test('a CSV whose lines end with CR alone is INVALID_CSV, and nothing is written (QA helper-84 F17: a 0-row file with a column named "b\\r1")', async () => {
    const csv = at('cr.csv');
    fs.writeFileSync(csv, 'a,b\r1,2\r3,4\r');
    const r = await run('convert', csv, at('cr.parquet'));
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(/^parquetry: INVALID_CSV: '.*cr\.csv': its lines end with a carriage return alone \(CR, not LF or CRLF\), which this reader does not split; convert the line endings to LF or CRLF$/)]);
    expect(fs.existsSync(at('cr.parquet'))).toBe(false);
    // CRLF is read as before
    fs.writeFileSync(csv, 'a,b\r\n1,2\r\n');
    expect((await run('convert', csv, at('crlf.parquet'))).code).toBe(0);
    fs.rmSync(at('crlf.parquet'));
  });

  test('an output that is not a regular file (a device, a FIFO) is refused, and left as it was (QA helper-84 F20)', async () => {
    const csv = at('dev.csv');
    fs.writeFileSync(csv, 'a\n1\n');
    // a FIFO of our own (never the system's /dev/null, which a failing run would replace)
    const fifo = at('out.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await run('convert', csv, fifo);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(/^parquetry: cannot create '.*out\.fifo': it is a FIFO \(named pipe\); .*give the path of a regular file$/)]);
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
    fs.rmSync(fifo);
  });

  test('failures exit 1 and leave no output (nor a temporary file); an existing output is left as it was', async () => {
    const before = listing();
    const missing = await run('convert', at('missing.csv'), at('m.parquet'));
    expect(missing.code).toBe(1);
    expect(missing.err).toEqual([expect.stringMatching(/^parquetry: cannot open '.*missing\.csv': ENOENT/)]);
    fs.mkdirSync(at('folder.csv'));
    const folder = await run('convert', at('folder.csv'), at('m.parquet'));
    expect(folder.code).toBe(1);
    expect(folder.err).toEqual([expect.stringMatching(/^parquetry: EISDIR: /)]);
    fs.rmdirSync(at('folder.csv'));
    const csv = at('ragged.csv');
    fs.writeFileSync(csv, 'a,b\n1,2\n3\n');
    const ragged = await run('convert', csv, at('m.parquet'));
    expect(ragged.code).toBe(1);
    expect(ragged.err).toEqual(['parquetry: INVALID_CSV: CSV line 3: 1 fields, but the first record has 2']);
    // a value past the sample that does not fit the sniffed type: the file was started, then removed
    const late = at('late.csv');
    fs.writeFileSync(late, `n\n${Array.from({ length: 50_000 }, (_, i) => i).join('\n')}\nabc\n`);
    fs.writeFileSync(at('m.parquet'), 'old contents');
    const bad = await run('convert', late, at('m.parquet'), '--row-group-size', '1000');
    expect(bad.code).toBe(1);
    expect(bad.err[0]).toMatch(/^parquetry: INVALID_VALUE: CSV line 50002, column 'n': expected an integer in the int64 range, got "abc"; the type was inferred from the first 10000 rows/);
    expect(fs.readFileSync(at('m.parquet'), 'utf8')).toBe('old contents');
    fs.rmSync(at('m.parquet'));
    const noDirOut = path.join(dir, 'no-such-dir', 'o.parquet');
    const noDir = await run('convert', late, noDirOut);
    expect(noDir.code).toBe(1);
    // one line, one prefix, the output named (not the temporary file beside it)
    expect(noDir.err).toEqual([`parquetry: cannot create '${noDirOut}': ENOENT: no such file or directory (creating the temporary file beside it)`]);
    const notParquet = await run('rewrite', csv, at('m.parquet'));
    expect(notParquet.code).toBe(1);
    expect(notParquet.err[0]).toMatch(/^parquetry: (NOT_PARQUET|CORRUPT_FOOTER): /);
    const badJson = at('bad.ndjson');
    fs.writeFileSync(badJson, '{"a":1}\n{"a":\n');
    const bj = await run('convert', badJson, at('m.parquet'));
    expect(bj.code).toBe(1);
    expect(bj.err[0]).toMatch(/^parquetry: INVALID_JSON: NDJSON line 2: /);
    const lateKey = at('late-key.ndjson');
    fs.writeFileSync(lateKey, '{"a":1}\n{"a":2}\n{"a":3,"d":null}\n{"a":4,"b":"late"}\n');
    const lk = await run('convert', lateKey, at('m.parquet'), '--sample', '2');
    expect(lk.code).toBe(1);
    expect(lk.err[0]).toMatch(/^parquetry: UNKNOWN_COLUMN: NDJSON line 4: key 'b' is not a column of the schema inferred from the first 2 rows \(columns: a\)/);
    expect((await run('convert', lateKey, at('m.parquet'), '--sample', '2', '--type', 'b=string')).code).toBe(0);
    fs.rmSync(at('m.parquet'));
    // a key first seen after the sample inside a struct, in a list of structs, or in a map's struct values: refused
    // too (the values would be dropped), while a null one and a VARIANT value's keys pass
    const lateNested = at('late-nested.ndjson');
    for (const [lines, err] of [
      ['{"s":{"x":1}}\n{"s":{"x":2}}\n{"s":{"x":3,"y":null}}\n{"s":{"x":4,"y":"late"}}\n', /^parquetry: UNKNOWN_COLUMN: NDJSON line 4: key 's\.y' is not a field of 's' of the schema inferred from the first 2 rows \(its fields: x\); give 's' a type with --type or sample more rows with --sample/],
      ['{"l":[{"x":1}]}\n{"l":[]}\n{"l":[{"x":2},{"x":3,"z":true}]}\n', /^parquetry: UNKNOWN_COLUMN: NDJSON line 3: key 'l\.z' is not a field of 'l'/],
    ] as const) {
      fs.writeFileSync(lateNested, lines);
      const r = await run('convert', lateNested, at('m.parquet'), '--sample', '2');
      expect(r.code).toBe(1);
      expect(r.err[0]).toMatch(err);
    }
    fs.rmSync(lateNested);
    const mixed = at('mixed.json');
    fs.writeFileSync(mixed, JSON.stringify([{ a: 1 }, { a: 'x' }]));
    const mj = await run('convert', mixed, at('m.parquet'));
    expect(mj.code).toBe(1);
    expect(mj.err[0]).toMatch(/^parquetry: SCHEMA_INFERENCE: .*column 'a' has mixed types.*--type 'column=TYPE'/);
    expect(listing()).toEqual([...before, 'bad.ndjson', 'late-key.ndjson', 'late.csv', 'mixed.json', 'ragged.csv'].sort());
  });

  test('an interrupted convert exits 130 and leaves no output', async () => {
    const late = at('late.csv');
    const stop = new AbortController();
    stop.abort();
    const r = await main(['convert', late, at('i.parquet')], () => {}, { error: () => {}, signal: stop.signal });
    expect(r).toBe(130);
    // interrupted mid-way, after batches were written
    const before = listing();
    const ctl = new AbortController();
    let batches = 0;
    const job: ConvertJob = {
      input: late, output: at('i.parquet'), format: 'csv', write: { rowGroupRows: 1000 }, types: {}, sample: 100, readSize: 4096,
      csv: { delimiter: 44, header: true, nullValue: undefined }, signal: ctl.signal,
      progress: () => {
        if (++batches === 20) ctl.abort();
      },
    };
    await expect(convertFile(job)).rejects.toMatchObject({ code: 'INTERRUPTED' });
    expect(batches).toBe(20);
    expect(listing()).toEqual(before);
  });

  test('progress: lines on stderr with --progress when it is not a terminal, none without', async () => {
    const csv = at('ok.csv');
    const lines: string[] = [];
    const io = { error: () => {}, progress: (t: string) => lines.push(t), progressIsTTY: false };
    expect(await main(['convert', csv, at('p.parquet')], () => {}, io)).toBe(0);
    expect(lines).toEqual([]);
    expect(await main(['convert', csv, at('p.parquet'), '--progress'], () => {}, io)).toBe(0);
    // one plain line of progress (no bar, no escape codes: not a terminal), then the summary
    expect(lines).toEqual([
      expect.stringMatching(/^100%  0\.0 \/ 0\.0 MB  1 rows  [\d.]+ MB\/s\n$/),
      expect.stringMatching(/^1 rows, 0\.0 MB read, [\d.]+ MB\/s; wrote 0\.0 MB\n$/),
    ]);
  });
});
