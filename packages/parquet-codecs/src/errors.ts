/**
 * The error every Parquetry package throws for bad input or misuse — this package's own copy, so that it
 * stays at the bottom layer with no dependencies. Same shape as `@parquetry/thrift-compact`'s ParquetError
 * (`name === 'ParquetError'`, string `code`, `offset`), so {@link isParquetError} from either package accepts both.
 */
export class ParquetError extends Error {
  /** Always `'ParquetError'`. */
  override readonly name = 'ParquetError';
  /** A stable machine-readable code, e.g. `CODEC_CORRUPT`, `CODEC_MISSING`. */
  readonly code: string;
  /** Byte offset in the compressed input that the error refers to, when known. */
  readonly offset: number | undefined;

  /**
   * @param code - stable machine-readable code.
   * @param message - `package: what, where, expected vs actual`.
   * @param offset - byte offset the error refers to, when known.
   * @param options - standard `ErrorOptions` (`cause`).
   */
  constructor(code: string, message: string, offset?: number, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.offset = offset;
  }
}

/**
 * True when `e` is a {@link ParquetError} from any copy of any Parquetry package.
 * @param e - any thrown value.
 * @returns whether it has the ParquetError shape (`name` and string `code`).
 */
export function isParquetError(e: unknown): e is ParquetError {
  return e instanceof Error && e.name === 'ParquetError' && typeof (e as { code?: unknown }).code === 'string';
}

/** Error codes thrown by the codecs. */
export const CodecErrorCode = {
  /** The compressed stream is malformed (bad token, offset before the start, truncated). */
  CORRUPT: 'CODEC_CORRUPT',
  /** The stream would expand past the uncompressed size the page header declares. */
  OVERRUN: 'CODEC_OVERRUN',
  /** The stream ended before producing the uncompressed size the page header declares. */
  SHORT: 'CODEC_SHORT',
  /** No codec was given for the compression the page uses. */
  MISSING: 'CODEC_MISSING',
  /** The compression codec number is not one parquet.thrift defines. */
  UNKNOWN: 'CODEC_UNKNOWN',
  /** The declared sizes are impossible (negative, not an integer, too large to allocate). */
  SIZE: 'CODEC_SIZE',
  /**
   * A codec loaded on first use (`lazyCodec`) could not be loaded (its WebAssembly missing or not compiling,
   * its chunk not loading), or was called before it was loaded.
   */
  UNAVAILABLE: 'CODEC_UNAVAILABLE',
} as const;
/** One of {@link CodecErrorCode}'s values. */
export type CodecErrorCode = (typeof CodecErrorCode)[keyof typeof CodecErrorCode];

/**
 * A `CODEC_CORRUPT` error of a SNAPPY stream (the TypeScript decoder's and the kernel's: defined here, not in snappy.ts, so that the kernel's lazy chunk reaches no module only the SNAPPY codec's users load).
 * @param what - what is wrong.
 * @param pos - the byte of the stream where.
 * @returns the error.
 */
export function snappyCorrupt(what: string, pos: number): ParquetError {
  return new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: corrupt SNAPPY stream, ${what} at byte ${pos}`, pos);
}
