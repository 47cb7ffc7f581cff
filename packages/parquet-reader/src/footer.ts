/**
 * Locating and decoding the footer: `… <FileMetaData> <4-byte little-endian length> "PAR1"`
 * (or "PARE" when the footer is encrypted). One read of a tail guess usually gets everything;
 * a longer footer costs exactly one more read.
 *
 * @module
 */
import { ParquetError, decodeThrift, readFileMetaData, readFileCryptoMetaData, type FileCryptoMetaData, type FileMetaData } from '@parquetry/thrift-compact';
import type { ByteSource } from './source.js';

/** Bytes read from the end of the file by the first request (default). */
export const DEFAULT_TAIL_GUESS = 64 * 1024;

/** The raw footer region, before decryption. */
export interface RawFooter {
  /** `'PAR1'` (plaintext footer) or `'PARE'` (encrypted footer). */
  magic: 'PAR1' | 'PARE';
  /** The footer bytes (without the length and magic). */
  bytes: Uint8Array;
  /** File offset of `bytes[0]`. */
  offset: number;
  /** The file's first 4 bytes, when the tail read reached them (a file no longer than the tail guess). */
  head?: Uint8Array | undefined;
}

const PAR1 = 0x31524150; // "PAR1" little-endian
const PARE = 0x45524150; // "PARE"

/**
 * Reads the footer region of a file.
 * @param source - the file.
 * @param tailGuess - bytes to read in the first request.
 * @returns the raw footer.
 * @throws ParquetError `NOT_PARQUET` (too short, wrong magic) or `CORRUPT_FOOTER` (length outside the file).
 */
export async function readRawFooter(source: ByteSource, tailGuess = DEFAULT_TAIL_GUESS): Promise<RawFooter> {
  const size = source.byteLength;
  if (size < 12) throw new ParquetError('NOT_PARQUET', `parquet-reader: file of ${size} bytes is too short to be Parquet (at least 12 bytes)`, 0);
  const tailStart = Math.max(0, size - Math.max(tailGuess, 8));
  const tail = await source.read(tailStart, size);
  const n = tail.length;
  const magicWord = (tail[n - 4]! | (tail[n - 3]! << 8) | (tail[n - 2]! << 16) | (tail[n - 1]! << 24)) >>> 0;
  if (magicWord !== PAR1 && magicWord !== PARE) {
    const shown = Array.from(tail.subarray(n - 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new ParquetError('NOT_PARQUET', `parquet-reader: the last 4 bytes are ${shown}, not "PAR1" or "PARE": not a Parquet file`, size - 4);
  }
  const len = (tail[n - 8]! | (tail[n - 7]! << 8) | (tail[n - 6]! << 16) | (tail[n - 5]! << 24)) >>> 0;
  if (len === 0 || len > size - 12) {
    throw new ParquetError('CORRUPT_FOOTER', `parquet-reader: footer length ${len} at byte ${size - 8} does not fit in the ${size}-byte file`, size - 8);
  }
  const offset = size - 8 - len;
  const bytes = offset >= tailStart ? tail.subarray(offset - tailStart, n - 8) : await source.read(offset, size - 8);
  return { magic: magicWord === PAR1 ? 'PAR1' : 'PARE', bytes, offset, head: tailStart === 0 ? tail.subarray(0, 4) : undefined };
}

/**
 * Checks a file's leading magic: "PAR1", or "PARE" for a file with an encrypted footer — the same word as its
 * trailing magic (a file whose plaintext footer covers encrypted columns starts with "PAR1").
 * @param head - the file's first 4 bytes.
 * @param magic - its trailing magic.
 * @throws ParquetError `NOT_PARQUET` naming the bytes found and the magic expected.
 */
export function checkLeadingMagic(head: Uint8Array, magic: 'PAR1' | 'PARE'): void {
  const word = head.length >= 4 ? (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0 : -1;
  if (word !== (magic === 'PAR1' ? PAR1 : PARE)) {
    const shown = Array.from(head.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new ParquetError('NOT_PARQUET', `parquet-reader: the first 4 bytes are ${shown}, not "${magic}" as the file's last 4 bytes: not a Parquet file (or its head is damaged)`, 0);
  }
}

/**
 * Decodes a plaintext footer, checking it fills its region (allowing the 28-byte signature of an encrypted file with
 * a plaintext footer).
 * @param raw - the raw footer (magic PAR1).
 * @returns the metadata and the position where it ended inside `raw.bytes`.
 * @throws ParquetError `CORRUPT_FOOTER` wrapping any Thrift error, with the file offset.
 */
export function decodePlainFooter(raw: RawFooter): { metadata: FileMetaData; end: number } {
  try {
    const { value, end } = decodeThrift(readFileMetaData, raw.bytes, 0, raw.bytes.length, raw.offset);
    return { metadata: value, end };
  } catch (e) {
    throw wrap(e, 'FileMetaData', raw.offset);
  }
}

/**
 * Decodes the FileCryptoMetaData that starts an encrypted ("PARE") footer.
 * @param raw - the raw footer (magic PARE).
 * @returns the crypto metadata and where the encrypted FileMetaData module starts inside `raw.bytes`.
 * @throws ParquetError `CORRUPT_FOOTER`.
 */
export function decodeCryptoFooter(raw: RawFooter): { crypto: FileCryptoMetaData; end: number } {
  try {
    const { value, end } = decodeThrift(readFileCryptoMetaData, raw.bytes, 0, raw.bytes.length, raw.offset);
    return { crypto: value, end };
  } catch (e) {
    throw wrap(e, 'FileCryptoMetaData', raw.offset);
  }
}

function wrap(e: unknown, what: string, offset: number): ParquetError {
  if (e instanceof Error && e.name === 'ParquetError') {
    return new ParquetError('CORRUPT_FOOTER', `parquet-reader: corrupt footer (${what} at byte ${offset}): ${e.message}`, (e as ParquetError).offset, { cause: e });
  }
  return new ParquetError('CORRUPT_FOOTER', `parquet-reader: corrupt footer (${what} at byte ${offset}): ${String(e)}`, offset, { cause: e });
}
