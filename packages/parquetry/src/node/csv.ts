/**
 * CSV for `parquetry convert`: a streaming RFC 4180 record parser over bytes (https://www.rfc-editor.org/rfc/rfc4180:
 * fields separated by a one-byte delimiter, records by LF or CRLF, fields optionally in double quotes with `""` for
 * a quote, line breaks allowed inside quotes), the type sniffer over a sample of records, and the column builders
 * that turn a batch of records into the writer's columnar vectors (typed arrays, binary vectors) with no JavaScript
 * value per field, written as https://github.com/apache/parquet-format/blob/master/LogicalTypes.md specifies.
 *
 * A batch keeps the bytes it was parsed from and, per field, its start and end offsets; nothing is decoded until a
 * column builder reads it, so the sample kept for sniffing costs its bytes and two ints per field.
 * @module
 */
import { isUtf8 } from 'node:buffer';
import type { BinaryVector, ColumnarVector, Field, LeafVector } from '@parquetry/parquet-levels';
import { field, type FieldSpec } from '@parquetry/parquet-writer';
import { ParquetError } from '@parquetry/thrift-compact';
import {
  TypeBit,
  classify,
  integerNumber,
  readBoolean,
  readDate,
  readInteger,
  readNumber,
  readTime,
  readTimestamp,
  textResult,
  toInt64,
  toUint64,
  toUnitCount,
  wordsValue,
  type TextResult,
} from './text-values.js';

const LF = 10;
const CR = 13;
const QUOTE = 34;

/** How a CSV file is laid out. */
export interface CsvLayout {
  /** Field delimiter, one ASCII byte (not a quote, CR or LF). */
  readonly delimiter: number;
  /** The first record holds the column names. */
  readonly header: boolean;
  /** Fields equal to these bytes are null, as empty fields are. */
  readonly nullValue: Uint8Array | undefined;
}

/** Records parsed from one window of bytes. */
export interface CsvBatch {
  /** The bytes the offsets point into. */
  readonly buf: Uint8Array;
  /** Number of records. */
  readonly rows: number;
  /** Fields per record. */
  readonly width: number;
  /** Field `k` of record `r` is `buf[starts[r * width + k], ends[r * width + k])`. */
  readonly starts: Int32Array;
  /** See {@link CsvBatch.starts}. */
  readonly ends: Int32Array;
  /** Per field: 1 when it was quoted and holds `""` pairs (the bytes still contain both quotes). */
  readonly escaped: Uint8Array;
  /** Per record: the 1-based line it starts on. */
  readonly lines: Int32Array;
}

function csvError(message: string): ParquetError {
  return new ParquetError('INVALID_CSV', `parquetry: CSV ${message}`);
}

/**
 * A streaming CSV parser: fed windows of bytes, it returns the complete records of each and how many bytes they
 * took; the caller carries the rest into the next window. Blank lines are skipped; every other record must have as
 * many fields as the first.
 */
export class CsvParser {
  /** Next line number (1-based). */
  private line = 1;
  /** Fields per record, once the first record was read. */
  width = -1;
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private escaped = new Uint8Array(1024);
  private lines = new Int32Array(64);

  constructor(private readonly delimiter: number) {}

  private grow(fields: number, rows: number): void {
    if (fields > this.starts.length) {
      const n = Math.max(fields, this.starts.length * 2);
      const s = new Int32Array(n);
      s.set(this.starts);
      this.starts = s;
      const e = new Int32Array(n);
      e.set(this.ends);
      this.ends = e;
      const q = new Uint8Array(n);
      q.set(this.escaped);
      this.escaped = q;
    }
    if (rows > this.lines.length) {
      const l = new Int32Array(Math.max(rows, this.lines.length * 2));
      l.set(this.lines);
      this.lines = l;
    }
  }

  /**
   * Parses the complete records of `buf`.
   * @param buf - the window: bytes carried from the previous call, then new ones.
   * @param final - no more bytes follow (a last record without a line break is complete).
   * @returns the records (their offset arrays are new, owned by the batch) and the bytes consumed.
   * @throws ParquetError `INVALID_CSV` for a record with another number of fields than the first, a byte other than
   *   a delimiter or line break after a closing quote, or (when `final`) an unterminated quoted field.
   */
  parse(buf: Uint8Array, final: boolean): { batch: CsvBatch; consumed: number } {
    const len = buf.length;
    const delim = this.delimiter;
    let pos = 0;
    let rows = 0;
    let nf = 0; // fields stored
    let consumed = 0;
    records: while (pos < len) {
      const recLine = this.line;
      let line = recLine;
      let k = 0;
      for (;;) {
        let fs: number;
        let fe: number;
        let esc = 0;
        let after: number; // the byte after the field: the delimiter, the LF ending the record, or len
        const quoted = pos < len && buf[pos] === QUOTE;
        if (quoted) {
          let p = pos + 1;
          for (;;) {
            while (p < len && buf[p] !== QUOTE) {
              if (buf[p] === LF) line++;
              p++;
            }
            if (p >= len) {
              if (final) throw csvError(`line ${recLine}: a quoted field is not closed before the end of the input`);
              break records;
            }
            if (p + 1 < len && buf[p + 1] === QUOTE) {
              esc = 1;
              p += 2;
              continue;
            }
            if (p + 1 >= len && !final) break records; // the next byte may be a quote
            break;
          }
          fs = pos + 1;
          fe = p;
          after = p + 1;
          if (after < len) {
            const c = buf[after]!;
            if (c === CR) {
              if (after + 1 < len) {
                if (buf[after + 1] !== LF) throw csvError(`line ${line}: a carriage return without a line feed after the closing quote of field ${k + 1}`);
                after++;
              } else if (!final) break records;
            } else if (c !== delim && c !== LF) {
              throw csvError(`line ${line}: unexpected ${printable(c)} after the closing quote of field ${k + 1} (expected the delimiter or a line break)`);
            }
          }
        } else {
          let p = pos;
          while (p < len) {
            const c = buf[p]!;
            if (c === delim || c === LF) break;
            p++;
          }
          if (p >= len && !final) break records;
          fs = pos;
          fe = p;
          after = p;
          if ((p >= len || buf[p] === LF) && fe > fs && buf[fe - 1] === CR) fe--;
        }
        const atDelim = after < len && buf[after] === delim;
        if (k === 0 && !quoted && fe === fs && !atDelim) {
          // a blank line, or the end of the input right after a line break: no record
          pos = after + 1;
          if (after < len) this.line = line + 1;
          consumed = Math.min(pos, len);
          continue records;
        }
        if (this.width >= 0 && k >= this.width) {
          throw csvError(`line ${recLine}: more than ${this.width} fields (the first record has ${this.width})`);
        }
        this.grow(nf + 1, rows + 1);
        this.starts[nf] = fs;
        this.ends[nf] = fe;
        this.escaped[nf] = esc;
        nf++;
        k++;
        if (atDelim) {
          pos = after + 1;
          continue;
        }
        pos = after + 1; // past the LF (or the end)
        if (after < len) line++;
        break;
      }
      if (this.width < 0) this.width = k;
      else if (k !== this.width) throw csvError(`line ${recLine}: ${k} fields, but the first record has ${this.width}`);
      this.lines[rows++] = recLine;
      this.line = line;
      consumed = Math.min(pos, len);
    }
    // the fields of a record cut by the end of the window lie past rows * width: they are not copied
    const width = Math.max(this.width, 0);
    const n = rows * width;
    return {
      batch: {
        buf,
        rows,
        width,
        starts: this.starts.slice(0, n),
        ends: this.ends.slice(0, n),
        escaped: this.escaped.slice(0, n),
        lines: this.lines.slice(0, rows),
      },
      consumed,
    };
  }
}

function printable(c: number): string {
  return c >= 32 && c < 127 ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/**
 * Checks that the bytes of a batch are UTF-8.
 * @param batch - the batch.
 * @throws ParquetError `INVALID_CSV` naming the lines of the batch when they are not.
 */
export function checkUtf8(batch: CsvBatch): void {
  if (batch.rows === 0) return;
  const from = batch.starts[0]!;
  const to = batch.ends[batch.starts.length - 1]!;
  if (!isUtf8(batch.buf.subarray(from, to))) {
    throw csvError(`lines ${batch.lines[0]}..${batch.lines[batch.rows - 1]}: not valid UTF-8 (convert the file to UTF-8 first)`);
  }
}

/** Decodes one field (quotes undone) as text: for header names and messages. */
export function fieldText(batch: CsvBatch, i: number): string {
  const s = batch.starts[i]!;
  const e = batch.ends[i]!;
  const text = new TextDecoder().decode(batch.buf.subarray(s, e));
  return batch.escaped[i] ? text.replaceAll('""', '"') : text;
}

/**
 * Column names from a header record: empty names become `column<i>`, repeated ones get `_1`, `_2`, … (as DuckDB
 * names them).
 * @param names - the header fields, or `undefined` for each column without a header.
 * @returns unique names.
 */
export function columnNames(names: readonly (string | undefined)[]): string[] {
  const seen = new Set<string>();
  return names.map((n, i) => {
    let name = n === undefined || n === '' ? `column${i}` : n;
    if (seen.has(name)) {
      let j = 1;
      while (seen.has(`${name}_${j}`)) j++;
      name = `${name}_${j}`;
    }
    seen.add(name);
    return name;
  });
}

function isNull(b: Uint8Array, s: number, e: number, nullValue: Uint8Array | undefined): boolean {
  if (s === e) return true;
  if (nullValue === undefined || e - s !== nullValue.length) return false;
  for (let i = 0; i < nullValue.length; i++) if (b[s + i] !== nullValue[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// sniffing

/** What the sniffer saw in one column. */
export interface ColumnSniff {
  /** Intersection of the {@link TypeBit} masks of the non-null values (all bits when there were none). */
  mask: number;
  /** Non-null values seen. */
  values: number;
  /** Most fraction digits of a timestamp or time. */
  fracDigits: number;
}

/**
 * Starts the sniff of `width` columns.
 * @param width - number of columns.
 * @returns one state per column.
 */
export function startSniff(width: number): ColumnSniff[] {
  return Array.from({ length: width }, () => ({ mask: 0x7f, values: 0, fracDigits: 0 }));
}

/**
 * Adds the records `[from, to)` of a batch to the sniff.
 * @param batch - the batch.
 * @param from - first record.
 * @param to - end record (exclusive).
 * @param sniff - per-column state.
 * @param nullValue - the null string's bytes.
 */
export function sniffBatch(batch: CsvBatch, from: number, to: number, sniff: ColumnSniff[], nullValue: Uint8Array | undefined): void {
  const r = textResult();
  const { buf, starts, ends, escaped, width } = batch;
  for (let c = 0; c < width; c++) {
    const st = sniff[c]!;
    let mask = st.mask;
    let frac = st.fracDigits;
    let values = st.values;
    for (let row = from; row < to; row++) {
      const i = row * width + c;
      const s = starts[i]!;
      const e = ends[i]!;
      if (isNull(buf, s, e, nullValue)) continue;
      values++;
      if (mask === 0) continue; // already a string: only counting
      const m = escaped[i] ? 0 : classify(buf, s, e, r);
      mask &= m;
      if (m & (TypeBit.TIMESTAMP | TypeBit.TIMESTAMPTZ | TypeBit.TIME) && r.fracDigits > frac) frac = r.fracDigits;
    }
    st.mask = mask;
    st.fracDigits = frac;
    st.values = values;
  }
}

/**
 * The type of a sniffed column: the first of BOOLEAN, BIGINT (INT64), DOUBLE, DATE, TIMESTAMP (local), TIMESTAMP
 * (UTC, when every value has a zone), TIME that every non-null value of the sample can be read as, else STRING
 * (also for a column with only nulls). Timestamps and times are in microseconds, or nanoseconds when a value had
 * more than 6 fraction digits.
 * @param s - the column's sniff.
 * @returns the field spec.
 */
export function sniffedSpec(s: ColumnSniff): FieldSpec {
  const m = s.values === 0 ? 0 : s.mask;
  const unit = s.fracDigits > 6 ? 'nanos' : 'micros';
  if (m & TypeBit.BOOLEAN) return field.boolean();
  if (m & TypeBit.INT64) return field.int64();
  if (m & TypeBit.DOUBLE) return field.double();
  if (m & TypeBit.DATE) return field.date();
  if (m & TypeBit.TIMESTAMP) return field.timestamp(unit, { utc: false });
  if (m & TypeBit.TIMESTAMPTZ) return field.timestamp(unit, { utc: true });
  if (m & TypeBit.TIME) return field.time(unit);
  return field.string();
}

// ---------------------------------------------------------------------------------------------------------------
// text → values, per column type

/** How the text of a column becomes values. */
export type TextPlan =
  | { readonly kind: 'bool' }
  | { readonly kind: 'i32'; readonly lo: number; readonly hi: number }
  | { readonly kind: 'u32'; readonly hi: number }
  | { readonly kind: 'i64' }
  | { readonly kind: 'u64' }
  | { readonly kind: 'f32' }
  | { readonly kind: 'f64' }
  | { readonly kind: 'date' }
  | { readonly kind: 'time'; readonly perSecond: number; readonly int32: boolean }
  | { readonly kind: 'ts'; readonly perSecond: number; readonly utc: boolean }
  | { readonly kind: 'bytes'; readonly utf8: boolean; readonly json?: true }
  | { readonly kind: 'text' };

const PER_SECOND = { millis: 1000, micros: 1000000, nanos: 1000000000 } as const;

/** The type names of `--type` and the specs they stand for, for messages. */
function specName(spec: FieldSpec): string {
  switch (spec.type) {
    case 'int': return `${spec.signed ? 'int' : 'uint'}${spec.bitWidth}`;
    case 'decimal': return `decimal(${spec.precision},${spec.scale})`;
    case 'timestamp': return `timestamp[${spec.unit}${spec.utc ? ', UTC' : ''}]`;
    case 'time': return `time[${spec.unit}]`;
    default: return spec.type;
  }
}

/**
 * How text becomes values of a field spec, or `undefined` for a type text does not map to (groups, lists, maps,
 * VARIANT, INTERVAL, INT96, BSON, GEOMETRY, GEOGRAPHY, FIXED).
 * @param spec - the column's spec.
 * @returns the plan.
 */
export function textPlan(spec: FieldSpec): TextPlan | undefined {
  switch (spec.type) {
    case 'boolean': return { kind: 'bool' };
    case 'int32': return { kind: 'i32', lo: -2147483648, hi: 2147483647 };
    case 'int64': return { kind: 'i64' };
    case 'int':
      if (spec.bitWidth === 64) return spec.signed ? { kind: 'i64' } : { kind: 'u64' };
      return spec.signed ? { kind: 'i32', lo: -(2 ** (spec.bitWidth - 1)), hi: 2 ** (spec.bitWidth - 1) - 1 } : { kind: 'u32', hi: 2 ** spec.bitWidth - 1 };
    case 'float': return { kind: 'f32' };
    case 'double':
    case 'float16': return { kind: 'f64' };
    case 'date': return { kind: 'date' };
    case 'time': return { kind: 'time', perSecond: PER_SECOND[spec.unit], int32: spec.unit === 'millis' };
    case 'timestamp': return { kind: 'ts', perSecond: PER_SECOND[spec.unit], utc: spec.utc };
    case 'json': return { kind: 'bytes', utf8: true, json: true };
    case 'string':
    case 'enum': return { kind: 'bytes', utf8: true };
    case 'binary': return { kind: 'bytes', utf8: false };
    case 'decimal':
    case 'uuid': return { kind: 'text' };
    default: return undefined;
  }
}

/** Why a text is not a value of a plan (for messages). */
function expected(plan: TextPlan, spec: FieldSpec): string {
  switch (plan.kind) {
    case 'bool': return 'a boolean (true/false, t/f, 1/0, yes/no)';
    case 'i32': return `an integer in ${plan.lo}..${plan.hi} (${specName(spec)})`;
    case 'u32': return `an integer in 0..${plan.hi} (${specName(spec)})`;
    case 'i64': return 'an integer in the int64 range';
    case 'u64': return 'an integer in 0..2^64-1';
    case 'f32': return 'a number within the FLOAT range';
    case 'f64': return 'a number';
    case 'date': return 'a date YYYY-MM-DD';
    case 'time': return `a time of day HH:MM[:SS[.fraction]] (${specName(spec)})`;
    case 'ts': return `a timestamp YYYY-MM-DD[THH:MM[:SS[.fraction]]]${plan.utc ? '[Z|±HH:MM]' : ' without a zone (the column is local time; use timestamptz for values with zones)'} (${specName(spec)})`;
    default: return specName(spec);
  }
}

/**
 * Why a text that is not a value of a time or timestamp column is refused, when the reason is its fraction of a
 * second: it holds more digits than the column's unit (or than nanoseconds), and is a value once they are cut. DuckDB
 * drops such digits when casting text to TIMESTAMP, TIMESTAMPTZ, TIMESTAMP_NS or TIME (and rounds to the millisecond
 * for TIMESTAMP_MS); here they are an error, not a rounding (the package README's CSV rules), with this message.
 * @param plan - the column's plan.
 * @param spec - the column's type.
 * @param text - the refused text.
 * @returns `N fraction digits, more than timestamp[micros, UTC] holds (at most 6); …`, or undefined when the text
 *   is refused for another reason (or the column is not a time or timestamp).
 */
export function fractionTooFine(plan: TextPlan, spec: FieldSpec, text: string): string | undefined {
  if (plan.kind !== 'ts' && plan.kind !== 'time') return undefined;
  const m = /^(.*\d\d:\d\d:\d\d)\.(\d+)(.*)$/s.exec(text);
  if (!m) return undefined;
  const digits = m[2]!.length;
  const holds = Math.round(Math.log10(plan.perSecond));
  if (digits <= holds) return undefined;
  const cut = Buffer.from(`${m[1]}.${m[2]!.slice(0, holds)}${m[3]}`);
  if (textValue(plan, cut, 0, cut.length, textResult()) === undefined) return undefined;
  const unit = digits <= 6 ? 'us' : 'ns';
  const finer =
    digits > 9 ? '; nanoseconds, the finest unit, hold 9' : `; give the column a finer unit with --type (${plan.kind === 'ts' ? (plan.utc ? 'timestamptz' : 'timestamp') : 'time'}[${unit}])`;
  return `${digits} fraction digits, more than ${specName(spec)} holds (at most ${holds})${finer}`;
}

/**
 * Converts one text to the JavaScript value the writer takes for `plan` (used for JSON strings in a typed column).
 * @param plan - the column's plan.
 * @param b - bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns the value, or `undefined` when the text is not one (`text`/`bytes` plans give `undefined` too: the
 *   caller keeps the string).
 */
export function textValue(plan: TextPlan, b: Uint8Array, s: number, e: number, r: TextResult): unknown {
  switch (plan.kind) {
    case 'bool': {
      const v = readBoolean(b, s, e, true);
      return v < 0 ? undefined : v === 1;
    }
    case 'i32':
    case 'u32': {
      if (!readInteger(b, s, e, r)) return undefined;
      const v = integerNumber(r);
      return v >= (plan.kind === 'i32' ? plan.lo : 0) && v <= plan.hi ? v : undefined;
    }
    case 'i64':
      return readInteger(b, s, e, r) && toInt64(r) ? wordsValue(r) : undefined;
    case 'u64': {
      if (!readInteger(b, s, e, r) || !toUint64(r)) return undefined;
      const v = r.hi * 4294967296 + r.lo;
      return Number.isSafeInteger(v) ? v : (BigInt(r.hi) << 32n) + BigInt(r.lo);
    }
    case 'f32':
    case 'f64': {
      if (!readNumber(b, s, e, r)) return undefined;
      if (plan.kind === 'f32' && Number.isFinite(r.num) && !Number.isFinite(Math.fround(r.num))) return undefined;
      return r.num;
    }
    case 'date':
      return readDate(b, s, e, r) ? r.days : undefined;
    case 'time':
      if (!readTime(b, s, e, r) || toUnitCount(r, plan.perSecond) !== 1) return undefined;
      return wordsValue(r);
    case 'ts':
      if (!readTimestamp(b, s, e, r) || (r.offset && !plan.utc) || toUnitCount(r, plan.perSecond) !== 1) return undefined;
      return wordsValue(r);
    default:
      return undefined;
  }
}

const utf8Text = /*#__PURE__*/ new TextDecoder();

/**
 * Why a text is not JSON (RFC 8259: one value, whitespace around it allowed), or undefined when it is. A JSON column
 * holds JSON text: the Parquet spec's JSON logical type is "an embedded JSON document", and a reader such as DuckDB
 * refuses the whole file when one value is not, so the command line checks each value before it is written (the
 * writer checks their UTF-8 only; see `field.json`). `JSON.parse` is the check: it costs an object per value, which a
 * convert of text already pays for every NDJSON row.
 * @param text - the text.
 * @returns `JSON.parse`'s message, or undefined.
 */
export function jsonError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Where a batch came from, for messages. */
export interface BatchSource {
  /** The column names. */
  readonly names: readonly string[];
  /** Per column: how many sample rows its type was inferred from (0: it was given). */
  readonly inferredFrom: readonly number[];
}

function valueError(batch: CsvBatch, row: number, c: number, name: string, what: string, hint: string): ParquetError {
  const text = fieldText(batch, row * batch.width + c);
  const shown = text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}… (${text.length} chars)` : JSON.stringify(text);
  return new ParquetError('INVALID_VALUE', `parquetry: CSV line ${batch.lines[row]}, column '${name}': expected ${what}, got ${shown}${hint}`);
}

/**
 * Builds the columnar vector of column `c` of a batch for the writer: typed arrays filled from the bytes (64-bit
 * values through an `Int32Array` alias, no BigInt per value), a binary vector for text and bytes, an array of
 * strings for DECIMAL and UUID (the writer parses those).
 * @param batch - the records.
 * @param c - the column.
 * @param plan - how its text becomes values.
 * @param spec - its field spec (for messages and `required`).
 * @param f - its field in the writer's schema tree.
 * @param name - its name (for messages).
 * @param nullValue - the null string's bytes.
 * @param inferredFrom - sample rows its type was inferred from (0 when given), for the hint of a message.
 * @param r - result registers.
 * @returns the vector.
 * @throws ParquetError `INVALID_VALUE` naming the line, column, value and the type expected; `INVALID_RECORD` for
 *   an empty field in a required column.
 */
export function buildColumn(
  batch: CsvBatch,
  c: number,
  plan: TextPlan,
  spec: FieldSpec,
  f: Field,
  name: string,
  nullValue: Uint8Array | undefined,
  inferredFrom: number,
  r: TextResult,
): ColumnarVector {
  const { buf, starts, ends, escaped, width, rows: n } = batch;
  const hint = inferredFrom > 0 ? `; the type was inferred from the first ${inferredFrom} rows: give the column its type with --type '${name}=…' or sniff more rows with --sample` : '';
  const validity = new Uint8Array(n);
  let nulls = 0;
  for (let row = 0; row < n; row++) {
    const i = row * width + c;
    if (isNull(buf, starts[i]!, ends[i]!, nullValue)) nulls++;
    else validity[row] = 1;
  }
  if (nulls > 0 && spec.required === true) {
    let row = 0;
    while (validity[row] === 1) row++;
    throw new ParquetError('INVALID_RECORD', `parquetry: CSV line ${batch.lines[row]}, column '${name}': an empty (null) field in a required column`);
  }
  const base = { field: f, length: n, validity: nulls > 0 ? validity : null };
  const bad = (row: number): ParquetError => valueError(batch, row, c, name, expected(plan, spec), hint);
  switch (plan.kind) {
    case 'bool': {
      const out = new Uint8Array(n);
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        const v = readBoolean(buf, starts[i]!, ends[i]!, true);
        if (v < 0) throw bad(row);
        out[row] = v;
      }
      return leaf(base, out);
    }
    case 'i32':
    case 'u32': {
      const out = plan.kind === 'i32' ? new Int32Array(n) : new Uint32Array(n);
      const lo = plan.kind === 'i32' ? plan.lo : 0;
      const hi = plan.hi;
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        if (!readInteger(buf, starts[i]!, ends[i]!, r)) throw bad(row);
        const v = integerNumber(r);
        if (!(v >= lo && v <= hi)) throw bad(row);
        out[row] = v;
      }
      return leaf(base, out);
    }
    case 'i64':
    case 'u64': {
      const out = plan.kind === 'i64' ? new BigInt64Array(n) : new BigUint64Array(n);
      const words = new Int32Array(out.buffer, 0, 2 * n);
      const signed = plan.kind === 'i64';
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        if (!readInteger(buf, starts[i]!, ends[i]!, r) || !(signed ? toInt64(r) : toUint64(r))) throw bad(row);
        words[2 * row + LO] = r.lo;
        words[2 * row + HI] = r.hi;
      }
      return leaf(base, out);
    }
    case 'f32':
    case 'f64': {
      const out = plan.kind === 'f64' ? new Float64Array(n) : new Float32Array(n);
      const single = plan.kind === 'f32';
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        if (!readNumber(buf, starts[i]!, ends[i]!, r)) throw bad(row);
        const v = r.num;
        if (single && v === v && Math.abs(v) !== Infinity && Math.abs(Math.fround(v)) === Infinity) throw bad(row);
        out[row] = v;
      }
      return leaf(base, out);
    }
    case 'date': {
      const out = new Int32Array(n);
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        if (!readDate(buf, starts[i]!, ends[i]!, r)) throw bad(row);
        out[row] = r.days;
      }
      return leaf(base, out);
    }
    case 'time':
    case 'ts': {
      const int32 = plan.kind === 'time' && plan.int32;
      const out = int32 ? new Int32Array(n) : new BigInt64Array(n);
      const words = int32 ? (out as Int32Array) : new Int32Array(out.buffer, 0, 2 * n);
      const per = plan.perSecond;
      const isTs = plan.kind === 'ts';
      const utc = plan.kind === 'ts' && plan.utc;
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        const s = starts[i]!;
        const e = ends[i]!;
        const fit = (isTs ? !readTimestamp(buf, s, e, r) || (r.offset && !utc) : !readTime(buf, s, e, r)) ? -1 : toUnitCount(r, per);
        if (fit !== 1) {
          const text = fieldText(batch, i);
          const fine = fractionTooFine(plan, spec, text);
          if (fine === undefined) throw bad(row);
          const shown = text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}… (${text.length} chars)` : JSON.stringify(text);
          throw new ParquetError('INVALID_VALUE', `parquetry: CSV line ${batch.lines[row]}, column '${name}': ${shown} has ${fine}`);
        }
        if (int32) words[row] = r.lo;
        else {
          words[2 * row + LO] = r.lo;
          words[2 * row + HI] = r.hi;
        }
      }
      return leaf(base, out);
    }
    case 'bytes': {
      let total = 0;
      for (let row = 0; row < n; row++) {
        if (validity[row] === 0) continue;
        const i = row * width + c;
        total += ends[i]! - starts[i]!;
      }
      const data = new Uint8Array(total);
      const offsets = new Int32Array(n + 1);
      let at = 0;
      for (let row = 0; row < n; row++) {
        if (validity[row] === 1) {
          const i = row * width + c;
          const s = starts[i]!;
          const e = ends[i]!;
          if (escaped[i]) {
            for (let p = s; p < e; p++) {
              const b = buf[p]!;
              data[at++] = b;
              if (b === QUOTE) p++; // the second quote of a pair
            }
          } else if (e - s < 24) {
            for (let p = s; p < e; p++) data[at++] = buf[p]!;
          } else {
            data.set(buf.subarray(s, e), at);
            at += e - s;
          }
        }
        offsets[row + 1] = at;
      }
      const v: BinaryVector = { kind: 'binary', ...base, offsets, data: at === total ? data : data.subarray(0, at), utf8: plan.utf8 };
      if (plan.json) {
        for (let row = 0; row < n; row++) {
          if (validity[row] === 0) continue;
          const why = jsonError(utf8Text.decode(data.subarray(offsets[row]!, offsets[row + 1]!)));
          if (why !== undefined) throw valueError(batch, row, c, name, 'JSON text (RFC 8259)', ` (${why})`);
        }
      }
      return v;
    }
    case 'text': {
      const out = new Array<string | null>(n);
      for (let row = 0; row < n; row++) out[row] = validity[row] === 1 ? fieldText(batch, row * width + c) : null;
      return leaf(base, out);
    }
  }
}

function leaf(base: { field: Field; length: number; validity: Uint8Array | null }, values: ArrayLike<unknown>): LeafVector {
  return { kind: 'leaf', ...base, values };
}

// Index of the low and high 32-bit word of an int64 in an Int32Array alias (platform byte order, as BigInt64Array).
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
