/**
 * Byte sinks: where a writer's bytes go. A sink receives the file front to back in `write` calls, then `close`
 * after the footer, or `abort` when the write failed (a sink that can should then remove what it wrote, so that
 * nothing that looks like a valid file is left behind).
 * @module
 */

/** Anything that accepts the bytes of a file in order. */
export interface ByteSink {
  /**
   * Appends bytes. The writer does not reuse `chunk` after the call; a returned promise is awaited before the next
   * write (backpressure).
   * @param chunk - the next bytes of the file.
   */
  write(chunk: Uint8Array): void | Promise<void>;
  /** Called once after the footer was written. */
  close?(): void | Promise<void>;
  /**
   * Called once when the write failed or was abandoned; no more writes follow.
   * @param reason - the error.
   */
  abort?(reason?: unknown): void | Promise<void>;
}

/** A sink that keeps the file in memory. */
export interface MemorySink extends ByteSink {
  /** The bytes written so far, concatenated. */
  bytes(): Uint8Array;
}

/**
 * A sink that keeps the bytes in memory (as a list of chunks: no single buffer over 2 GiB is needed until
 * {@link MemorySink.bytes} is called).
 * @returns the sink.
 */
export function memorySink(): MemorySink {
  let parts: Uint8Array[] = [];
  let length = 0;
  return {
    write(chunk) {
      parts.push(chunk);
      length += chunk.length;
    },
    abort() {
      parts = [];
      length = 0;
    },
    bytes() {
      const out = new Uint8Array(length);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    },
  };
}

/**
 * A sink over a WHATWG `WritableStream` (browsers, Deno, Node's `stream/web`): each write waits for the stream's
 * backpressure (`ready`); close and abort go to the stream.
 * @param stream - the stream.
 * @returns the sink.
 */
export function writableSink(stream: WritableStream<Uint8Array>): ByteSink {
  const writer = stream.getWriter();
  return {
    async write(chunk) {
      await writer.ready;
      await writer.write(chunk);
    },
    async close() {
      await writer.close();
    },
    async abort(reason) {
      await writer.abort(reason);
    },
  };
}
