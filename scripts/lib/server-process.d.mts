// Types of server-process.mjs for the TypeScript benchmarks that start the app in their own process.
export const SERVER_NODE_FLAGS: string[];
export function serverArgs(root: string): string[];
export const BENCH_LIMITS_ENV: Record<string, string>;
