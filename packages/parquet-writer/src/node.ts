/**
 * Node-only entry of `@parquetry/parquet-writer`: a file sink that never leaves a partial file at the final path.
 * The bytes go to a temporary file beside the target (`<name>.<random>.tmp`); only after the footer is written and
 * the data synced to disk is it renamed over the final path (an atomic replace on POSIX file systems). A failed or
 * aborted write removes the temporary file. Every file system failure is a `CANNOT_CREATE` ParquetError naming the
 * final path and the step (the Node error as its cause), never a raw Node error: the temporary file cannot be
 * created (a missing directory, permissions), a write to it fails (`ENOSPC`, `EFBIG`, `EIO`; the temporary file is
 * then removed and the sink failed), or its sync or rename fails on close (say, the target is an existing
 * directory; the temporary file is removed too). A process killed mid-write leaves at most the temporary file,
 * never a file at the final path.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { copyFile, lstat, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ParquetError } from '@parquetry/thrift-compact';
import { appendTarget, type AppendTarget } from './append.js';
import { recyclesChunks, type ByteSink } from './sink.js';

/** Options of {@link fileSink}. */
export interface FileSinkOptions {
  /** fsync the file before the rename, and the directory after it (default true). */
  sync?: boolean;
}

/** A file sink: a {@link ByteSink} plus the paths it uses. */
export interface FileSink extends ByteSink {
  /** The final path (exists only after a successful close; for a symbolic link given, the file it leads to). */
  readonly path: string;
  /** The temporary path written to until close. */
  readonly tempPath: string;
  /**
   * Writes a chunk at the end of the temporary file.
   * @param chunk - the bytes.
   * @returns when they are written; rejects `CANNOT_CREATE` (the disk refused them: the sink is then failed),
   *   `WRITER_CLOSED` after close, `WRITER_FAILED` after an abort or a failure.
   */
  write(chunk: Uint8Array): Promise<void>;
  /**
   * Syncs the temporary file and renames it to {@link FileSink.path} (once; later calls settle with the first).
   * @returns when the file is in place; rejects `CANNOT_CREATE` (the temporary file removed) or `WRITER_FAILED`.
   */
  close(): Promise<void>;
  /**
   * Removes the temporary file; nothing appears at the final path. Does nothing after close or a first abort.
   * @param reason - why (unused: the writer passes its failure).
   * @returns when the file is removed.
   */
  abort(reason?: unknown): Promise<void>;
}

/**
 * Opens a sink writing a Parquet file at `target` through a temporary file and an atomic rename.
 * @param target - the final path.
 * @param options - durability options.
 * @returns the sink (pass it to `createWriter`). Its `write()` rejects `CANNOT_CREATE` when the bytes cannot be
 *   written (`ENOSPC`, `EFBIG`, `EIO`: the temporary file is removed and the sink failed), and its `close()` when the
 *   file cannot be synced or renamed to `target` (the temporary file removed); the Node error is the cause. After a
 *   failure or `abort()`, `write()` and `close()` reject `WRITER_FAILED`; `write()` after `close()` rejects
 *   `WRITER_CLOSED`.
 * @throws ParquetError `CANNOT_CREATE` naming `target`, the Node error as its cause, when the temporary file cannot be
 *   created beside it (a missing directory, permissions), or when `target` is not a regular file (a device such as
 *   `/dev/null`, a FIFO, a socket, a directory), which the rename would replace; a symbolic link is followed (the
 *   file it leads to is written, the link kept).
 */
export async function fileSink(target: string, options: FileSinkOptions = {}): Promise<FileSink> {
  return openSink(target, options, undefined);
}

/**
 * The file a sink replaces at `target`: `target` itself when it is a regular file or absent, the file a symlink
 * leads to (so the link stays a link), and an error for anything else: a device (`/dev/null`), a FIFO, a socket or a
 * directory would be replaced by the rename, not written to.
 * @param target - the path given.
 * @returns the path to rename the temporary file to.
 * @throws ParquetError `CANNOT_CREATE` naming `target` and what it is.
 */
async function regularTarget(target: string): Promise<string> {
  let st;
  try {
    st = await lstat(target);
  } catch {
    return target; // absent (or not reachable: creating the temporary file beside it says why)
  }
  let resolved = target;
  if (st.isSymbolicLink()) {
    try {
      st = await stat(target);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOENT') throw cannotCreate(target, e, 'following the symbolic link');
      // a link to a file not there yet: written where it leads
      return path.resolve(path.dirname(target), await readlink(target));
    }
    // (a link to a pipe, as /dev/stdout can be, has no real path: it is refused below by what it is)
    resolved = await realpath(target).catch(() => target);
  }
  if (st.isFile()) return resolved;
  const kind = st.isDirectory() ? 'a directory' : st.isCharacterDevice() ? 'a character device' : st.isBlockDevice() ? 'a block device' : st.isFIFO() ? 'a FIFO (named pipe)' : st.isSocket() ? 'a socket' : 'not a regular file';
  throw new ParquetError('CANNOT_CREATE', `parquet-writer: cannot create '${target}': it is ${kind}${resolved === target ? '' : ` ('${resolved}')`}; a Parquet file is written to a temporary file renamed into place, which would replace it: give the path of a regular file`);
}

async function openSink(given: string, options: FileSinkOptions, start: number | undefined): Promise<FileSink> {
  const target = await regularTarget(given);
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
  let step = 'creating the temporary file beside it';
  try {
    if (start === undefined) fh = await open(tempPath, 'wx');
    else {
      // appending: the copy keeps the old file untouched until the rename
      step = 'copying it to the temporary file';
      await copyFile(target, tempPath);
      step = 'opening the temporary file';
      fh = await open(tempPath, 'r+');
      step = 'cutting the temporary file at the old footer';
      await fh.truncate(start);
      pos = start;
    }
  } catch (e) {
    // 'wx' never opens a file someone else made: only an append's partial copy is removed
    if (start !== undefined) await discard();
    throw cannotCreate(target, e, step);
  }
  /** 'open' until closed, aborted or failed; a failure is kept as the cause of later calls' errors. */
  let state: 'open' | 'closed' | 'aborted' | { failed: ParquetError } = 'open';
  /** The error of a call after close, abort or a failure. */
  const notOpen = (call: string): ParquetError =>
    state === 'closed' || (state === 'open' && closing !== undefined)
      ? new ParquetError('WRITER_CLOSED', `parquet-writer: ${call} on the file sink of '${target}' after it was closed`)
      : new ParquetError('WRITER_FAILED', `parquet-writer: ${call} on the file sink of '${target}' after it ${state === 'aborted' ? 'was aborted' : 'failed'}; nothing was written there`, undefined, typeof state === 'object' ? { cause: state.failed } : undefined);
  /** The promise of the first `close()`. */
  let closing: Promise<void> | undefined;
  /** Fails the sink: the temporary file is removed, and later calls reject with this error as their cause. */
  const fail = async (e: unknown, what: string): Promise<ParquetError> => {
    const error = cannotCreate(target, e, what);
    state = { failed: error };
    await discard();
    return error;
  };
  // write() resolves once the bytes are in the file: the writer may reuse a chunk's memory after it
  return recyclesChunks({
    path: target,
    tempPath,
    async write(chunk) {
      if (state !== 'open' || closing !== undefined || fh === undefined) throw notOpen('write');
      let at = 0;
      try {
        while (at < chunk.length) {
          const { bytesWritten } = await fh.write(chunk, at, chunk.length - at, pos);
          at += bytesWritten;
          pos += bytesWritten;
        }
      } catch (e) {
        // aborted under way: the abort removed the file, its error is not a disk's
        if (state !== 'open') throw notOpen('write');
        throw await fail(e, `writing the temporary file at byte ${pos}`);
      }
    },
    close() {
      // a second call while the first is under way (or after it) settles with it; abort() then does nothing
      closing ??= finish();
      return closing;
    },
    async abort() {
      if (state !== 'open' || closing !== undefined) return;
      state = 'aborted';
      await discard();
    },
  });

  /** close(): sync, close and rename the temporary file into place (once). */
  async function finish(): Promise<void> {
    if (state !== 'open' || fh === undefined) throw notOpen('close');
    let step = 'syncing the temporary file';
    try {
      if (sync) await fh.sync();
      step = 'closing the temporary file';
      await fh.close();
      fh = undefined;
      step = 'renaming the temporary file to it';
      await rename(tempPath, target);
    } catch (e) {
      throw await fail(e, step);
    }
    state = 'closed';
    if (sync) {
      // make the rename itself durable (the file is in place: a directory that cannot be synced is not an error)
      const d = await open(dir, 'r').catch(() => undefined);
      if (d) {
        await d.sync().catch(() => undefined);
        await d.close().catch(() => undefined);
      }
    }
  }
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
  const what = typeof message === 'string' ? message.replace(/, (open|copyfile|rename|fsync|close|ftruncate|write) '.*$/s, '') : String(e);
  return new ParquetError('CANNOT_CREATE', `parquet-writer: cannot create '${target}': ${what} (${step})`, undefined, { cause: e });
}

/**
 * The error of an existing file that could not be opened or read to append to it.
 * @param target - the file.
 * @param e - the Node error (kept as the cause).
 * @returns a `CANNOT_OPEN` ParquetError.
 */
function cannotOpen(target: string, e: unknown): ParquetError {
  const message = (e as { message?: unknown } | undefined)?.message;
  const what = typeof message === 'string' ? message.replace(/, (open|read|fstat) '.*$/s, '') : String(e);
  return new ParquetError('CANNOT_OPEN', `parquet-writer: cannot open '${target}' to append to it: ${what}`, undefined, { cause: e });
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
 * @throws ParquetError as `appendTarget` (not Parquet, encrypted footer, corrupt footer); `CANNOT_OPEN` naming
 *   `target` (the Node error as its cause) when it cannot be opened or read (a missing file, permissions);
 *   `CANNOT_CREATE` as {@link fileSink} when it cannot be copied to the temporary file beside it.
 */
export async function appendFileSink(target: string, options: FileSinkOptions = {}): Promise<AppendFileSink> {
  let fh: FileHandle;
  try {
    fh = await open(target, 'r');
  } catch (e) {
    throw cannotOpen(target, e);
  }
  let append: AppendTarget;
  try {
    const { size } = await fh.stat().catch((e: unknown) => {
      throw cannotOpen(target, e);
    });
    let want = Math.min(size, 1 << 16);
    for (;;) {
      const tail = new Uint8Array(want);
      await fh.read(tail, 0, want, size - want).catch((e: unknown) => {
        throw cannotOpen(target, e);
      });
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
    await fh.close().catch(() => undefined);
  }
  const sink = await openSink(target, options, append.dataEnd);
  return Object.assign(sink, { append });
}
