/**
 * Node-only entry of `parquetry`: open a local file, and the `parquetry` command line.
 *
 * ```
 * parquetry schema <file>                      the schema tree (every element): repetition, physical and logical types
 * parquetry meta <file>                        rows, row groups, column chunks (codec, encodings, sizes)
 * parquetry head <file> [-n N] [--columns a,b] the first N rows (default 10) as JSON lines
 * parquetry count <file>                       the number of rows, counted by reading the pages
 * ```
 * @module
 */
import type { SchemaNode } from '@parquetry/parquet-levels';
import type { OpenOptions, ParquetFile } from '@parquetry/parquet-reader';
import { fileSource } from '@parquetry/parquet-reader/node';
import { CompressionCodecNames, EncodingNames, TypeNames, isParquetError, type LogicalType } from '@parquetry/thrift-compact';
import { openParquet } from './open.js';

/**
 * Opens a local Parquet file with every codec preset, reading only the byte ranges asked for.
 * @param path - the file path.
 * @param options - reader options (`codecs` defaults to every codec).
 * @returns the opened file and a `close()` for its file handle.
 */
export async function openFile(path: string, options: OpenOptions = {}): Promise<ParquetFile & { close(): Promise<void> }> {
  const source = await fileSource(path);
  try {
    const file = await openParquet(source, options);
    return Object.assign(Object.create(file) as ParquetFile, { close: () => source.close() });
  } catch (e) {
    await source.close();
    throw e;
  }
}

const USAGE = `usage: parquetry <command> <file> [options]
  schema <file>                       the schema tree
  meta <file>                         rows, row groups and column chunks
  head <file> [-n N] [--columns a,b]  the first N rows (default 10) as JSON lines
  count <file>                        the number of rows, counted by reading the pages`;

function logicalName(lt: LogicalType | undefined): string {
  if (!lt) return '';
  const [name, body] = Object.entries(lt).find(([, v]) => v !== undefined) ?? ['', undefined];
  const params = body && typeof body === 'object' ? Object.entries(body as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'object') : [];
  const unit = body && typeof body === 'object' && 'unit' in body ? Object.keys((body as { unit: object }).unit)[0] : undefined;
  const all = [...params.map(([k, v]) => `${k}=${String(v)}`), ...(unit ? [`unit=${unit}`] : [])];
  return all.length ? `${name}(${all.join(', ')})` : name;
}

function schemaLines(n: SchemaNode, depth: number, out: string[]): void {
  const rep = ['required', 'optional', 'repeated'][n.repetition] ?? String(n.repetition);
  const phys = n.element.type === undefined ? 'group' : (TypeNames[n.element.type] ?? String(n.element.type));
  const len = n.element.type_length ? `(${n.element.type_length})` : '';
  const lt = logicalName(n.logicalType);
  out.push(`${'  '.repeat(depth)}${rep} ${phys}${len} ${n.name}${lt ? ` ${lt}` : ''}`);
  for (const c of n.children) schemaLines(c, depth + 1, out);
}

/** JSON for any value the reader returns: bigints as strings, bytes as hex, maps as entry lists. */
function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'bigint') return x.toString();
    if (x instanceof Uint8Array) return Array.from(x, (b) => b.toString(16).padStart(2, '0')).join('');
    if (x instanceof Map) return [...x.entries()];
    if (typeof x === 'number' && !Number.isFinite(x)) return String(x);
    return x;
  });
}

/**
 * Runs the `parquetry` command line.
 * @param argv - the arguments after the program name.
 * @param write - receives each output line.
 * @returns the exit code: 0; 1 for a ParquetError (printed with its code) or a file that cannot be opened; 2 for a
 *   usage error.
 */
export async function main(argv: readonly string[], write: (line: string) => void): Promise<number> {
  const [cmd, path, ...rest] = argv;
  if (!cmd || !path || !['schema', 'meta', 'head', 'count'].includes(cmd)) {
    write(USAGE);
    return cmd === undefined || cmd === 'help' || cmd === '--help' ? 0 : 2;
  }
  const opt = (name: string): string | undefined => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  let file: (ParquetFile & { close(): Promise<void> }) | undefined;
  try {
    try {
      file = await openFile(path);
    } catch (e) {
      if (isParquetError(e) || typeof (e as { code?: unknown })?.code !== 'string') throw e;
      // a file system error (missing file, permissions): say which file
      write(`parquetry: cannot open '${path}': ${(e as Error).message}`);
      return 1;
    }
    const md = file.metadata;
    if (cmd === 'schema') {
      const out: string[] = [];
      schemaLines(file.schema.field.node, 0, out);
      out[0] = `message ${file.schema.field.node.name}`;
      out.forEach((l) => write(l));
    } else if (cmd === 'meta') {
      write(`created_by: ${md.created_by ?? '(none)'}`);
      write(`rows: ${md.num_rows}, row groups: ${md.row_groups.length}, columns: ${file.schema.columns.length}, format version: ${md.version}`);
      md.row_groups.forEach((rg, g) => {
        write(`row group ${g}: ${rg.num_rows} rows, ${rg.total_byte_size} bytes`);
        rg.columns.forEach((cc, i) => {
          const m = cc.meta_data;
          const name = file!.schema.columns[i]?.pathString ?? `column ${i}`;
          if (!m) return write(`  ${name}: (encrypted metadata)`);
          const enc = m.encodings.map((e) => EncodingNames[e] ?? String(e)).join(',');
          write(`  ${name}: ${CompressionCodecNames[m.codec] ?? m.codec} ${enc} ${m.num_values} values, ${m.total_compressed_size} / ${m.total_uncompressed_size} bytes`);
        });
      });
    } else if (cmd === 'head') {
      const n = Number(opt('-n') ?? 10);
      if (!Number.isSafeInteger(n) || n < 0) {
        write(`parquetry: -n takes a whole number, not '${opt('-n')}'`);
        return 2;
      }
      const columns = opt('--columns')?.split(',');
      let left = n;
      // row groups past the first n rows are never read
      for await (const { rows } of file.iterateRowGroups({ rowEnd: n, ...(columns ? { columns } : {}) })) {
        for (const r of rows.slice(0, left)) write(toJson(r));
        left -= Math.min(left, rows.length);
        if (left === 0) break;
      }
    } else {
      let rows = 0;
      for (let g = 0; g < md.row_groups.length; g++) rows += (await file.readRowGroupColumns(g, { columns: [file.schema.columns[0]!.path as string[]] })).length;
      write(String(rows));
    }
    return 0;
  } catch (e) {
    if (isParquetError(e)) {
      write(`parquetry: ${e.code}: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await file?.close();
  }
}
