/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: transpiles the emulator CLI into a temp folder (runs it through scripts/lib/processes.cjs) */
/** The emulator CLI (`npm start`'s Grist): one JSON ready line, serves the demo site, stops on SIGTERM. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

import { runNodeScript } from '../../scripts/lib/processes.cjs';

let dir: string;

beforeAll(() => {
	// inside the project (.build/ is ignored), so that the emulator's libraries (exceljs,
	// sql.js) resolve from its node_modules as they do for `npm start`
	const build = join(__dirname, '..', '..', '.build');
	mkdirSync(build, { recursive: true });
	dir = mkdtempSync(join(build, 'emu-cli-'));
	for (const f of readdirSync(__dirname)) {
		if (!f.endsWith('.ts') || f.endsWith('.test.ts') || f === 'testutil.ts') continue;
		const out = ts.transpileModule(readFileSync(join(__dirname, f), 'utf8'), {
			compilerOptions: {
				module: ts.ModuleKind.CommonJS,
				target: ts.ScriptTarget.ES2022,
				esModuleInterop: true,
			},
		});
		writeFileSync(join(dir, f.replace(/\.ts$/, '.js')), out.outputText);
	}
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('prints one JSON line with the demo ids and documents, serves them, and exits on SIGTERM', async () => {
	const stop = new AbortController();
	const cli = runNodeScript(join(dir, 'cli.js'), ['--port', '0', '--host', '127.0.0.1'], {
		signal: stop.signal,
		killSignal: 'SIGTERM',
	});
	try {
		const ready = JSON.parse(await cli.firstLine);
		expect(ready).toMatchObject({
			url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
			apiKey: expect.any(String),
			orgDomain: 'demo',
			docId: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
		});
		const res = await fetch(
			`${ready.url}/o/${ready.orgDomain}/api/docs/${ready.docId}/tables/Customers/records`,
			{
				headers: { Authorization: `Bearer ${ready.apiKey}` },
			},
		);
		expect(res.status).toBe(200);
		expect(((await res.json()) as { records: unknown[] }).records).toHaveLength(3);
		// what `npm start` prints for other tools: the team's name, each document with its tables
		expect(ready.orgName).toBe('Demo Team');
		expect(ready.docs).toEqual([
			{ workspace: 'Sales', name: 'CRM', id: ready.docId, tables: ['Customers', 'Orders'] },
			{ workspace: 'Projects', name: 'Tasks', id: ready.doc2Id, tables: ['Tasks'] },
		]);
		for (const doc of ready.docs as Array<{ id: string; tables: string[] }>) {
			const listed = await fetch(`${ready.url}/o/${ready.orgDomain}/api/docs/${doc.id}/tables`, {
				headers: { Authorization: `Bearer ${ready.apiKey}` },
			});
			const { tables } = (await listed.json()) as { tables: Array<{ id: string }> };
			expect(tables.map((t) => t.id)).toEqual(doc.tables);
		}
		stop.abort();
		expect(await cli.exited).toEqual({ code: 0, signal: null });
	} finally {
		cli.kill('SIGKILL');
	}
});
