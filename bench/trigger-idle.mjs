#!/usr/bin/env node
// Grist Trigger, idle polls against a REAL grist-core (`GRIST_URL=… GRIST_API_KEY=…
// GRIST_SERVER_LOG=<its log file> node bench/trigger-idle.mjs`): what one poll with nothing new costs Grist, on a table of
// BENCH_IDLE_ROWS rows (default 100,000), for
//   - Row Added and Any Change as they are now: the document's updatedAt first
//     (GET /api/docs/{doc}, the home database), nothing else when it has not moved;
//   - Row Added without that check (the stored updatedAt dropped before each poll: the /sql
//     max(id) check that was the idle poll before).
// Before each measured poll the script waits BENCH_IDLE_WAIT_MS (default 35,000: grist-core closes
// a document nobody uses after its idle timeout, 30 s in production) so that a poll that needs
// the document has to load it again. Document loads are counted from the server's log
// (GRIST_SERVER_LOG, the file the server writes its output to): its "Loading complete … docId=<id>"
// lines written during the poll. Time = the poll's wall time in this process (n8n-core's poller,
// test/harness/inprocess.ts, on loopback: mostly Grist's answer time). BENCH_IDLE_REPEATS (2).
// The document and its workspace are deleted at the end.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('./ts-register.cjs');
const { createPoller } = require('../test/harness/inprocess.ts');
const { GristTrigger } = require('../nodes/GristTrigger/GristTrigger.node.ts');

const URL = (process.env.GRIST_URL ?? '').replace(/\/+$/, '');
const KEY = process.env.GRIST_API_KEY ?? '';
if (!URL || !KEY)
	throw new Error("set GRIST_URL, GRIST_API_KEY and GRIST_SERVER_LOG (the server's log file)");
const ROWS = Number(process.env.BENCH_IDLE_ROWS ?? 100_000);
const WAIT = Number(process.env.BENCH_IDLE_WAIT_MS ?? 35_000);
const REPEATS = Number(process.env.BENCH_IDLE_REPEATS ?? 2);
const LOG = process.env.GRIST_SERVER_LOG ?? '';
if (!LOG) throw new Error('set GRIST_SERVER_LOG to the file the Grist server writes its log to');

async function api(method, path, body) {
	const res = await fetch(`${URL}${path}`, {
		method,
		headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
	return await res.json();
}

/** "Loading complete" lines for `docId` written to the server log since `offset`. */
function loadsSince(offset, docId) {
	const text = readFileSync(LOG).subarray(offset).toString('utf8');
	return text
		.split('\n')
		.filter((l) => l.includes('Loading complete') && l.includes(`docId=${docId}`)).length;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rl = (value) => ({ __rl: true, mode: 'id', value });

const orgs = await api('GET', '/api/orgs');
const org = orgs.find((o) => o.domain === (process.env.GRIST_ORG || 'docs')) ?? orgs[0];
const ws = await api('POST', `/api/orgs/${org.id}/workspaces`, {
	name: `bench-idle-${Date.now()}`,
});
try {
	const docId = await api('POST', `/api/workspaces/${ws}/docs`, { name: 'Idle bench' });
	await api('POST', `/api/docs/${docId}/tables`, {
		tables: [
			{
				id: 'Big',
				columns: [
					{ id: 'Name', fields: { type: 'Text' } },
					{ id: 'N', fields: { type: 'Numeric' } },
				],
			},
		],
	});
	for (let i = 0; i < ROWS; i += 10_000) {
		const n = Math.min(10_000, ROWS - i);
		await api('POST', `/api/docs/${docId}/tables/Big/records`, {
			records: Array.from({ length: n }, (_, j) => ({ fields: { Name: `r${i + j}`, N: i + j } })),
		});
	}
	console.log(`table Big: ${ROWS} rows in document ${docId}`);

	const variants = [
		['Row Added (updatedAt check)', 'rowAdded', true],
		['Any Change (updatedAt check)', 'anyChange', true],
		['Row Added without the check (/sql max(id))', 'rowAdded', false],
	];
	for (const [label, event, gate] of variants) {
		const p = createPoller({
			node: new GristTrigger(),
			parameters: { document: rl(docId), table: rl('Big'), event },
			credentials: { apiKey: KEY, url: URL },
		});
		await p.poll('trigger'); // the baseline
		const rows = [];
		for (let rep = 0; rep < REPEATS; rep++) {
			await sleep(WAIT);
			if (!gate) delete p.nodeStaticData.updatedAt;
			const offset = statSync(LOG).size;
			const start = performance.now();
			const out = await p.poll('trigger');
			const ms = performance.now() - start;
			if (out !== null) throw new Error(`${label}: an idle poll emitted`);
			await sleep(500); // the log line of a load is written when loading ends
			rows.push({ ms: Math.round(ms), loads: loadsSince(offset, docId) });
		}
		console.log(
			`${label}: ${rows.map((r) => `${r.ms} ms, ${r.loads} document load(s)`).join('; ')}`,
		);
	}
} finally {
	await api('DELETE', `/api/workspaces/${ws}`).catch(() => undefined);
}
