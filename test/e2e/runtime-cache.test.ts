/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test of the runtime cache check: files of a scratch cache */
/**
 * The runtime cache (Node 24 + n8n, scripts/ensure-n8n.sh) is trusted only after its check.
 * These tests build small caches in a scratch folder from pieces of the real one: Node 24 (linked),
 * n8n's sqlite3 with its `bindings` loader (copied), and a stand-in n8n CLI that prints the
 * version, then run `ensure-n8n.sh --check` on them.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { checkRuntime as check } from '../../scripts/lib/processes.cjs';
import { N8N_VERSION, RUNTIMES, locateRuntime } from '../harness/e2e/runtime';

describe('runtime cache check (scripts/ensure-n8n.sh --check)', () => {
	const runtime = locateRuntime();
	const realModules = join(runtime.n8nDir, 'node_modules');
	let scratch: string;

	/** A stamped cache: Node 24, n8n's sqlite3 (its native build included or not) and an n8n CLI. */
	function makeCache(name: string, opts: { sqliteBuild: boolean; cliVersion?: string }): string {
		const cache = join(scratch, name);
		const n8nDir = join(cache, `n8n-${N8N_VERSION}`);
		const modules = join(n8nDir, 'node_modules');
		mkdirSync(modules, { recursive: true });
		symlinkSync(join(runtime.cache, 'node24'), join(cache, 'node24'));
		for (const dep of ['bindings', 'file-uri-to-path'])
			cpSync(join(realModules, dep), join(modules, dep), { recursive: true });
		const sqlite = join(modules, 'sqlite3');
		cpSync(join(realModules, 'sqlite3', 'package.json'), join(sqlite, 'package.json'));
		cpSync(join(realModules, 'sqlite3', 'lib'), join(sqlite, 'lib'), { recursive: true });
		if (opts.sqliteBuild) {
			const release = join('build', 'Release', 'node_sqlite3.node');
			mkdirSync(join(sqlite, 'build', 'Release'), { recursive: true });
			cpSync(join(realModules, 'sqlite3', release), join(sqlite, release));
		}
		mkdirSync(join(modules, 'n8n', 'bin'), { recursive: true });
		writeFileSync(
			join(modules, 'n8n', 'package.json'),
			JSON.stringify({ name: 'n8n', version: N8N_VERSION }),
		);
		writeFileSync(
			join(modules, 'n8n', 'bin', 'n8n'),
			`console.log(${JSON.stringify(opts.cliVersion ?? N8N_VERSION)});\n`,
		);
		writeFileSync(join(n8nDir, '.installed'), '');
		return cache;
	}

	beforeAll(() => {
		scratch = mkdtempSync(join(tmpdir(), 'n8n-grist-cache-check-'));
	});
	afterAll(() => rmSync(scratch, { recursive: true, force: true }));

	it('passes for the real cache the tests run on', () => {
		const res = check(runtime.cache);
		expect(res.stderr).toBe('');
		expect(res.status).toBe(0);
		expect(res.stdout.trim()).toBe(runtime.cache);
	});

	it('passes for a complete cache built from its pieces (the control for the next tests)', () => {
		const res = check(makeCache('complete', { sqliteBuild: true }));
		expect(res.stderr).toBe('');
		expect(res.status).toBe(0);
	});

	it('detects a stamped cache whose sqlite3 native build is missing', () => {
		const res = check(makeCache('no-sqlite-build', { sqliteBuild: false }));
		expect(res.status).toBe(1);
		expect(res.stderr).toContain("check failed: n8n's sqlite3 does not load under Node 24");
		expect(res.stdout).toBe('');
	});

	it('detects an n8n CLI that does not answer the pinned version', () => {
		const res = check(makeCache('wrong-cli', { sqliteBuild: true, cliVersion: '0.0.0' }));
		expect(res.status).toBe(1);
		expect(res.stderr).toContain(`check failed: n8n's CLI does not answer '${N8N_VERSION}'`);
	});

	it('detects a cache without the stamp of a finished install', () => {
		const cache = makeCache('unstamped', { sqliteBuild: true });
		rmSync(join(cache, `n8n-${N8N_VERSION}`, '.installed'));
		const res = check(cache);
		expect(res.status).toBe(1);
		expect(res.stderr).toContain('check failed: no finished n8n install');
	});

	it('passes for the n8n 1.123 + Node 22 runtime of the compatibility level, beside the other', () => {
		const lts = locateRuntime(RUNTIMES.lts1);
		expect(lts.cache).toBe(runtime.cache);
		expect(lts.nodeBin).toContain('/node22/');
		const res = check(lts.cache, RUNTIMES.lts1);
		expect(res.stderr).toBe('');
		expect(res.status).toBe(0);
	});

	it("checks each line's own Node major version", () => {
		const res = check(runtime.cache, { ...RUNTIMES.lts1, nodeMajor: 20 });
		expect(res.status).toBe(1);
		expect(res.stderr).toContain('check failed: Node 20 does not run');
	});
});
