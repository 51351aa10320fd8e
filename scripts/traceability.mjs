// `npm run traceability`: the requirement-to-test matrix a validation (IQ/OQ) asks for (issue 24, X12). Every feature
// id of FEATURES.md → the tests whose full title (describe blocks + test) names it. Fails when an id has no test.
//
// Titles are read from the test files' syntax trees (TypeScript's parser), not by text search: a title is a string
// given to describe/it/test, skipped and todo tests are no evidence, and a nested test carries its describe titles.
//   npm run traceability                 the matrix, then the ids without tests (exit 1 when there are any)
//   npm run traceability -- --json       the matrix as JSON
//   npm run traceability -- --missing    only the ids without tests
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The shared FEATURES.md beside the work tree is the source; the repository keeps a copy so that a clone elsewhere (CI)
// checks the same list. They must agree.
const shared = path.resolve(root, '../shared/FEATURES.md');
const copy = path.join(root, 'docs/FEATURES.md');
const featuresFile = existsSync(shared) ? shared : copy;

/** `- X11 GxP record: …` → { id: 'X11', text: 'GxP record: …' } */
export function featureIds(markdown) {
  const features = [];
  for (const line of markdown.split('\n')) {
    const match = /^- ([PADTRMX]\d{1,2}) (.*)$/.exec(line);
    if (match) features.push({ id: match[1], text: match[2] });
  }
  return features;
}

const TEST_FILE = /\.(test|e2e)\.tsx?$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.tmp', '.git']);

function testFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(full));
    else if (TEST_FILE.test(entry.name)) found.push(full);
  }
  return found;
}

const BLOCKS = new Set(['describe', 'suite']);
const TESTS = new Set(['it', 'test']);
const NO_EVIDENCE = new Set(['skip', 'todo']);

/** `describe.each(...)('title')`, `it.concurrent('title')`, `test.skip('title')` → { name, skipped } */
function calleeOf(expression) {
  let node = expression;
  let skipped = false;
  while (true) {
    if (ts.isCallExpression(node)) node = node.expression; // .each(table)(title)
    else if (ts.isPropertyAccessExpression(node)) {
      if (NO_EVIDENCE.has(node.name.text)) skipped = true;
      node = node.expression;
    } else break;
  }
  return ts.isIdentifier(node) ? { name: node.text, skipped } : null;
}

function titleOf(argument) {
  if (!argument) return null;
  if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)) return argument.text;
  if (ts.isTemplateExpression(argument)) return argument.head.text + argument.templateSpans.map((s) => `…${s.literal.text}`).join('');
  return null;
}

/** Every test of a file with its full title (its describe blocks' titles, then its own). */
export function testTitles(source, fileName) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const titles = [];
  const visit = (node, blocks, skipped) => {
    if (ts.isCallExpression(node)) {
      const callee = calleeOf(node.expression);
      const title = titleOf(node.arguments[0]);
      if (callee && title !== null && (BLOCKS.has(callee.name) || TESTS.has(callee.name))) {
        const isSkipped = skipped || callee.skipped;
        if (TESTS.has(callee.name)) {
          if (!isSkipped) titles.push([...blocks, title].join(' › '));
          return;
        }
        for (const argument of node.arguments.slice(1)) visit(argument, [...blocks, title], isSkipped);
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, blocks, skipped));
  };
  visit(file, [], false);
  return titles;
}

/** The ids a title names: `(D4, D7)`, and ranges of one letter such as `T1–T4` (T1, T2, T3, T4). */
export function namedIds(title) {
  const ids = new Set();
  for (const match of title.matchAll(/(?<![A-Za-z0-9])([PADTRMX])(\d{1,2})(?:\s*[–-]\s*\1?(\d{1,2}))?(?![A-Za-z0-9])/g)) {
    const [, letter, from, to] = match;
    const last = to === undefined ? Number(from) : Number(to);
    for (let n = Number(from); n <= Math.max(Number(from), last); n++) ids.add(`${letter}${n}`);
  }
  return ids;
}

export function traceability() {
  const features = featureIds(readFileSync(featuresFile, 'utf8'));
  const tests = [];
  for (const folder of ['apps', 'packages', 'scripts', 'bench']) {
    const dir = path.join(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of testFiles(dir)) {
      const relative = path.relative(root, file);
      for (const title of testTitles(readFileSync(file, 'utf8'), file)) tests.push({ file: relative, title });
    }
  }
  return features.map((feature) => ({ ...feature, tests: tests.filter((t) => namedIds(t.title).has(feature.id)) }));
}

function main() {
  const args = new Set(process.argv.slice(2));
  if (featuresFile === shared && existsSync(copy) && readFileSync(shared, 'utf8') !== readFileSync(copy, 'utf8')) {
    console.error(`docs/FEATURES.md differs from ${shared}: copy it (cp ${shared} docs/FEATURES.md).`);
    process.exit(1);
  }
  const matrix = traceability();
  const missing = matrix.filter((row) => row.tests.length === 0);
  if (args.has('--json')) console.log(JSON.stringify(matrix, null, 2));
  else if (!args.has('--missing')) {
    for (const row of matrix) {
      const files = new Set(row.tests.map((t) => t.file));
      console.log(`${row.id.padEnd(4)} ${String(row.tests.length).padStart(3)} tests in ${files.size} files  ${row.text.slice(0, 90)}`);
      for (const test of row.tests) console.log(`       ${test.file} › ${test.title}`);
    }
  }
  const total = matrix.reduce((n, row) => n + row.tests.length, 0);
  console.log(`\n${matrix.length} features, ${matrix.length - missing.length} named by tests (${total} test titles)`);
  if (missing.length > 0) {
    console.log(`Features no test names: ${missing.map((row) => row.id).join(', ')}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
