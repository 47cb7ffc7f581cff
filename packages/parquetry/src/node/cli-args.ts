/**
 * The `parquetry` command line's argument parsing: each command's options, values checked as they are parsed, and
 * usage errors of one line that name what was wrong and, when one is close, the command or option meant ("did you
 * mean"). Every option a message names is one of these tables' (a test greps the messages).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (the file the commands read).
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';

/** How an option is written. */
export interface FlagSpec {
  /** Takes a value (`--flag VALUE` or `--flag=VALUE`). */
  readonly value: boolean;
  /** May be given more than once (values collected). */
  readonly repeat?: boolean;
}

/** Parsed arguments of one command. */
export interface Parsed {
  /** The command. */
  readonly cmd: string;
  /** Arguments that are not options, in order. */
  readonly positional: string[];
  /** Option values by canonical name (`''` for an option without a value). */
  readonly values: Map<string, string[]>;
}

/**
 * Options of every command that opens a Parquet file (`convert` and `rewrite` for a Parquet input): decryption keys,
 * request headers for a URL, read limits.
 */
export const KEY_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--key-file': { value: true },
  '--footer-key': { value: true },
  '--column-key': { value: true, repeat: true },
  '--aad-prefix': { value: true },
  '--header': { value: true, repeat: true },
  '--read-limit': { value: true, repeat: true },
};

/** Options choosing how values are printed. */
export const VALUE_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--raw': { value: false },
  '--dates': { value: false },
  '--binary': { value: true },
};

const PROGRESS_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--progress': { value: false },
  '--no-progress': { value: false },
};

const ROW_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--format': { value: true },
  '--columns': { value: true },
  '--where': { value: true },
  '-n': { value: true },
  '--offset': { value: true },
  '--stats': { value: false },
  ...PROGRESS_FLAGS,
  ...VALUE_FLAGS,
  ...KEY_FLAGS,
};

/** The options of `convert` and `rewrite` that shape the output file. */
export const OUTPUT_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--compression': { value: true },
  '--level': { value: true },
  '--row-group-size': { value: true },
  '--page-size': { value: true },
  '--page-version': { value: true },
  '--no-dictionary': { value: false },
  '--encoding': { value: true, repeat: true },
  '--progress': { value: false },
};

/** Every command with its options. */
export const COMMAND_FLAGS: Readonly<Record<string, Readonly<Record<string, FlagSpec>>>> = {
  cat: ROW_FLAGS,
  head: ROW_FLAGS,
  tail: ROW_FLAGS,
  schema: { '--json': { value: false }, ...KEY_FLAGS },
  meta: { '--json': { value: false }, ...VALUE_FLAGS, ...KEY_FLAGS },
  stats: { '--format': { value: true }, ...VALUE_FLAGS, ...KEY_FLAGS },
  count: { '--exact': { value: false }, '--where': { value: true }, '--stats': { value: false }, ...PROGRESS_FLAGS, ...KEY_FLAGS },
  pages: { '--stats': { value: false }, ...KEY_FLAGS },
  bloom: { '--stats': { value: false }, ...KEY_FLAGS },
  convert: {
    ...OUTPUT_FLAGS,
    ...KEY_FLAGS,
    '--from': { value: true },
    '--schema': { value: true },
    '--type': { value: true, repeat: true },
    '--sample': { value: true },
    '--delimiter': { value: true },
    '--no-header': { value: false },
    '--null-value': { value: true },
  },
  rewrite: { ...OUTPUT_FLAGS, ...KEY_FLAGS },
  help: {},
};

/** Short and alternative spellings of options, by command (`*`: every command that has the target). */
const ALIASES: Readonly<Record<string, string>> = { '-c': '--compression', '-f': '--format', '--limit': '-n' };

/** Options that work without a command. */
export const GLOBAL_FLAGS: readonly string[] = ['--version', '-V', '--help', '-h'];

/** Words people type for a command, and the command they mean. */
const COMMAND_SYNONYMS: Readonly<Record<string, string>> = {
  version: '--version',
  describe: 'schema',
  info: 'meta',
  metadata: 'meta',
  footer: 'meta',
  show: 'cat',
  print: 'cat',
  dump: 'cat',
  select: 'cat',
  rows: 'count',
  wc: 'count',
  statistics: 'stats',
  'page-index': 'pages',
  index: 'pages',
  probe: 'bloom',
  write: 'convert',
  recompress: 'rewrite',
};

/**
 * A usage error (exit code 2): `parquetry: ` and the message.
 * @param message - what was wrong, in one line.
 * @returns the error, code `USAGE`.
 */
export function usageError(message: string): ParquetError {
  return new ParquetError('USAGE', `parquetry: ${message}`);
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions), for "did you mean".
 * @param a - a word.
 * @param b - another word.
 * @returns the number of single-character edits between them.
 */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  // three rows of the dynamic programme: two back (transpositions), previous, current
  let prev2 = new Int32Array(m + 1);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

/**
 * The candidate nearest to a word, when it is near enough to be what was meant: at most a third of the word's
 * characters differ (at least one, at most three), or one is the other with a prefix or suffix left off.
 * @param word - what was typed.
 * @param candidates - what exists.
 * @returns the nearest candidate, or undefined.
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const l = c.toLowerCase();
    let d = editDistance(w, l);
    // a flag without its dashes, or a word that is the start of the candidate
    if (l.replace(/^-+/, '') === w.replace(/^-+/, '')) d = 0.5;
    else if (w.length >= 3 && l.startsWith(w)) d = Math.min(d, 1);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  const limit = Math.min(3, Math.max(1, Math.floor(w.replace(/^-+/, '').length / 3)));
  return bestD <= limit ? best : undefined;
}

/** How many names a message lists before `…`. */
const LISTED = 12;

/**
 * Names for a message: the first twelve, then `…` when there are more (the lists of `--where`, `stats` and the
 * others, one form).
 * @param names - the names.
 * @param limit - how many to list (default 12).
 * @returns e.g. `a, b, c` or `a, b, …, l, … (20 more)`.
 */
export function nameList(names: readonly string[], limit: number = LISTED): string {
  return names.length <= limit ? names.join(', ') : `${names.slice(0, limit).join(', ')}, … (${names.length - limit} more)`;
}

/**
 * The "did you mean" of an unknown command.
 * @param word - the unknown command.
 * @returns `" (did you mean 'x'?)"`, or `''`.
 */
export function suggestCommand(word: string): string {
  const synonym = Object.hasOwn(COMMAND_SYNONYMS, word.toLowerCase()) ? COMMAND_SYNONYMS[word.toLowerCase()] : undefined;
  const guess = synonym ?? nearest(word, [...Object.keys(COMMAND_FLAGS), '--version', '--help']);
  return guess === undefined ? '' : ` (did you mean '${guess}'?)`;
}

function commandsWith(flag: string): string[] {
  return Object.keys(COMMAND_FLAGS).filter((c) => Object.hasOwn(COMMAND_FLAGS[c]!, flag));
}

function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function unknownOption(cmd: string, raw: string): ParquetError {
  const specs = COMMAND_FLAGS[cmd]!;
  const canonical = Object.hasOwn(ALIASES, raw) ? ALIASES[raw]! : raw;
  const elsewhere = commandsWith(canonical);
  let hint: string;
  if (elsewhere.length > 0) hint = ` (an option of ${listWords(elsewhere)})`;
  else {
    const own = [...Object.keys(specs), ...Object.keys(ALIASES).filter((a) => Object.hasOwn(specs, ALIASES[a]!))];
    const guess = nearest(raw, own);
    hint = guess === undefined ? '' : ` (did you mean '${guess}'?)`;
  }
  return usageError(`${cmd}: unknown option '${raw}'${hint}; 'parquetry help ${cmd}' lists its options`);
}

/**
 * Parses a command's arguments: options (anywhere, `--flag VALUE` or `--flag=VALUE`), then positional arguments
 * (all arguments after `--` are positional).
 * @param cmd - the command (a key of {@link COMMAND_FLAGS}).
 * @param args - the arguments after the command.
 * @returns the positional arguments and option values.
 * @throws ParquetError `USAGE` for an unknown option (naming the nearest one, or the commands it belongs to), a
 *   missing value, or a value given to an option that takes none.
 */
export function parseArgs(cmd: string, args: readonly string[]): Parsed {
  const specs = COMMAND_FLAGS[cmd]!;
  const out: Parsed = { cmd, positional: [], values: new Map() };
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (rest || !a.startsWith('-') || a === '-' || /^-\d/.test(a)) {
      out.positional.push(a);
      continue;
    }
    if (a === '--') {
      rest = true;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const raw = eq > 0 ? a.slice(0, eq) : a;
    const name = Object.hasOwn(ALIASES, raw) ? ALIASES[raw]! : raw;
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (spec === undefined) throw unknownOption(cmd, raw);
    let value = '';
    if (spec.value) {
      if (eq > 0) value = a.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i]!;
      else throw usageError(`${cmd}: option '${raw}' needs a value`);
    } else if (eq > 0) throw usageError(`${cmd}: option '${raw}' takes no value`);
    const list = out.values.get(name);
    if (list && !spec.repeat) {
      // the first value would be dropped silently (a second --where would widen the rows printed)
      if (spec.value && list[0] !== value) {
        throw usageError(`${cmd}: option '${name}' was given twice ('${list[0]}' and '${value}'); give it once${name === '--where' ? ' (join conditions with and)' : name === '--columns' ? ' (one comma-separated list)' : ''}`);
      }
    } else if (list) list.push(value);
    else out.values.set(name, [value]);
  }
  return out;
}

/**
 * The value of an option (one that may not repeat: given twice with two values is a usage error).
 * @param p - parsed arguments.
 * @param name - the option's canonical name.
 * @returns its value, or undefined when it was not given.
 */
export function one(p: Parsed, name: string): string | undefined {
  return p.values.get(name)?.[0];
}

/**
 * Whether an option was given.
 * @param p - parsed arguments.
 * @param name - the option's canonical name.
 * @returns true when it was.
 */
export function has(p: Parsed, name: string): boolean {
  return p.values.has(name);
}

/**
 * A whole number option (`-n`, `--offset`, `--sample`, …).
 * @param flag - the option, for the message.
 * @param text - its value.
 * @param min - the least value allowed (0 or 1).
 * @returns the number.
 * @throws ParquetError `USAGE` when the value is not a whole number of at least `min`.
 */
export function wholeNumber(flag: string, text: string, min: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw usageError(`${flag} takes a ${min > 0 ? 'positive' : ''}${min > 0 ? ' ' : ''}whole number, not '${text}'`);
  return n;
}

/** The reader's read limits `--read-limit` may set. */
const READ_LIMITS = ['maxBytes', 'maxValues', 'maxRows'] as const;

/**
 * The reader's `limits` from `--read-limit NAME=N` options (maxBytes, maxValues or maxRows; `inf` for no limit).
 * @param p - parsed arguments.
 * @returns the limits, or undefined when none were given (the reader's defaults apply).
 * @throws ParquetError `USAGE` for an unknown limit or a value that is not a positive whole number or `inf`.
 */
export function readLimitsOf(p: Parsed): Partial<Record<(typeof READ_LIMITS)[number], number>> | undefined {
  const given = p.values.get('--read-limit');
  if (given === undefined || given.length === 0) return undefined;
  const limits: Partial<Record<(typeof READ_LIMITS)[number], number>> = {};
  for (const g of given) {
    const at = g.indexOf('=');
    const name = at < 0 ? g : g.slice(0, at);
    if (!(READ_LIMITS as readonly string[]).includes(name) || at < 0) {
      const guess = nearest(name, READ_LIMITS);
      throw usageError(`--read-limit takes NAME=N with NAME ${READ_LIMITS.join(', ')}, not '${g}'${guess && guess !== name ? ` (did you mean '${guess}'?)` : ''}`);
    }
    const text = g.slice(at + 1);
    limits[name as (typeof READ_LIMITS)[number]] = text === 'inf' ? Infinity : wholeNumber(`--read-limit ${name}`, text, 1);
  }
  return limits;
}

/**
 * Checks the number of positional arguments.
 * @param p - parsed arguments.
 * @param what - what the command takes, e.g. `one file`.
 * @param min - the least number of arguments.
 * @param max - the most.
 * @throws ParquetError `USAGE` naming what the command takes and what it got.
 */
export function arity(p: Parsed, what: string, min: number, max: number): void {
  const n = p.positional.length;
  if (n >= min && n <= max) return;
  const got = n === 0 ? 'none was given' : n > max ? `not ${n} (${p.positional.map((x) => `'${x}'`).join(' ')})` : `only ${p.positional.map((x) => `'${x}'`).join(' ')} was given`;
  throw usageError(`${p.cmd} takes ${what}, ${got}`);
}
