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
  /**
   * The bytes written so far, concatenated.
   * @returns a new array.
   */
  bytes(): Uint8Array;
  /**
   * The bytes written so far, concatenated, as {@link MemorySink.bytes}, and the sink emptied: once the writer has
   * closed it, the memory it kept the file's pages in goes to memory sinks created later (what `writeParquet` does
   * with the file it returns).
   * @returns a new array.
   */
  take(): Uint8Array;
}

/** The size of the blocks a memory sink's writer copies compressed pages into (larger pages get arrays of their own). */
const ARENA_BLOCK = 4 << 20;
/** At most this many blocks of finished memory sinks are kept for later ones (16 × 4 MiB). */
const POOL_BLOCKS = 16;
/** Blocks given back by memory sinks whose bytes were taken after their writer closed them. */
const pool: Uint8Array[] = [];

/**
 * The memory a writer copies page bodies into: 4 MiB blocks handed out in order (from the pool of finished sinks when
 * it has some), instead of one new array per page. A memory sink's file keeps one arena until its bytes are taken; a
 * writer to a sink that is done with each chunk once its `write` settles ({@link recyclesChunks}) uses one arena per
 * row group and releases it once the row group is written, so the next row group's pages reuse the same memory (a
 * fresh array per page costs the allocation, the first touch of its memory, and the garbage collection after).
 * Internal to the writer (not exported from the package).
 */
export class Arena {
  private readonly blocks: Uint8Array[] = [];
  private block: Uint8Array | undefined;
  private at = 0;

  /** `length` bytes the page keeps (contents undefined until written). */
  readonly alloc = (length: number): Uint8Array => {
    if (length > ARENA_BLOCK >>> 1) return new Uint8Array(length);
    let b = this.block;
    if (b === undefined || this.at + length > b.length) {
      b = this.block = pool.pop() ?? new Uint8Array(ARENA_BLOCK);
      this.blocks.push(b);
      this.at = 0;
    }
    const out = b.subarray(this.at, this.at + length);
    this.at = (this.at + length + 7) & ~7;
    return out;
  };

  /** Gives the blocks to the pool (nothing may read what was allocated from them afterwards). */
  release(): void {
    for (const b of this.blocks) if (pool.length < POOL_BLOCKS) pool.push(b);
    this.blocks.length = 0;
    this.block = undefined;
    this.at = 0;
  }
}

const arenas = new WeakMap<ByteSink, Arena>();
/** Sinks that are done with a chunk once their `write` has settled (the file sinks of `@parquetry/parquet-writer/node`). */
const recycling = new WeakSet<ByteSink>();

/**
 * Declares that `sink` no longer reads a chunk once its `write` call has settled (it wrote or copied the bytes), so the
 * writer may reuse the chunk's memory for later pages (internal to the writer: its own file sinks).
 * @param sink - the sink.
 * @returns the sink.
 */
export function recyclesChunks<S extends ByteSink>(sink: S): S {
  recycling.add(sink);
  return sink;
}

/**
 * Whether the writer may reuse the memory of the chunks it gave `sink` once the writes have settled (internal to the
 * writer).
 * @param sink - the writer's sink.
 * @returns true for sinks marked with {@link recyclesChunks}.
 */
export function sinkRecycles(sink: ByteSink): boolean {
  return recycling.has(sink);
}

/**
 * Where a writer copies page bodies for this sink (internal to the writer): a memory sink's arena, else undefined
 * (a new array per page).
 * @param sink - the writer's sink.
 * @returns the allocator, or undefined.
 */
export function sinkAlloc(sink: ByteSink): ((length: number) => Uint8Array) | undefined {
  return arenas.get(sink)?.alloc;
}

/**
 * A sink that keeps the bytes in memory (as a list of chunks: no single buffer over 2 GiB is needed until
 * {@link MemorySink.bytes} is called). A writer writing to it copies page bodies into 4 MiB blocks the sink holds,
 * which {@link MemorySink.take} after the writer's close hands on to later memory sinks.
 * @returns the sink.
 */
export function memorySink(): MemorySink {
  let parts: Uint8Array[] = [];
  let length = 0;
  let closed = false;
  const arena = new Arena();
  const join = (): Uint8Array => {
    const out = new Uint8Array(length);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const sink: MemorySink = {
    write(chunk) {
      parts.push(chunk);
      length += chunk.length;
    },
    close() {
      closed = true;
    },
    abort() {
      parts = [];
      length = 0;
    },
    bytes: join,
    take() {
      const out = join();
      parts = [];
      length = 0;
      // before close, pages the writer has not written yet may lie in the blocks: they stay with this sink
      if (closed) arena.release();
      return out;
    },
  };
  arenas.set(sink, arena);
  return sink;
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
