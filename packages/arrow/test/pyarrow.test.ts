// Peer checks with Arrow C++ (pyarrow). pyarrow writes a table with every Arrow type that maps to Parquet; our
// Arrow table of its file must equal pyarrow's own read of it (both compared through Arrow IPC: pyarrow writes its
// table as an IPC stream, apache-arrow reads it), with and without the ARROW:schema metadata; the tables we write
// from Arrow must read back in pyarrow with the same types and values as its own file. Needs a Python with pyarrow:
// PARQUETRY_PYTHON=/path/to/python (CI sets it), else skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DataType, type Table, Type as ArrowType, tableFromIPC, tableToIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { allCodecs } from 'parquetry';
import { directoryStore, openDataset as openLocalDataset } from '@parquetry/parquet-dataset/node';
import { arrowSchemaOf, parquetSchemaOf, readArrowBatches, readArrowTable, readDatasetArrowTable, writeArrowDataset, writeArrowTable } from '../src/index.js';
import { columnsOf, describeSchema } from './compare.js';

const PYTHON = process.env.PARQUETRY_PYTHON;
if (PYTHON === undefined) console.warn('arrow: PARQUETRY_PYTHON (a python with pyarrow) is not set, pyarrow peer tests are skipped');
const PEER = fileURLToPath(new URL('./peers/pyarrow_peer.py', import.meta.url));
const CORPUS = process.env.PARQUET_TESTING_DIR ?? fileURLToPath(new URL('../../../../shared/parquet-testing', import.meta.url));
const codecs = await allCodecs();

function expectSameTable(ours: Table, theirs: Table): void {
  expect(describeSchema(ours.schema)).toEqual(describeSchema(theirs.schema));
  expect(ours.numRows).toBe(theirs.numRows);
  const a = columnsOf(ours);
  const b = columnsOf(theirs);
  for (const name of Object.keys(b)) expect(a[name], name).toEqual(b[name]);
}

describe.skipIf(PYTHON === undefined)('pyarrow peer', () => {
  let dir = '';
  const py = (...args: string[]) => execFileSync(PYTHON!, [PEER, ...args], { encoding: 'utf8', timeout: 120_000 });
  const ipc = (name: string) => tableFromIPC(fs.readFileSync(path.join(dir, name)));
  const open = async (name: string) => openParquet(new Uint8Array(fs.readFileSync(path.join(dir, name))), { codecs });
  /** pyarrow's read of one of our files, through IPC. */
  const pyRead = (file: string): Table => {
    const out = `${file}.arrows`;
    const r = JSON.parse(py('read', file, out)) as { ok?: boolean; error?: string };
    expect(r.error).toBeUndefined();
    return tableFromIPC(fs.readFileSync(out));
  };
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-arrow-pyarrow-'));
    expect(JSON.parse(py('write-all', dir)).rows).toBe(2500);
  });
  afterAll(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every Arrow type, written by pyarrow with ARROW:schema: our table equals pyarrow\'s read (types and values)', async () => {
    const file = await open('all.parquet');
    expect(file.metadata.row_groups.length).toBe(3);
    const ours = await readArrowTable(file);
    const theirs = ipc('all.arrows');
    // the types ARROW:schema restores, spelled out (the comparison below checks every column)
    const types = Object.fromEntries(describeSchema(ours.schema).map((l) => [l.slice(0, l.indexOf(':')).replace('?', ''), l]));
    expect(types.large_string).toBe('large_string?: LargeUtf8');
    expect(types.string_view).toBe('string_view?: Utf8View');
    expect(types.timestamp_ms_ny).toBe('timestamp_ms_ny?: Timestamp(1, America/New_York)');
    expect(types.timestamp_s_tz).toBe('timestamp_s_tz?: Timestamp(1, Asia/Tokyo)');
    expect(types.dict_string).toBe('dict_string?: Dictionary<Int8, Utf8, false>');
    expect(types.duration_ns).toBe('duration_ns?: Duration(3)');
    expect(types.decimal32).toBe('decimal32?: Decimal32(5, 2)');
    expect(types.decimal256).toBe('decimal256?: Decimal256(60, 5)');
    expect(types.fixed_size_list).toBe('fixed_size_list?: FixedSizeList(2)<element?: Int16>');
    expect(types.uuid).toBe('uuid?: FixedSizeBinary(16) {ARROW:extension:metadata=, ARROW:extension:name=arrow.uuid}');
    expect(types.with_id).toBe('with_id?: Int64 {PARQUET:field_id=42}');
    expectSameTable(ours, theirs);
  });

  test('without ARROW:schema: the types come from the Parquet schema alone, as Arrow C++ maps them', async () => {
    const ours = await readArrowTable(await open('all.noschema.parquet'));
    const theirs = ipc('all.noschema.arrows');
    const types = Object.fromEntries(describeSchema(ours.schema).map((l) => [l.slice(0, l.indexOf(':')).replace('?', ''), l]));
    expect(types.large_string).toBe('large_string?: Utf8');
    expect(types.timestamp_ms_ny).toBe('timestamp_ms_ny?: Timestamp(1, UTC)');
    expect(types.duration_ns).toBe('duration_ns?: Int64');
    expect(types.decimal32).toBe('decimal32?: Decimal128(5, 2)');
    expectSameTable(ours, theirs);
    // the same file with ARROW:schema ignored reads the same way (its key/value metadata aside)
    const ignored = await readArrowTable(await open('all.parquet'), { arrowSchema: false });
    expect(describeSchema(ignored.schema).slice(0, -1)).toEqual(describeSchema(ours.schema).slice(0, -1));
    expect(columnsOf(ignored)).toEqual(columnsOf(ours));
  });

  test('dictionary: true keeps byte-array columns as Arrow dictionaries, as pyarrow read_dictionary does', async () => {
    const ours = await readArrowTable(await open('all.noschema.parquet'), { dictionary: ['string', 'binary'] });
    expectSameTable(ours, ipc('all.dict.arrows'));
    // (the fields in the order `columns` gives, as pq.read_table(columns=…) orders them)
    const all = await readArrowTable(await open('all.noschema.parquet'), { dictionary: true, columns: ['string', 'json', 'int32'] });
    expect(describeSchema(all.schema).slice(0, 3)).toEqual([
      'string?: Dictionary<Int32, Utf8, false>',
      'json?: Dictionary<Int32, Utf8, false> {ARROW:extension:metadata=, ARROW:extension:name=arrow.json}',
      'int32?: Int32',
    ]);
    expect(columnsOf(all).string).toEqual(columnsOf(ours).string);
  });

  test('batches, projections, row ranges and filters give the same rows as the whole table', async () => {
    const file = await open('all.parquet');
    const whole = columnsOf(await readArrowTable(file));
    const cols = ['int64', 'string', 'struct', 'map', 'list_list', 'dict_string', 'decimal128'];
    const batches = [];
    for await (const b of readArrowBatches(file, { batchSize: 333, columns: cols })) batches.push(b);
    expect(batches.every((b) => b.numRows <= 333)).toBe(true);
    const { Table: T } = await import('apache-arrow');
    const joined = columnsOf(new T(batches));
    for (const c of cols) expect(joined[c], c).toEqual(whole[c]);
    const ranged = columnsOf(await readArrowTable(file, { columns: cols, rowStart: 900, rowEnd: 2100 }));
    for (const c of cols) expect(ranged[c], c).toEqual(whole[c]!.slice(900, 2100));
    const filtered = await readArrowTable(file, { columns: ['int32', 'string'], filter: { column: 'int32', op: '>', value: 0 } });
    const keep = whole.int32!.map((v) => v !== null && (v as number) > 0);
    expect(columnsOf(filtered).string).toEqual(whole.string!.filter((_, i) => keep[i]));
    expect(arrowSchemaOf(file, { columns: ['struct.y'] }).fields.map(String)).toEqual(['struct: Struct<{y:Struct<{z:Utf8}>}>']);
  });

  test('the Parquet schema we derive from the Arrow schema is pyarrow\'s', async () => {
    const source = ipc('source.arrows');
    const file = await open('all.parquet');
    expect(parquetSchemaOf(source.schema)).toEqual(file.metadata.schema);
  });

  test('tables we write from Arrow read in pyarrow with the types and values of pyarrow\'s own file', async () => {
    const source = ipc('source.arrows');
    const bytes = await writeArrowTable(source, { rowGroupRows: 1000, compression: 'ZSTD', codecs });
    const out = path.join(dir, 'ours.parquet');
    fs.writeFileSync(out, bytes);
    expectSameTable(pyRead(out), ipc('all.arrows'));
    // and our reader gives back the same table pyarrow does
    expectSameTable(await readArrowTable(await openParquet(bytes, { codecs })), ipc('all.arrows'));
  });

  test.skipIf(!fs.existsSync(CORPUS))('the parquet-testing corpus: every file pyarrow reads gives our table equal to pyarrow\'s; the files it refuses we refuse too', { timeout: 300_000 }, async () => {
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.parquet')) files.push(p);
      }
    };
    walk(CORPUS);
    expect(files.length).toBeGreaterThan(100);
    const out = fs.mkdtempSync(path.join(dir, 'corpus-'));
    const results = JSON.parse(execFileSync(PYTHON!, [PEER, 'read-many', out, ...files], { encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 26 })) as { ok?: boolean; error?: string }[];
    // files the reader itself refuses (not this package): shredded variants with typed values it does not decode
    const READER_REFUSES: Record<string, RegExp> = {
      'shredded_variant/case-127.parquet': /unsupported shredded type at var\.typed_value: INT32/,
      'shredded_variant/case-137.parquet': /unsupported shredded type at var\.typed_value: FIXED_LEN_BYTE_ARRAY/,
    };
    const report: string[] = [];
    let equal = 0;
    for (let i = 0; i < files.length; i++) {
      const rel = path.relative(CORPUS, files[i]!);
      // pyarrow does not verify page checksums by default: neither do we here (two files have corrupt ones on purpose)
      const ours = await openParquet(new Uint8Array(fs.readFileSync(files[i]!)), { codecs, verifyChecksums: false }).then((f) => readArrowTable(f)).catch((e: unknown) => e);
      if (results[i]!.error !== undefined) {
        if (!isParquetError(ours)) report.push(`${rel}: pyarrow refuses it (${results[i]!.error}), we read it or fail otherwise: ${String(ours)}`);
        continue;
      }
      if (READER_REFUSES[rel] && isParquetError(ours) && READER_REFUSES[rel].test(ours.message)) continue;
      if (!(ours instanceof Object) || isParquetError(ours) || ours instanceof Error) {
        report.push(`${rel}: pyarrow reads it, we fail: ${String(ours)}`);
        continue;
      }
      const theirs = tableFromIPC(fs.readFileSync(path.join(out, `${i}.arrows`)));
      const t = ours as Table;
      if (JSON.stringify(describeSchema(t.schema)) !== JSON.stringify(describeSchema(theirs.schema))) {
        report.push(`${rel}: schema ${describeSchema(t.schema).join(' | ')} vs pyarrow's ${describeSchema(theirs.schema).join(' | ')}`);
        continue;
      }
      const a = columnsOf(t);
      const b = columnsOf(theirs);
      const differ = Object.keys(b).filter((k) => { try { expect(a[k]).toEqual(b[k]); return false; } catch { return true; } });
      if (differ.length > 0) report.push(`${rel}: values of ${differ.join(', ')} differ`);
      else equal++;
    }
    expect(report).toEqual([]);
    expect(equal).toBeGreaterThan(100);
  });

  test('an Arrow consumer reads our tables: tableToIPC of our table, opened by pyarrow (pa.ipc.open_stream), equals pq.read_table of the same file (types, field and schema metadata, values)', { timeout: 120_000 }, async () => {
    type Result = { rows: number; columns: number; schema: string[]; values: string[]; map_entries_names: string[] };
    /** Whether a type has a Map anywhere inside. */
    const hasMap = (t: DataType): boolean => t.typeId === ArrowType.Map || (t.children ?? []).some((c) => hasMap(c.type as DataType));
    /** Our table of `file` as an IPC stream, and pyarrow's differences against its own read. */
    const check = async (file: string, dictionary: string[] = []): Promise<Result> => {
      const ours = await readArrowTable(await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs }), dictionary.length > 0 ? { dictionary } : {});
      const ipcFile = path.join(dir, `consumer-${path.basename(file)}-${dictionary.length}.arrows`);
      fs.writeFileSync(ipcFile, tableToIPC(ours, 'stream'));
      const result = JSON.parse(py('compare-ipc', file, ipcFile, ...dictionary)) as Result;
      expect(result.columns).toBe(ours.numCols);
      // the one difference allowed: apache-arrow names every map's entries field 'entries' (its Map_ type renames
      // it), pyarrow 25 after the map field; only fields with a map may differ so, and nothing else may
      const maps = ours.schema.fields.filter((f) => hasMap(f.type as DataType)).map((f) => f.name);
      for (const name of result.map_entries_names) expect(maps, `${path.basename(file)}: ${name}`).toContain(name);
      return result;
    };
    const all = await check(path.join(dir, 'all.parquet'));
    expect(all).toMatchObject({ rows: 2500, schema: [], values: [] });
    expect(all.columns).toBeGreaterThan(40);
    expect(all.map_entries_names).toEqual(['map', 'map_list']);
    expect(await check(path.join(dir, 'all.noschema.parquet'))).toMatchObject({ rows: 2500, schema: [], values: [] });
    expect(await check(path.join(dir, 'all.noschema.parquet'), ['string', 'binary'])).toMatchObject({ rows: 2500, schema: [], values: [] });
    // nested, legacy and odd files of the corpus (lists of lists, maps of maps, 2-level lists, INT96, FLOAT16, decimals)
    const corpus = ['nested_lists.snappy.parquet', 'nested_maps.snappy.parquet', 'nested_structs.rust.parquet', 'old_list_structure.parquet',
      'repeated_no_annotation.parquet', 'null_list.parquet', 'int96_from_spark.parquet', 'float16_nonzeros_and_nans.parquet',
      'byte_array_decimal.parquet', 'fixed_length_decimal.parquet', 'list_columns.parquet', 'map_no_value.parquet'];
    let checked = 0;
    for (const name of corpus) {
      const file = path.join(CORPUS, 'data', name);
      if (!fs.existsSync(file)) continue;
      const result = await check(file);
      expect({ name, ...result }).toMatchObject({ name, schema: [], values: [] });
      expect(result.rows, name).toBeGreaterThan(0);
      checked++;
    }
    if (fs.existsSync(CORPUS)) expect(checked).toBe(corpus.length);
  });

  test('record batches as a stream, without ARROW:schema: pyarrow reads the Parquet types alone, as from its own store_schema=False file', async () => {
    const source = ipc('source.arrows');
    async function* stream() {
      for (let i = 0; i < source.numRows; i += 700) yield* source.slice(i, Math.min(source.numRows, i + 700)).batches;
    }
    const out = path.join(dir, 'ours-noschema.parquet');
    fs.writeFileSync(out, await writeArrowTable(stream(), { arrowSchema: false }));
    expectSameTable(pyRead(out), ipc('all.noschema.arrows'));
  });

  test("pyarrow's hive-partitioned dataset (pq.write_to_dataset, a null partition): our Arrow table equals pyarrow.dataset's to_table() (types and values; its int32 partition as our int64)", async () => {
    expect(JSON.parse(py('write-dataset', dir))).toMatchObject({ ok: true, rows: 900, files: 9 });
    const ds = await openLocalDataset(path.join(dir, 'ds'), { codecs });
    expect(ds.partitions).toEqual([
      { name: 'year', type: 'int64' },
      { name: 'region', type: 'string' },
    ]);
    const ours = await readDatasetArrowTable(ds);
    expect(ours.numRows).toBe(900);
    const out = path.join(dir, 'ours-ds.arrows');
    fs.writeFileSync(out, tableToIPC(ours, 'stream'));
    expect(JSON.parse(py('compare-dataset', dir, out))).toEqual({ rows: [900, 900], schema: [], values: [] });
    // the region filter rules out the files of the other regions before they are read
    const eu = await readDatasetArrowTable(ds, { filter: { column: 'region', op: '=', value: 'eu' }, columns: ['id', 'region'] });
    expect(eu.numRows).toBe(ipc('ds.arrows').getChild('region')!.toArray().filter((r: unknown) => r === 'eu').length);
  });

  test("a dataset we write from pyarrow's table (writeArrowDataset, partitioned by year and region, rolled): pyarrow.dataset reads it as its own write_to_dataset output (types and values)", async () => {
    const theirs = ipc('ds.arrows');
    const ours = path.join(dir, 'ours-ds');
    const written = await writeArrowDataset(theirs, directoryStore(ours), { partitionBy: ['year', 'region'], maxRowsPerFile: 64 });
    expect(written.rows).toBe(900);
    expect(JSON.parse(py('compare-dataset-dirs', ours, path.join(dir, 'ds')))).toEqual({ rows: [900, 900], schema: [], values: [] });
  });
});
