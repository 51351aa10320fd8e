// The JavaScript and CSS a browser downloads on the first load of a route, from the production build's Vite
// manifest: the entry chunk with every chunk it imports statically, plus the route's lazy chunks (its layout and
// screen) with theirs, each file counted once, gzip-compressed as the server sends them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export function readBudgets(webDir) {
  return JSON.parse(readFileSync(path.join(webDir, 'route-budgets.json'), 'utf8')).routes;
}

export function routeSizes(webDir) {
  const dist = path.join(webDir, 'dist');
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0];
  if (!entry) throw new Error('the build manifest has no entry chunk');
  const gzipped = new Map();
  const sizeOf = (file) => {
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
    return gzipped.get(file);
  };
  const filesOf = (key, files = new Set()) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not a chunk of the build (renamed? update apps/web/route-budgets.json)`);
    if (files.has(chunk.file)) return files;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) filesOf(imported, files);
    return files;
  };
  return Object.entries(readBudgets(webDir)).map(([route, { chunks, budgetKb }]) => {
    const files = new Set();
    for (const key of [entry, ...chunks]) filesOf(key, files);
    let js = 0;
    let css = 0;
    for (const file of files) {
      if (file.endsWith('.css')) css += sizeOf(file);
      else js += sizeOf(file);
    }
    return { route, jsKb: js / 1024, cssKb: css / 1024, totalKb: (js + css) / 1024, budgetKb, files: files.size };
  });
}

export function formatRouteSizes(sizes) {
  return sizes
    .map((s) => `${s.route.padEnd(14)} ${s.totalKb.toFixed(1).padStart(6)} kB gzip (JS ${s.jsKb.toFixed(1)} + CSS ${s.cssKb.toFixed(1)}, ${s.files} files), budget ${s.budgetKb} kB`)
    .join('\n');
}
