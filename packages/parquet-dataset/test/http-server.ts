/**
 * A static file server on 127.0.0.1 for the HTTP tests and the benchmark: GET with `Range: bytes=a-b` and suffix
 * ranges (`bytes=-n`), 404 for missing files, every request and byte counted, the most requests in flight recorded,
 * and an optional delay per response (so that concurrent requests overlap).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** What the server saw. */
export interface ServerCounts {
  /** Requests answered (any status). */
  requests: number;
  /** Body bytes sent. */
  bytes: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Request paths, in order (URL-decoded). */
  paths: string[];
  /** Request targets as sent (path and query, percent-encoding kept), in order. */
  targets: string[];
}

/** A running server. */
export interface FileServer {
  /** `http://127.0.0.1:port/`. */
  url: string;
  /** The counts so far. */
  counts: ServerCounts;
  /** Zeroes the counts. */
  reset(): void;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Serves `root` until closed.
 * @param root - the directory served.
 * @param delayMs - milliseconds each response waits.
 * @returns the server.
 */
export async function serveDirectory(root: string, delayMs = 0): Promise<FileServer> {
  const counts: ServerCounts = { requests: 0, bytes: 0, maxInFlight: 0, paths: [], targets: [] };
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    counts.maxInFlight = Math.max(counts.maxInFlight, inFlight);
    counts.requests++;
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    counts.paths.push(rel);
    counts.targets.push(req.url ?? '');
    const done = (status: number, headers: Record<string, string | number>, body?: Uint8Array) => {
      setTimeout(() => {
        inFlight--;
        res.writeHead(status, headers);
        if (body && req.method !== 'HEAD') counts.bytes += body.length;
        res.end(req.method === 'HEAD' ? undefined : body);
      }, delayMs);
    };
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return done(404, {});
    const data = fs.readFileSync(file);
    const size = data.length;
    const range = req.headers.range;
    if (!range) return done(200, { 'content-length': size, 'accept-ranges': 'bytes' }, data);
    const m = /^bytes=(\d*)-(\d*)$/.exec(range);
    if (!m) return done(416, { 'content-range': `bytes */${size}` });
    let start: number;
    let end: number;
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]));
      end = size - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
    }
    if (start > end || start >= size) return done(416, { 'content-range': `bytes */${size}` });
    done(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 }, data.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    counts,
    reset() {
      counts.requests = 0;
      counts.bytes = 0;
      counts.maxInFlight = 0;
      counts.paths = [];
      counts.targets = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
