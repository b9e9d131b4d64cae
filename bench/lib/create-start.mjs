// BENCH_ONLY=create: where a create spends its time before its first POST, in a real n8n against
// the emulator (in this process, with its log's arrival times).
import { writeFileSync } from 'node:fs';

import {
	COLUMNS,
	PEOPLE,
	peopleRows,
	CREATE_ROWS,
	N8N_VERSION,
	REPEATS,
	fmtInt,
	gc,
	log,
	manualWorkflow,
	median,
	ms,
	n8nOptions,
	pad,
	startEmulator,
	startN8n,
} from './common.mjs';
import { autoMap, codeNode, execute, nodeRun, packageNode, rl } from './n8n-runs.mjs';
import { needsPeople } from './targets.mjs';

/** The documents given the PEOPLE table already. */
const withPeople = new WeakSet();

/** One create of `n` items in a new table: the node's time and the arrivals of its first requests. */
async function createRun(n8n, emu, demo, cred, n, table) {
	if (needsPeople(COLUMNS) && !withPeople.has(demo)) {
		withPeople.add(demo);
		emu.addTable(demo.docId, PEOPLE.tableId, PEOPLE.columns);
		emu.addRecords(demo.docId, PEOPLE.tableId, peopleRows());
	}
	emu.addTable(demo.docId, table, COLUMNS);
	emu.clearLog();
	gc();
	const ex = await execute(
		n8n,
		manualWorkflow([
			codeNode(n),
			packageNode(cred, {
				resource: 'record',
				operation: 'create',
				document: rl(demo.docId),
				table: rl(table),
				columns: autoMap,
			}),
		]),
		300_000,
	);
	const r = await nodeRun(n8n, ex.executionId);
	if (r.items !== n) throw new Error(`create: ${r.items} items, expected ${n}`);
	const get = emu.log.find((e) => e.method === 'GET');
	const post = emu.log.find((e) => e.method === 'POST');
	if (!get || !post) throw new Error('create: no GET of the columns or no POST');
	return {
		node: r.ms,
		toGet: get.at - r.startTime,
		get: get.ms,
		toPost: post.at - r.startTime,
		afterGet: post.at - (get.at + get.ms),
		requests: emu.log.length,
	};
}

function report(sizes, runs, t0) {
	const med = (xs, k) => ms(median(xs.map((x) => x[k])));
	const out = [
		'',
		`Create in n8n ${N8N_VERSION} against the Grist emulator: the Grist node's time before its first POST; median of ${REPEATS} runs (ms from the node's startTime in the run data to the emulator's arrival time of the request)`,
		`   ${pad('items', 8)}${pad('node', 8)}${pad('→ GET columns', 15)}${pad('GET answered in', 17)}${pad('→ first POST', 14)}${pad('GET answer → POST', 19)}runs (→ first POST)`,
	];
	for (const n of sizes)
		out.push(
			`   ${pad(fmtInt(n), 8)}${pad(med(runs[n], 'node'), 8)}${pad(med(runs[n], 'toGet'), 15)}${pad(med(runs[n], 'get'), 17)}${pad(med(runs[n], 'toPost'), 14)}${pad(med(runs[n], 'afterGet'), 19)}${runs[n].map((x) => x.toPost).join(' / ')}`,
		);
	out.push('', `(whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
	process.stdout.write(`${out.join('\n')}\n`);
}

/**
 * Per run of the Grist node (Record → Create, Map Automatically, after a Code node making the
 * items): its startTime in the run data, the arrival of its first request (GET …/columns) and of
 * its first POST, and the node's executionTime. 1 item and CREATE_ROWS items; 2 warm-up runs
 * each, not counted.
 */
export async function createStartOnly(t0) {
	const emu = await startEmulator({ logBodies: false, timing: true });
	let n8n;
	try {
		const demo = emu.seedDemo();
		n8n = await startN8n(n8nOptions());
		const cred = await n8n.createCredential({
			name: 'Grist bench',
			type: 'gristRecordsApi',
			data: { apiKey: demo.apiKey, url: `${emu.url}/o/${demo.orgDomain}` },
		});
		let tableNo = 0;
		const sizes = [...new Set([1, CREATE_ROWS])];
		const runs = Object.fromEntries(sizes.map((n) => [n, []]));
		for (let rep = -1; rep <= REPEATS; rep++) {
			for (const n of sizes) {
				const run = await createRun(n8n, emu, demo, cred, n, `Start${++tableNo}`);
				if (rep >= 1) runs[n].push(run);
				log(
					`create ${fmtInt(n)} #${rep < 1 ? `warm-up ${rep + 2}` : rep}: node ${run.node} ms; first request (GET columns) after ${run.toGet} ms, answered in ${ms(run.get)} ms; first POST after ${run.toPost} ms (${ms(run.afterGet)} ms after the GET's answer); ${run.requests} requests`,
				);
			}
		}
		report(sizes, runs, t0);
		if (process.env.BENCH_JSON)
			writeFileSync(process.env.BENCH_JSON, JSON.stringify(runs, null, '\t'));
	} finally {
		await n8n?.stop().catch(() => undefined);
		await emu.close().catch(() => undefined);
	}
}
