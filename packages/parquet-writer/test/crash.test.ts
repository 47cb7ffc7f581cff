// Crash safety: a process killed (SIGKILL) in the middle of a write leaves no file at the final path — only the
// temporary file beside it, which a reader would never mistake for the target. The child runs the built package
// (dist), as a user's program would.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const child = fileURLToPath(new URL('./fixtures/slow-writer.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../dist/node.js', import.meta.url));

test.skipIf(!fs.existsSync(dist))('a writer killed mid-write leaves no file at the final path', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-crash-'));
  try {
    const target = path.join(dir, 'out.parquet');
    const p = spawn(process.execPath, [child, target], { stdio: ['ignore', 'pipe', 'inherit'] });
    const temp = await new Promise<string>((resolve, reject) => {
      let out = '';
      p.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      p.on('exit', (code) => reject(new Error(`the writer exited early (${code})`)));
    });
    // the first row group is on disk under the temporary name; let it write a few more, then kill it
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.statSync(temp).size).toBeGreaterThan(4);
    p.kill('SIGKILL');
    await new Promise((r) => p.on('exit', r));
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([path.basename(temp)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
