import type { Metafile } from 'esbuild';

/** One bundle: its initial load (entry output plus statically imported chunks) and its lazy chunks. */
export interface Measure {
  /** Minified bytes of the initial load. */
  min: number;
  /** gzip -9 bytes of the initial load (each file gzipped on its own, summed). */
  gz: number;
  /** Minified bytes of the chunks only `import()` reaches. */
  lazyMin: number;
  /** gzip -9 bytes of those chunks. */
  lazyGz: number;
  /** How many lazy chunks. */
  lazyChunks: number;
  /** What the first page of each codec loaded with `import()` loads: its chunk and the chunks it imports statically. */
  codecLoads: { codec: string; min: number; gz: number; chunks: number }[];
  /** Bytes each input module contributes to the initial load, keyed by the path esbuild reports. */
  inputs: Record<string, number>;
  /** esbuild's metafile of the build. */
  metafile: Metafile;
  /** The entry's output path in the metafile. */
  entryOut: string;
}

/** One row of the table. */
export interface Row {
  name: string;
  budget: number | undefined;
  /** Issue 14's goal for the entry, where it set one (gzip bytes). */
  target: number | undefined;
  description: string;
  ours: Measure;
  peer: Measure | undefined;
  /** Input modules of the initial load that the budget forbids (must be empty). */
  forbidden: string[];
}

/** A committed budget: gzip bytes of the initial load, and input paths that must not be in it. */
export interface Budget {
  gzip: number;
  target?: number;
  description: string;
  forbid?: string[];
}

export function entryNames(): string[];
export function measureEntry(entry: string): Promise<Measure>;
/** Bundles one entry as the measures do and finds its initial load (the entry's output and what it imports statically). */
export function buildEntry(entry: string, outdir: string, options?: { sourcemap?: boolean }): Promise<{ metafile: import('esbuild').Metafile; initial: Set<string>; entryOut: string }>;
export function measureAll(): Promise<Row[]>;
export function readBudgets(): Record<string, Budget>;
export function formatTable(rows: Row[]): string;
export function formatInputs(m: Measure, top?: number): string;
