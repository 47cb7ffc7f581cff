/**
 * Digests of files whose strings are longer than a JavaScript string can be (V8: 2^29 - 24 UTF-16 units): the
 * reader returns those values as UTF-8 bytes (`strings: 'bytes'`), and the canonical JSON text is hashed by
 * streaming, each oversized value escaped chunk by chunk exactly as `JSON.stringify` would escape the whole string.
 * @module
 */
import { createHash } from 'node:crypto';
import type { ParquetFile } from '@parquetry/parquet-reader';
import { canonParquetryRows, type VariantCanon } from './canon-parquetry.js';

/** Values at least this long stay bytes and are streamed (well below the V8 limit). */
const STREAM_AT = 1 << 26;
const CHUNK = 1 << 24;

/**
 * Whether a string column chunk of the file is large enough (uncompressed) to hold a value longer than a JavaScript
 * string can be.
 * @param file - the opened file.
 */
export function mayHoldHugeStrings(file: ParquetFile): boolean {
  const cols = file.schema.columns;
  return file.metadata.row_groups.some((rg) =>
    rg.columns.some((cc, i) => {
      const lt = cols[i]?.node.logicalType;
      return (lt?.STRING || lt?.ENUM || lt?.JSON) && (cc.meta_data?.total_uncompressed_size ?? 0) >= 2 ** 29;
    }),
  );
}

/**
 * Reads every row with strings as bytes and digests the canonical rows (sha256 of the canonical JSON text).
 * @param file - the opened file.
 * @param variant - VARIANT canonicaliser.
 * @returns the digest and row count, or a reason when the file has binary columns that are not strings (their
 *   bytes could not be told apart from the strings' bytes).
 */
export async function digestWithLargeStrings(file: ParquetFile, variant: VariantCanon): Promise<{ digest: string; numRows: number } | { reason: string }> {
  const cols = file.schema.columns;
  const binary = cols.filter((c) => c.type === 6 /* BYTE_ARRAY */ || c.type === 7 /* FIXED_LEN_BYTE_ARRAY */);
  const nonString = binary.filter((c) => !(c.node.logicalType?.STRING || c.node.logicalType?.ENUM || c.node.logicalType?.JSON));
  if (nonString.length > 0) return { reason: `binary columns that are not strings: ${nonString.map((c) => c.pathString).join(', ')}` };
  // pages of up to 2 GiB from a few KB of BROTLI: over the default budget of so small a file, raised as a caller would
  const rows = await file.readRows({ strings: 'bytes', limits: { maxBytes: 2 ** 33 } });
  const large: Uint8Array[] = [];
  const small = new TextDecoder();
  const mark = (k: number) => `\u0000large-${k}\u0000`;
  const walk = (v: unknown): unknown => {
    if (v instanceof Uint8Array) {
      if (v.length < STREAM_AT) return small.decode(v);
      large.push(v);
      return mark(large.length - 1);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [walk(k), walk(x)]));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const text = JSON.stringify(canonParquetryRows(file.schema, rows.map((r) => walk(r) as Record<string, unknown>), variant));
  const hash = createHash('sha256');
  let at = 0;
  for (let k = 0; k < large.length; k++) {
    const m = JSON.stringify(mark(k));
    const i = text.indexOf(m, at);
    if (i < 0) return { reason: `value ${k} is missing from the canonical text` };
    hash.update(text.slice(at, i));
    hash.update('"');
    const dec = new TextDecoder();
    const bytes = large[k]!;
    // printable ASCII without '"' and '\\' is its own JSON text: hash such chunks as they are, until the first
    // other chunk (from there on the streaming decoder may hold a partial UTF-8 sequence, so everything goes through it)
    let decoding = false;
    for (let p = 0; p < bytes.length; p += CHUNK) {
      const chunk = bytes.subarray(p, p + CHUNK);
      if (!decoding && plainAscii(chunk)) hash.update(chunk);
      else {
        decoding = true;
        hash.update(JSON.stringify(dec.decode(chunk, { stream: true })).slice(1, -1));
      }
    }
    hash.update(JSON.stringify(dec.decode()).slice(1, -1));
    hash.update('"');
    at = i + m.length;
  }
  hash.update(text.slice(at));
  return { digest: hash.digest('hex'), numRows: rows.length };
}

/** Whether every byte is printable ASCII other than '"' and '\\' (JSON.stringify leaves such text as it is). */
function plainAscii(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}
