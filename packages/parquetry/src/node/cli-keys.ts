/**
 * Decryption keys for the command line (Parquet modular encryption,
 * https://github.com/apache/parquet-format/blob/master/Encryption.md): `--footer-key KEY`, `--column-key PATH=KEY`
 * (repeatable), `--aad-prefix TEXT` and `--key-file FILE`, a JSON object
 *
 * ```json
 * { "footerKey": "…", "columnKeys": { "a.b": "…" }, "aadPrefix": "…" }
 * ```
 *
 * (`footer_key`, `column_keys`, `aad_prefix` also accepted; options given on the command line win over the file).
 * A KEY is 16, 24 or 32 bytes (AES-128/192/256) written as hex (32, 48 or 64 digits), base64, or text of that many
 * UTF-8 bytes, tried in that order; `hex:`, `base64:` or `text:` in front says which. The AAD prefix is text unless
 * it starts with `hex:` or `base64:`. Messages never repeat a key.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { FileDecryptionProperties } from '@parquetry/parquet-crypto';
import type { SchemaTree } from '@parquetry/parquet-levels';
import { ParquetError } from '@parquetry/thrift-compact';
import { has, nameList, nearest, one, usageError, type Parsed } from './cli-args.js';

const KEY_LENGTHS = [16, 24, 32];

/** Keys of the last {@link decryptionOf} that another form would read as a key of another length (for messages). */
const ambiguous: string[] = [];
const utf8 = new TextEncoder();

function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || (text.includes('=') && text.length % 4 !== 0)) return undefined;
  return Uint8Array.from(Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64'));
}

function decodeHex(text: string): Uint8Array | undefined {
  return /^([0-9a-fA-F]{2})+$/.test(text) ? Uint8Array.from(Buffer.from(text, 'hex')) : undefined;
}

/**
 * Parses a key: hex, base64 or text, whichever gives 16, 24 or 32 bytes first (or the form its prefix names).
 * @param text - the key as given.
 * @param what - where it was given (for messages), e.g. `--footer-key`.
 * @returns the key bytes.
 * @throws ParquetError `USAGE` when no form gives a key of a valid length (the key itself is not repeated).
 */
export function parseKey(text: string, what: string): Uint8Array {
  const bad = (why: string): ParquetError =>
    usageError(`${what}: ${why}; a key is 16, 24 or 32 bytes written as hex (32, 48 or 64 digits), base64, or text of that many bytes (or say which with hex:, base64: or text: in front)`);
  const m = /^(hex|base64|text):(.*)$/s.exec(text);
  if (m) {
    const body = m[2]!;
    const bytes = m[1] === 'hex' ? decodeHex(body) : m[1] === 'base64' ? decodeBase64(body) : utf8.encode(body);
    if (bytes === undefined) throw bad(`the value after ${m[1]}: is not ${m[1]}`);
    if (!KEY_LENGTHS.includes(bytes.length)) throw bad(`the ${m[1]} value is ${bytes.length} bytes`);
    return bytes;
  }
  const forms = [decodeHex(text), decodeBase64(text), utf8.encode(text)];
  const k = forms.findIndex((bytes) => bytes !== undefined && KEY_LENGTHS.includes(bytes.length));
  if (k >= 0) {
    // text that also reads as a key of another length (32 hex digits: 16 bytes, or 32 bytes of text): noted for a
    // decryption failure's message
    const textBytes = forms[2]!.length;
    if (k < 2 && KEY_LENGTHS.includes(textBytes)) {
      ambiguous.push(`${what}'s ${text.length} characters were read as ${k === 0 ? 'hex' : 'base64'} (${forms[k]!.length} bytes); if the key is that text (${textBytes} bytes), write text: in front`);
    }
    return forms[k]!;
  }
  throw bad(`the value given (${text.length} characters) is none of these`);
}

function aadPrefix(text: string, what: string): Uint8Array | string {
  const m = /^(hex|base64):(.*)$/s.exec(text);
  if (!m) return text;
  const bytes = m[1] === 'hex' ? decodeHex(m[2]!) : decodeBase64(m[2]!);
  if (bytes === undefined) throw usageError(`${what}: the value after ${m[1]}: is not ${m[1]}`);
  return bytes;
}

const FILE_FIELDS: Readonly<Record<string, string>> = {
  footerKey: 'footerKey',
  footer_key: 'footerKey',
  columnKeys: 'columnKeys',
  column_keys: 'columnKeys',
  aadPrefix: 'aadPrefix',
  aad_prefix: 'aadPrefix',
};

interface KeySet {
  footerKey?: Uint8Array;
  columnKeys: Record<string, Uint8Array>;
  aadPrefix?: Uint8Array | string;
}

async function readKeyFile(path: string): Promise<KeySet> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ParquetError('CANNOT_OPEN', `parquetry: cannot open '${path}': ${(e as Error).message}`, undefined, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw usageError(`--key-file ${path}: not valid JSON (${(e as Error).message})`);
  }
  const shape = '{"footerKey": KEY, "columnKeys": {"path": KEY}, "aadPrefix": TEXT}';
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw usageError(`--key-file ${path}: expected a JSON object ${shape}`);
  const out: KeySet = { columnKeys: {} };
  for (const [k, v] of Object.entries(json)) {
    const field = Object.hasOwn(FILE_FIELDS, k) ? FILE_FIELDS[k] : undefined;
    if (field === undefined) {
      const guess = nearest(k, Object.keys(FILE_FIELDS));
      throw usageError(`--key-file ${path}: unknown field '${k}'${guess ? ` (did you mean '${guess}'?)` : ''}; expected ${shape}`);
    }
    const where = `--key-file ${path}: ${k}`;
    if (field === 'columnKeys') {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw usageError(`${where}: expected an object of keys by column path`);
      for (const [col, key] of Object.entries(v as Record<string, unknown>)) {
        if (typeof key !== 'string') throw usageError(`${where}.${col}: expected a key as a string`);
        Object.defineProperty(out.columnKeys, col, { value: parseKey(key, `${where}.${col}`), enumerable: true, writable: true, configurable: true });
      }
    } else if (typeof v !== 'string') throw usageError(`${where}: expected a string`);
    else if (field === 'footerKey') out.footerKey = parseKey(v, where);
    else out.aadPrefix = aadPrefix(v, where);
  }
  return out;
}

/**
 * The decryption properties of a command's key options, or undefined when none was given.
 * @param p - parsed arguments.
 * @returns the properties for the reader's `decryption` option.
 * @throws ParquetError `USAGE` for a malformed key, `--column-key` without `=`, or a key file that is not JSON of
 *   the expected shape; `CANNOT_OPEN` when the key file cannot be read.
 */
export async function decryptionOf(p: Parsed): Promise<FileDecryptionProperties | undefined> {
  ambiguous.length = 0;
  if (!['--key-file', '--footer-key', '--column-key', '--aad-prefix'].some((f) => has(p, f))) return undefined;
  const file = one(p, '--key-file');
  const keys: KeySet = file === undefined ? { columnKeys: {} } : await readKeyFile(file);
  const footer = one(p, '--footer-key');
  if (footer !== undefined) keys.footerKey = parseKey(footer, '--footer-key');
  for (const ck of p.values.get('--column-key') ?? []) {
    const eq = ck.indexOf('=');
    if (eq <= 0) throw usageError(`--column-key takes PATH=KEY (a column's dotted path, then its key), not a value without '='`);
    const path = ck.slice(0, eq);
    Object.defineProperty(keys.columnKeys, path, { value: parseKey(ck.slice(eq + 1), `--column-key ${path}`), enumerable: true, writable: true, configurable: true });
  }
  const aad = one(p, '--aad-prefix');
  if (aad !== undefined) keys.aadPrefix = aadPrefix(aad, '--aad-prefix');
  const out: { -readonly [K in keyof FileDecryptionProperties]: FileDecryptionProperties[K] } = {};
  if (keys.footerKey) out.footerKey = keys.footerKey;
  if (Object.keys(keys.columnKeys).length > 0) out.columnKeys = keys.columnKeys;
  if (keys.aadPrefix !== undefined) out.aadPrefix = keys.aadPrefix;
  return out;
}

/**
 * Checks that every column key names a leaf column of the file.
 * @param decryption - the properties given.
 * @param schema - the opened file's schema.
 * @throws ParquetError `USAGE` naming a column key's unknown path and the nearest column.
 */
export function checkColumnKeys(decryption: FileDecryptionProperties | undefined, schema: SchemaTree): void {
  for (const path of Object.keys(decryption?.columnKeys ?? {})) {
    if (schema.columns.some((c) => c.pathString === path)) continue;
    const guess = nearest(path, schema.columns.map((c) => c.pathString));
    throw usageError(`a column key names '${path}', which is not a leaf column of the file${guess ? ` (did you mean '${guess}'?)` : ` (columns: ${nameList(schema.columns.map((c) => c.pathString))})`}`);
  }
}

/** A hint per error code of encrypted files: what to give on the command line. */
const HINTS: Readonly<Record<string, string>> = {
  KEY_MISSING: 'give the keys with --footer-key KEY, --column-key PATH=KEY or --key-file FILE',
  DECRYPTION_FAILED: 'check the keys (--footer-key, --column-key, --key-file) and --aad-prefix',
  AAD_PREFIX_REQUIRED: 'give it with --aad-prefix',
  AAD_PREFIX_MISMATCH: 'check --aad-prefix',
  INVALID_KEY: 'check the keys (--footer-key, --column-key, --key-file)',
  KEY_RETRIEVAL_FAILED: 'give the keys with --footer-key KEY, --column-key PATH=KEY or --key-file FILE',
  VALUE_TOO_LARGE: 'leave the column out with --columns',
  PLAINTEXT_FILE: 'leave out --footer-key, --column-key and --key-file to read an unencrypted file',
};

/**
 * A library error's message for the command line: hints naming API options (`pass decryption keys`, `the option
 * strings: 'bytes'`) replaced by the command line's own.
 * @param code - the error's code.
 * @param message - its message.
 * @returns the message to print (for `DECRYPTION_FAILED`, with a note on each key of the last {@link decryptionOf}
 *   that would read as a key of another length in another form: 32 digits are 16 bytes of hex or 32 of text).
 */
export function cliMessage(code: string, message: string): string {
  let m = message
    .replace(/; read it with the option strings: 'bytes'\)/g, ')')
    .replace(/;? ?\(?read it with the option strings: 'bytes'\)?/g, '')
    .replace(/;? ?pass `decryption` keys to read it/g, '')
    .replace(/, but `decryption` was given: .*$/, ', but keys were given: an unencrypted file is refused, as it is not authenticated')
    .replace(/: pass aadPrefix$/, '')
    .replace(/: none given explicitly and the key retriever returned none/, '')
    .replace(/; read it with binary: 'values' \(and strings: 'bytes'\) for one Uint8Array per value/, '')
    .replace(/\(raise it with the `limits` option, e\.g\. \{ (\w+): (\d+) \}\)/g, '(raise it with --read-limit $1=$2)')
    .replace(/; raise maxWholeBody to read it whole$/, '; download it and read the local file')
    .replace(/larger than maxWholeBody \((\d+) bytes\)/g, 'larger than the $1 bytes kept whole in memory');
  const hint = Object.hasOwn(HINTS, code) ? HINTS[code] : undefined;
  if (hint !== undefined) m = `${m.replace(/[.;\s]+$/, '')}; ${hint}`;
  if (code === 'DECRYPTION_FAILED' && ambiguous.length > 0) m += ` (${ambiguous.join('; ')})`;
  return m;
}
