// Entry of a render thread. The thread runs the TypeScript sources like the main thread, so tsx registers its loader
// here first: a worker does not inherit the loader of a test runner, and under `node --import tsx` registering once
// more is harmless.
import { register } from 'tsx/esm/api';

register();
await import('./render-thread.ts');
