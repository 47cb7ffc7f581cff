/**
 * Byte sources: where a Parquet file's bytes come from. The reader asks only for the ranges it needs
 * (the footer, then the column chunks it will decode), merging nearby ranges into one request.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';

/** Random access to a file's bytes. `read` may be called concurrently. */
export interface ByteSource {
  /** Total size of the file in bytes. */
  readonly byteLength: number;
  /**
   * Returns bytes `[start, end)`.
   * @param start - first byte (inclusive).
   * @param end - last byte (exclusive), at most `byteLength`.
   */
  read(start: number, end: number): Promise<Uint8Array>;
}

/**
 * A source over bytes already in memory (no copies: reads return views).
 * @param bytes - the whole file.
 * @returns a {@link ByteSource}.
 */
export function bufferSource(bytes: Uint8Array | ArrayBuffer): ByteSource {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return {
    byteLength: u8.length,
    read(start, end) {
      checkRange(start, end, u8.length);
      return Promise.resolve(u8.subarray(start, end));
    },
  };
}

/** Options of {@link fetchSource}. */
export interface FetchSourceOptions {
  /** The file size, when known (saves one request). */
  byteLength?: number;
  /** Extra request headers (authorisation, …). */
  headers?: Record<string, string>;
  /** A `fetch` implementation (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
}

/**
 * A source over HTTP range requests. The size comes from `byteLength`, else from a HEAD request's
 * Content-Length, else from a suffix range request.
 * @param url - the file's URL.
 * @param options - size, headers, fetch implementation.
 * @returns a {@link ByteSource}.
 * @throws ParquetError `HTTP_ERROR` when the server refuses, or ignores range requests.
 */
export async function fetchSource(url: string, options: FetchSourceOptions = {}): Promise<ByteSource> {
  const f = options.fetch ?? globalThis.fetch;
  const headers = options.headers ?? {};
  let size = options.byteLength;
  if (size === undefined) {
    const head = await f(url, { method: 'HEAD', headers });
    const len = head.headers.get('content-length');
    if (head.ok && len !== null && /^\d+$/.test(len)) size = Number(len);
    else {
      const probe = await f(url, { headers: { ...headers, range: 'bytes=0-0' } });
      const cr = probe.headers.get('content-range');
      const m = cr ? /\/(\d+)$/.exec(cr) : null;
      await probe.arrayBuffer();
      if (probe.status !== 206 || !m) throw new ParquetError('HTTP_ERROR', `parquet-reader: ${url}: cannot learn the file size (HEAD ${head.status}, range ${probe.status})`);
      size = Number(m[1]);
    }
  }
  const byteLength = size;
  return {
    byteLength,
    async read(start, end) {
      checkRange(start, end, byteLength);
      if (start === end) return new Uint8Array(0);
      const res = await f(url, { headers: { ...headers, range: `bytes=${start}-${end - 1}` } });
      if (res.status !== 206 && !(res.status === 200 && start === 0 && end === byteLength)) {
        throw new ParquetError('HTTP_ERROR', `parquet-reader: ${url}: range ${start}-${end - 1} answered with HTTP ${res.status}`, start);
      }
      const body = new Uint8Array(await res.arrayBuffer());
      if (body.length !== end - start) {
        throw new ParquetError('HTTP_ERROR', `parquet-reader: ${url}: range ${start}-${end - 1} returned ${body.length} bytes, expected ${end - start}`, start);
      }
      return body;
    },
  };
}

function checkRange(start: number, end: number, length: number): void {
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length)) {
    throw new ParquetError('OUT_OF_BOUNDS', `parquet-reader: read of bytes [${start}, ${end}) outside the file (${length} bytes)`, start);
  }
}

/** A byte range `[start, end)`. */
export interface ByteRange {
  /** First byte. */
  start: number;
  /** End (exclusive). */
  end: number;
}

/**
 * Reads several ranges, merging ranges whose gap is at most `maxGap` bytes into one request.
 * @param source - the byte source.
 * @param ranges - the ranges wanted (any order, may overlap).
 * @param maxGap - largest gap bridged by one request (default 64 KiB).
 * @returns the bytes of each range, in the order given.
 */
export async function readRanges(source: ByteSource, ranges: readonly ByteRange[], maxGap = 65536): Promise<Uint8Array[]> {
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]!.start - ranges[b]!.start);
  const groups: { start: number; end: number; members: number[] }[] = [];
  for (const i of order) {
    const r = ranges[i]!;
    const last = groups[groups.length - 1];
    if (last && r.start <= last.end + maxGap) {
      last.end = Math.max(last.end, r.end);
      last.members.push(i);
    } else groups.push({ start: r.start, end: r.end, members: [i] });
  }
  const out: Uint8Array[] = new Array(ranges.length);
  await Promise.all(
    groups.map(async (g) => {
      const bytes = await source.read(g.start, g.end);
      for (const i of g.members) out[i] = bytes.subarray(ranges[i]!.start - g.start, ranges[i]!.end - g.start);
    }),
  );
  return out;
}
