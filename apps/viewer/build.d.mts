/**
 * Builds the viewer into a directory (emptied first).
 * @param outDir - where to write (default `apps/viewer/out`).
 * @returns the directory and the files written (relative to it).
 */
export function buildViewer(outDir?: string): Promise<{ outDir: string; files: string[] }>;
