// First step of `npm test` and `npm start` (called from the scripts themselves, not as pre-scripts:
// this project's .npmrc sets ignore-scripts=true, under which npm skips pre/post scripts).
//
// 1. Installs the dev dependencies when one of package.json is missing or at another version
//    than the one pinned (a fresh clone, or a pull that added one). Does nothing otherwise. With
//    a package-lock.json it runs `npm ci`, which installs what the lock says and never rewrites
//    it: `npm install` would, whenever the user's npm writes locks another way than the one that
//    made it (npm 10, Node 20's and 22's, drops the `libc` fields npm 11 writes), leaving a fresh
//    clone with a modified package-lock.json. Without a lock, `npm install`.
// 2. With --runtime: runs scripts/ensure-n8n.sh, which installs (once) and checks (every time)
//    the Node 24 + n8n 2.41.1 runtime that the end-to-end tests and `npm start` use, then the
//    Node 22 + n8n 1.123.x runtime of the compatibility level.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Why `npm install` is needed, or undefined when every dev dependency is there as pinned. */
function missingDependency() {
	for (const [name, range] of Object.entries(pkg.devDependencies ?? {})) {
		const file = join(root, 'node_modules', name, 'package.json');
		if (!existsSync(file)) return `${name} is not installed`;
		const { version } = JSON.parse(readFileSync(file, 'utf8'));
		// exact pins are compared; ranges are left to npm
		if (/^\d+\.\d+\.\d+$/.test(range) && version !== range)
			return `${name} is ${version}, package.json pins ${range}`;
	}
	return undefined;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const why = missingDependency();
if (why) {
	const command = existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install';
	console.error(`[ensure-deps] ${why}: running npm ${command}`);
	const res = spawnSync(npm, [command, '--no-audit', '--no-fund'], {
		cwd: root,
		stdio: 'inherit',
	});
	if (res.status !== 0) {
		if (command === 'ci')
			console.error(
				'[ensure-deps] npm ci failed (messages above). If you changed package.json, run npm install to update package-lock.json, then start again.',
			);
		process.exit(res.status ?? 1);
	}
	const still = missingDependency();
	if (still) {
		console.error(`[ensure-deps] npm ${command} finished but ${still}`);
		process.exit(1);
	}
}

if (process.argv.includes('--runtime')) {
	// Every n8n line the tests run on: 2.x (e2e level, npm start) and 1.123.x (compatibility level).
	const { RUNTIMES } = createRequire(import.meta.url)('./lib/processes.cjs');
	for (const line of [RUNTIMES.current, RUNTIMES.lts1]) {
		// stdout of ensure-n8n.sh is only the cache path: keep it out of the test output
		const res = spawnSync('bash', [join(root, 'scripts', 'ensure-n8n.sh')], {
			cwd: root,
			stdio: ['ignore', 'ignore', 'inherit'],
			env: { ...process.env, N8N_VERSION: line.n8nVersion, NODE_MAJOR: String(line.nodeMajor) },
		});
		if (res.status !== 0) {
			console.error(
				`[ensure-deps] the Node ${line.nodeMajor} + n8n ${line.n8nVersion} runtime could not be installed (scripts/ensure-n8n.sh, messages above)`,
			);
			process.exit(res.status ?? 1);
		}
	}
}
