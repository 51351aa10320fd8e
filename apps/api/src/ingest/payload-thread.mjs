// Entry of a payload reader thread. Like the render and spreadsheet threads, it runs the TypeScript sources, so tsx
// registers its loader here first: a worker does not inherit the loader of a test runner, and registering twice is
// harmless.
import { register } from 'tsx/esm/api';

register();
await import('./payload-thread.ts');
