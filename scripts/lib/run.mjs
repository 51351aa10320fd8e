import { spawn } from 'node:child_process';

/**
 * Runs a command; resolves with its exit code and, with `capture`, its interleaved stdout and stderr (for steps
 * that run beside another one, whose output is printed whole when they end rather than mixed line by line).
 */
export function run(command, args, { env = {}, cwd, capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env }, cwd });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    const output = () => Buffer.concat(chunks).toString('utf8');
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: output() }));
    child.on('error', () => resolve({ code: 127, output: output() }));
  });
}
