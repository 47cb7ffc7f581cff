/**
 * Row output formats of the command line: `json` (one array), `ndjson` (one object per line), `csv` (RFC 4180: a
 * header, fields quoted when they hold a comma, a quote or a line break, empty strings as `""` and nulls as nothing)
 * and `table` (aligned columns with a type line, cells cut to fit a terminal, control characters escaped by
 * {@link visibleText}). Each writes as rows arrive; a table sizes its columns from its first rows.
 *
 * The values printed are those of https://github.com/apache/parquet-format/blob/master/LogicalTypes.md as
 * cli-values.ts maps them.
 * @module
 */
import { cellText, jsonStringify, jsonText, type BinaryForm, type ValueMode } from './cli-values.js';
import { usageError } from './cli-args.js';
import { cutToWidth, displayWidth, padToWidth } from './text-width.js';

/** An output format. */
export type Format = 'json' | 'ndjson' | 'csv' | 'table';

/** The formats, for messages and checks. */
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv'];

/**
 * The format of `--format` (default: `table` on a terminal, `ndjson` otherwise).
 * @param text - the option's value, or undefined.
 * @param tty - whether the output is a terminal.
 * @returns the format.
 * @throws ParquetError `USAGE` for an unknown format.
 */
export function formatOf(text: string | undefined, tty: boolean): Format {
  if (text === undefined) return tty ? 'table' : 'ndjson';
  const f = text.toLowerCase() === 'jsonl' ? 'ndjson' : text.toLowerCase();
  if (!FORMATS.includes(f as Format)) throw usageError(`--format is ${FORMATS.join(', ')}, not '${text}'`);
  return f as Format;
}

/** A column of the output. */
export interface OutColumn {
  /** The property name in a row object (a top-level field). */
  readonly name: string;
  /** Its type, for a table's type line. */
  readonly label: string;
  /** Right-aligned in a table. */
  readonly numeric: boolean;
}

/** Receives rows and writes them in a format. */
export interface RowSink {
  /**
   * Writes rows.
   * @param rows - the rows (objects keyed by column name).
   */
  rows(rows: readonly Record<string, unknown>[]): void;
  /** Writes what comes after the last row. */
  end(): void;
}

/** Options of {@link rowSink}. */
export interface SinkOptions {
  /** The terminal's width in characters (a table's cells are cut to fit it). */
  readonly width?: number | undefined;
  /** Rows a table sizes its columns from (default 1000; later rows are cut to those widths). */
  readonly sample?: number;
  /** A table ends with a `(N rows)` line (default true). */
  readonly count?: boolean;
}

function csvField(s: string): string {
  return s === '' || /[",\r\n]/.test(s) || s.trim() !== s ? `"${s.replaceAll('"', '""')}"` : s;
}

// The characters a terminal acts on instead of showing: C0 controls (ESC starts the sequences that move the cursor,
// recolour, retitle the window or write the clipboard; CR and BS overwrite what was printed), DEL, C1 controls
// (U+009B is a one-character CSI on many terminals), the bidirectional formatting characters (U+061C, U+200E/F,
// U+202A..U+202E, U+2066..U+2069, which reorder what follows them: "Trojan Source") and the line and paragraph
// separators U+2028/U+2029.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeOf(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (c === '\r') return '\\r';
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text as it may reach a terminal: every character a terminal would act on (see `CONTROL` above) written as a
 * visible escape — `\n`, `\t`, `\r`, `\xHH` below U+0100 (ESC is `\x1b`, CSI `\x9b`), `\uHHHH` above (`\u202e`). The
 * form is JavaScript's (and JSON's, C's, Python's): plain ASCII, so it cannot itself be acted on, it shows in any font
 * (the control pictures of U+2400..U+241F cover C0 only and need a font that has them), and it is the text to type
 * back in a script. A backslash is left as it is (Windows paths stay readable), so `\x1b` may also be those four
 * characters in the data; `--format json` is the exact form. Every human-readable printer (table cells and headers,
 * `schema`, `meta` and `stats` text, `pages`, `bloom`, error lines) goes through this; JSON and NDJSON escape by
 * their own grammar (and {@link visibleJson}), and CSV fields are written as they are (as DuckDB's COPY … (FORMAT csv)
 * writes them: a CSV reader must get the bytes back).
 * @param s - the text.
 * @returns the text with its control characters escaped (the same string when it has none).
 */
export function visibleText(s: string): string {
  return CONTROL.test(s) ? s.replace(CONTROLS, escapeOf) : s;
}

// widths in terminal columns (a CJK character or an emoji takes two, a combining mark none), cut between characters
const cut = cutToWidth;
const pad = padToWidth;

// What JSON.stringify leaves as it is of the characters above: DEL, C1, the bidirectional formatting characters and
// U+2028/U+2029 (it escapes C0 itself).
// eslint-disable-next-line no-control-regex
const JSON_RAW = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const JSON_RAWS = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the terminal-acting characters `JSON.stringify` leaves raw (DEL, C1, bidirectional formatting, U+2028
 * and U+2029) written as `\uHHHH` escapes: the same JSON value (such characters occur only inside strings, where
 * RFC 8259 allows either form), safe on a terminal (C0 is escaped by `JSON.stringify` already).
 * @param s - JSON text.
 * @returns the same JSON with those characters escaped.
 */
export function visibleJson(s: string): string {
  return JSON_RAW.test(s) ? s.replace(JSON_RAWS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : s;
}

/**
 * A writer of rows in a format.
 * @param format - the format.
 * @param columns - the output columns, in order.
 * @param mode - how values print (bigints and binary of `--raw`).
 * @param write - receives each output line.
 * @param options - a table's width and sample.
 * @returns the writer.
 */
export function rowSink(format: Format, columns: readonly OutColumn[], mode: ValueMode, write: (line: string) => void, options: SinkOptions = {}): RowSink {
  const binary: BinaryForm = mode.binary;
  // rows of the JSON mapping print with JSON.stringify (-0 as -0); --raw rows hold bigints, bytes, Dates and Maps. The objects
  // have no prototype: a column named `__proto__` is then a key like any other (on `{}` it sets the prototype).
  const outRow = (r: Record<string, unknown>): Record<string, unknown> => {
    const o = Object.create(null) as Record<string, unknown>;
    for (const c of columns) o[c.name] = r[c.name] ?? null;
    return o;
  };
  const line = mode.raw ? (r: Record<string, unknown>) => visibleJson(jsonText(outRow(r), binary)) : (r: Record<string, unknown>) => visibleJson(jsonStringify(outRow(r)));
  switch (format) {
    case 'ndjson':
      return {
        rows(rows) {
          for (const r of rows) write(line(r));
        },
        end() {},
      };
    case 'json': {
      let held: string | undefined;
      let opened = false;
      return {
        rows(rows) {
          if (!opened && rows.length > 0) {
            write('[');
            opened = true;
          }
          for (const r of rows) {
            if (held !== undefined) write(`  ${held},`);
            held = line(r);
          }
        },
        end() {
          if (!opened) return write('[]');
          write(`  ${held}`);
          write(']');
        },
      };
    }
    case 'csv': {
      write(columns.map((c) => csvField(c.name)).join(','));
      return {
        rows(rows) {
          for (const r of rows) {
            let s = '';
            for (let k = 0; k < columns.length; k++) {
              const v = r[columns[k]!.name];
              if (k > 0) s += ',';
              if (v !== null && v !== undefined) s += csvField(cellText(v, binary));
            }
            write(s);
          }
        },
        end() {},
      };
    }
    case 'table':
      return tableSink(columns, binary, write, options);
  }
}

function tableSink(columns: readonly OutColumn[], binary: BinaryForm, write: (line: string) => void, options: SinkOptions): RowSink {
  const sample = options.sample ?? 1000;
  const held: string[][] = [];
  let widths: number[] | undefined;
  let count = 0;
  // a column's name comes from the file: escaped as its cells are
  const names = columns.map((c) => visibleText(c.name));
  const cells = (r: Record<string, unknown>): string[] =>
    columns.map((c) => {
      const v = r[c.name];
      return v === null || v === undefined ? 'NULL' : visibleText(cellText(v, binary));
    });
  const emit = (row: readonly string[]): void => {
    write(row.map((s, k) => pad(cut(s, widths![k]!), widths![k]!, columns[k]!.numeric)).join('  ').trimEnd());
  };
  const start = (): void => {
    // each column as wide as its widest cell, header or type, cut to a share of the terminal
    const natural = columns.map((c, k) => Math.max(displayWidth(names[k]!), displayWidth(c.label), 4, ...held.map((r) => displayWidth(r[k]!))));
    const total = options.width ?? Infinity;
    const cap = Math.max(12, Math.floor((total - 2 * (columns.length - 1)) / Math.max(1, columns.length)));
    const limit = Math.max(40, cap);
    widths = natural.map((w) => Math.min(w, limit));
    // over the terminal's width: shrink the widest columns until it fits (no column below 8)
    const sum = (): number => widths!.reduce((a, b) => a + b, 0) + 2 * (columns.length - 1);
    while (sum() > total) {
      let widest = 0;
      for (let k = 1; k < widths.length; k++) if (widths[k]! > widths[widest]!) widest = k;
      if (widths[widest]! <= 8) break;
      widths[widest] = widths[widest]! - 1;
    }
    write(columns.map((c, k) => pad(cut(names[k]!, widths![k]!), widths![k]!, c.numeric)).join('  ').trimEnd());
    if (columns.some((c) => c.label !== '')) write(columns.map((c, k) => pad(cut(c.label, widths![k]!), widths![k]!, c.numeric)).join('  ').trimEnd());
    write(widths.map((w) => '─'.repeat(w)).join('  '));
    for (const r of held) emit(r);
    held.length = 0;
  };
  return {
    rows(rows) {
      for (const r of rows) {
        count++;
        if (widths) emit(cells(r));
        else {
          held.push(cells(r));
          if (held.length >= sample) start();
        }
      }
    },
    end() {
      if (!widths) start();
      if (options.count !== false) write(`(${count} row${count === 1 ? '' : 's'})`);
    },
  };
}
