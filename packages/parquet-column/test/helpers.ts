import { Encoding, encodeThrift, writePageHeader, type PageHeader } from '@parquetry/thrift-compact';

/** Runs `f` and returns the ParquetError it throws (or fails when it does not throw one). */
export async function typedError(f: () => unknown): Promise<{ code: string; message: string; offset?: number | undefined }> {
  try {
    await f();
  } catch (e) {
    const err = e as { name?: string; code?: string; message: string; offset?: number };
    if (err?.name !== 'ParquetError' || typeof err.code !== 'string') throw e;
    return { code: err.code, message: err.message, offset: err.offset };
  }
  throw new Error('expected a ParquetError, nothing was thrown');
}

/** The parts joined into one array. */
export function cat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A data page V1 (uncompressed; PLAIN values, RLE levels): its header (type, sizes, num_values) and body. */
export function plainPageV1(body: Uint8Array, numValues: number, type = 0): Uint8Array {
  const header: PageHeader = {
    type: type as PageHeader['type'],
    uncompressed_page_size: body.length,
    compressed_page_size: body.length,
    data_page_header: { num_values: numValues, encoding: Encoding.PLAIN, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE },
  };
  return cat(encodeThrift(writePageHeader, header), body);
}
