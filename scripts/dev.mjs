#!/usr/bin/env node
// `npm run dev`: `npm start` in watch mode. The first build, then `tsc --watch` on the package's
// sources; `scripts/start.mjs` (the Grist emulator with its demo site and a real n8n 2.41.1 with
// the packed package and a ready credential) runs beside it and is restarted after every
// rebuild that compiles without errors, so n8n loads the new code (its user folder in
// .n8n-start/ is kept: your workflows stay; the emulator's demo site is made anew).
//
// Why not `n8n-node dev` (@n8n/node-cli): it runs `npx n8n@latest` with the machine's Node (n8n
// 2.x needs Node 24; this project develops on Node 20 and keeps n8n 2.41.1 on Node 24 in its
// runtime cache), downloads whatever n8n is newest instead of the version the tests pin, and
// starts no Grist and no credential. `n8n-node dev --external-n8n` (only the watch build,
// symlinked into ~/.n8n-node-cli/.n8n/custom) works with an n8n of your own.
//
// Settings: those of `npm start` (N8N_PORT, GRIST_EMULATOR_PORT, GRIST_URL + GRIST_API_KEY, …).
// Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const log = (msg) => process.stdout.write(`[dev] ${msg}\n`);

for (const [cmd, args] of [
	[process.execPath, [join(root, 'scripts', 'ensure-deps.mjs')]],
	[npm, ['run', 'build']],
]) {
	const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
	if (res.status !== 0) process.exit(res.status ?? 1);
}

let app;
let stopping = false;
let restartWanted = false;

function startApp() {
	app = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
		cwd: root,
		stdio: 'inherit',
	});
	app.on('exit', (code) => {
		app = undefined;
		if (stopping) process.exit(0);
		if (restartWanted) {
			restartWanted = false;
			startApp();
		} else {
			log(`npm start's process exited (code ${code}); waiting for the next rebuild`);
		}
	});
}

function restartApp() {
	if (!app) return startApp();
	log('rebuilt without errors: restarting n8n with the new build');
	restartWanted = true;
	app.kill('SIGINT');
}

// the watch build writes where `n8n-node build` writes (tsconfig.json: dist/)
const tsc = spawn(
	process.execPath,
	[
		join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
		...['-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'],
	],
	{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
let first = true;
tsc.stdout.setEncoding('utf8');
tsc.stdout.on('data', (chunk) => {
	process.stdout.write(chunk.replace(/^(?=.)/gm, '[tsc] '));
	const done = /Found (\d+) errors?\. Watching for file changes/.exec(chunk);
	if (!done) return;
	if (first) {
		first = false;
		startApp();
	} else if (done[1] === '0') restartApp();
	else log('the build has errors: n8n keeps the last good build');
});

function stopAll() {
	if (stopping) return;
	stopping = true;
	tsc.kill('SIGTERM');
	if (app) app.kill('SIGINT');
	else process.exit(0);
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
