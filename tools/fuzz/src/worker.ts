/**
 * The fuzz worker: a child process (started by run.mjs with a heap limit) that runs one entry point's inputs. Before
 * each input it writes the input's index to its progress file with a synchronous write, so that when it hangs, runs
 * out of memory or dies, the parent knows exactly which input did it; findings that do not kill it (an error other
 * than a ParquetError, a silent row-count change) it reports over IPC.
 * @module
 */
import fs from 'node:fs';
import { allEntries, isAllowed, seedContext, type Entry, type SeedContext } from './entries.js';
import { mutate, type Seed } from './mutate.js';
import { Prng, hash32 } from './prng.js';

/** A message from the parent. */
export type Command =
  | { type: 'run'; entry: string; from: number; to: number; corpus?: string; maxFileBytes: number }
  | { type: 'dump'; entry: string; index: number; out: string; corpus?: string; maxFileBytes: number }
  | { type: 'replay'; entry: string; file: string; corpus?: string; maxFileBytes: number };

/** A finding the worker reports itself. */
export interface Finding {
  type: 'finding';
  kind: 'escape' | 'silent-rows';
  entry: string;
  index: number;
  detail: string;
  seed: string;
  /** The input, base64. */
  input: string;
}

const progress = fs.openSync(process.argv[2]!, 'r+');
const slot = new Float64Array(1);
const slotBytes = new Uint8Array(slot.buffer);
function mark(i: number): void {
  slot[0] = i;
  fs.writeSync(progress, slotBytes, 0, 8, 0);
}

let ctx: SeedContext | undefined;
const seedCache = new Map<string, Seed[]>();
const entries = new Map<string, Entry>(allEntries().map((e) => [e.name, e]));

async function seedsOf(entry: Entry, corpus: string | undefined, maxFileBytes: number): Promise<Seed[]> {
  ctx ??= seedContext(corpus, maxFileBytes);
  let s = seedCache.get(entry.name);
  if (!s) {
    s = await entry.seeds(ctx);
    seedCache.set(entry.name, s);
  }
  return s;
}

/**
 * The input of execution `i` of an entry: seed `i mod seeds`, mutated by a stream seeded from the entry and `i`.
 * @param entry - the entry's name.
 * @param seeds - its seeds.
 * @param i - the execution index.
 * @returns the seed and the input.
 */
export function inputFor(entry: string, seeds: readonly Seed[], i: number): { seed: Seed; bytes: Uint8Array } {
  const seed = seeds[i % seeds.length]!;
  const rng = new Prng((hash32(entry) ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
  rng.u32();
  return { seed, bytes: mutate(seed, rng) };
}

/** Runs one input under the oracle; returns a finding's kind and detail, or undefined. */
async function check(entry: Entry, bytes: Uint8Array): Promise<{ kind: Finding['kind']; detail: string } | { code: string } | undefined> {
  try {
    const o = await entry.run(bytes);
    if (o?.rowsStated !== undefined && o.rowsRead !== o.rowsStated) {
      return { kind: 'silent-rows', detail: `the read returned ${o.rowsRead} rows without an error, the footer states ${o.rowsStated}` };
    }
    return undefined;
  } catch (e) {
    if (isAllowed(e)) return { code: e.code };
    const err = e as { stack?: unknown; message?: unknown };
    return { kind: 'escape', detail: String(err?.stack ?? err?.message ?? e).split('\n').slice(0, 8).join('\n') };
  }
}

function send(m: unknown): Promise<void> {
  return new Promise((resolve) => process.send!(m, () => resolve()));
}

process.on('message', (cmd: Command) => {
  void (async () => {
    const entry = entries.get(cmd.entry);
    if (!entry) {
      await send({ type: 'error', detail: `unknown entry ${cmd.entry}` });
      return;
    }
    if (cmd.type === 'replay') {
      // a saved input needs no seeds
      const bytes = new Uint8Array(fs.readFileSync(cmd.file));
      // the driver counts a hang from here, not from the fork (a loaded machine can take seconds to start a worker)
      await send({ type: 'ready', seeds: 0 });
      mark(0);
      const r = await check(entry, bytes);
      await send({ type: 'done', result: r !== undefined && 'kind' in r ? r : undefined, code: r !== undefined && 'code' in r ? r.code : undefined });
      return;
    }
    const seeds = await seedsOf(entry, cmd.corpus, cmd.maxFileBytes);
    if (cmd.type === 'dump') {
      fs.writeFileSync(cmd.out, inputFor(entry.name, seeds, cmd.index).bytes);
      await send({ type: 'done', seed: inputFor(entry.name, seeds, cmd.index).seed.name });
      return;
    }
    await send({ type: 'ready', seeds: seeds.length });
    if (seeds.length === 0) {
      mark(cmd.to);
      await send({ type: 'done', execs: 0, codes: {}, maxRss: process.resourceUsage().maxRSS });
      return;
    }
    const codes: Record<string, number> = {};
    for (let i = cmd.from; i < cmd.to; i++) {
      mark(i);
      const { seed, bytes } = inputFor(entry.name, seeds, i);
      const r = await check(entry, bytes);
      if (r === undefined) codes.ok = (codes.ok ?? 0) + 1;
      else if ('code' in r) codes[r.code] = (codes[r.code] ?? 0) + 1;
      else await send({ type: 'finding', kind: r.kind, entry: entry.name, index: i, detail: r.detail, seed: seed.name, input: Buffer.from(bytes).toString('base64') } satisfies Finding);
    }
    mark(cmd.to);
    await send({ type: 'done', execs: cmd.to - cmd.from, codes, maxRss: process.resourceUsage().maxRSS });
  })().catch(async (e: unknown) => {
    await send({ type: 'error', detail: String((e as Error)?.stack ?? e) });
  });
});
