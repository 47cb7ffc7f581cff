/** The error `run` throws or rejects with (a generator's on its first step). */
export declare function errorOf(run: () => unknown): Promise<Error & { code: string }>;
/** Asserts an unknown-option error: its code, where, the option, the nearest name and the list taken. */
export declare function expectUnknown(e: { code: string; message: string }, code: string, where: string, name: string, near: string | undefined, takes: readonly string[], notTaken: readonly string[]): void;
