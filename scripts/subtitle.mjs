// `npm run subtitle`: writes the Grist node's canvas subtitle, generated from every resource's
// Operation options (`subtitleExpression()` in nodes/Grist/actions/resources.ts), into
// nodes/Grist/Grist.node.ts. n8n's lint wants the subtitle as a string literal in the node's
// description, so it is generated into the source rather than computed when the node loads;
// test/unit/ui-text.test.ts fails when the two differ. Runs on the build (dist/).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { subtitleExpression } = require(join(root, 'dist/nodes/Grist/actions/resources.js'));
const file = join(root, 'nodes/Grist/Grist.node.ts');
const source = readFileSync(file, 'utf8');
const literal = `'${subtitleExpression().replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const next = source.replace(
	/(\n\t\tsubtitle:)\s*(?:'(?:[^'\\\n]|\\.)*'|[^,\n]+),/,
	`$1\n\t\t\t${literal},`,
);
if (next === source) console.log('subtitle unchanged');
else {
	writeFileSync(file, next);
	console.log('subtitle written to nodes/Grist/Grist.node.ts');
}
