// The main entry's decodeColumnChunk and ChunkDecoder default `loadRareDecoders` to an import() bundlers follow; the
// `/read` entry's do not (the reader passes its own loader). Checked in a real bundle: esbuild bundles a script using
// both into one file, which Node runs from a temporary directory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { bundleChild } from '../../../tools/testing/workspace-plugin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

test('bundled: DELTA pages decode through the main entry\'s decodeColumnChunk and ChunkDecoder without a loader; the /read entry needs one (ENCODING_UNAVAILABLE)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rare-decoders-bundle-'));
  try {
    const outfile = path.join(dir, 'child.mjs');
    await bundleChild({ entryPoints: [path.join(here, 'bundled-rare-decoders.child.ts')] }, outfile);
    const r = spawnSync(process.execPath, [outfile], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { expected: string[]; read: unknown; main: unknown; decoder: unknown };
    expect(out.read).toBe('ENCODING_UNAVAILABLE');
    expect(out.main).toEqual(out.expected);
    expect(out.decoder).toEqual(out.expected);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
