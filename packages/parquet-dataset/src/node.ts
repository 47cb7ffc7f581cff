/**
 * Node-only entry of `@parquetry/parquet-dataset`: datasets in a local directory. {@link directoryStore} lists a
 * directory recursively, opens files for positional reads, and creates files through the writer's atomic file
 * sink (a temporary file beside the target, renamed once complete); {@link openDataset} and {@link writeDataset}
 * here also take a directory path.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (each file of the dataset).
 * @module
 */
import { mkdir, open, readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ParquetError } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import type { ByteSource } from '@parquetry/parquet-reader';
import { fileSink } from '@parquetry/parquet-writer/node';
import { openDataset as openAny, type Dataset, type DatasetInput, type DatasetOptions } from './dataset.js';
import type { DatasetStore, StoreEntry, WritableDatasetStore } from './store.js';
import { datasetOptionRules } from './options.js';
import { writeDataset as writeAny, type DatasetData, type WriteDatasetOptions, type WriteDatasetResult } from './write.js';

/** A local directory as a readable and writable dataset store. */
export interface DirectoryStore extends DatasetStore, WritableDatasetStore {
  /**
   * Lists every file below the directory (none when it does not exist).
   * @returns the files with their sizes and modification times (`mtimeMs`).
   */
  list(): Promise<StoreEntry[]>;
}

/** Options of {@link directoryStore}. */
export interface DirectoryStoreOptions {
  /** fsync each file before its rename, and the directory after (default true). */
  sync?: boolean;
}

function inside(root: string, rel: string): string {
  const full = path.resolve(root, ...rel.split('/'));
  if (full !== root && !full.startsWith(root + path.sep)) throw new ParquetError('INVALID_ARGUMENT', `parquet-dataset: path '${rel}' leaves the dataset directory ${root}`);
  return full;
}

/**
 * A local directory as a dataset store. Files are read with positional reads on a handle opened for each request
 * (no handle stays open); written files appear at their path only once complete. Symbolic links are followed, as
 * DuckDB and pyarrow follow them: a link to a file is listed at the link's path, a link to a directory is walked
 * (once: a link back up the tree is not walked again), a broken link is left out.
 * @param dir - the dataset's root directory.
 * @param options - durability of writes.
 * @returns the store.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one) or a `sync` that is
 *   not a boolean.
 */
export function directoryStore(dir: string, options: DirectoryStoreOptions = {}): DirectoryStore {
  checkOptions(options, { sync: 'boolean' }, 'parquet-dataset: directoryStore', 'INVALID_OPTION');
  const root = path.resolve(dir);
  return {
    location: `${root}${path.sep}`,
    async list() {
      const out: StoreEntry[] = [];
      // directories walked, by real path: a symbolic link back up the tree is not walked twice
      const walked = new Set<string>();
      const walk = async (rel: string): Promise<void> => {
        const here = path.join(root, rel);
        let entries;
        try {
          walked.add(await realpath(here));
          entries = await readdir(here, { withFileTypes: true });
        } catch (e) {
          if ((e as { code?: string }).code === 'ENOENT' && rel === '') return;
          throw e;
        }
        for (const e of entries) {
          const r = rel === '' ? e.name : `${rel}/${e.name}`;
          if (e.isDirectory()) await walk(r);
          else if (e.isFile() || e.isSymbolicLink()) {
            // a symbolic link is followed, as DuckDB and pyarrow follow it (a snapshot folder of links to blobs); a
            // broken one is left out
            const st = await stat(path.join(root, r)).catch(() => undefined);
            if (st?.isFile()) out.push({ path: r, size: st.size, modified: st.mtimeMs });
            else if (st?.isDirectory() && !walked.has(await realpath(path.join(root, r)))) await walk(r);
          }
        }
      };
      await walk('');
      return out;
    },
    async open(rel, size) {
      const full = inside(root, rel);
      const byteLength = size ?? (await stat(full)).size;
      const source: ByteSource = {
        byteLength,
        async read(start, end) {
          if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= byteLength)) {
            throw new ParquetError('OUT_OF_BOUNDS', `parquet-dataset: read of bytes [${start}, ${end}) outside ${full} (${byteLength} bytes)`, start);
          }
          const fh = await open(full, 'r');
          try {
            const buf = new Uint8Array(end - start);
            let done = 0;
            while (done < buf.length) {
              const { bytesRead } = await fh.read(buf, done, buf.length - done, start + done);
              if (bytesRead === 0) throw new ParquetError('EOF', `parquet-dataset: ${full} ended at byte ${start + done}, expected ${end}`, start + done);
              done += bytesRead;
            }
            return buf;
          } finally {
            await fh.close();
          }
        },
      };
      return source;
    },
    async get(rel) {
      try {
        return new Uint8Array(await readFile(inside(root, rel)));
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async create(rel) {
      const full = inside(root, rel);
      await mkdir(path.dirname(full), { recursive: true });
      return fileSink(full, options.sync === undefined ? {} : { sync: options.sync });
    },
  };
}

/**
 * Opens a dataset: a local directory (listed recursively), a list of local file paths and URLs (partition values
 * are parsed from the paths), or any store or file list as the main entry's `openDataset`.
 * @param input - a directory path, a store, or the files (local paths, URLs, or `{ path, source }`).
 * @param options - as the main entry's `openDataset`.
 * @returns the dataset.
 * @throws ParquetError as the main entry's `openDataset`; `NOT_FOUND` for a listed local file that does not exist.
 */
export async function openDataset(input: string | DatasetStore | readonly (string | DatasetInput)[], options: DatasetOptions = {}): Promise<Dataset> {
  // before the local files are looked at (the main entry checks them again, before its listing)
  checkOptions(options, datasetOptionRules, 'parquet-dataset: openDataset');
  if (typeof input === 'string') return openAny(directoryStore(input), options);
  if (!Array.isArray(input)) return openAny(input as DatasetStore, options);
  const files = await Promise.all(
    (input as readonly (string | DatasetInput)[]).map(async (x): Promise<DatasetInput> => {
      if (typeof x !== 'string' || /^[a-z][a-z0-9+.-]*:\/\//i.test(x)) return x;
      const full = path.resolve(x);
      const size = await stat(full).then(
        (st) => st.size,
        (e: unknown) => {
          throw new ParquetError('NOT_FOUND', `parquet-dataset: no file ${full}`, undefined, { cause: e });
        },
      );
      return { path: x.split(path.sep).join('/'), source: await directoryStore(path.dirname(full)).open(path.basename(full), size) };
    }),
  );
  return openAny(files, options);
}

/**
 * Writes a dataset into a local directory (created as needed), or any writable store, as the main entry's
 * `writeDataset`.
 * @param data - rows or columns.
 * @param target - a directory path, or a writable store.
 * @param options - as the main entry's `writeDataset`.
 * @returns what was written.
 * @throws ParquetError as the main entry's `writeDataset`.
 */
export function writeDataset(data: DatasetData, target: string | WritableDatasetStore, options: WriteDatasetOptions = {}): Promise<WriteDatasetResult> {
  return writeAny(data, typeof target === 'string' ? directoryStore(target) : target, options);
}
