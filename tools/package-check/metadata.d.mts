/** Types of metadata.mjs (the standard package.json fields of a publishable package). */
export declare const REPOSITORY: string;
export declare const AUTHOR: string;
export declare function standardFields(dir: string, name: string, engines: unknown, keywords: unknown): Record<string, unknown>;
export declare function withStandardFields(text: string, dir: string, engines: unknown): string;
