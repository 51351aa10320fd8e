// After a production build of the web app: prints the first-load size of each route in apps/web/route-budgets.json
// and fails when one is over its budget (issue 15, item 5). Run by `npm test` after the build.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRouteSizes, routeSizes } from './lib/route-sizes.mjs';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web');
const sizes = routeSizes(webDir);
console.log(formatRouteSizes(sizes));
const over = sizes.filter((s) => s.totalKb > s.budgetKb);
for (const s of over) console.error(`${s.route}: ${s.totalKb.toFixed(1)} kB over its budget of ${s.budgetKb} kB`);
process.exit(over.length > 0 ? 1 : 0);
