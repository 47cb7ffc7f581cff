/**
 * Node-only entry of `@parquetry/parquet-writer`: a file sink that never leaves a partial file at the final path.
 * The bytes go to a temporary file beside the target (`<name>.<random>.tmp`); only after the footer is written and
 * the data synced to disk is it renamed over the final path (an atomic replace on POSIX file systems). A failed or
 * aborted write removes the temporary file; a process killed mid-write leaves at most the temporary file, never a
 * file at the final path.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ByteSink } from './sink.js';

/** Options of {@link fileSink}. */
export interface FileSinkOptions {
  /** fsync the file before the rename, and the directory after it (default true). */
  sync?: boolean;
}

/** A file sink: a {@link ByteSink} plus the paths it uses. */
export interface FileSink extends ByteSink {
  /** The final path (exists only after a successful close). */
  readonly path: string;
  /** The temporary path written to until close. */
  readonly tempPath: string;
}

/**
 * Opens a sink writing a Parquet file at `target` through a temporary file and an atomic rename.
 * @param target - the final path.
 * @param options - durability options.
 * @returns the sink (pass it to `createWriter`).
 */
export async function fileSink(target: string, options: FileSinkOptions = {}): Promise<FileSink> {
  const sync = options.sync ?? true;
  const dir = path.dirname(path.resolve(target));
  const tempPath = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let fh: FileHandle | undefined = await open(tempPath, 'wx');
  let done = false;
  return {
    path: target,
    tempPath,
    async write(chunk) {
      let at = 0;
      while (at < chunk.length) {
        const { bytesWritten } = await fh!.write(chunk, at, chunk.length - at);
        at += bytesWritten;
      }
    },
    async close() {
      if (done) return;
      done = true;
      if (sync) await fh!.sync();
      await fh!.close();
      fh = undefined;
      await rename(tempPath, target);
      if (sync) {
        // make the rename itself durable
        const d = await open(dir, 'r').catch(() => undefined);
        if (d) {
          await d.sync().catch(() => undefined);
          await d.close();
        }
      }
    },
    async abort() {
      if (done) return;
      done = true;
      await fh?.close().catch(() => undefined);
      fh = undefined;
      await unlink(tempPath).catch(() => undefined);
    },
  };
}

