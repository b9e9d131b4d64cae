// 3b. The package's own time, in this process through n8n-core (test/harness/inprocess.ts): the
// built node with n8n's request helper timed in place, against an emulator in a child process
// (../emulator-child.cjs); and the reference check alone with its request stubbed.
import { fork } from 'node:child_process';

import {
	COLUMNS,
	CREATE_ROWS,
	OWN_REPEATS,
	OWN_WARMUP,
	cpuMs,
	fmtInt,
	gc,
	log,
	mainCpuMs,
	mainDiff,
	makeRow,
	makeRows,
	PEOPLE,
	peopleRows,
	median,
	ms,
	pad,
	padL,
	require,
	runNode,
} from './common.mjs';
import { autoMap, rl } from './n8n-runs.mjs';
import { needsPeople } from './targets.mjs';

const source = Boolean(process.env.BENCH_SOURCE);
/** A module of the package: its TypeScript source (BENCH_SOURCE=1) or its build in dist/. */
const packageModule = (path) =>
	require(source ? `../../nodes/${path}.ts` : `../../dist/nodes/${path}.js`);

/** Times `request` (n8n's httpRequestWithAuthentication) in place on `helpers`; `stats` adds up. */
function timeRequests(helpers, request, stats) {
	helpers.httpRequestWithAuthentication = async function (...args) {
		stats.requests++;
		const start = performance.now();
		const cpuStart = process.cpuUsage();
		const mainStart = mainCpuMs();
		try {
			return await request.apply(this, args);
		} finally {
			stats.http += performance.now() - start;
			stats.httpCpu += cpuMs(process.cpuUsage(cpuStart));
			stats.httpMain += mainDiff(mainStart);
		}
	};
}

/**
 * The built Grist node with its context wrapped: times the node's execute and the time spent
 * inside n8n's `httpRequestWithAuthentication` (request, n8n's helper, the emulator); the rest is
 * the package's own time (parameters, encoding, batching, output items).
 */
function timedGristNode() {
	const { Grist } = packageModule('Grist/Grist.node');
	class TimedGrist extends Grist {
		async execute() {
			// n8n's request helper is timed in place (no Proxy around the context, whose traps
			// would add their own time to every parameter read of the node).
			const helpers = this.helpers;
			const request = helpers.httpRequestWithAuthentication;
			const stats = { http: 0, httpCpu: 0, httpMain: 0, requests: 0 };
			timeRequests(helpers, request, stats);
			const start = performance.now();
			const cpuStart = process.cpuUsage();
			const mainStart = mainCpuMs();
			let out;
			try {
				out = await Grist.prototype.execute.call(this);
			} finally {
				helpers.httpRequestWithAuthentication = request;
			}
			TimedGrist.last = {
				total: performance.now() - start,
				totalCpu: cpuMs(process.cpuUsage(cpuStart)),
				totalMain: mainDiff(mainStart),
				...stats,
			};
			return out;
		}
	}
	return TimedGrist;
}

/**
 * The emulator in a child process (bench/emulator-child.cjs): `call(method, ...args)` runs a
 * method of GristEmulator there; `url` is its address.
 */
async function childEmulator(options) {
	const child = fork(new URL('../emulator-child.cjs', import.meta.url).pathname, [
		JSON.stringify(options),
	]);
	const pending = new Map();
	let next = 0;
	await new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) => reject(new Error(`emulator child exited (${code})`)));
		child.on('message', (m) => {
			if (m.ready) return resolve();
			const p = pending.get(m.id);
			pending.delete(m.id);
			if (m.error) p?.reject(new Error(m.error));
			else p?.resolve(m.result);
		});
	});
	const call = (method, ...args) =>
		new Promise((resolve, reject) => {
			const id = ++next;
			pending.set(id, { resolve, reject });
			child.send({ id, method, args });
		});
	return { call, url: await call('url'), child };
}

/** The in-process variants: each one's document, table, parameters and input items. */
function ownVariants(emu, demo) {
	const rows = Array.from({ length: CREATE_ROWS }, (_, i) => makeRow(i));
	const wireRows = makeRows(CREATE_ROWS);
	const half = Math.floor(CREATE_ROWS / 2);
	let n = 0;
	let people = false;
	const newTable = async () => {
		if (needsPeople(COLUMNS) && !people) {
			people = true;
			await emu.call('addTable', demo.docId, PEOPLE.tableId, PEOPLE.columns);
			await emu.call('addRecords', demo.docId, PEOPLE.tableId, peopleRows());
		}
		const t = `Own${++n}`;
		await emu.call('addTable', demo.docId, t, COLUMNS);
		return t;
	};
	// A Reference column (see README, Bad input): every item points at one of 1,000 owners, so the
	// reference check reads the missing IDs of 1,000 distinct ones (one /sql request). Each run
	// gets a document of its own, so the emulator's /sql (SQLite built from the document) is
	// not slowed by the tables of earlier runs.
	const refRows = rows.map((r, i) => ({ ...r, Owner: 1 + (i % 1000) }));
	const refDoc = async () => {
		const doc = await emu.call('addDoc', demo.workspaceId, {
			name: `Refs ${++n}`,
			owner: demo.email,
		});
		await emu.call('addTable', doc.id, 'RefOwners', [{ id: 'Name', type: 'Text' }]);
		const owners = Array.from({ length: 1000 }, (_, i) => ({ Name: `Owner ${i}` }));
		await emu.call('addRecords', doc.id, 'RefOwners', owners);
		await emu.call('addTable', doc.id, 'Tasks', [
			...COLUMNS.filter((c) => c.id !== 'Owner'),
			{ id: 'Owner', type: 'Ref:RefOwners' },
		]);
		return doc.id;
	};
	const seeded = async () => {
		const t = await newTable();
		await emu.call('addRecords', demo.docId, t, wireRows);
		return t;
	};
	const create = { operation: 'create', columns: autoMap };
	const tasks = async () => 'Tasks';
	return {
		create: { table: newTable, params: create, input: () => rows.map((json) => ({ json })) },
		createRef: {
			doc: refDoc,
			table: tasks,
			params: create,
			input: () => refRows.map((json) => ({ json })),
		},
		createRefAllow: {
			doc: refDoc,
			table: tasks,
			params: { ...create, options: { allowDanglingReferences: true } },
			input: () => refRows.map((json) => ({ json })),
		},
		update: {
			table: seeded,
			params: { operation: 'update', rowId: '={{ $json.id }}', columns: autoMap },
			input: () => rows.map((r, i) => ({ json: { id: i + 1, ...r, Name: `Updated ${i}` } })),
		},
		upsert: {
			table: seeded,
			params: { operation: 'upsert', columns: { ...autoMap, matchingColumns: ['Email'] } },
			input: () => rows.map((_, i) => ({ json: makeRow(i + half) })),
		},
	};
}

/** One in-process run of a variant; its figures from TimedGrist.last. */
async function ownRun(TimedGrist, name, v, { demo, base }) {
	const docId = v.doc ? await v.doc() : demo.docId;
	const t = await v.table();
	const input = v.input();
	gc();
	const r = await runNode({
		node: new TimedGrist(),
		parameters: { resource: 'record', document: rl(docId), table: rl(t), ...v.params },
		credentials: { apiKey: demo.apiKey, url: base },
		input,
	});
	if (r.error || r.items.length !== CREATE_ROWS)
		throw new Error(`in-process ${name}: ${r.error?.message ?? r.items.length}`);
	const { total, http, totalCpu, httpCpu, totalMain, httpMain, requests } = TimedGrist.last;
	return {
		total,
		http,
		ours: total - http,
		totalCpu,
		httpCpu,
		oursCpu: totalCpu - httpCpu,
		oursMain: totalMain - httpMain,
		requests,
	};
}

/**
 * 3b. The package's own time for create, update and upsert of CREATE_ROWS items: the built node in
 * n8n-core in this process, against an emulator of its own (so that garbage collection of the
 * main emulator's tables does not land in the measurement), run first; the first round warms up.
 */
export async function ownTime() {
	const TimedGrist = timedGristNode();
	const own = { create: [], createRef: [], createRefAllow: [], update: [], upsert: [] };
	const emu = await childEmulator({ logBodies: false });
	try {
		const demo = await emu.call('seedDemo');
		const ctx = { demo, base: `${emu.url}/o/${demo.orgDomain}` };
		const variants = ownVariants(emu, demo);
		for (let rep = 1 - OWN_WARMUP; rep <= OWN_REPEATS; rep++) {
			for (const [name, v] of Object.entries(variants)) {
				const run = await ownRun(TimedGrist, name, v, ctx);
				if (rep <= 0) continue; // warm-up
				own[name].push(run);
				log(
					`in-process ${name} #${rep}: node ${ms(run.total)} ms, in n8n's HTTP helper ${ms(run.http)} ms (${run.requests} requests), ours ${ms(run.ours)} ms wall, ${ms(run.oursCpu)} ms CPU, ${ms(run.oursMain)} ms main-thread CPU`,
				);
			}
		}
	} finally {
		await emu.call('close').catch(() => undefined);
		emu.child.kill();
	}
	return own;
}

/** The reference check as `verify(units)`, its lookup through `missingRowIds` with `client`. */
function referenceCheckFor(client) {
	const { checkReferences } = packageModule('Grist/write/referenceCheck');
	const { missingRowIds } = packageModule('Grist/api/rowLookup');
	const sqlRefused = new Set();
	const lookup = (docId, table, ids, itemIndex) =>
		missingRowIds(client, docId, table, ids, itemIndex, sqlRefused);
	return (units) => checkReferences(units, lookup);
}

/**
 * The reference check alone (see README, Bad input): `checkReferences` of the record writes over CREATE_ROWS prepared
 * create units with a Reference column (1,000 distinct row IDs), the request stubbed (it answers
 * "none missing"), so this is the package's CPU for collecting the IDs and deciding. Median of 50
 * after 10 warm-up runs, before the other measurements (a heap of their leftovers slows it).
 */
export async function refCheckTime() {
	const node = {
		id: '1',
		name: 'Grist',
		type: 'grist',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	let requests = 0;
	const client = {
		isOAuth: false,
		getNode: () => node,
		request: async () => {
			requests++;
			return { records: [] };
		},
	};
	const types = {
		Name: 'Text',
		Email: 'Text',
		Score: 'Int',
		Amount: 'Numeric',
		Active: 'Bool',
		Owner: 'Ref:Owners',
	};
	const group = { target: { docId: 'd', tableId: 'Tasks' }, qs: {}, types, batchSize: 500 };
	const units = Array.from({ length: CREATE_ROWS }, (_, i) => ({
		key: 'k',
		group,
		itemIndex: i,
		records: [{ fields: { ...makeRow(i), Owner: 1 + (i % 1000) } }],
	}));
	const times = [];
	for (let r = 0; r < 60; r++) {
		const verify = referenceCheckFor(client);
		const start = performance.now();
		await verify(units);
		if (r >= 10) times.push(performance.now() - start);
	}
	return { ms: median(times), requestsPerRun: requests / 60 };
}

const OWN_LABEL = {
	create: 'record create (Batch Size 500, default)',
	createRef: 'create with a Reference column (checked)',
	createRefAllow: 'the same, Allow Dangling References',
	update: 'record update (Row ID ={{ $json.id }})',
	upsert: `upsert on Email (${fmtInt(Math.floor(CREATE_ROWS / 2))} match)`,
};

/**
 * The lines of the package's own time (3b) and its targets. "ours" is the node's execute minus
 * the time inside n8n's httpRequestWithAuthentication (n8n's request helper serialising the body,
 * the emulator handling the request in this process, parsing the answer): parameters, encoding,
 * grouping, chunking and output items, and n8n-core's parameter reads the node makes. Both CPU
 * time (process.cpuUsage, user + system of this process: what other processes on the machine do
 * not change, though V8's GC and compiler threads add to it) and wall time are shown; a target is
 * met only when both medians are within it.
 */
export function ownReport(own) {
	const medOf = (list, key) => median(list.map((x) => x[key]));
	const runs = (xs) => xs.map(ms).join(' / ');
	const lines = [
		`   The package's own time for ${fmtInt(CREATE_ROWS)} items, in this process (n8n-core 2.41.1, the built node, an emulator of its own;`,
		`   median of ${OWN_REPEATS} runs after ${OWN_WARMUP} warm-up rounds): node execute − time inside n8n's httpRequestWithAuthentication`,
		"   (body serialisation by n8n, the emulator's handling, answer parsing). CPU = user + system CPU time of this process in those",
		"   windows (not inflated by other processes on the machine, but counting V8's GC and compiler threads); main = the CPU time",
		"   of the main thread alone (the package's JavaScript and GC pauses, without V8's background threads; Linux); wall = elapsed time.",
		`   ${pad('operation', 40)}${padL('node wall', 10)}${padL('in HTTP', 10)}${padL('requests', 9)}${padL('ours wall', 11)}${padL('ours CPU', 10)}${padL('ours main', 11)}  runs of ours (CPU)`,
	];
	const { refCheck, ...ops } = own;
	for (const k of Object.keys(ops))
		lines.push(
			`   ${pad(OWN_LABEL[k], 40)}${padL(ms(medOf(own[k], 'total')), 10)}${padL(ms(medOf(own[k], 'http')), 10)}${padL(medOf(own[k], 'requests'), 9)}${padL(ms(medOf(own[k], 'ours')), 11)}${padL(ms(medOf(own[k], 'oursCpu')), 10)}${padL(ms(medOf(own[k], 'oursMain')), 11)}  ${runs(own[k].map((x) => x.oursCpu))}`,
		);
	if (refCheck)
		lines.push(
			`   The reference check alone (collecting the row IDs of ${fmtInt(CREATE_ROWS)} items, 1,000 distinct; the request stubbed): ${ms(refCheck.ms)} ms, ${refCheck.requestsPerRun} request`,
		);
	// No target: the own-time goal is retired (what users feel is the end-to-end time); shown for profiling.
	return { lines, targets: [] };
}
