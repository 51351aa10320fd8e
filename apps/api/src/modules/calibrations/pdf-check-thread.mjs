// Entry of a PDF check thread: tsx registers its loader first (a worker does not inherit the test runner's), then
// the TypeScript thread runs.
import { register } from 'tsx/esm/api';

register();
await import('./pdf-check-thread.ts');
