// `npm run test:real`: the suite against a real Grist server instead of the emulator.
//
//   GRIST_URL=http://127.0.0.1:8484 GRIST_API_KEY=… [GRIST_ORG=docs] \
//   [GRIST_VIEWER_API_KEY=… GRIST_VIEWER_EMAIL=…] npm run test:real [-- <jest paths/args>]
//
// Without arguments it runs the levels one after the other: the emulator's own HTTP-level tests
// (test/emulator: they state Grist's behaviour), the in-process tests (test/inprocess), then the
// real-n8n tests (test/e2e, after `npm run build`); with arguments, one jest run of those. Every
// jest run has GRIST_TARGET=real, so startEmulator() returns the real-Grist facade
// (test/harness/real-grist) and emulator-only tests are skipped with their reason
// (test/harness/target.ts), listed by the summary reporter. At the end it prints the totals and
// sweeps the server: every workspace and document the run's ledger names, and every workspace
// named with the run's prefix, is deleted for good, also after a failure or Ctrl-C; so is every
// service account the ledger names or whose label starts with the prefix.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const url = (process.env.GRIST_URL ?? '').replace(/\/+$/, '');
const apiKey = process.env.GRIST_API_KEY ?? '';
const org = process.env.GRIST_ORG || 'docs';
if (!url || !apiKey) {
	console.error(
		'test:real needs GRIST_URL and GRIST_API_KEY (and GRIST_ORG, the site, default "docs"): see docs/DEVELOPMENT.md',
	);
	process.exit(2);
}

const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const prefix = `n8nt-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
const ledger = join(tmpdir(), `${prefix}.ledger`);
const results = join(tmpdir(), `${prefix}.results`);
const env = {
	...process.env,
	GRIST_TARGET: 'real',
	GRIST_ORG: org,
	GRIST_RUN_PREFIX: prefix,
	GRIST_REAL_LEDGER: ledger,
	GRIST_REAL_RESULTS: results,
};

async function api(method, path) {
	const res = await fetch(`${url}/o/${org}${path}`, {
		method,
		headers: { Authorization: `Bearer ${apiKey}` },
	});
	const text = await res.text();
	if (!res.ok && res.status !== 404) throw new Error(`${method} ${path}: ${res.status} ${text}`);
	return res.ok ? JSON.parse(text) : undefined;
}

/** Deletes what the run made: the ledger's documents and workspaces, then its prefix's workspaces. */
async function sweep() {
	let deleted = 0;
	const problems = [];
	const drop = async (path) => {
		try {
			await api('DELETE', path);
			deleted++;
		} catch (e) {
			problems.push(e.message);
		}
	};
	const lines = existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n') : [];
	const docs = new Set();
	const workspaces = new Set();
	const serviceAccounts = new Set();
	for (const line of lines) {
		const [kind, id] = line.split(' ');
		if (kind === 'doc') docs.add(id);
		if (kind === 'workspace') workspaces.add(id);
		if (kind === 'service-account') serviceAccounts.add(id);
	}
	try {
		// the site's real id (`docs`, the merged personal site, is id 0: take the personal site)
		const me = await api('GET', '/api/profile/user');
		const orgs = await api('GET', '/api/orgs');
		const orgId = orgs.find((o) =>
			org === 'docs' ? o.owner?.id === me.id : o.domain === org || String(o.id) === org,
		)?.id;
		// the live workspaces, then the trash's (showRemoved lists those)
		for (const q of ['', '?showRemoved=1']) {
			for (const ws of (await api('GET', `/api/orgs/${orgId}/workspaces${q}`)) ?? [])
				if (ws.name.startsWith(prefix)) workspaces.add(String(ws.id));
		}
	} catch (e) {
		problems.push(`listing the site's workspaces: ${e.message}`);
	}
	for (const id of docs) await drop(`/api/docs/${id}`);
	for (const id of workspaces) await drop(`/api/workspaces/${id}`);
	// service accounts the ledger names, and any labelled with the run's prefix
	try {
		for (const sa of (await api('GET', '/api/service-accounts')) ?? [])
			if (String(sa.label ?? '').startsWith(prefix)) serviceAccounts.add(String(sa.id));
	} catch (e) {
		problems.push(`listing the service accounts: ${e.message}`);
	}
	for (const id of serviceAccounts) await drop(`/api/service-accounts/${id}`);
	rmSync(ledger, { force: true });
	console.log(
		`\nSweep of run ${prefix}: ${deleted} delete request(s) for ${docs.size} document(s), ${workspaces.size} workspace(s) and ${serviceAccounts.size} service account(s)` +
			(problems.length ? `; problems:\n  ${problems.join('\n  ')}` : ''),
	);
}

let child;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		interrupted = true;
		child?.kill(signal);
	});
}

function jest(args) {
	return new Promise((resolve) => {
		child = spawn(
			process.execPath,
			[join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--runInBand', ...args],
			{ cwd: root, env, stdio: 'inherit' },
		);
		child.on('exit', (code) => resolve(code ?? 1));
	});
}

const given = process.argv.slice(2);
const levels = given.length ? [given] : [['test/emulator'], ['test/inprocess'], ['test/e2e']];
let code = 0;
console.log(`Real Grist at ${url}, site ${org}, run ${prefix}`);
try {
	for (const args of levels) {
		if (interrupted) break;
		if (args.some((a) => a.includes('test/e2e'))) {
			const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
			if (build.status !== 0) {
				code = 1;
				break;
			}
		}
		code = (await jest(args)) || code;
	}
} finally {
	if (existsSync(results)) {
		const runs = readFileSync(results, 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);
		const sum = (f) => runs.reduce((n, r) => n + f(r), 0);
		console.log(
			`\nReal Grist, all levels: ${sum((r) => r.passed)} passed, ${sum((r) => r.skipped.length)} skipped as emulator-only, ${sum((r) => r.failed)} failed`,
		);
		rmSync(results, { force: true });
	}
	await sweep();
}
process.exit(interrupted ? 130 : code);
