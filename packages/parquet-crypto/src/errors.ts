/**
 * The error codes of `@parquetry/parquet-crypto` and the one helper that throws them.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';

/** Builds a {@link ParquetError} whose message starts with the package name. */
export function cryptoError(code: string, message: string, cause?: unknown): ParquetError {
  return new ParquetError(code, `parquet-crypto: ${message}`, undefined, cause === undefined ? undefined : { cause });
}
