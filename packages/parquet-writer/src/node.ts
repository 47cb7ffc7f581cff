/**
 * Node-only entry of `@parquetry/parquet-writer`: a file sink that never leaves a partial file at the final path.
 * The bytes go to a temporary file beside the target (`<name>.<random>.tmp`); only after the footer is written and
 * the data synced to disk is it renamed over the final path (an atomic replace on POSIX file systems). A failed or
 * aborted write removes the temporary file, and so does a close whose sync or rename fails (say, the target is an
 * existing directory): that close rejects `CANNOT_CREATE` naming the final path. A process killed
 * mid-write leaves at most the temporary file, never a file at the final path.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { copyFile, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ParquetError } from '@parquetry/thrift-compact';
import { appendTarget, type AppendTarget } from './append.js';
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
 * @returns the sink (pass it to `createWriter`); its `close()` rejects `CANNOT_CREATE` (the Node error as its cause,
 *   the temporary file removed) when the file cannot be synced or renamed to `target`.
 * @throws a Node file system error (`ENOENT`, `EACCES`, …) when the temporary file cannot be created beside `target`.
 */
export async function fileSink(target: string, options: FileSinkOptions = {}): Promise<FileSink> {
  return openSink(target, options, undefined);
}

async function openSink(target: string, options: FileSinkOptions, start: number | undefined): Promise<FileSink> {
  const sync = options.sync ?? true;
  const dir = path.dirname(path.resolve(target));
  const tempPath = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let fh: FileHandle | undefined;
  let pos = 0;
  /** Closes and removes the temporary file (errors ignored: the one that got us here matters more). */
  const discard = async (): Promise<void> => {
    await fh?.close().catch(() => undefined);
    fh = undefined;
    await unlink(tempPath).catch(() => undefined);
  };
  if (start === undefined) fh = await open(tempPath, 'wx');
  else {
    try {
      // appending: the copy keeps the old file untouched until the rename
      await copyFile(target, tempPath);
      fh = await open(tempPath, 'r+');
      await fh.truncate(start);
      pos = start;
    } catch (e) {
      // a partial copy is not left behind
      await discard();
      throw e;
    }
  }
  let done = false;
  return {
    path: target,
    tempPath,
    async write(chunk) {
      let at = 0;
      while (at < chunk.length) {
        const { bytesWritten } = await fh!.write(chunk, at, chunk.length - at, pos);
        at += bytesWritten;
        pos += bytesWritten;
      }
    },
    async close() {
      if (done) return;
      done = true;
      let step = 'syncing the temporary file';
      try {
        if (sync) await fh!.sync();
        step = 'closing the temporary file';
        await fh!.close();
        fh = undefined;
        step = 'renaming the temporary file to it';
        await rename(tempPath, target);
      } catch (e) {
        await discard();
        throw cannotCreate(target, e, step);
      }
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
      await discard();
    },
  };
}

/**
 * The error of a file that could not be created at `target`.
 * @param target - the final path.
 * @param e - the Node error (kept as the cause).
 * @param step - what failed.
 * @returns a `CANNOT_CREATE` ParquetError.
 */
function cannotCreate(target: string, e: unknown, step: string): ParquetError {
  // Node's message names the temporary path ("EISDIR: illegal operation on a directory, rename '…/.x.1a2b.tmp' ->
  // …"): keep its code and description, the step says which file
  const message = (e as { message?: unknown } | undefined)?.message;
  const what = typeof message === 'string' ? message.replace(/, (rename|fsync|close) '.*$/s, '') : String(e);
  return new ParquetError('CANNOT_CREATE', `parquet-writer: cannot create '${target}': ${what} (${step})`, undefined, { cause: e });
}

/** A file sink that appends to an existing Parquet file, and what to pass as the writer's `append` option. */
export interface AppendFileSink extends FileSink {
  /** The existing file's footer and data end: pass as `createWriter(sink, { append: sink.append })`. */
  readonly append: AppendTarget;
}

/**
 * Opens a sink that appends row groups to an existing file: the file is copied to a temporary file up to its old
 * footer, the new row groups and footer are written there, and the copy replaces the file on close — an interrupted
 * append leaves the old file as it was.
 * @param target - the existing file.
 * @param options - durability options.
 * @returns the sink, with the `append` target for the writer.
 * @throws ParquetError as `appendTarget` (not Parquet, encrypted footer, corrupt footer).
 */
export async function appendFileSink(target: string, options: FileSinkOptions = {}): Promise<AppendFileSink> {
  const fh = await open(target, 'r');
  let append: AppendTarget;
  try {
    const { size } = await fh.stat();
    let want = Math.min(size, 1 << 16);
    for (;;) {
      const tail = new Uint8Array(want);
      await fh.read(tail, 0, want, size - want);
      try {
        append = appendTarget(tail, size);
        break;
      } catch (e) {
        if ((e as { code?: string }).code !== 'NEED_MORE_DATA' || want === size) throw e;
        const len = (tail[want - 8]! | (tail[want - 7]! << 8) | (tail[want - 6]! << 16) | (tail[want - 5]! << 24)) >>> 0;
        want = Math.min(size, len + 8);
      }
    }
  } finally {
    await fh.close();
  }
  const sink = await openSink(target, options, append.dataEnd);
  return Object.assign(sink, { append });
}
