/**
 * `--where`: the reader's filter written as text, SQL-like —
 * `id > 10 and (name = 'x' or tag in ('a', 'b')) and v is not null`. The grammar (keywords in any case):
 *
 * ```text
 * expr      := and ('or' and)*
 * and       := not ('and' not)*
 * not       := 'not' not | '(' expr ')' | predicate
 * predicate := column op literal | literal op column
 *            | column ['not'] 'in' '(' literal (',' literal)* ')'
 *            | column 'is' ['not'] 'null'
 *            | column ['not'] 'between' literal 'and' literal
 * op        := '=' | '==' | '!=' | '<>' | '<' | '<=' | '>' | '>='
 * column    := name ('.' name)*          name: a letter (any script) or _, then letters, digits, marks, _ and $;
 *                                        or "quoted" / `quoted`
 * literal   := ['-'|'+'] number | 'text' ('' for a quote) | true | false | x'hex'
 *            | date 'YYYY-MM-DD' | timestamp '…' | time '…'
 * ```
 *
 * Column names follow DuckDB's identifier rules: an unquoted dotted name is a path into structs (`a.b` is field `b` of
 * struct `a`), and a quoted name is one name, dots and all (`"a.b"` is the top-level field named `a.b`; `a."b.c"` is
 * field `b.c` of struct `a`). A column whose name has a dot is given to the reader as a path array, so that a file
 * with both a field `a.b` and a struct `a` with a field `b` filters on the one written.
 *
 * `not` has SQL's meaning: a comparison with a null value is neither true nor false, so `not (a = 1)` does not hold
 * where `a` is null (the filter is rewritten so: each `not` pushed down to the comparisons). Columns inside a list or map cannot be
 * filtered (they hold any number of values per row).
 *
 * Each literal is checked against its column's type here (a number for numeric columns, text in quotes for string
 * and temporal columns, …) and passed to the reader in the form its filter validation converts exactly (INT64 as a
 * bigint, DECIMAL as its decimal text, timestamps as ISO-8601 text); errors name the character where the problem
 * is. The reader checks what it converts (an impossible date, a fraction finer than the column's unit), and
 * {@link whereError} puts its message at the predicate's place in the text.
 *
 * Number literals are typed as DuckDB types them: `19.99` (a DECIMAL there) and `3` (an integer) compared with a FLOAT
 * column are cast to FLOAT (rounded to float32), so `x = 19.99` holds on the stored float 19.99; a literal with an
 * exponent (`1.999e1`, a DOUBLE there) is compared with the float widened to a double, the reader's own comparison.
 * On a DECIMAL column every literal is compared exactly, its digits written out when it has an exponent (`1e20` →
 * `100000000000000000000`; DuckDB compares a DOUBLE literal with a decimal as doubles).
 *
 * Spec: the filtered values are those of https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
 * @module
 */
import type { Filter } from '@parquetry/parquet-reader';
import type { FilterColumn } from '@parquetry/parquet-reader/filters';
import type { ColumnDescriptor, SchemaTree } from '@parquetry/parquet-levels';
import { ParquetError, Type, isParquetError } from '@parquetry/thrift-compact';
import { nameList, nearest } from './cli-args.js';

/**
 * A column path as `--where` writes it: each name that is not a plain identifier (or is a keyword) in double quotes.
 * @param path - the column's names.
 * @returns the text, e.g. `s.a` or `"a.b"` or `a."b c"`.
 */
export function whereName(path: readonly string[]): string {
  return path.map((p) => (IDENTIFIER.test(p) && !KEYWORDS.has(p.toLowerCase()) ? p : `"${p.replaceAll('"', '""')}"`)).join('.');
}

// An unquoted name, as DuckDB takes one: a letter (any script's: größe, 名前) or _, then letters, digits, combining marks
// (a name in decomposed form), _ and $. DuckDB also takes other non-ASCII characters (emoji); those need quotes here.
const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}\p{M}_$]/u;
const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}\p{M}_$]*$/u;

/** The character (code point) at `i` of `text`: one or two UTF-16 units. */
function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i)!);
}

/** A parsed `--where`: the filter, and where each of its parts starts in the text. */
export interface ParsedWhere {
  /** The filter for the reader. */
  readonly filter: Filter;
  /** The text parsed. */
  readonly text: string;
  /** Character offsets of the filter's parts, by their path as the reader names them (`filter.and[1]`). */
  readonly positions: ReadonlyMap<string, number>;
  /** The schema the columns were found in. */
  readonly schema: SchemaTree;
}

type TokenKind = 'name' | 'number' | 'string' | 'hex' | 'op' | 'end';

interface Token {
  readonly kind: TokenKind;
  /** The text (a string's content unescaped; an identifier's name unquoted). */
  readonly text: string;
  /** Offset in the expression. */
  readonly at: number;
  /** A quoted identifier (never a keyword). */
  readonly quoted?: boolean;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'null', 'true', 'false', 'between', 'like', 'ilike']);
const COMPARE: Readonly<Record<string, '=' | '!=' | '<' | '<=' | '>' | '>='>> = {
  '=': '=', '==': '=', '!=': '!=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
};
const FLIP: Readonly<Record<string, '=' | '!=' | '<' | '<=' | '>' | '>='>> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

class WhereSyntax {
  constructor(
    readonly at: number,
    readonly message: string,
  ) {}
}

/** The deepest nesting of `not`s and parentheses a `--where` may have. */
const MAX_DEPTH = 1000;

function describe(t: Token): string {
  switch (t.kind) {
    case 'end':
      return 'the end';
    case 'string':
      return `'${t.text}'`;
    case 'hex':
      return `x'${t.text}'`;
    case 'name':
      return t.quoted ? `"${t.text}"` : `'${t.text}'`;
    default:
      return `'${t.text}'`;
  }
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if ((c === 'x' || c === 'X') && text[i + 1] === "'") {
      const end = text.indexOf("'", i + 2);
      if (end < 0) throw new WhereSyntax(at, 'a hex literal x\'…\' is not closed');
      const hex = text.slice(i + 2, end);
      if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new WhereSyntax(at, `x'${hex}' is not hex bytes (pairs of 0-9, a-f)`);
      out.push({ kind: 'hex', text: hex, at });
      i = end + 1;
      continue;
    }
    if (NAME_START.test(charAt(text, i))) {
      let j = i + charAt(text, i).length;
      while (j < n && NAME_PART.test(charAt(text, j))) j += charAt(text, j).length;
      out.push({ kind: 'name', text: text.slice(i, j), at });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i))!;
      const after = i + m[0].length < n ? charAt(text, i + m[0].length) : undefined;
      if (after !== undefined && NAME_START.test(after)) throw new WhereSyntax(at, `'${m[0]}${after}…' is neither a number nor a name`);
      out.push({ kind: 'number', text: m[0], at });
      i += m[0].length;
      continue;
    }
    if (c === "'") {
      let s = '';
      let j = i + 1;
      for (;;) {
        if (j >= n) throw new WhereSyntax(at, 'a string is not closed (strings are in single quotes; a quote inside is doubled: \'it\'\'s\')');
        if (text[j] === "'") {
          if (text[j + 1] === "'") {
            s += "'";
            j += 2;
            continue;
          }
          break;
        }
        s += text[j];
        j++;
      }
      out.push({ kind: 'string', text: s, at });
      i = j + 1;
      continue;
    }
    if (c === '"' || c === '`') {
      let s = '';
      let j = i + 1;
      for (;;) {
        if (j >= n) throw new WhereSyntax(at, `a quoted column name is not closed (${c}…${c})`);
        if (text[j] === c) {
          if (text[j + 1] === c) {
            s += c;
            j += 2;
            continue;
          }
          break;
        }
        s += text[j];
        j++;
      }
      out.push({ kind: 'name', text: s, at, quoted: true });
      i = j + 1;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '<=' || two === '>=' || two === '!=' || two === '<>' || two === '==') {
      out.push({ kind: 'op', text: two, at });
      i += 2;
      continue;
    }
    if ('=<>(),.-+'.includes(c)) {
      out.push({ kind: 'op', text: c, at });
      i++;
      continue;
    }
    const u = charAt(text, i);
    throw new WhereSyntax(at, `unexpected character '${u}'${u.codePointAt(0)! > 0x7f ? ` (U+${u.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}; a name with it takes double quotes: "…")` : ''}`);
  }
  out.push({ kind: 'end', text: '', at: n });
  return out;
}

/** How a column takes literals. */
type Kind = 'boolean' | 'int32' | 'int64' | 'float' | 'decimal' | 'temporal32' | 'temporal64' | 'string' | 'uuid' | 'binary' | 'none';

function kindOf(col: ColumnDescriptor): Kind {
  const lt = col.node.logicalType;
  if (lt?.DECIMAL) return 'decimal';
  switch (col.type) {
    case Type.BOOLEAN:
      return 'boolean';
    case Type.INT32:
      return lt?.DATE || lt?.TIME ? 'temporal32' : 'int32';
    case Type.INT64:
      return lt?.TIMESTAMP || lt?.TIME ? 'temporal64' : 'int64';
    case Type.INT96:
      return 'temporal64';
    case Type.FLOAT:
    case Type.DOUBLE:
      return 'float';
    case Type.BYTE_ARRAY:
      return lt?.STRING || lt?.ENUM || lt?.JSON ? 'string' : 'binary';
    case Type.FIXED_LEN_BYTE_ARRAY:
      if (lt?.UUID && col.typeLength === 16) return 'uuid';
      if (lt?.FLOAT16 && col.typeLength === 2) return 'float';
      if (col.node.element.converted_type === 21) return 'none';
      return lt?.STRING || lt?.ENUM || lt?.JSON ? 'string' : 'binary';
    default:
      return 'none';
  }
}

/** What a column of a kind takes, for messages (CLI terms, not JavaScript types). */
function expected(col: ColumnDescriptor): string {
  const lt = col.node.logicalType;
  switch (kindOf(col)) {
    case 'boolean':
      return 'true or false';
    case 'int32':
    case 'int64':
      return 'a whole number';
    case 'float':
      return "a number (or 'NaN', 'Infinity', '-Infinity')";
    case 'decimal':
      return 'a number (compared exactly)';
    case 'temporal32':
      return lt?.DATE ? "a date 'YYYY-MM-DD' or a day number" : `a time 'HH:MM:SS[.fff]${lt?.TIME?.isAdjustedToUTC ? '[Z]' : ''}' or a count of milliseconds since midnight`;
    case 'temporal64': {
      if (lt?.TIME) return `a time 'HH:MM:SS[.ffffff]${lt.TIME.isAdjustedToUTC ? '[Z]' : ''}' or a count of ${lt.TIME.unit.MICROS ? 'microseconds' : 'nanoseconds'} since midnight`;
      const unit = lt?.TIMESTAMP ? (lt.TIMESTAMP.unit.MILLIS ? 'milliseconds' : lt.TIMESTAMP.unit.MICROS ? 'microseconds' : 'nanoseconds') : 'nanoseconds';
      const zone = lt?.TIMESTAMP?.isAdjustedToUTC ? '[Z|±HH:MM]' : '';
      return `a timestamp 'YYYY-MM-DD[ HH:MM:SS[.fffffffff]]${zone}' or a count of ${unit} since 1970-01-01`;
    }
    case 'string':
      return "text in single quotes ('x')";
    case 'uuid':
      return "a UUID in single quotes ('01234567-89ab-cdef-0123-456789abcdef')";
    case 'binary':
      return "text in single quotes (its UTF-8 bytes) or hex bytes x'0a1b'";
    case 'none':
      return 'nothing: INTERVAL values have no order (only is null / is not null apply)';
  }
}

/** Whether a column's values are 32-bit floats or narrower: FLOAT, or FLOAT16 (which DuckDB reads as FLOAT). */
function single(col: ColumnDescriptor): boolean {
  return col.type === Type.FLOAT || (col.type === Type.FIXED_LEN_BYTE_ARRAY && col.typeLength === 2 && col.node.logicalType?.FLOAT16 !== undefined);
}

/** 2^128: DuckDB's integer literals go up to UHUGEINT's 2^128 - 1. */
const UHUGEINT_LIMIT = 1n << 128n;

/**
 * Whether DuckDB casts a number literal to a FLOAT column's type. It types `19.99` a DECIMAL (of up to 38 digits,
 * leading zeros counted) and `3` an integer (up to 128 bits), and compares such a literal with a FLOAT column as a
 * FLOAT; a literal with an exponent (`1.999e1`), more digits or a larger integer is a DOUBLE, against which the float
 * is widened instead (the reader's comparison, a double's).
 * @param text - the literal, with its sign.
 */
function castsToFloat(text: string): boolean {
  const u = text.replace(/^[-+]/, '');
  if (/[eE]/.test(u)) return false;
  if (u.includes('.')) return u.length - 1 <= 38;
  return BigInt(u) < UHUGEINT_LIMIT;
}

/**
 * A number's text without an exponent, its digits written out exactly (`1.5e3` → `1500`, `-25e-3` → `-0.025`): the
 * form of a decimal the reader's filter takes. An exponent that would write more than `precision + 1000` digits
 * (`1e999999`) gives a number of that many digits on the same side of every value a DECIMAL(`precision`) column holds
 * (`1` and 1000 zeros past its largest; `0.`, 1000 zeros and a `1` for a tiny one, between 0 and its smallest step), so
 * the comparisons are the same and the text stays short.
 * @param text - the literal: sign, digits, point, exponent.
 * @param precision - the column's precision (its values have at most this many digits).
 */
function plainDecimal(text: string, precision: number): string {
  const m = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!m || m[4] === undefined) return text;
  const sign = m[1] === '-' ? '-' : '';
  const all = m[2]! + (m[3] ?? '');
  const lead = /^0*/.exec(all)![0].length;
  const digits = all.slice(lead).replace(/0+$/, '');
  if (digits === '') return '0';
  // the point's place in `digits`: before its first digit when 0, after its last when digits.length
  const exp = BigInt(m[4]);
  const limit = BigInt(precision + 1000);
  const point = BigInt(m[2]!.length - lead) + exp;
  if (point > limit) return `${sign}1${'0'.repeat(Number(limit))}`;
  if (point < -limit) return `${sign}0.${'0'.repeat(Number(limit))}1`;
  const p = Number(point);
  if (p <= 0) return `${sign}0.${'0'.repeat(-p)}${digits}`;
  if (p >= digits.length) return sign + digits + '0'.repeat(p - digits.length);
  return `${sign}${digits.slice(0, p)}.${digits.slice(p)}`;
}

/** A column's type for messages, e.g. `INT64 TIMESTAMP(MICROS, UTC)`. */
function typeName(col: ColumnDescriptor): string {
  const phys = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'][col.type] ?? `type ${col.type}`;
  const lt = col.node.logicalType;
  const name = lt ? Object.keys(lt).find((k) => (lt as Record<string, unknown>)[k] !== undefined) : undefined;
  return name ? `${phys} ${name}` : phys;
}

interface Literal {
  readonly token: Token;
  readonly kind: 'number' | 'string' | 'boolean' | 'hex' | 'null';
  /** Number text with its sign, or the string's content. */
  readonly text: string;
  /** A typed literal's type word (`date`, `timestamp`, `time`). */
  readonly typed?: string;
}

class Parser {
  private i = 0;
  readonly positions = new Map<string, number>();
  /** The leaves by their names as --where writes them ({@link whereName}). */
  private readonly byName: Map<string, ColumnDescriptor>;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly schema: SchemaTree,
    private readonly text: string,
  ) {
    this.byName = new Map(schema.columns.map((c) => [whereName(c.path), c]));
  }

  private get tok(): Token {
    return this.tokens[this.i]!;
  }

  private keyword(word: string): boolean {
    const t = this.tok;
    if (t.kind === 'name' && !t.quoted && t.text.toLowerCase() === word) {
      this.i++;
      return true;
    }
    return false;
  }

  private isKeyword(t: Token, word: string): boolean {
    return t.kind === 'name' && !t.quoted && t.text.toLowerCase() === word;
  }

  private op(text: string): boolean {
    if (this.tok.kind === 'op' && this.tok.text === text) {
      this.i++;
      return true;
    }
    return false;
  }

  private fail(message: string, t: Token = this.tok): never {
    throw new WhereSyntax(t.at, message);
  }

  parse(): Filter {
    if (this.tok.kind === 'end') this.fail('the expression is empty');
    const f = this.or('filter');
    const t = this.tokens[this.i]!;
    if (t.kind !== 'end') {
      const hint = t.kind === 'op' && t.text === ')' ? ' (a closing parenthesis without an opening one)' : " (join conditions with 'and' or 'or')";
      this.fail(`expected the end, found ${describe(t)}${hint}`);
    }
    return f;
  }

  private or(path: string): Filter {
    const at = this.tok.at;
    const parts = [this.and(`${path}.or[0]`)];
    while (this.keyword('or')) parts.push(this.and(`${path}.or[${parts.length}]`));
    if (parts.length === 1) return this.rename(`${path}.or[0]`, path, parts[0]!);
    this.positions.set(path, at);
    return { or: parts };
  }

  private and(path: string): Filter {
    const at = this.tok.at;
    const parts = [this.not(`${path}.and[0]`)];
    while (this.keyword('and')) parts.push(this.not(`${path}.and[${parts.length}]`));
    if (parts.length === 1) return this.rename(`${path}.and[0]`, path, parts[0]!);
    this.positions.set(path, at);
    return { and: parts };
  }

  /** Moves the positions recorded under a path to another (a one-part and/or is its part). */
  private rename(from: string, to: string, f: Filter): Filter {
    for (const [k, v] of [...this.positions]) {
      if (k === from || k.startsWith(`${from}.`) || k.startsWith(`${from}#`)) {
        this.positions.delete(k);
        this.positions.set(to + k.slice(from.length), v);
      }
    }
    return f;
  }

  /** Nesting of `not`s and parentheses so far. */
  private depth = 0;

  private not(path: string): Filter {
    const t = this.tok;
    // (DuckDB's max_expression_depth is 1000 too; deeper input overflowed the stack)
    if (++this.depth > MAX_DEPTH) this.fail(`the expression nests 'not's and parentheses more than ${MAX_DEPTH} deep`);
    try {
      return this.notAt(path, t);
    } finally {
      this.depth--;
    }
  }

  private notAt(path: string, t: Token): Filter {
    if (this.keyword('not')) {
      this.positions.set(path, t.at);
      return { not: this.not(`${path}.not`) };
    }
    if (this.op('(')) {
      if (this.tok.kind === 'end' || (this.tok.kind === 'op' && this.tok.text === ')')) this.fail(`expected a condition after '(', found ${describe(this.tok)}`);
      const f = this.or(path);
      if (!this.op(')')) this.fail(`expected ')' to close the '(' at character ${place(this.text, t.at)}, found ${describe(this.tok)}`);
      return f;
    }
    return this.predicate(path);
  }

  private column(): { col: ColumnDescriptor; token: Token } {
    const t = this.tok;
    if (t.kind !== 'name' || (!t.quoted && KEYWORDS.has(t.text.toLowerCase()))) {
      this.fail(`expected a column name, found ${describe(t)}`);
    }
    this.i++;
    // each name one field: an unquoted dotted name is a struct path, a quoted one is a name with its dots
    const parts = [t.text];
    while (this.tok.kind === 'op' && this.tok.text === '.') {
      this.i++;
      const p = this.tok;
      if (p.kind !== 'name') this.fail(`expected a name after '.', found ${describe(p)}`);
      parts.push(p.text);
      this.i++;
    }
    const path = whereName(parts);
    const col = this.byName.get(path);
    if (col && col.maxRep > 0) {
      this.fail(`column '${path}' is inside a list or map (it holds any number of values per row); conditions take columns with at most one value per row`, t);
    }
    if (col) return { col, token: t };
    const inside = this.schema.columns.filter((c) => c.path.length > parts.length && parts.every((p, i) => c.path[i] === p));
    const under = inside.filter((c) => c.maxRep === 0).map((c) => whereName(c.path));
    if (inside.length > 0 && under.length === 0) this.fail(`'${path}' is a list or map; conditions take columns with at most one value per row`, t);
    if (under.length > 0) this.fail(`'${path}' is a group; conditions take a leaf column: ${nameList(under, 8)}`, t);
    // the same text with its dots in other places: a field whose name has a dot, written unquoted (or the other way)
    const text = parts.join('.');
    const exact = this.schema.columns.filter((c) => c.pathString === text);
    const alike = (exact.length > 0 ? exact : this.schema.columns.filter((c) => c.pathString.startsWith(`${text}.`))).map((c) => whereName(c.path));
    if (alike.length > 0) {
      this.fail(`no column '${path}' (a quoted name is one field, dots and all; unquoted dots separate a struct's fields): did you mean ${alike.slice(0, 4).map((a) => `'${a}'`).join(' or ')}?`, t);
    }
    const guess = nearest(path, this.byName.keys());
    const all = [...this.byName.keys()];
    this.fail(`no column '${path}'${guess ? ` (did you mean '${guess}'?)` : ` (columns: ${nameList(all)})`}`, t);
  }

  /**
   * A leaf as the filter names it: its dotted path, or its path array when a name has a dot or another leaf has the
   * same dotted path (the reader refuses such a dotted path as ambiguous).
   */
  private filterColumn(col: ColumnDescriptor): FilterColumn {
    const alike = col.path.some((p) => p.includes('.')) || this.schema.columns.some((c) => c !== col && c.pathString === col.pathString);
    return alike ? [...col.path] : col.pathString;
  }

  private literal(): Literal {
    const t = this.tok;
    let sign = '';
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      this.i++;
      if (this.tok.kind !== 'number') this.fail(`expected a number after '${t.text}', found ${describe(this.tok)}`);
      sign = t.text === '-' ? '-' : '';
    }
    const v = this.tok;
    switch (v.kind) {
      case 'number':
        this.i++;
        return { token: t, kind: 'number', text: sign + v.text };
      case 'string':
        this.i++;
        return { token: t, kind: 'string', text: v.text };
      case 'hex':
        this.i++;
        return { token: t, kind: 'hex', text: v.text };
      case 'name': {
        const w = v.text.toLowerCase();
        if (!v.quoted && (w === 'true' || w === 'false')) {
          this.i++;
          return { token: t, kind: 'boolean', text: w };
        }
        if (!v.quoted && w === 'null') {
          this.i++;
          return { token: t, kind: 'null', text: 'null' };
        }
        const next = this.tokens[this.i + 1]!;
        if (!v.quoted && (w === 'date' || w === 'timestamp' || w === 'time' || w === 'timestamptz') && next.kind === 'string') {
          this.i += 2;
          return { token: t, kind: 'string', text: next.text, typed: w };
        }
        if (!v.quoted && KEYWORDS.has(w)) this.fail(`expected a value, found the keyword '${v.text}'`, v);
        this.fail(
          v.quoted
            ? `expected a value, found the column name "${v.text}" (text takes single quotes: '${v.text}')`
            : `expected a value, found ${describe(v)} (text takes single quotes: '${v.text}')`,
          v,
        );
      }
      default:
        this.fail(`expected a value, found ${describe(v)}`, v);
    }
  }

  private startsLiteral(t: Token): boolean {
    if (t.kind === 'number' || t.kind === 'string' || t.kind === 'hex') return true;
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) return true;
    return t.kind === 'name' && !t.quoted && ['true', 'false', 'null'].includes(t.text.toLowerCase());
  }

  private predicate(path: string): Filter {
    const start = this.tok;
    this.positions.set(path, start.at);
    if (this.startsLiteral(start)) {
      // literal op column: the comparison turned around
      const lit = this.literal();
      const opTok = this.tok;
      const op = opTok.kind === 'op' ? COMPARE[opTok.text] : undefined;
      if (op === undefined) this.fail(`expected a comparison (=, !=, <, <=, >, >=) after ${describe(lit.token)}, found ${describe(opTok)}`);
      this.i++;
      const { col } = this.column();
      this.positions.set(`${path}#value`, lit.token.at);
      return { column: this.filterColumn(col), op: FLIP[op]!, value: this.value(lit, col, op) };
    }
    const { col } = this.column();
    const name = this.filterColumn(col);
    const t = this.tok;
    if (t.kind === 'op' && Object.hasOwn(COMPARE, t.text)) {
      this.i++;
      const op = COMPARE[t.text]!;
      if (this.tok.kind === 'end') this.fail(`expected a value after '${t.text}', found the end`);
      const lit = this.literal();
      this.positions.set(`${path}#value`, lit.token.at);
      return { column: name, op, value: this.value(lit, col, t.text) };
    }
    if (this.keyword('is')) {
      const negated = this.keyword('not');
      if (!this.keyword('null')) this.fail(`expected 'null' after 'is${negated ? ' not' : ''}', found ${describe(this.tok)} (is compares with null only; use = for values)`);
      return { column: name, op: negated ? 'is not null' : 'is null' };
    }
    const notTok = this.tok;
    const negated = this.keyword('not');
    if (this.keyword('in')) {
      if (!this.op('(')) this.fail(`expected '(' after 'in', found ${describe(this.tok)}`);
      const values: unknown[] = [];
      const inPath = negated ? `${path}.not` : path;
      do {
        if (this.tok.kind === 'op' && this.tok.text === ')') this.fail(`expected a value, found ')'${values.length === 0 ? ' (in takes at least one value)' : ''}`);
        const lit = this.literal();
        this.positions.set(`${inPath}#values[${values.length}]`, lit.token.at);
        values.push(this.value(lit, col, 'in'));
      } while (this.op(','));
      if (!this.op(')')) this.fail(`expected ',' or ')' in the list of values, found ${describe(this.tok)}`);
      const f: Filter = { column: name, op: 'in', values };
      if (!negated) return f;
      this.positions.set(`${path}.not`, start.at);
      return { not: f };
    }
    if (this.keyword('between')) {
      const inner = negated ? `${path}.not` : path;
      const loLit = this.literal();
      this.positions.set(`${inner}.and[0]#value`, loLit.token.at);
      const lo = this.value(loLit, col, 'between');
      if (!this.keyword('and')) this.fail(`expected 'and' in 'between … and …', found ${describe(this.tok)}`);
      const hiLit = this.literal();
      this.positions.set(`${inner}.and[1]#value`, hiLit.token.at);
      const hi = this.value(hiLit, col, 'between');
      this.positions.set(inner, start.at);
      this.positions.set(`${inner}.and[0]`, start.at);
      this.positions.set(`${inner}.and[1]`, start.at);
      const f: Filter = { and: [{ column: name, op: '>=', value: lo }, { column: name, op: '<=', value: hi }] };
      return negated ? { not: f } : f;
    }
    if (negated) this.fail(`expected 'in' or 'between' after 'not', found ${describe(this.tok)}`, notTok);
    const w = t.kind === 'name' ? t.text.toLowerCase() : '';
    if (w === 'like' || w === 'ilike') this.fail(`'${t.text}' is not supported (conditions compare with =, !=, <, <=, >, >=, in, between, is null)`, t);
    this.fail(`expected a comparison (=, !=, <, <=, >, >=, in, between, is null) after '${whereName(col.path)}', found ${describe(t)}`, t);
  }

  /** A literal as the value the reader's filter takes for the column, or a message naming the place. */
  private value(lit: Literal, col: ColumnDescriptor, op: string): unknown {
    const kind = kindOf(col);
    const where = `column '${whereName(col.path)}' (${typeName(col)})`;
    const wrong = (): never => this.fail(`${where} takes ${expected(col)}, not ${lit.kind === 'string' ? `'${lit.text}'` : lit.kind === 'hex' ? `x'${lit.text}'` : lit.text}`, lit.token);
    if (lit.kind === 'null') this.fail(`a comparison with null matches nothing; write '${whereName(col.path)} is null' or 'is not null'${op === 'in' ? ' (outside the list)' : ''}`, lit.token);
    if (kind === 'none') wrong();
    if (lit.typed !== undefined && kind !== 'temporal32' && kind !== 'temporal64') wrong();
    switch (kind) {
      case 'boolean':
        return lit.kind === 'boolean' ? lit.text === 'true' : wrong();
      case 'int32':
      case 'int64': {
        if (lit.kind !== 'number' || !/^[-+]?\d+$/.test(lit.text)) return wrong();
        if (kind === 'int64') return BigInt(lit.text);
        const n = Number(lit.text);
        return Number.isSafeInteger(n) ? n : wrong();
      }
      case 'float':
        // a FLOAT column (and FLOAT16, which DuckDB reads as FLOAT) compares with the literal cast to FLOAT, as in DuckDB:
        // `x = 19.99` holds on the stored float 19.99, `x < 19.99` compares float(x) < float(19.99)
        if (lit.kind === 'number') return single(col) && castsToFloat(lit.text) ? Math.fround(Number(lit.text)) : Number(lit.text);
        if (lit.kind === 'string' && /^[-+]?(nan|inf|infinity)$/i.test(lit.text)) return lit.text.toLowerCase().includes('nan') ? NaN : lit.text.startsWith('-') ? -Infinity : Infinity;
        return wrong();
      case 'decimal':
        // the literal's own digits: compared exactly, never through a double
        return lit.kind === 'number' || (lit.kind === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(lit.text))
          ? plainDecimal(lit.text, col.node.logicalType?.DECIMAL?.precision ?? 38)
          : wrong();
      case 'temporal32':
      case 'temporal64':
        // a UTC-adjusted TIME prints with `Z` (as a UTC timestamp does); its zone, Z or +00[:00], is taken and dropped
        if (lit.kind === 'string') return col.node.logicalType?.TIME?.isAdjustedToUTC ? lit.text.replace(/(?:[zZ]|\+00(?::?00)?)$/, '') : lit.text;
        if (lit.kind === 'number' && /^[-+]?\d+$/.test(lit.text)) return kind === 'temporal64' ? BigInt(lit.text) : Number(lit.text);
        return wrong();
      case 'string':
      case 'uuid':
        return lit.kind === 'string' ? lit.text : wrong();
      case 'binary':
        if (lit.kind === 'string') return lit.text;
        if (lit.kind === 'hex') return Uint8Array.from(Buffer.from(lit.text, 'hex'));
        return wrong();
    }
  }
}

/** The paths of a filter's parts before and after {@link threeValued} rewrote them. */
type Moves = [from: string, to: string][];

/**
 * One part of {@link threeValued}: the filter that holds where `f` is true (`neg` false) or false (`neg` true) in
 * SQL's three-valued logic, recording where each part moved.
 */
function truth(f: Filter, neg: boolean, from: string, to: string, moves: Moves, added: Map<string, string>): Filter {
  moves.push([from, to]);
  if ('and' in f || 'or' in f) {
    const isAnd = 'and' in f;
    const parts = isAnd ? f.and : f.or;
    // De Morgan: not (a and b) = not a or not b, and the other way round
    const kind = isAnd !== neg ? 'and' : 'or';
    const out = parts.map((g, i) => truth(g, neg, `${from}.${isAnd ? 'and' : 'or'}[${i}]`, `${to}.${kind}[${i}]`, moves, added));
    return kind === 'and' ? { and: out } : { or: out };
  }
  if ('not' in f) return truth(f.not, !neg, `${from}.not`, to, moves, added);
  if (!neg) return f;
  if (f.op === 'is null') return { column: f.column, op: 'is not null' };
  if (f.op === 'is not null') return { column: f.column, op: 'is null' };
  // a comparison is false only on a value: on null it is unknown, and its negation is unknown too
  moves.push([from, `${to}.and[0].not`]);
  added.set(`${to}.and[1]`, from);
  return { and: [{ not: f }, { column: f.column, op: 'is not null' }] };
}

/**
 * A filter with SQL's three-valued logic for `not`, where the reader's `not` is plain negation (`not (a = 1)`
 * holding where `a` is null): each `not` is pushed down to the comparisons (De Morgan), and a negated comparison
 * also requires its column not to be null. Filters without `not` are returned as they are.
 * @param f - the parsed filter.
 * @param positions - where its parts start in the text, by path.
 * @returns the filter and the positions of its parts under their new paths.
 */
function threeValued(f: Filter, positions: ReadonlyMap<string, number>): { filter: Filter; positions: ReadonlyMap<string, number> } {
  const hasNot = (g: Filter): boolean => ('not' in g ? true : 'and' in g ? g.and.some(hasNot) : 'or' in g ? g.or.some(hasNot) : false);
  if (!hasNot(f)) return { filter: f, positions };
  const moves: Moves = [];
  const added = new Map<string, string>();
  const filter = truth(f, false, 'filter', 'filter', moves, added);
  const out = new Map<string, number>();
  for (const [key, at] of positions) {
    // the longest path the key lies under decides where it went (a later move of the same path wins: it is deeper)
    let best: [string, string] | undefined;
    for (const m of moves) {
      const [from] = m;
      if ((key === from || key.startsWith(`${from}.`) || key.startsWith(`${from}#`)) && (!best || from.length >= best[0].length)) best = m;
    }
    out.set(best ? best[1] + key.slice(best[0].length) : key, at);
  }
  for (const [to, from] of added) {
    const at = positions.get(from);
    if (at !== undefined) {
      out.set(to, at);
      if (!out.has(to.slice(0, -'.and[1]'.length))) out.set(to.slice(0, -'.and[1]'.length), at);
    }
  }
  return { filter, positions: out };
}

/** The number of the character at UTF-16 offset `at` (from 1; a character beyond U+FFFF counts once). */
function place(text: string, at: number): number {
  let n = 1;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= at || (text.charCodeAt(i + 1) & 0xfc00) !== 0xdc00) n++;
  }
  return n;
}

/** A UTF-16 offset moved off the second half of a surrogate pair (a cut there would split a character). */
function whole(text: string, i: number): number {
  return i > 0 && i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800 ? i - 1 : i;
}

function snippet(text: string, at: number): string {
  const from = whole(text, Math.max(0, at - 20));
  const to = whole(text, Math.min(text.length, at + 30));
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

function whereFailure(text: string, at: number, message: string): ParquetError {
  return new ParquetError('USAGE', `parquetry: --where at character ${place(text, at)} (${JSON.stringify(snippet(text, at))}): ${message}`);
}

/**
 * Parses a `--where` expression into the reader's filter.
 * @param text - the expression.
 * @param schema - the file's schema (column names and types).
 * @returns the filter and the places of its parts.
 * @throws ParquetError `USAGE` naming the character where the expression goes wrong: a syntax error, an unknown or
 *   group column (with the nearest name), or a literal that does not suit its column's type.
 */
export function parseWhere(text: string, schema: SchemaTree): ParsedWhere {
  try {
    const p = new Parser(tokenize(text), schema, text);
    const { filter, positions } = threeValued(p.parse(), p.positions);
    return { filter, text, positions, schema };
  } catch (e) {
    if (e instanceof WhereSyntax) throw whereFailure(text, e.at, e.message);
    throw e;
  }
}

/**
 * A reader's `FILTER_INVALID` error (a value the reader could not convert: an impossible date, a fraction finer than
 * the column's unit, …) as a `--where` error at the place of the condition it names.
 * @param e - an error of a read with the filter.
 * @param where - the parsed `--where`.
 * @returns a `USAGE` error naming the place and the problem, or `e` unchanged when it is not about the filter.
 */
export function whereError(e: unknown, where: ParsedWhere | undefined): unknown {
  if (!where || !isParquetError(e) || e.code !== 'FILTER_INVALID') return e;
  const m = /^parquet-reader: (filter[^\s:]*)(?: on column '((?:[^']|'')*)' \(.*?\))?: (.*)$/s.exec(e.message);
  if (!m) return e;
  let path = m[1]!;
  const detail0 = m[3]!;
  const value = /^(values?(?:\[\d+\])?) /.exec(detail0);
  let at = value ? where.positions.get(`${path}#${value[1]}`) : undefined;
  at ??= where.positions.get(path);
  // a value inside an 'in' list, or a part the parser did not record: the nearest enclosing part
  while (at === undefined && path.includes('.')) {
    path = path.slice(0, path.lastIndexOf('.'));
    at = where.positions.get(path);
  }
  const detail = detail0.replace(/; expected .*$/s, '');
  const name = m[2]?.replaceAll("''", "'");
  // the reader names the column as the filter does: a dotted path, or a path array as JSON
  const col = name === undefined ? undefined : where.schema.columns.find((c) => c.pathString === name || JSON.stringify(c.path) === name);
  const column = col ? `column '${whereName(col.path)}' (${typeName(col)}): ` : '';
  const wants = col ? `; it takes ${expected(col)}` : '';
  return new ParquetError('USAGE', `parquetry: --where at character ${place(where.text, at ?? 0)} (${JSON.stringify(snippet(where.text, at ?? 0))}): ${column}${detail}${wants}`, undefined, { cause: e });
}
