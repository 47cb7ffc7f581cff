/**
 * CLI inspection commands over what a file stores for skipping: `pages` (the page index: each page's rows, size,
 * null count and bounds) and `bloom` (probe a column's bloom filters for a value).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/PageIndex.md and BloomFilter.md.
 * @module
 */
import { convertValues, fromJsValues } from '@parquetry/parquet-column';
import { decodePlain, encodePlain } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ParquetFile } from '@parquetry/parquet-reader';
import { BoundaryOrderNames, ByteWriter, ParquetError, Type, isParquetError } from '@parquetry/thrift-compact';
import { numberString } from './cli-values.js';
import { leafColumnOf } from './column-names.js';

const NO_KEY = Symbol('no key');

/** What a read of a chunk's structure gives, or NO_KEY when its column is encrypted with a key the CLI was not given. */
async function withoutKey<T>(read: Promise<T>): Promise<T | typeof NO_KEY> {
  try {
    return await read;
  } catch (e) {
    if (isParquetError(e) && e.code === 'KEY_MISSING') return NO_KEY;
    throw e;
  }
}

/** A bound's PLAIN bytes as the reader's JavaScript value, for printing. */
function bound(column: ColumnDescriptor, bytes: Uint8Array): string {
  try {
    const values =
      column.type === Type.BYTE_ARRAY
        ? { offsets: Int32Array.of(0, bytes.length), data: bytes }
        : column.type === Type.FIXED_LEN_BYTE_ARRAY
          ? { width: bytes.length, data: bytes }
          : decodePlain(bytes, 0, bytes.length, 1, column.typeLength === undefined ? { type: column.type } : { type: column.type, typeLength: column.typeLength }).values;
    const v = convertValues(values, column)[0];
    if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
    return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' ? numberString(v) : String(v);
  } catch {
    return `0x${Buffer.from(bytes).toString('hex')}`;
  }
}

/**
 * `parquetry pages FILE [COLUMN]`: the page index of every (or one) column, row group by row group.
 * @param file - the opened file.
 * @param only - a leaf column path, or undefined for all.
 * @param write - receives each output line.
 * @throws ParquetError `USAGE` for a column that is not in the file (as `stats` and `--columns`: exit code 2).
 */
export async function pagesCommand(file: ParquetFile, only: string | undefined, write: (line: string) => void): Promise<void> {
  const cols = only === undefined ? file.schema.columns : [leafColumnOf(file.schema, 'pages', only)];
  for (const [g, rg] of file.metadata.row_groups.entries()) {
    for (const col of cols) {
      // decrypted when the column is encrypted and the file was opened with its key
      const index = await withoutKey(file.pageIndex(g, col.index));
      if (index === NO_KEY) {
        write(`row group ${g}, column '${col.pathString}': encrypted with a key not given (page index not shown; see --column-key)`);
        continue;
      }
      if (!index) {
        write(`row group ${g}, column '${col.pathString}': no page index`);
        continue;
      }
      const { offsetIndex: oi, columnIndex: ci } = index;
      const n = oi.page_locations.length;
      write(`row group ${g}, column '${col.pathString}': ${n} page${n === 1 ? '' : 's'}${ci ? `, bounds ${BoundaryOrderNames[ci.boundary_order] ?? ci.boundary_order}` : ', no column index'}`);
      oi.page_locations.forEach((loc, k) => {
        const next = k + 1 < n ? oi.page_locations[k + 1]!.first_row_index : rg.num_rows;
        const parts = [`  page ${k}: rows ${loc.first_row_index}–${next - 1} (${next - loc.first_row_index}), ${loc.compressed_page_size} bytes at ${loc.offset}`];
        if (ci) {
          parts.push(`nulls ${ci.null_counts?.[k] ?? '?'}`);
          if (ci.null_pages[k]) parts.push('all null');
          else parts.push(`min ${bound(col, ci.min_values[k]!)}, max ${bound(col, ci.max_values[k]!)}`);
        }
        write(parts.join(', '));
      });
    }
  }
}

/** Parses a command-line value for a column into the reader's JavaScript form. */
function parseValue(column: ColumnDescriptor, text: string): unknown {
  const lt = column.node.logicalType;
  switch (column.type) {
    case Type.BOOLEAN:
      if (text === 'true' || text === 'false') return text === 'true';
      break;
    case Type.INT32:
      if (lt?.DECIMAL) return text;
      if (lt?.DATE && /^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(`${text}T00:00:00Z`);
      if (/^-?\d+$/.test(text)) return Number(text);
      break;
    case Type.INT64:
      if (lt?.DECIMAL) return text;
      if (lt?.TIMESTAMP && !/^-?\d+$/.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text);
      if (/^-?\d+$/.test(text)) return BigInt(text);
      break;
    case Type.FLOAT:
    case Type.DOUBLE:
      if (text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
      break;
    case Type.BYTE_ARRAY:
    case Type.FIXED_LEN_BYTE_ARRAY:
      if (lt?.STRING || lt?.ENUM || lt?.JSON || lt?.UUID || lt?.DECIMAL) return text;
      if (/^0x([0-9a-f]{2})*$/i.test(text)) return Uint8Array.from(Buffer.from(text.slice(2), 'hex'));
      return text;
    default:
      break;
  }
  throw new ParquetError('USAGE', `parquetry: '${text}' is not a value of column '${column.pathString}'`);
}

/**
 * `parquetry bloom FILE COLUMN VALUE`: per row group, whether the column's bloom filter may contain the value (a
 * FLOAT or DOUBLE zero: +0 or -0, which hash differently).
 * @param file - the opened file.
 * @param name - the leaf column path.
 * @param text - the value as typed (numbers, strings, ISO dates for DATE/TIMESTAMP, 0x… hex for binary).
 * @param write - receives each output line.
 * @returns the number of row groups that may contain the value.
 * @throws ParquetError `USAGE` for a column that is not in the file or a value that is not one of the column.
 */
export async function bloomCommand(file: ParquetFile, name: string, text: string, write: (line: string) => void): Promise<number> {
  const col = leafColumnOf(file.schema, 'bloom', name);
  const value = parseValue(col, text);
  const plainOf = (v: unknown): Uint8Array => {
    const physical = fromJsValues([v], 0, 1, col);
    const w = new ByteWriter(16);
    encodePlain(physical, col.typeLength === undefined ? { type: col.type } : { type: col.type, typeLength: col.typeLength }, w);
    // BYTE_ARRAY: the bloom hash covers the value bytes without PLAIN's length prefix
    return col.type === Type.BYTE_ARRAY ? w.finish().subarray(4) : w.finish();
  };
  // a float zero is +0 or -0: equal values (as --where compares them) with different PLAIN bytes, so different hashes
  const zero = (col.type === Type.FLOAT || col.type === Type.DOUBLE) && value === 0;
  const probes = zero ? [plainOf(0), plainOf(-0)] : [plainOf(value)];
  let maybe = 0;
  for (let g = 0; g < file.metadata.row_groups.length; g++) {
    // decrypted when the column is encrypted and the file was opened with its key
    const f = await withoutKey(file.bloomFilter(g, col.index));
    if (f === NO_KEY) {
      write(`row group ${g}: encrypted with a key not given (bloom filter not read; see --column-key)`);
      maybe++;
      continue;
    }
    if (!f) {
      write(`row group ${g}: no bloom filter`);
      maybe++;
      continue;
    }
    const hit = probes.some((b) => f.mightContainBytes(b, 0, b.length));
    if (hit) maybe++;
    write(`row group ${g}: ${hit ? 'may contain' : 'definitely absent'} (${f.numBytes}-byte filter)`);
  }
  return maybe;
}
