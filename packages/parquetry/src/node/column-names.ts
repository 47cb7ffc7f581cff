/**
 * Column names on the command line (`--columns`, `stats`, `pages`, `bloom`), by DuckDB's identifier rules as `--where`
 * takes them: unquoted dots separate a struct's fields (`s.a` is field `a` of struct `s`), and a name in double quotes
 * is one name, dots and all (`"a.b"` is the top-level field named `a.b`, `s."x.y"` field `x.y` of struct `s`; a quote
 * inside is doubled). In a file with both a field `a.b` and a struct `a` with a field `b`, the quotes say which.
 * @module
 */
import type { ColumnDescriptor, SchemaTree } from '@parquetry/parquet-levels';
import { nameList, nearest, usageError } from './cli-args.js';
import { whereName } from './where.js';

/**
 * A leaf column of a command's argument (`stats`, `pages`, `bloom`), by path as `--where` takes names (`s.a`,
 * `"a.b"`), or the one leaf under a group path.
 * @param schema - the file's schema.
 * @param cmd - the command, for messages.
 * @param name - the column as typed.
 * @returns the leaf.
 * @throws ParquetError `USAGE` (exit code 2, as an unknown column of `--columns` or `--where`) for a name that is no
 *   column (with the nearest name, a quoting hint, or the columns), a group of several leaves, or an unclosed quote.
 */
export function leafColumnOf(schema: SchemaTree, cmd: string, name: string): ColumnDescriptor {
  const cols = schema.columns;
  const path = parseColumnPath(name);
  if (path === undefined) throw usageError(`${cmd}: a quoted column name is not closed in '${name}' ("…")`);
  const under = cols.filter((c) => isUnder(path, c));
  const exact = under.find((c) => c.path.length === path.length);
  if (exact) return exact;
  if (under.length === 1) return under[0]!;
  if (under.length > 1) throw usageError(`${cmd}: '${name}' is a group of ${under.length} columns; name one: ${nameList(under.map((c) => whereName(c.path)), 8)}`);
  const hint = quoteHint(schema, path);
  if (hint) throw usageError(`${cmd}: no column '${name}'${hint}`);
  const names = cols.map((c) => whereName(c.path));
  const guess = nearest(name, names);
  throw usageError(`${cmd}: no column '${name}'${guess ? ` (did you mean '${guess}'?)` : ` (columns: ${nameList(names)})`}`);
}

/**
 * The names of a column path as written: split at the dots outside double quotes, each quoted name unquoted.
 * @param text - the path, e.g. `s.a`, `"a.b"`, `s."x.y"`.
 * @returns the names, or undefined when a quote is not closed.
 */
export function parseColumnPath(text: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let name = '';
    if (text[i] === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) return undefined;
        if (text[j] === '"') {
          if (text[j + 1] !== '"') break;
          j++;
        }
        name += text[j];
        j++;
      }
      i = j + 1;
      // text after the closing quote, up to the next dot, belongs to the name (as an unquoted name's would)
      const dot = text.indexOf('.', i);
      name += text.slice(i, dot < 0 ? text.length : dot);
      i = dot < 0 ? text.length : dot;
    } else {
      const dot = text.indexOf('.', i);
      name = text.slice(i, dot < 0 ? text.length : dot);
      i = dot < 0 ? text.length : dot;
    }
    out.push(name);
    if (i >= text.length) return out;
    i++; // the dot
  }
}

/**
 * Splits a list of column paths at the commas outside double quotes.
 * @param text - the list, e.g. `id,"a.b",s.x`.
 * @returns the items, trimmed.
 */
export function splitColumnList(text: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === ',' && !quoted) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out;
}

/** Whether a leaf is at `path` or under it. */
export function isUnder(path: readonly string[], col: ColumnDescriptor): boolean {
  return path.length <= col.path.length && path.every((p, i) => col.path[i] === p);
}

/**
 * For a path that names no column: the columns whose names, joined with dots, are its names joined with dots (a field
 * whose own name has a dot written unquoted, or the other way round), as a hint saying how to write them.
 * @param schema - the schema.
 * @param path - the names as written.
 * @returns ` (a quoted name is …: did you mean '"a.b"'?)`, or '' when no column is alike.
 */
export function quoteHint(schema: SchemaTree, path: readonly string[]): string {
  const text = path.join('.');
  const exact = schema.columns.filter((c) => c.pathString === text);
  const alike = (exact.length > 0 ? exact : schema.columns.filter((c) => c.pathString.startsWith(`${text}.`))).map((c) => whereName(c.path));
  if (alike.length === 0) return '';
  return ` (a quoted name is one field, dots and all; unquoted dots separate a struct's fields): did you mean ${[...new Set(alike)].slice(0, 4).map((a) => `'${a}'`).join(' or ')}?`;
}
