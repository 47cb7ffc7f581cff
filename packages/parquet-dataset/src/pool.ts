/**
 * Bounded concurrency: at most `limit` tasks in flight, results in input order.
 * @module
 */

/**
 * Maps items through an async function with at most `limit` calls running at once.
 * @param items - the inputs.
 * @param limit - the largest number of calls in flight (at least 1).
 * @param fn - the task.
 * @returns the results, in input order (the first failure rejects, after the running calls settle).
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failed === undefined && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failed.error;
  return out;
}

/**
 * Runs `fn` over items with up to `ahead` calls started before their results are consumed, yielding results in
 * input order (a read-ahead window: the consumer's pace bounds how far the work runs ahead).
 * @param items - the inputs.
 * @param ahead - how many calls may run ahead of the consumer (at least 1).
 * @param fn - the task.
 * @returns the results, in order.
 */
export async function* orderedAhead<T, R>(items: readonly T[], ahead: number, fn: (item: T, index: number) => Promise<R>): AsyncGenerator<R> {
  const window: Promise<R>[] = [];
  let next = 0;
  const fill = (): void => {
    while (next < items.length && window.length < Math.max(1, ahead)) {
      const i = next++;
      const p = fn(items[i]!, i);
      p.catch(() => undefined); // observed when its turn comes
      window.push(p);
    }
  };
  fill();
  while (window.length > 0) {
    const r = await window.shift()!;
    fill();
    yield r;
  }
}
