/**
 * Chunks decoded from runs of pages, joined: what the pruned scan and the batch cursor need, apart from
 * pipeline.ts so that a read of whole row groups does not load them.
 * @module
 */
import type { DecodedChunk, ValueSegment } from '@parquetry/parquet-column/decode';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';

/**
 * Rows of a decoded chunk (levels at repetition level 0), or -1 when it does not start a row.
 * @param c - the chunk.
 * @returns its rows.
 */
export function chunkRows(c: DecodedChunk): number {
  if (!c.rep) return c.numLevels;
  if (c.numLevels > 0 && c.rep[0] !== 0) return -1;
  let n = 0;
  for (let i = 0; i < c.numLevels; i++) if (c.rep[i] === 0) n++;
  return n;
}

/**
 * Concatenates chunks decoded from runs of pages of one column, in row order (sharing one dictionary).
 * @param parts - the chunks (at least one).
 * @param column - their column.
 * @returns one chunk holding their levels and values, in order (the only part itself when there is one).
 */
export function concatChunks(parts: readonly DecodedChunk[], column: ColumnDescriptor): DecodedChunk {
  if (parts.length === 1) return parts[0]!;
  let numLevels = 0;
  let numValues = 0;
  let pages = 0;
  const segments: ValueSegment[] = [];
  for (const p of parts) {
    numLevels += p.numLevels;
    numValues += p.numValues;
    pages += p.pages;
    for (const s of p.segments) segments.push(s);
  }
  let def: Uint8Array | undefined;
  if (column.maxDef > 0 && parts.some((p) => p.def !== undefined)) {
    def = new Uint8Array(numLevels);
    let at = 0;
    for (const p of parts) {
      if (p.def) def.set(p.def.subarray(0, p.numLevels), at);
      else def.fill(column.maxDef, at, at + p.numLevels);
      at += p.numLevels;
    }
  }
  let rep: Uint8Array | undefined;
  if (column.maxRep > 0) {
    rep = new Uint8Array(numLevels);
    let at = 0;
    for (const p of parts) {
      rep.set(p.rep!.subarray(0, p.numLevels), at);
      at += p.numLevels;
    }
  }
  return { def, rep, numLevels, dictionary: parts[0]!.dictionary, segments, numValues, pages };
}
