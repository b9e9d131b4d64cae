// The servers of the queue-mode test level (test/harness/e2e/queue.ts): Redis and PostgreSQL,
// Debian's, installed by scripts/ensure-queue-services.sh when missing, started on free loopback
// ports with throw-away data, each as a process group from `spawnGroup` (exit hook + watchdog).
// Types: services.d.cts (keep both in step).
'use strict';
const { execFileSync } = require('node:child_process');
const { chownSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const { REPO_ROOT, freePort, spawnGroup } = require('./processes.cjs');

/** Installs what is missing and returns the programs: { redisServer, initdb, postgres }. */
function ensureQueueServices() {
	const out = execFileSync('bash', [join(REPO_ROOT, 'scripts', 'ensure-queue-services.sh')], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	return JSON.parse(out.trim().split('\n').pop() ?? '');
}

/** PATH, HOME, LANG, TMPDIR of the caller: the whole environment of a server. */
function plainEnv() {
	const env = {};
	for (const k of ['PATH', 'HOME', 'LANG', 'TMPDIR'])
		if (process.env[k] !== undefined) env[k] = process.env[k];
	return env;
}

/** As root, PostgreSQL runs as the `postgres` user (it refuses root); otherwise as the caller. */
function asPostgresUser(file, args) {
	return process.getuid?.() === 0
		? { file: 'runuser', args: ['-u', 'postgres', '--', file, ...args] }
		: { file, args };
}

/** Resolves when `proc` printed `text`; rejects with its output when it exits or `timeoutMs` passes. */
async function waitForOutput(what, proc, text, timeoutMs) {
	let exited = false;
	void proc.exited.then(() => (exited = true));
	const deadline = Date.now() + timeoutMs;
	const tail = () => proc.output().split('\n').slice(-30).join('\n');
	while (!proc.output().includes(text)) {
		if (exited) throw new Error(`${what} exited during start-up:\n${tail()}`);
		if (Date.now() > deadline)
			throw new Error(`${what} not ready after ${timeoutMs} ms:\n${tail()}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** redis-server on a free 127.0.0.1 port, nothing saved to disk. */
async function startRedis(services, options = {}) {
	const port = await freePort();
	const proc = spawnGroup({
		file: services.redisServer,
		args: [
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--protected-mode',
			'yes',
		],
		env: plainEnv(),
		echo: options.echo,
	});
	try {
		await waitForOutput('redis-server', proc, 'Ready to accept connections', 30_000);
	} catch (error) {
		await proc.kill(2000);
		throw error;
	}
	return { port, proc };
}

/**
 * A new PostgreSQL cluster in a temp folder (initdb, trust authentication for local users, no
 * fsync), listening on a free 127.0.0.1 port; database `postgres`, user `postgres`. The folder is
 * removed by the watchdog if the caller dies, by the caller otherwise.
 */
async function startPostgres(services, options = {}) {
	const dir = mkdtempSync(join(tmpdir(), 'n8n-grist-queue-pg-'));
	if (process.getuid?.() === 0) {
		const id = (flag) =>
			Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
		chownSync(dir, id('-u'), id('-g'));
	}
	const init = asPostgresUser(services.initdb, [
		'-D',
		dir,
		'-U',
		'postgres',
		'-A',
		'trust',
		'--no-sync',
		'-E',
		'UTF8',
	]);
	execFileSync(init.file, init.args, { stdio: ['ignore', 'ignore', 'pipe'], env: plainEnv() });
	const port = await freePort();
	const run = asPostgresUser(services.postgres, [
		'-D',
		dir,
		'-p',
		String(port),
		'-k',
		dir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
	]);
	const proc = spawnGroup({
		file: run.file,
		args: run.args,
		env: plainEnv(),
		echo: options.echo,
		cleanupFolder: dir,
	});
	try {
		await waitForOutput('postgres', proc, 'database system is ready to accept connections', 60_000);
	} catch (error) {
		await proc.kill(2000);
		throw error;
	}
	return { port, proc, dir };
}

module.exports = { ensureQueueServices, startRedis, startPostgres };
