/**
 * `parquetry convert` and `parquetry rewrite`: CSV, NDJSON, JSON or Parquet in, Parquet out, streaming.
 *
 * - CSV is read in windows of bytes, parsed into records (`csv.ts`), typed by a sniff of the first rows (or by the
 *   given types) and written as columnar vectors.
 * - NDJSON is read in windows, one JSON object per line, and written as rows; the schema is inferred from the first
 *   rows with `inferSchema`.
 * - A JSON array is loaded whole (`JSON.parse` needs the whole text), then written as NDJSON is.
 * - Parquet is copied row group by row group, columnar: `readRowGroupColumns` → `writeColumns`, with the file's
 *   schema and key/value metadata; each input row group becomes one output row group unless a row-group size is
 *   given.
 *
 * The output goes through the temporary-file sink, so a failed or interrupted convert leaves no file at the output
 * path. Spec: https://github.com/apache/parquet-format/blob/master/README.md.
 * @module
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { createValueEncoder } from '@parquetry/parquet-encodings';
import { buildSchemaTree, type ColumnDescriptor, type Field, type SchemaTree, type StructField, type StructVector } from '@parquetry/parquet-levels';
import type { OpenOptions } from '@parquetry/parquet-reader';
import { inferSchema, schemaElements, schemaFromElements, type ColumnOptions, type EncodingName, type FieldSpec, type ParquetWriter, type Row, type SchemaSpec, type WriterOptions } from '@parquetry/parquet-writer';
import { Encoding, ParquetError, Type, TypeNames, isParquetError, type FileMetaData, type SchemaElement } from '@parquetry/thrift-compact';
import { CsvParser, buildColumn, fractionTooFine, checkUtf8, columnNames, fieldText, jsonError, sniffBatch, sniffedSpec, startSniff, textPlan, textValue, type CsvBatch, type CsvLayout, type TextPlan } from './csv.js';
import { nearest } from './cli-args.js';
import { checkColumnKeys } from './cli-keys.js';
import { isUrl, openUrl } from './cli-url.js';
import { createFileWriter, openFile } from './files.js';
import { textResult } from './text-values.js';

/** An input format of `convert`. */
export type InputFormat = 'csv' | 'ndjson' | 'json' | 'parquet';

/** A convert (or rewrite) to run. */
export interface ConvertJob {
  /** Input path. */
  readonly input: string;
  /** Output path. */
  readonly output: string;
  /** Input format. */
  readonly format: InputFormat;
  /**
   * Writer options (compression, pages, dictionary, per-column encodings, codecs); the schema is decided here. An
   * `encoding` is for every column whose physical type it can write (each without its dictionary), the others keeping
   * the defaults; a per-column encoding must be able to write its columns (else `USAGE`).
   */
  readonly write: WriterOptions;
  /** Column types given by `--schema` and `--type` (the latter win), by column name (JSON: by column path). */
  readonly types: Readonly<Record<string, FieldSpec>>;
  /**
   * The columns named by `--type` (not `--schema`, whose file may list columns the input lacks). JSON input: a
   * top-level one that no sampled row has is added to the schema (a key first seen later), and one that no row of
   * the whole input has is `UNKNOWN_COLUMN` at the end (a misspelt name would add a column of nulls); the output is
   * then not written.
   */
  readonly typeNames?: readonly string[];
  /** CSV layout. */
  readonly csv: CsvLayout;
  /** Rows sniffed (CSV) or inspected by `inferSchema` (JSON) to decide the types. */
  readonly sample: number;
  /** Bytes per read (default 1 MiB). */
  readonly readSize?: number;
  /** fsync the output before its rename into place (default true). */
  readonly sync?: boolean;
  /** Called after each batch with the rows written and input bytes read so far. */
  readonly progress?: (rows: number, bytes: number) => void;
  /** Stops the convert between batches: the output is removed, the promise rejects with `INTERRUPTED`. */
  readonly signal?: AbortSignal;
  /** Request headers, for a Parquet input given as an `http://` or `https://` URL (read with range requests). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The read limits of a Parquet input (the reader's `limits`; its defaults when absent). */
  readonly limits?: OpenOptions['limits'];
  /** The keys of an encrypted Parquet input (the reader's `decryption`); the output is written unencrypted. */
  readonly decryption?: OpenOptions['decryption'];
}

/** What a convert did. */
export interface ConvertResult {
  /** Rows written. */
  readonly rows: number;
  /** Input bytes read. */
  readonly bytes: number;
  /** The footer written. */
  readonly metadata: FileMetaData;
}

function fail(code: string, message: string, cause?: unknown): ParquetError {
  return new ParquetError(code, `parquetry: ${message}`, undefined, cause === undefined ? undefined : { cause });
}

function ioMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Rewrites the writer's "row N" in an error into the input's line, when the row is in the current batch. */
function locate(e: unknown, rowBase: number, where: (row: number) => string | undefined): unknown {
  if (!isParquetError(e)) return e;
  const m = /\brow (\d+)\b/.exec(e.message);
  if (!m) return e;
  const w = where(Number(m[1]) - rowBase);
  return w === undefined ? e : new ParquetError(e.code, `${e.message} (${w} of the input)`, e.offset, { cause: e });
}

/** Longest record (CSV) or line (NDJSON) accepted. */
const MAX_RECORD = 2 ** 30;

/** Sequential reads of a file in windows that start with the bytes the previous window did not consume. */
class Windows {
  private carry: Uint8Array = new Uint8Array(0);
  private size: number;
  private first = true;
  bytes = 0;
  done = false;

  constructor(
    private readonly fh: FileHandle,
    size: number,
  ) {
    this.size = size;
  }

  /** The next window, and whether it is the last (the end of the file is in it). */
  async next(): Promise<{ buf: Buffer; final: boolean }> {
    const win = Buffer.allocUnsafe(this.carry.length + this.size);
    win.set(this.carry, 0);
    let at = this.carry.length;
    const { bytesRead } = await this.fh.read(win, at, this.size, null);
    at += bytesRead;
    this.bytes += bytesRead;
    let buf = win.subarray(0, at);
    if (this.first) {
      this.first = false;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3); // UTF-8 byte order mark
    }
    const final = bytesRead === 0;
    if (final) this.done = true;
    return { buf, final };
  }

  /**
   * Keeps `buf[consumed..]` for the next window; a window that consumed nothing makes the next read larger.
   * @throws ParquetError `RECORD_TOO_LARGE` when one record (or line) grows past 1 GiB.
   */
  keep(buf: Uint8Array, consumed: number): void {
    this.carry = buf.subarray(consumed);
    if (this.carry.length > MAX_RECORD) {
      throw fail('RECORD_TOO_LARGE', `a record longer than ${MAX_RECORD} bytes ends past byte ${this.bytes} of the input (an unbalanced quote?)`);
    }
    if (consumed === 0 && this.carry.length >= this.size) this.size *= 2;
  }
}

async function openInput(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (e) {
    throw fail('CANNOT_OPEN', `cannot open '${path}': ${ioMessage(e)}`, e);
  }
}

/** The physical types, in parquet.thrift order: what an encoding is probed against. */
const PHYSICAL_TYPES: readonly Type[] = [Type.BOOLEAN, Type.INT32, Type.INT64, Type.INT96, Type.FLOAT, Type.DOUBLE, Type.BYTE_ARRAY, Type.FIXED_LEN_BYTE_ARRAY];

/** Whether the encodings package has a value encoder of `encoding` for a column of this type (what the writer uses). */
function encodes(encoding: EncodingName, type: Type, typeLength: number | undefined): boolean {
  try {
    createValueEncoder(Encoding[encoding], { type, typeLength: typeLength ?? 16 });
    return true;
  } catch (e) {
    if (isParquetError(e) && e.code === 'ENCODING_UNSUPPORTED') return false;
    throw e;
  }
}

/** `DELTA_BYTE_ARRAY takes BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY`. */
function takesText(encoding: EncodingName): string {
  return `${encoding} takes ${PHYSICAL_TYPES.filter((t) => encodes(encoding, t, undefined)).map((t) => TypeNames[t]).join(', ')}`;
}

/** The output's schema tree, as the writer builds it from the schema option. */
function schemaTreeOf(schema: WriterOptions['schema']): SchemaTree {
  if (Array.isArray(schema)) return buildSchemaTree(schemaFromElements(schema as readonly SchemaElement[]));
  const s = schema as SchemaTree | SchemaSpec;
  if (Array.isArray((s as SchemaTree).elements) && typeof (s as SchemaTree).columns === 'object') return buildSchemaTree(schemaFromElements(s as SchemaTree));
  return buildSchemaTree(schemaElements(s as SchemaSpec));
}

/**
 * The writer options with `--encoding` settled on the output's columns: a per-column encoding must name columns of
 * the schema whose physical types it can write; the every-column `encoding` goes to each leaf its encoder can write
 * (without a dictionary), unless a per-column `--encoding` names that leaf; the other leaves keep the defaults.
 * @throws ParquetError `USAGE` for a per-column path that is no column, a column the encoding cannot write (naming
 *   its type and the types the encoding takes), or an every-column encoding no column can take.
 */
function settleEncodings(options: WriterOptions): WriterOptions {
  const { encoding, ...rest } = options;
  const given = options.columns ?? {};
  if (encoding === undefined && Object.keys(given).length === 0) return options;
  const tree = schemaTreeOf(options.schema);
  const under = (path: string, c: ColumnDescriptor): boolean => {
    const parts = path.split('.');
    return parts.length <= c.path.length && parts.every((p, i) => c.path[i] === p);
  };
  // per-column options must name columns of the schema (a typo would silently do nothing)
  for (const [path, o] of Object.entries(given)) {
    const leaves = tree.columns.filter((c) => under(path, c));
    if (leaves.length === 0) throw fail('USAGE', `--encoding ${path}=…: no column '${path}' in the output schema (columns: ${tree.columns.map((c) => c.pathString).join(', ')})`);
    const e = o.encoding;
    if (e === undefined) continue;
    const bad = leaves.find((c) => !encodes(e, c.type, c.typeLength));
    if (bad) {
      const which = bad.pathString === path ? `column '${path}'` : `column '${bad.pathString}' (under '${path}')`;
      throw fail('USAGE', `--encoding ${path}=${e}: ${which} is ${TypeNames[bad.type] ?? bad.type}; ${takesText(e)}`);
    }
  }
  if (encoding === undefined) return options;
  const columns: Record<string, ColumnOptions> = Object.create(null) as Record<string, ColumnOptions>;
  let taken = 0;
  for (const c of tree.columns) {
    // a per-column encoding covering this leaf wins over the every-column one
    if (Object.entries(given).some(([path, o]) => o.encoding !== undefined && under(path, c))) continue;
    if (!encodes(encoding, c.type, c.typeLength)) continue;
    Object.defineProperty(columns, c.pathString, { value: { encoding, dictionary: false }, enumerable: true, writable: true, configurable: true });
    taken++;
  }
  if (taken === 0) {
    const types = [...new Set(tree.columns.map((c) => TypeNames[c.type] ?? String(c.type)))].join(', ');
    throw fail('USAGE', `--encoding ${encoding}: no column of the output can take it (${takesText(encoding)}; the columns are ${types})`);
  }
  // the user's per-column options (dictionary, …) still apply under the leaves given here
  for (const [path, o] of Object.entries(given)) Object.defineProperty(columns, path, { value: { ...(Object.hasOwn(columns, path) ? columns[path] : {}), ...o }, enumerable: true, writable: true, configurable: true });
  return { ...rest, columns };
}

async function createOutput(job: ConvertJob, options: WriterOptions): Promise<ParquetWriter> {
  const settled = settleEncodings(options);
  try {
    return await createFileWriter(job.output, job.sync === undefined ? settled : { ...settled, sync: job.sync });
  } catch (e) {
    if (isParquetError(e)) throw e;
    throw fail('CANNOT_CREATE', `cannot create '${job.output}': ${ioMessage(e)}`, e);
  }
}

function checkSignal(job: ConvertJob): void {
  if (job.signal?.aborted) throw fail('INTERRUPTED', `interrupted; '${job.output}' was not written`);
}

/**
 * Runs a convert: reads the input as its format says and writes the Parquet output.
 * @param job - what to convert and how.
 * @returns rows and bytes, and the footer written.
 * @throws ParquetError `CANNOT_OPEN` / `CANNOT_CREATE` for files that cannot be opened or created; `USAGE` for a
 *   type or encoding naming a column the input does not have or a type text cannot be converted to; `INVALID_CSV`,
 *   `INVALID_JSON`, `UNKNOWN_COLUMN` (a JSON key first seen after the sample), `RECORD_TOO_LARGE`, `INPUT_TOO_LARGE`, `INVALID_VALUE`, `INVALID_RECORD`, `EMPTY_INPUT`, `SCHEMA_INFERENCE` for bad input (naming the
 *   line, column and value); `INTERRUPTED` when the signal aborted it; the reader's and writer's errors. The output
 *   path is then left as it was.
 */
export async function convertFile(job: ConvertJob): Promise<ConvertResult> {
  switch (job.format) {
    case 'parquet': return convertParquet(job);
    case 'csv': return convertCsv(job);
    case 'ndjson': return convertNdjson(job);
    case 'json': return convertJson(job);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Parquet → Parquet

async function convertParquet(job: ConvertJob): Promise<ConvertResult> {
  let file;
  try {
    const options: OpenOptions = { ...(job.limits ? { limits: job.limits } : {}), ...(job.decryption ? { decryption: job.decryption } : {}) };
    file = isUrl(job.input) ? await openUrl(job.input, { ...options, headers: job.headers, signal: job.signal }) : await openFile(job.input, options);
  } catch (e) {
    if (isParquetError(e)) throw e;
    throw fail('CANNOT_OPEN', `cannot open '${job.input}': ${ioMessage(e)}`, e);
  }
  try {
    checkColumnKeys(job.decryption, file.schema);
  } catch (e) {
    await file.close();
    throw e;
  }
  let w: ParquetWriter | undefined;
  try {
    const md = file.metadata;
    // no prototype: a key named `__proto__` is kept like any other
    const kv = Object.create(null) as Record<string, string>;
    for (const { key, value } of md.key_value_metadata ?? []) if (value !== undefined) kv[key] = value;
    w = await createOutput(job, {
      ...job.write,
      schema: md.schema,
      ...(md.key_value_metadata?.length && job.write.keyValueMetadata === undefined ? { keyValueMetadata: kv } : {}),
    });
    const keepGroups = job.write.rowGroupRows === undefined;
    let rows = 0;
    let bytes = 0;
    for (let g = 0; g < md.row_groups.length; g++) {
      checkSignal(job);
      const rg = md.row_groups[g]!;
      const columns = await file.readRowGroupColumns(g);
      await w.writeColumns(columns);
      if (keepGroups) await w.flushRowGroup();
      rows += columns.length;
      for (const cc of rg.columns) bytes += cc.meta_data?.total_compressed_size ?? 0;
      job.progress?.(rows, bytes);
    }
    checkSignal(job);
    const metadata = await w.close();
    return { rows, bytes, metadata };
  } catch (e) {
    await w?.abort(e);
    throw e;
  } finally {
    await file.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

async function convertCsv(job: ConvertJob): Promise<ConvertResult> {
  const fh = await openInput(job.input);
  let w: ParquetWriter | undefined;
  try {
    const windows = new Windows(fh, job.readSize ?? 1 << 20);
    const parser = new CsvParser(job.csv.delimiter);
    const nullValue = job.csv.nullValue;
    let names: string[] | undefined;
    // sniff: keep the first batches until `sample` data rows were seen
    const pending: CsvBatch[] = [];
    let sampled = 0;
    let sniff: ReturnType<typeof startSniff> | undefined;
    let final = false;
    while (!final && sampled < job.sample) {
      checkSignal(job);
      const win = await windows.next();
      final = win.final;
      if (names === undefined && crOnly(win.buf)) {
        // every line ends with CR alone (classic Mac OS): read as LF-separated it is one record of run-together fields
        throw fail('INVALID_CSV', `'${job.input}': its lines end with a carriage return alone (CR, not LF or CRLF), which this reader does not split; convert the line endings to LF or CRLF`);
      }
      const { batch: b, consumed } = parser.parse(win.buf, final);
      windows.keep(win.buf, consumed);
      let batch = b;
      if (batch.rows === 0) continue;
      checkUtf8(batch);
      if (names === undefined) {
        if (job.csv.header) {
          names = columnNames(Array.from({ length: batch.width }, (_, i) => fieldText(batch, i)));
          batch = dropFirst(batch);
        } else names = columnNames(Array.from({ length: batch.width }, () => undefined));
        sniff = startSniff(batch.width);
      }
      sniffBatch(batch, 0, Math.min(batch.rows, job.sample - sampled), sniff!, nullValue);
      sampled += batch.rows;
      if (batch.rows > 0) pending.push(batch);
    }
    if (names === undefined) throw fail('EMPTY_INPUT', `'${job.input}' holds no CSV records (not even a header), so there are no columns to write`);
    const unknown = Object.keys(job.types).filter((k) => !names!.includes(k));
    if (unknown.length > 0) {
      throw fail('USAGE', `--type/--schema: ${unknown.map((k) => `'${k}'`).join(', ')} ${unknown.length > 1 ? 'are not columns' : 'is not a column'} of the CSV input (columns: ${names.join(', ')})`);
    }
    const specs: FieldSpec[] = [];
    const plans: TextPlan[] = [];
    const inferredFrom: number[] = [];
    const schema: Record<string, FieldSpec> = {};
    names.forEach((name, c) => {
      const given = Object.prototype.hasOwnProperty.call(job.types, name) ? job.types[name] : undefined;
      const spec = given ?? sniffedSpec(sniff![c]!);
      const plan = textPlan(spec);
      if (plan === undefined) throw fail('USAGE', `column '${name}': CSV text cannot be converted to a '${spec.type}' column (give it a scalar type)`);
      specs.push(spec);
      plans.push(plan);
      inferredFrom.push(given ? 0 : Math.min(sampled, job.sample));
      Object.defineProperty(schema, name, { value: spec, enumerable: true, writable: true, configurable: true });
    });
    w = await createOutput(job, { ...job.write, schema: schema as SchemaSpec });
    const tree = w.schema!;
    const r = textResult();
    let rows = 0;
    const writeBatch = async (batch: CsvBatch): Promise<void> => {
      const children = names!.map((name, c) => buildColumn(batch, c, plans[c]!, specs[c]!, tree.field.fields[c]!, name, nullValue, inferredFrom[c]!, r));
      const root: StructVector = { kind: 'struct', field: tree.field, length: batch.rows, validity: null, children };
      try {
        await w!.writeColumns(root);
      } catch (e) {
        throw locate(e, rows, (row) => (row >= 0 && row < batch.rows ? `line ${batch.lines[row]}` : undefined));
      }
      rows += batch.rows;
      job.progress?.(rows, windows.bytes);
    };
    for (const batch of pending.splice(0)) {
      checkSignal(job);
      await writeBatch(batch);
    }
    while (!final) {
      checkSignal(job);
      const win = await windows.next();
      final = win.final;
      const { batch, consumed } = parser.parse(win.buf, final);
      windows.keep(win.buf, consumed);
      if (batch.rows === 0) continue;
      checkUtf8(batch);
      await writeBatch(batch);
    }
    checkSignal(job);
    const metadata = await w.close();
    return { rows, bytes: windows.bytes, metadata };
  } catch (e) {
    await w?.abort(e);
    throw e;
  } finally {
    await fh.close();
  }
}

function dropFirst(b: CsvBatch): CsvBatch {
  return {
    buf: b.buf,
    rows: b.rows - 1,
    width: b.width,
    starts: b.starts.subarray(b.width),
    ends: b.ends.subarray(b.width),
    escaped: b.escaped.subarray(b.width),
    lines: b.lines.subarray(1),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// NDJSON and JSON

/**
 * Converts string values of columns given a type (dates, timestamps, big integers, …) in place, and checks those of a
 * `json` column are JSON text: top-level columns, and fields of structs by dotted path (`s.when`: field `when` of the
 * object in `s`; a top-level key with that very name wins).
 */
class TypedStrings {
  private readonly columns: { name: string; path: readonly string[]; plan: TextPlan; spec: FieldSpec }[] = [];
  private readonly r = textResult();
  private scratch = Buffer.allocUnsafe(256);

  constructor(types: Readonly<Record<string, FieldSpec>>) {
    for (const [name, spec] of Object.entries(types)) {
      const plan = textPlan(spec);
      // JSON text is checked (not converted): a value the column would hold must be JSON
      if (plan && ((plan.kind !== 'bytes' && plan.kind !== 'text') || (plan.kind === 'bytes' && plan.json))) this.columns.push({ name, path: name.split('.'), plan, spec });
    }
  }

  apply(rows: readonly Row[], where: (i: number) => string): void {
    if (this.columns.length === 0) return;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Record<string, unknown>;
      for (const { name, path, plan, spec } of this.columns) {
        // the object holding the value: the row, or the struct the dotted path leads to
        let holder: Record<string, unknown> | undefined = row;
        let key = name;
        if (path.length > 1 && !Object.hasOwn(row, name)) {
          for (let k = 0; k < path.length - 1 && holder !== undefined; k++) {
            const next: unknown = Object.hasOwn(holder, path[k]!) ? holder[path[k]!] : undefined;
            holder = next !== null && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : undefined;
          }
          key = path[path.length - 1]!;
        }
        if (holder === undefined || !Object.hasOwn(holder, key)) continue;
        const v = holder[key];
        if (typeof v !== 'string') continue;
        if (plan.kind === 'bytes') {
          const why = jsonError(v);
          if (why !== undefined) throw fail('INVALID_VALUE', `${where(i)}, column '${name}': the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)} is not JSON text (RFC 8259: ${why}); a JSON column holds JSON documents`);
          continue;
        }
        if (v.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(v.length * 3);
        const n = this.scratch.write(v, 0);
        const x = textValue(plan, this.scratch, 0, n, this.r);
        if (x === undefined) {
          const shown = JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
          const fine = fractionTooFine(plan, spec, v);
          throw fail('INVALID_VALUE', `${where(i)}, column '${name}': the string ${shown} ${fine === undefined ? `is not a ${spec.type} value` : `has ${fine}`}`);
        }
        holder[key] = x;
      }
    }
  }
}

/**
 * Fails on a key the schema does not have, at any depth (the writer would drop its values silently): a key first
 * seen after the sample, in a row or in a struct inside it (list elements and map values included). Null values of
 * such keys lose nothing and pass. VARIANT values hold any JSON and are not checked.
 */
function checkKeys(rows: readonly Row[], root: StructField, job: ConvertJob, where: (i: number) => string): void {
  // each struct's fields by name, built once per call (not a search per key of every row)
  const byName = new Map<StructField, Map<string, Field>>();
  const visit = (v: unknown, f: Field, path: string, i: number): void => {
    if (v === null || v === undefined || typeof v !== 'object' || f.node.logicalType?.VARIANT) return;
    if (f.kind === 'struct') {
      const o = v as Record<string, unknown>;
      let fields = byName.get(f);
      if (fields === undefined) byName.set(f, (fields = new Map(f.fields.map((c) => [c.name, c]))));
      for (const k in o) {
        const child = fields.get(k);
        const at = path === '' ? k : `${path}.${k}`;
        if (child) visit(o[k], child, at, i);
        else if (o[k] !== null && o[k] !== undefined) {
          const known = f.fields.map((c) => c.name).join(', ');
          throw fail('UNKNOWN_COLUMN', `${where(i)}: key '${at}' is not ${path === '' ? 'a column' : `a field of '${path}'`} of the schema inferred from the first ${job.sample} rows (${path === '' ? 'columns' : 'its fields'}: ${known}); ` +
            `give ${path === '' ? `it a type with --type '${k}=TYPE'` : `'${at.split('.')[0]!}' a type with --type`} or sample more rows with --sample`);
        }
      }
    } else if (f.kind === 'list') {
      if (Array.isArray(v)) for (const e of v) visit(e, f.element, path, i);
    } else if (f.kind === 'map' && f.value) {
      const values = v instanceof Map ? [...v.values()] : Object.values(v);
      for (const x of values) visit(x, f.value, path, i);
    }
  };
  for (let i = 0; i < rows.length; i++) visit(rows[i], root, '', i);
}

/**
 * Whether the start of a CSV shows lines ended by CR alone: an unquoted CR followed by a byte other than LF, and no
 * LF yet (a CRLF split between two windows is not one; a CR inside a quoted field is not looked at).
 */
function crOnly(buf: Uint8Array): boolean {
  const cr = buf.indexOf(13);
  return cr >= 0 && cr + 1 < buf.length && buf[cr + 1] !== 10 && buf.indexOf(10) < 0 && buf.subarray(0, cr).indexOf(34) < 0;
}

function checkRow(v: unknown, where: () => string): Row {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw fail('INVALID_JSON', `${where()}: expected a JSON object (one row), got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
  }
  return v as Row;
}

/**
 * The `--type` columns added to the schema though no sampled row has them (see {@link ConvertJob.typeNames}): each
 * batch of rows crosses off those it has; the ones left at the end of the input are `UNKNOWN_COLUMN`.
 */
class UnseenTypes {
  private readonly names: Set<string>;

  constructor(names: Iterable<string>) {
    this.names = new Set(names);
  }

  /** Crosses off the names some row of `rows` has (a key present, even with a null value). */
  see(rows: readonly Row[]): void {
    for (const k of this.names) if (rows.some((r) => Object.hasOwn(r, k))) this.names.delete(k);
  }

  /**
   * Fails when a name is left: no row of the input had it.
   * @param columns - the other columns, for the nearest name.
   * @throws ParquetError `UNKNOWN_COLUMN`.
   */
  check(columns: readonly string[]): void {
    for (const k of this.names) {
      const guess = nearest(k, columns.filter((c) => !this.names.has(c)));
      throw fail('UNKNOWN_COLUMN', `--type names '${k}', which no row of the input has${guess ? ` (did you mean '${guess}'?)` : ''}; the output is not written`);
    }
  }
}

async function inferAndCreate(job: ConvertJob, sample: readonly Row[]): Promise<{ writer: ParquetWriter; unseen: UnseenTypes }> {
  if (sample.length === 0 && Object.keys(job.types).length === 0) {
    throw fail('EMPTY_INPUT', `'${job.input}' holds no rows to infer a schema from; give the columns with --schema or --type`);
  }
  // a top-level --type/--schema column no sampled row has is added to the schema (a key first seen after the sample,
  // as the key check advises, or a --schema column the input lacks); inferSchema refuses any other name that is no
  // column of the sample (UNKNOWN_COLUMN)
  const sampleSize = Math.max(1, Math.min(job.sample, sample.length || 1));
  const seen = new Set<string>();
  for (let i = 0; i < Math.min(sampleSize, sample.length); i++) for (const k of Object.keys(sample[i]!)) seen.add(k);
  const overrides: Record<string, FieldSpec> = {};
  const added: [string, FieldSpec][] = [];
  for (const [k, spec] of Object.entries(job.types)) {
    if (seen.has(k) || k.includes('.')) Object.defineProperty(overrides, k, { value: spec, enumerable: true, writable: true, configurable: true });
    else added.push([k, spec]);
  }
  let schema: SchemaSpec;
  try {
    schema = inferSchema(sample, { overrides, sampleSize });
  } catch (e) {
    if (isParquetError(e) && e.code === 'SCHEMA_INFERENCE') {
      throw new ParquetError(e.code, `${e.message} — with the CLI: --type 'column=TYPE'`, e.offset, { cause: e });
    }
    if (isParquetError(e) && e.code === 'UNKNOWN_COLUMN') {
      throw new ParquetError(e.code, `${e.message} — with the CLI: a --type/--schema path below the top level must be in the first ${job.sample} rows (--sample); ` +
        "to add a field, give its struct a whole type with --type 'column={\"type\":\"struct\",…}'", e.offset, { cause: e });
    }
    throw e;
  }
  if (added.length > 0) {
    const all: Record<string, FieldSpec> = { ...schema };
    for (const [k, spec] of added) Object.defineProperty(all, k, { value: spec, enumerable: true, writable: true, configurable: true });
    schema = all;
  }
  const typeNames = new Set(job.typeNames ?? []);
  return { writer: await createOutput(job, { ...job.write, schema }), unseen: new UnseenTypes(added.map(([k]) => k).filter((k) => typeNames.has(k))) };
}

async function convertNdjson(job: ConvertJob): Promise<ConvertResult> {
  const fh = await openInput(job.input);
  let w: ParquetWriter | undefined;
  try {
    const windows = new Windows(fh, job.readSize ?? 1 << 20);
    const typed = new TypedStrings(job.types);
    let line = 1;
    let rows = 0;
    let final = false;
    let batch: Row[] = [];
    let batchLines: number[] = [];
    /** Parses the complete lines of a window into `batch`; returns the bytes consumed. */
    const parseLines = (buf: Buffer, last: boolean): number => {
      let pos = 0;
      for (;;) {
        let end = buf.indexOf(10, pos);
        if (end < 0) {
          if (!last || pos >= buf.length) return pos;
          end = buf.length;
        }
        let s = pos;
        let e = end;
        while (s < e && (buf[s] === 32 || buf[s] === 9 || buf[s] === 13)) s++;
        while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9 || buf[e - 1] === 13)) e--;
        if (e > s) {
          let v: unknown;
          try {
            v = JSON.parse(buf.toString('utf8', s, e));
          } catch (err) {
            throw fail('INVALID_JSON', `NDJSON line ${line}: ${ioMessage(err)}`, err);
          }
          const at = line;
          batch.push(checkRow(v, () => `NDJSON line ${at}`));
          batchLines.push(line);
        }
        line++;
        pos = end + 1;
        if (pos >= buf.length) return buf.length;
      }
    };
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const lines = batchLines;
      typed.apply(batch, (i) => `NDJSON line ${lines[i]}`);
      checkKeys(batch, w!.schema!.field, job, (i) => `NDJSON line ${lines[i]}`);
      try {
        await w!.write(batch);
      } catch (e) {
        throw locate(e, rows, (row) => (row >= 0 && row < lines.length ? `line ${lines[row]}` : undefined));
      }
      rows += batch.length;
      batch = [];
      batchLines = [];
      job.progress?.(rows, windows.bytes);
    };
    while (!final && batch.length < job.sample) {
      checkSignal(job);
      const win = await windows.next();
      final = win.final;
      windows.keep(win.buf, parseLines(win.buf, final));
    }
    const lines = batchLines;
    typed.apply(batch, (i) => `NDJSON line ${lines[i]}`);
    const created = await inferAndCreate(job, batch);
    w = created.writer;
    const unseen = created.unseen;
    unseen.see(batch);
    await flush();
    while (!final) {
      checkSignal(job);
      const win = await windows.next();
      final = win.final;
      windows.keep(win.buf, parseLines(win.buf, final));
      unseen.see(batch);
      await flush();
    }
    checkSignal(job);
    unseen.check(w.schema!.field.fields.map((f) => f.name));
    const metadata = await w.close();
    return { rows, bytes: windows.bytes, metadata };
  } catch (e) {
    await w?.abort(e);
    throw e;
  } finally {
    await fh.close();
  }
}

/** Rows per write of a JSON array (between progress reports and interruption checks). */
const JSON_SLICE = 65536;

async function convertJson(job: ConvertJob): Promise<ConvertResult> {
  let text: string;
  try {
    text = await readFile(job.input, 'utf8');
  } catch (e) {
    if (typeof (e as { code?: unknown }).code === 'string' && (e as { syscall?: unknown }).syscall !== undefined) {
      throw fail('CANNOT_OPEN', `cannot open '${job.input}': ${ioMessage(e)}`, e);
    }
    // larger than a JavaScript string can hold
    throw fail('INPUT_TOO_LARGE', `'${job.input}' is too large to load whole as JSON (${ioMessage(e)}); convert it as NDJSON (one object per line)`, e);
  }
  const bytes = Buffer.byteLength(text);
  let data: unknown;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw fail('INVALID_JSON', `'${job.input}': ${ioMessage(e)}`, e);
  }
  if (!Array.isArray(data)) throw fail('INVALID_JSON', `'${job.input}': expected a JSON array of objects (for one object per line, use --from ndjson)`);
  const all = data as unknown[];
  for (let i = 0; i < all.length; i++) checkRow(all[i], () => `JSON element ${i}`);
  const rowsIn = all as Row[];
  let w: ParquetWriter | undefined;
  try {
    const typed = new TypedStrings(job.types);
    const sample = rowsIn.slice(0, job.sample);
    typed.apply(sample, (i) => `JSON element ${i}`);
    const created = await inferAndCreate(job, sample);
    w = created.writer;
    created.unseen.see(rowsIn);
    let rows = 0;
    for (let i = 0; i < rowsIn.length; i += JSON_SLICE) {
      checkSignal(job);
      const slice = rowsIn.slice(i, i + JSON_SLICE);
      typed.apply(slice, (k) => `JSON element ${i + k}`); // values converted with the sample are no strings now
      checkKeys(slice, w.schema!.field, job, (k) => `JSON element ${i + k}`);
      try {
        await w.write(slice);
      } catch (e) {
        throw locate(e, 0, (row) => (row >= 0 && row < rowsIn.length ? `element ${row}` : undefined));
      }
      rows += slice.length;
      job.progress?.(rows, Math.round((bytes * rows) / Math.max(1, rowsIn.length)));
    }
    checkSignal(job);
    created.unseen.check(w.schema!.field.fields.map((f) => f.name));
    const metadata = await w.close();
    return { rows, bytes, metadata };
  } catch (e) {
    await w?.abort(e);
    throw e;
  }
}
