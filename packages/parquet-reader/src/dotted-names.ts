/**
 * Column paths given as dotted strings, in a file whose field names have dots in them: a dotted path also finds a
 * field whose own name has dots (`'a.b'` a top-level field of that name), and a path that could mean two columns (a
 * field `a.b` beside field `b` of a struct `a`) is `AMBIGUOUS_COLUMN` wherever a string path is taken (`columns`,
 * filters (which filter-check.ts resolves itself), `statistics`, `pageIndex`, `bloomFilter`), never one of the two
 * chosen silently; `columns` and filters take a path array instead. Loaded with `import()` when such a file is
 * opened (see optional.ts); in other files a dotted path splits at every dot.
 * @module
 */
import './file.js';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError } from '@parquetry/thrift-compact';

function ambiguous(path: string, candidates: string[]): ParquetError {
  return new ParquetError(
    'AMBIGUOUS_COLUMN',
    `parquet-reader: '${path}' names ${candidates.length} columns: ${candidates.join(', ')}; in \`columns\` or a filter's \`column\` give the path as an array of names, and elsewhere a leaf column's index where one is taken`,
  );
}

/**
 * The field path a dotted string names in `columns`: the leaf or group whose names joined with dots are the string.
 * @param columns - the schema's leaf columns.
 * @param text - the dotted path.
 * @returns the path's names (the string split at every dot when no field matches, for the caller's error).
 * @throws ParquetError `AMBIGUOUS_COLUMN` when two fields match.
 */
export function fieldPath(columns: readonly ColumnDescriptor[], text: string): string[] {
  const found = new Map<string, string[]>();
  for (const col of columns) {
    for (let k = 1; k <= col.path.length; k++) {
      const p = col.path.slice(0, k);
      if (p.join('.') === text) found.set(JSON.stringify(p), p);
    }
  }
  if (found.size > 1) throw ambiguous(text, [...found.keys()]);
  return [...found.values()][0] ?? text.split('.');
}

/**
 * Checks that a leaf found by its dotted path string is the only leaf with that string.
 * @param columns - the schema's leaf columns.
 * @param i - the first leaf whose path string is `path`.
 * @param path - the dotted path.
 * @throws ParquetError `AMBIGUOUS_COLUMN` naming both leaves.
 */
export function checkLeaf(columns: readonly ColumnDescriptor[], i: number, path: string): void {
  const j = columns.findIndex((c, k) => k > i && c.pathString === path);
  if (j > 0) throw ambiguous(path, [i, j].map((k) => `${JSON.stringify(columns[k]!.path)} (leaf ${k})`));
}
