/**
 * Error helpers: every failure in this package is a `ParquetError` from
 * `@parquetry/thrift-compact` with a stable code and the byte offset it refers to.
 *
 * Codes: `ENCODING_TRUNCATED` (input ends early), `ENCODING_CORRUPT` (impossible header,
 * zero-length run, value out of range), `ENCODING_BIT_WIDTH` (width above the type's limit),
 * `DICTIONARY_INDEX` (index out of range), `ENCODING_UNSUPPORTED` (encoding × type not allowed),
 * `ENCODING_ARGUMENT` (caller misuse: output too small, bad range).
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';

/** Builds a ParquetError whose message starts with `parquet-encodings: `. */
export function encodingError(code: string, message: string, offset?: number): ParquetError {
  return new ParquetError(code, `parquet-encodings: ${message}`, offset);
}

/** Throws `ENCODING_TRUNCATED` for `what` needing `need` bytes at `pos` with only `end - pos` left. */
export function truncated(what: string, pos: number, need: number, end: number): never {
  throw encodingError('ENCODING_TRUNCATED', `${what} truncated at byte ${pos}: need ${need} bytes, ${Math.max(0, end - pos)} left`, pos);
}

/** Throws `ENCODING_ARGUMENT` unless `[pos, end)` lies within `src` and `out` has room for `count` values at `outPos`. */
export function checkRange(what: string, src: Uint8Array, pos: number, end: number, outLength: number, outPos: number, count: number): void {
  if (!(pos >= 0 && pos <= end && end <= src.length) || !(count >= 0 && outPos >= 0 && outPos + count <= outLength) || !Number.isInteger(count)) {
    throw encodingError(
      'ENCODING_ARGUMENT',
      `${what}: invalid range: bytes [${pos}, ${end}) of ${src.length}, ${count} values at ${outPos} into an output of ${outLength}`,
      pos,
    );
  }
}
