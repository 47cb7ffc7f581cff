/**
 * The reader with every codec preset.
 * @module
 */
import { openParquet as openWith, type ByteSource, type OpenOptions, type ParquetFile } from '@parquetry/parquet-reader';
import { allCodecs } from './codecs.js';

/**
 * Opens a Parquet file with every codec preset ({@link allCodecs}): `@parquetry/parquet-reader`'s `openParquet`
 * without having to pass `codecs`.
 * @param input - a byte source (`{ byteLength, read(start, end) }`, see `fetchSource`), or the whole file as bytes.
 * @param options - reader options; `codecs` defaults to every codec.
 * @returns the opened file.
 * @throws ParquetError as the reader's `openParquet`.
 */
export async function openParquet(input: ByteSource | Uint8Array | ArrayBuffer, options: OpenOptions = {}): Promise<ParquetFile> {
  return openWith(input, { ...options, codecs: options.codecs ?? (await allCodecs()) });
}
