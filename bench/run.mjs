#!/usr/bin/env node
// `npm run bench` (docs/PERFORMANCE.md): in ONE run, side by side, against the Grist emulator
// (test/emulator, bodies not logged) and a real n8n 2.41.1 on Node 24 (test/harness/e2e.ts, the
// built package installed as a community package):
//
//   1. Create N rows (default 10,000) from N items made by a Code node:
//      (a) this package's Grist node (record → create, "map input fields automatically"),
//      (b) n8n's built-in Grist node (n8n-nodes-base.grist, create: one request per item),
//      (c) raw chunked HTTP inside n8n: a Code node groups the items into bodies of 500 records,
//          n8n's HTTP Request node POSTs them (credential: predefined type gristApi),
//      (d) raw chunked HTTP from this process (fetch, 500 rows per POST, sequential).
//      Time = the Grist node's own `executionTime` from the run data (not n8n start-up, not the
//      Code node making the items); for (c) the chunking Code node's + the HTTP Request node's
//      executionTime; for (d) the wall time of the POSTs including JSON.stringify.
//      A warm-up round (package + raw, not counted) comes first.
//   2. Read all rows of an M-row table (default 100,000, seeded directly in the emulator):
//      this package's getAll (Return All), the built-in node's getAll (Return All), n8n's HTTP
//      Request node GET + Split Out (one { id, fields } item per row; both nodes' executionTime)
//      and raw GET (fetch + JSON.parse). n8n keeps the heap it grew, so every n8n measurement runs in a fresh
//      n8n: a 1-row warm-up read, a full garbage collection in n8n (bench/n8n-gc.cjs, so that
//      neither node's read collects what n8n's start left; BENCH_N8N_GC=0 leaves it out), then
//      the peak RSS is reset (`echo 5 > /proc/<pid>/clear_refs`),
//      a full read: its time, its request count, and VmHWM − the RSS right after the reset = the
//      memory of the read, over the payload (bytes of the GET …/records answer). (A second full
//      read in the same n8n is slower, as n8n still holds the first one's 100,000 items.) For scale, the same GET + JSON.parse is measured the same way in a bare
//      Node 24 process.
//
//   3. Writes of 10,000 items, our time versus Grist's: record create, update (Row ID
//      ={{ $json.id }}) and upsert (match on Email, half the items match) in the same n8n: the
//      node's executionTime, the emulator's handling time of its requests (the log's `ms`: arrival
//      to the last byte of the answer), the difference (this package + n8n's request helper +
//      loopback), the requests and the longest one (how long one request holds the document).
//      And, first of all, the same three in this process through n8n-core
//      (test/harness/inprocess.ts) with the built node, against an emulator in a child process
//      (bench/emulator-child.cjs: its handling, tables and garbage collection are not in this
//      process), n8n's `httpRequestWithAuthentication` timed in place: node time minus the time
//      inside that helper = the package's own time (parameters, encoding, grouping, chunking,
//      output items), as wall time and as this process's CPU time; median of BENCH_OWN_REPEATS
//      (11) after BENCH_OWN_WARMUP (2) rounds not counted.
//   4. Batch Size (Options), both ends: create with 100 and with 10,000 records per request
//      (the 1 MB body limit still splits), against the default 500 of (1).
//   5. Grist Trigger, idle poll on a 100,000-row table (the trigger in n8n-core, in this process,
//      a document of its own): with /sql (max(id); newest timestamps) and with /sql refused (403,
//      remembered: today's records query sorted over the whole table); time per poll, the
//      emulator's time and rows scanned (its cost model). The grist-core figures are in docs/PERFORMANCE.md.
//
// Each measurement is repeated (default 5; the built-in create 3) and the median is printed, with the request count of
// each variant from the emulator's log. Targets are printed as PASS/MISS, never asserted. The
// emulator runs in this process, so the raw variants include its work, as the n8n ones do.
//
// Environment: BENCH_REPEATS (5), BENCH_BUILTIN_REPEATS (3; the built-in node's create, 10,000
// requests a run), BENCH_CREATE_ROWS (10000), BENCH_BUILTIN_CREATE_ITEMS (the
// built-in node's sample; default = BENCH_CREATE_ROWS; when smaller, its time is extrapolated
// per item and marked so), BENCH_READ_ROWS (100000), BENCH_JSON=<file> (also write the results
// as JSON), BENCH_N8N_NODE_OPTIONS (NODE_OPTIONS for n8n, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
// to profile it), E2E_N8N_ECHO=1 (n8n's log on stderr), BENCH_OWN_REPEATS (11),
// BENCH_OWN_WARMUP (2), BENCH_ONLY=own (only the package's own time, ~1 minute, no n8n),
// BENCH_ONLY=read (only the reads of 2., plus the server's time, the RSS peak during the nodes
// alone, and bench/read-alloc.cjs: bytes allocated and heap held through n8n-core; against a real
// Grist when GRIST_URL and GRIST_API_KEY are set, GRIST_ORG default docs, in a workspace it
// deletes, every read through bench/timing-proxy.mjs so that each variant's server time shows), BENCH_ONLY=create (a create's time before its first POST in a real n8n),
// BENCH_READ_DOC (with GRIST_URL: the document of an earlier read run, kept and not seeded),
// BENCH_READ_VARIANTS (package,builtin,n8nHttp), BENCH_SOURCE=1 (own time of the TypeScript sources instead of dist/, while changing them).
// Linux only (/proc).
import {
	existsSync,
	readFileSync,
	readdirSync,
	readlinkSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { execFile, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import { startTimingProxy } from './timing-proxy.mjs';

const require = createRequire(import.meta.url);
// A full GC of this process (the emulator's heap) before each measured run, for steadier figures.
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
require('./ts-register.cjs');
const { startEmulator } = require('../test/emulator/index.ts');
const {
	startN8n,
	manualWorkflow,
	MANUAL_TRIGGER_NAME,
	N8N_VERSION,
} = require('../test/harness/e2e.ts');
const { locateRuntime } = require('../test/harness/e2e/runtime.ts');
const { runNode, createPoller } = require('../test/harness/inprocess.ts');

const int = (name, dflt) => {
	const v = Number(process.env[name] ?? dflt);
	if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
	return v;
};
const REPEATS = int('BENCH_REPEATS', 5);
const BUILTIN_REPEATS = Math.min(int('BENCH_BUILTIN_REPEATS', 3), REPEATS);
const CREATE_ROWS = int('BENCH_CREATE_ROWS', 10_000);
const BUILTIN_ITEMS = Math.min(int('BENCH_BUILTIN_CREATE_ITEMS', CREATE_ROWS), CREATE_ROWS);
const READ_ROWS = int('BENCH_READ_ROWS', 100_000);
const OWN_REPEATS = int('BENCH_OWN_REPEATS', 11);
// Each n8n read starts an n8n of its own (~20-60 s here): BENCH_READ_VARIANTS=package,builtin
// leaves out the HTTP Request variant.
const READ_VARIANTS = (process.env.BENCH_READ_VARIANTS ?? 'package,builtin,n8nHttp').split(',');
const OWN_WARMUP = int('BENCH_OWN_WARMUP', 2);
const CHUNK = 500;

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const fmtInt = (n) => n.toLocaleString('en-US');
const median = (xs) => {
	if (!xs.length) return undefined;
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
/** A target's line: PASS/MISS, printed, never asserted. */
const target = (ok, text) => `   ${ok ? 'PASS' : 'MISS'}  ${text}`;
const sleep = (t) => new Promise((r) => setTimeout(r, t));
/** process.cpuUsage() (or a difference of it) in ms: user + system CPU of all of this process's threads. */
const cpuMs = (u) => (u.user + u.system) / 1000;
/**
 * CPU time of this process's main thread alone, in ms (Linux: the kernel's schedstat, in ns), or
 * undefined elsewhere. Unlike process.cpuUsage it leaves out V8's background threads: measured
 * here, its concurrent compiler recompiles the node's hot functions in every run after the
 * bench's gc(), and where that work falls (inside or outside an HTTP request) moved the CPU
 * figure by 15-30 ms per 10,000 items between two builds of the same code paths.
 */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const mainCpuMs = () => {
	try {
		return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
	} catch {
		return undefined;
	}
};
const mainDiff = (start) => {
	const now = mainCpuMs();
	return start === undefined || now === undefined ? 0 : now - start;
};

const COLUMNS = [
	{ id: 'Name', type: 'Text' },
	{ id: 'Email', type: 'Text' },
	{ id: 'Score', type: 'Int' },
	{ id: 'Amount', type: 'Numeric' },
	{ id: 'Active', type: 'Bool' },
];
// The same row shape in the Code node (as source text) and in this process.
const ROW_JS =
	"({ Name: 'Person ' + i, Email: 'person' + i + '@example.com', Score: i, Amount: i * 1.25, Active: i % 2 === 0 })";
const makeRow = new Function('i', `return ${ROW_JS};`);

// ------------------------------------------------------------------ n8n process memory (/proc)
function n8nPid(userFolder) {
	const found = [];
	for (const d of readdirSync('/proc')) {
		if (!/^\d+$/.test(d)) continue;
		try {
			if (readlinkSync(`/proc/${d}/cwd`) !== userFolder) continue;
			const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
			if (argv.some((a) => a.endsWith('/n8n/bin/n8n')) && argv.includes('start'))
				found.push(Number(d));
		} catch {
			// gone or not ours
		}
	}
	if (found.length !== 1)
		throw new Error(`expected one n8n main process in ${userFolder}, found ${found.length}`);
	return found[0];
}
function memKb(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const get = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
	return { rss: get('VmRSS'), hwm: get('VmHWM') };
}
function resetPeak(pid) {
	writeFileSync(`/proc/${pid}/clear_refs`, '5');
	return memKb(pid).rss;
}
/**
 * Samples a process's RSS every `everyMs` ms until `stop()`, which returns the samples as
 * [epoch ms, kB]. The peak of a window (e.g. one node's run, from its startTime in the run data)
 * is then the largest sample in it: unlike VmHWM it leaves out what n8n does after the node
 * (saving the execution, its run data and the push to the editor).
 */
function rssSampler(pid, everyMs = 4) {
	const samples = [];
	const take = () => {
		try {
			samples.push([Date.now(), memKb(pid).rss]);
		} catch {
			// the process is gone
		}
	};
	take();
	const timer = setInterval(take, everyMs);
	return {
		stop() {
			clearInterval(timer);
			take();
			return samples;
		},
	};
}
/** The largest RSS sample (kB) from `from` to `to` (epoch ms), or the last one before `from`. */
function peakIn(samples, from, to) {
	let peak = 0;
	for (const [t, kb] of samples) {
		if (t < from) peak = kb;
		else if (t <= to) peak = Math.max(peak, kb);
	}
	return peak;
}

/**
 * The memory floor of the read: the same GET + JSON.parse in a bare Node 24 process (n8n's
 * runtime), peak RSS after a 1-row warm-up GET minus the RSS before the full GET.
 */
async function rawReadMemory(url, apiKey, rows) {
	const script = `
const fs = require('node:fs');
const mem = () => { const s = fs.readFileSync('/proc/self/status', 'utf8'); return { rss: +/VmRSS:\\s+(\\d+)/.exec(s)[1], hwm: +/VmHWM:\\s+(\\d+)/.exec(s)[1] }; };
(async () => {
	const headers = { Authorization: 'Bearer ' + process.env.BENCH_API_KEY };
	await (await fetch(process.env.BENCH_URL + '?limit=1', { headers })).json();
	fs.writeFileSync('/proc/self/clear_refs', '5');
	const base = mem().rss;
	const parsed = JSON.parse(await (await fetch(process.env.BENCH_URL, { headers })).text());
	process.stdout.write(JSON.stringify({ rows: parsed.records.length, bytes: (mem().hwm - base) * 1024 }));
})().catch((e) => { console.error(e); process.exit(1); });`;
	const node = `${locateRuntime().nodeBin}/node`;
	const out = await new Promise((resolve, reject) =>
		execFile(
			node,
			['-e', script],
			{ env: { PATH: process.env.PATH, BENCH_URL: url, BENCH_API_KEY: apiKey } },
			(e, stdout, stderr) =>
				e ? reject(new Error(`raw read memory: ${stderr || e.message}`)) : resolve(stdout),
		),
	);
	const r = JSON.parse(out);
	if (r.rows !== rows) throw new Error(`raw read memory: ${r.rows} rows`);
	return r.bytes;
}

// ------------------------------------------------------------------ n8n runs
const DONE = new Set(['success', 'error', 'crashed', 'canceled', 'cancelled']);

/** Saves and starts the workflow, waits (without fetching run data) until it is finished. */
async function execute(n8n, wf, timeoutMs) {
	const id = await n8n.createWorkflow(wf);
	const workflowData = await n8n.rest('GET', `/workflows/${id}`);
	const started = await n8n.rest('POST', `/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: MANUAL_TRIGGER_NAME },
	});
	if (!started.executionId)
		throw new Error(`n8n did not start an execution: ${JSON.stringify(started)}`);
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		await sleep(200);
		let e;
		try {
			e = await n8n.api('GET', `/executions/${started.executionId}`);
		} catch (err) {
			if (!String(err.message).includes('→ 404')) throw err;
		}
		if (e && (e.finished === true || DONE.has(String(e.status))))
			return { executionId: String(started.executionId), status: String(e.status) };
		if (Date.now() > deadline)
			throw new Error(`execution ${started.executionId} not finished after ${timeoutMs} ms`);
	}
}

/** The Grist node's run: executionTime (ms), item count, error. */
async function nodeRun(n8n, executionId, node = 'Grist') {
	const e = await n8n.api('GET', `/executions/${executionId}?includeData=true`);
	const resultData = e.data?.resultData ?? {};
	const task = resultData.runData?.[node]?.[0];
	if (!task)
		throw new Error(
			`node ${node} did not run: ${JSON.stringify(resultData.error ?? {}).slice(0, 500)}`,
		);
	if (task.error)
		throw new Error(`node ${node} failed: ${task.error.message} ${task.error.description ?? ''}`);
	return {
		ms: task.executionTime,
		items: task.data?.main?.[0]?.length ?? 0,
		startTime: task.startTime,
	};
}

const rl = (value) => ({ __rl: true, mode: 'id', value });
const codeNode = (n, json = ROW_JS) => ({
	name: 'Items',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return Array.from({ length: ${n} }, (_, i) => ({ json: ${json} }));` },
});
const packageNode = (cred, parameters) => ({
	name: 'Grist',
	type: 'n8n-nodes-grist.grist',
	typeVersion: 1,
	parameters,
	credentials: { gristRecordsApi: cred },
});
const builtinNode = (cred, parameters) => ({
	name: 'Grist',
	type: 'n8n-nodes-base.grist',
	typeVersion: 1,
	parameters: { authentication: 'apiKey', ...parameters },
	credentials: { gristApi: cred.builtin ?? cred },
});
/**
 * Raw chunked HTTP inside n8n: a Code node groups the items into bodies of 500 records, n8n's HTTP
 * Request node POSTs each body (predefined credential type gristApi: the key stays in n8n's
 * credential store, not in the workflow). The HTTP Request node sends its items' requests
 * concurrently (no Batching option set), as a user's workflow would by default.
 */
const chunkNode = () => ({
	name: 'Chunk',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: {
		jsCode: `const all = $input.all();\nconst out = [];\nfor (let i = 0; i < all.length; i += ${CHUNK}) out.push({ json: { body: { records: all.slice(i, i + ${CHUNK}).map((it) => ({ fields: it.json })) } } });\nreturn out;`,
	},
});
const httpNode = (cred, method, url, body) => ({
	name: 'HTTP',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		method,
		url,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'gristRecordsApi',
		...(body ? { sendBody: true, specifyBody: 'json', jsonBody: body } : {}),
		options: {},
	},
	credentials: { gristRecordsApi: cred },
});
/** One item per record ({ id, fields }, as the package's getAll without Simplify) from the GET answer. */
const splitNode = () => ({
	name: 'Split',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: 'records', include: 'noOtherFields', options: {} },
});
const autoMap = {
	mappingMode: 'autoMapInputData',
	value: null,
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
};

function requestSummary(entries) {
	const by = {};
	for (const e of entries) by[e.method] = (by[e.method] ?? 0) + 1;
	const parts = Object.entries(by).map(([m, n]) => `${fmtInt(n)} ${m}`);
	return {
		count: entries.length,
		text: `${fmtInt(entries.length)}${parts.length > 1 ? ` (${parts.join(', ')})` : ` ${Object.keys(by)[0] ?? ''}`}`,
	};
}

/** The emulator's handling time of these requests (log `ms`), and the longest one. */
const emuMs = (entries) => entries.reduce((a, e) => a + (e.ms ?? 0), 0);
const longestMs = (entries) => Math.max(0, ...entries.map((e) => e.ms ?? 0));

/**
 * The built Grist node with its context wrapped: times the node's execute and the time spent
 * inside n8n's `httpRequestWithAuthentication` (request, n8n's helper, the emulator); the rest is
 * the package's own time (parameters, encoding, batching, output items).
 */
function timedGristNode() {
	const { Grist } = require(
		process.env.BENCH_SOURCE ? '../nodes/Grist/Grist.node.ts' : '../dist/nodes/Grist/Grist.node.js',
	);
	class TimedGrist extends Grist {
		async execute() {
			// n8n's request helper is timed in place (no Proxy around the context, whose traps
			// would add their own time to every parameter read of the node).
			const helpers = this.helpers;
			const request = helpers.httpRequestWithAuthentication;
			let inHttp = 0;
			let inHttpCpu = 0;
			let inHttpMain = 0;
			let requests = 0;
			helpers.httpRequestWithAuthentication = async function (...args) {
				requests++;
				const start = performance.now();
				const cpuStart = process.cpuUsage();
				const mainStart = mainCpuMs();
				try {
					return await request.apply(this, args);
				} finally {
					inHttp += performance.now() - start;
					inHttpCpu += cpuMs(process.cpuUsage(cpuStart));
					inHttpMain += mainDiff(mainStart);
				}
			};
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
				http: inHttp,
				totalCpu: cpuMs(process.cpuUsage(cpuStart)),
				httpCpu: inHttpCpu,
				totalMain: mainDiff(mainStart),
				httpMain: inHttpMain,
				requests,
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
	const child = fork(new URL('./emulator-child.cjs', import.meta.url).pathname, [
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

/**
 * 3b. The package's own time for create, update and upsert of CREATE_ROWS items: the built node in
 * n8n-core in this process, against an emulator of its own (so that garbage collection of the
 * main emulator's tables does not land in the measurement), run first; the first round warms up.
 */
async function ownTime() {
	const TimedGrist = timedGristNode();
	const own = { create: [], createRef: [], createRefAllow: [], update: [], upsert: [] };
	const emu = await childEmulator({ logBodies: false });
	try {
		const demo = await emu.call('seedDemo');
		const base = `${emu.url}/o/${demo.orgDomain}`;
		const rows = Array.from({ length: CREATE_ROWS }, (_, i) => makeRow(i));
		const half = Math.floor(CREATE_ROWS / 2);
		let n = 0;
		const newTable = async () => {
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
			await emu.call(
				'addRecords',
				doc.id,
				'RefOwners',
				Array.from({ length: 1000 }, (_, i) => ({ Name: `Owner ${i}` })),
			);
			await emu.call('addTable', doc.id, 'Tasks', [
				...COLUMNS,
				{ id: 'Owner', type: 'Ref:RefOwners' },
			]);
			return doc.id;
		};
		const seeded = async () => {
			const t = await newTable();
			await emu.call('addRecords', demo.docId, t, rows);
			return t;
		};
		const variants = {
			create: {
				table: newTable,
				params: { operation: 'create', columns: autoMap },
				input: () => rows.map((json) => ({ json })),
			},
			createRef: {
				doc: refDoc,
				table: async () => 'Tasks',
				params: { operation: 'create', columns: autoMap },
				input: () => refRows.map((json) => ({ json })),
			},
			createRefAllow: {
				doc: refDoc,
				table: async () => 'Tasks',
				params: {
					operation: 'create',
					columns: autoMap,
					options: { allowDanglingReferences: true },
				},
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
		for (let rep = 1 - OWN_WARMUP; rep <= OWN_REPEATS; rep++) {
			for (const [name, v] of Object.entries(variants)) {
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
				if (rep <= 0) continue; // warm-up
				const run = {
					total,
					http,
					ours: total - http,
					totalCpu,
					httpCpu,
					oursCpu: totalCpu - httpCpu,
					oursMain: totalMain - httpMain,
					requests,
				};
				own[name].push(run);
				log(
					`in-process ${name} #${rep}: node ${ms(total)} ms, in n8n's HTTP helper ${ms(http)} ms (${requests} requests), ours ${ms(run.ours)} ms wall, ${ms(run.oursCpu)} ms CPU, ${ms(run.oursMain)} ms main-thread CPU`,
				);
			}
		}
	} finally {
		await emu.call('close').catch(() => undefined);
		emu.child.kill();
	}
	return own;
}

/**
 * The reference check alone (see README, Bad input): `checkReferences` of the record writes over CREATE_ROWS prepared
 * create units with a Reference column (1,000 distinct row IDs), the request stubbed (it answers
 * "none missing"), so this is the package's CPU for collecting the IDs and deciding. Median of 50
 * after 10 warm-up runs, before the other measurements (a heap of their leftovers slows it).
 */
async function refCheckTime() {
	const dir = process.env.BENCH_SOURCE ? '../nodes/Grist' : '../dist/nodes/Grist';
	const ext = process.env.BENCH_SOURCE ? 'ts' : 'js';
	const { checkReferences } = require(`${dir}/write/referenceCheck.${ext}`);
	const { missingRowIds } = require(`${dir}/transport/api.${ext}`);
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
		const sqlRefused = new Set();
		const lookup = (docId, table, ids, itemIndex) =>
			missingRowIds(client, docId, table, ids, itemIndex, sqlRefused);
		const start = performance.now();
		await checkReferences(units, lookup);
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
function ownReport(own) {
	const pad = (s, n) => String(s).padEnd(n);
	const padL = (s, n) => String(s).padStart(n);
	const medOf = (list, key) => median(list.map((x) => x[key]));
	const runs = (xs) => xs.map(ms).join(' / ');
	const lines = [
		`   The package's own time for ${fmtInt(CREATE_ROWS)} items, in this process (n8n-core 2.41.1, the built node, an emulator of its own;`,
		`   median of ${OWN_REPEATS} runs after ${OWN_WARMUP} warm-up rounds): node execute − time inside n8n's httpRequestWithAuthentication`,
		"   (body serialisation by n8n, the emulator's handling, answer parsing). CPU = user + system CPU time of this process in those",
		"   windows (not inflated by other processes on the machine, but counting V8's GC and compiler threads); main = the CPU time",
		"   of the main thread alone (the package's JavaScript and GC pauses, without V8's background threads; Linux); wall = elapsed time.",
		'   A target is met only when both medians are within it.',
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
	const targets = [];
	for (const k of Object.keys(ops)) {
		const cpu = medOf(own[k], 'oursCpu');
		const wall = medOf(own[k], 'ours');
		targets.push(
			`   ${cpu <= 100 && wall <= 100 ? 'PASS' : 'MISS'}  ${pad(`${k}: our own time ≤ 100 ms per ${fmtInt(CREATE_ROWS)} items:`, 50)}${ms(cpu)} ms CPU, ${ms(wall)} ms wall`,
		);
	}
	return { lines, targets };
}

// ------------------------------------------------------------------ reads (2., and BENCH_ONLY=read)
// BENCH_N8N_GC=0: no full collection in n8n before each measured read (see bench/n8n-gc.cjs).
const N8N_GC = process.env.BENCH_N8N_GC !== '0';
/** n8n's options plus the preload of bench/n8n-gc.cjs, acknowledging its collections in `ack`. */
function withGcPreload(options, ack) {
	// NODE_OPTIONS splits on spaces outside double quotes.
	const preload = `--require ${JSON.stringify(new URL('./n8n-gc.cjs', import.meta.url).pathname)}`;
	const env = options.env ?? {};
	return {
		...options,
		env: {
			...env,
			NODE_OPTIONS: [preload, env.NODE_OPTIONS].filter(Boolean).join(' '),
			BENCH_GC_ACK: ack,
		},
	};
}
/** A full collection in n8n (pid), through bench/n8n-gc.cjs's SIGUSR2; resolves once it is done. */
async function n8nFullGc(pid, ack) {
	rmSync(ack, { force: true });
	process.kill(pid, 'SIGUSR2');
	const deadline = Date.now() + 10_000;
	while (!existsSync(ack)) {
		if (Date.now() > deadline) throw new Error('n8n did not acknowledge its full collection');
		await new Promise((r) => setTimeout(r, 10));
	}
	rmSync(ack, { force: true });
}
/**
 * Reads of all rows of `tableUrl`'s table, interleaved in each round (the order alternates, so a
 * trend in the machine's load favours none): this package's getAll (Return All, Simplify), the
 * built-in node's getAll, n8n's HTTP Request GET + Split Out, and a raw GET + JSON.parse in this
 * process (its time to the answer's headers is the server's time: Grist and the emulator send the
 * body only once it is built). n8n keeps the heap it grew, so each measured read gets a fresh
 * n8n: start, one warm-up read of 1 row (loads the node, the credential, the expression engine),
 * a full collection in n8n (both nodes' reads start from the same heap), reset the peak, then the
 * full read. `requestLog` (the emulator) counts the requests.
 */
async function readRounds({
	n8nOptions,
	credentialData,
	docId,
	tableUrl,
	apiKey,
	requestLog,
	builtin,
}) {
	const tableId = decodeURIComponent(tableUrl.split('/tables/')[1].split('/')[0]);
	const auth = { Authorization: `Bearer ${apiKey}` };
	const read = { package: [], builtin: [], n8nHttp: [], raw: [] };
	// The server's time for each variant's longest request (the records read): the emulator's
	// log, or the timing proxy's in front of a real Grist.
	const serverMs = { package: [], builtin: [], n8nHttp: [], raw: [] };
	const server = [];
	const readMem = { package: [], builtin: [], n8nHttp: [], raw: [] };
	// The peak during the variant's own nodes (sampled RSS), without n8n's work after them.
	const readNodeMem = { package: [], builtin: [], n8nHttp: [] };
	const readReq = {};
	const requests = () => (requestLog ? requestSummary(requestLog.log) : { count: 0, text: '—' });
	const clearLog = () => requestLog?.clearLog();
	let payloadBytes = 0;
	let builtinError = builtin ? undefined : 'skipped';
	let n8n;
	const createCredential = async (inst) => {
		const c = await inst.createCredential({
			name: 'Grist bench',
			type: 'gristRecordsApi',
			data: credentialData,
		});
		Object.defineProperty(c, 'builtin', {
			enumerable: false,
			value: await inst.createCredential({
				name: 'Grist bench (built-in)',
				type: 'gristApi',
				data: credentialData,
			}),
		});
		return c;
	};
	// Each variant: its nodes, and the nodes whose executionTime adds up to its time (the last
	// one's output is the rows).
	const readVariants = {
		package: (c, all) => ({
			nodes: [
				packageNode(c, {
					resource: 'record',
					operation: 'getAll',
					document: rl(docId),
					table: rl(tableId),
					...(all ? { returnAll: true } : { limit: 1 }),
				}),
			],
			timed: ['Grist'],
		}),
		builtin: (c, all) => ({
			nodes: [
				builtinNode(c, {
					operation: 'getAll',
					docId,
					tableId,
					...(all ? { returnAll: true } : { limit: 1 }),
				}),
			],
			timed: ['Grist'],
		}),
		n8nHttp: (c, all) => ({
			nodes: [httpNode(c, 'GET', tableUrl + (all ? '' : '?limit=1')), splitNode()],
			timed: ['HTTP', 'Split'],
		}),
	};
	const variantRun = async (executionId, timed) => {
		let total = 0;
		let items = 0;
		let from;
		let to;
		for (const name of timed) {
			const r = await nodeRun(n8n, executionId, name);
			total += r.ms;
			items = r.items;
			from ??= r.startTime;
			to = r.startTime + r.ms;
		}
		return { ms: total, items, from, to };
	};
	for (let rep = 1; rep <= REPEATS; rep++) {
		// Alternate the order, so that a trend in the machine's load does not favour one.
		const order = (
			rep % 2 ? ['package', 'builtin', 'n8nHttp'] : ['n8nHttp', 'builtin', 'package']
		).filter((v) => READ_VARIANTS.includes(v));
		for (const name of order) {
			const node = readVariants[name];
			if (name === 'builtin' && builtinError) continue;
			const gcAck = N8N_GC ? join(tmpdir(), `n8n-bench-gc-${process.pid}-${rep}-${name}`) : '';
			n8n = await startN8n(N8N_GC ? withGcPreload(n8nOptions, gcAck) : n8nOptions);
			try {
				const c = await createCredential(n8n);
				const p = n8nPid(n8n.userFolder);
				const warmV = node(c, false);
				const warm = await execute(n8n, manualWorkflow(warmV.nodes), 60_000);
				let r;
				try {
					if ((await variantRun(warm.executionId, warmV.timed)).items !== 1)
						throw new Error(`${name} getAll (limit 1): not 1 item`);
					clearLog();
					gc();
					if (gcAck) await n8nFullGc(p, gcAck);
					const baseline = resetPeak(p);
					const fullV = node(c, true);
					const sampler = rssSampler(p);
					let samples;
					let ex;
					try {
						ex = await execute(n8n, manualWorkflow(fullV.nodes), 300_000);
					} finally {
						samples = sampler.stop();
					}
					const peak = memKb(p).hwm;
					r = await variantRun(ex.executionId, fullV.timed);
					r.mem = (peak - baseline) * 1024;
					r.nodeMem = (peakIn(samples, r.from, r.to) - baseline) * 1024;
				} catch (e) {
					if (name !== 'builtin') throw e;
					builtinError = e.message.split('\n')[0];
					log(`built-in node failed, skipped from now on: ${builtinError}`);
					continue;
				}
				if (r.items !== READ_ROWS)
					throw new Error(`${name} getAll: ${r.items} items, expected ${READ_ROWS}`);
				read[name].push(r.ms);
				readMem[name].push(r.mem);
				readNodeMem[name].push(r.nodeMem);
				readReq[name] = requests();
				if (requestLog) serverMs[name].push(longestMs(requestLog.log));
				log(
					`read #${rep} ${name}: ${ms(r.ms)} ms (server ${requestLog ? ms(serverMs[name].at(-1)) : '—'} ms), peak +${fmtInt(Math.round(r.mem / 1e6))} MB (during the node: +${fmtInt(Math.round(r.nodeMem / 1e6))} MB), ${readReq[name].text} requests`,
				);
			} finally {
				await n8n.stop();
				n8n = undefined;
			}
		}
		clearLog();
		gc();
		const start = performance.now();
		const res = await fetch(tableUrl, { headers: auth });
		server.push(performance.now() - start);
		const text = await res.text();
		const parsed = JSON.parse(text);
		const rawMs = performance.now() - start;
		if (parsed.records.length !== READ_ROWS)
			throw new Error(`raw GET: ${parsed.records.length} records`);
		payloadBytes = Buffer.byteLength(text);
		read.raw.push(rawMs);
		readReq.raw = requests();
		if (requestLog) serverMs.raw.push(longestMs(requestLog.log));
		readMem.raw.push(await rawReadMemory(tableUrl, apiKey, READ_ROWS));
		log(
			`read #${rep} raw: ${ms(rawMs)} ms (headers after ${ms(server.at(-1))} ms), ${fmtInt(payloadBytes)} bytes; the same GET + JSON.parse in a bare Node 24: peak +${fmtInt(Math.round(readMem.raw.at(-1) / 1e6))} MB`,
		);
	}
	return { read, readMem, readNodeMem, readReq, serverMs, payloadBytes, server, builtinError };
}

/**
 * bench/read-alloc.cjs in a child Node 24 (n8n's runtime) with --expose-gc: bytes allocated during
 * the read and heap held after it, this package's node and the built-in one through n8n-core.
 */
async function readAllocations(args) {
	const runtime = locateRuntime();
	const script = new URL('./read-alloc.cjs', import.meta.url).pathname;
	const builtinDir = `${runtime.n8nDir}/node_modules/n8n-nodes-base/dist`;
	const child = (extra) =>
		new Promise((resolve, reject) =>
			execFile(
				`${runtime.nodeBin}/node`,
				['--expose-gc', script, JSON.stringify({ ...args, builtinDir, ...extra })],
				{ maxBuffer: 1 << 20, env: { PATH: process.env.PATH } },
				(e, stdout, stderr) =>
					e
						? reject(new Error(`read allocations: ${stderr || e.message}`))
						: resolve(JSON.parse(stdout.trim().split('\n').at(-1))),
			),
		);
	const out = await child({});
	// The first full read in a fresh process, per variant, rounds interleaved.
	for (const k of ['package', 'builtin']) Object.assign(out[k], { peak: [], ms: [] });
	for (let round = 0; round < args.rounds; round++) {
		for (const k of round % 2 ? ['builtin', 'package'] : ['package', 'builtin']) {
			const r = await child({ peak: k });
			out[k].peak.push(r.peak);
			out[k].ms.push(r.ms);
		}
	}
	return out;
}

/**
 * BENCH_ONLY=read: the reads of (2.) alone, against the emulator, or against a real Grist when
 * GRIST_URL, GRIST_API_KEY (and GRIST_ORG, default docs) are set: then a workspace of its own
 * holds the table and is deleted at the end.
 */
async function readOnly(t0) {
	const n8nOptions = process.env.BENCH_N8N_NODE_OPTIONS
		? { env: { NODE_OPTIONS: process.env.BENCH_N8N_NODE_OPTIONS } }
		: {};
	const real = process.env.GRIST_URL?.replace(/\/+$/, '');
	let cleanup = async () => undefined;
	let ctx;
	let serverName;
	// Without the emulator's server nothing else keeps this process alive while the harness waits
	// on n8n with unreferenced timers: Node would exit early, with code 0 and no report.
	const keepAlive = setInterval(() => undefined, 60_000);
	if (real) {
		const apiKey = process.env.GRIST_API_KEY;
		if (!apiKey) throw new Error('BENCH_ONLY=read with GRIST_URL needs GRIST_API_KEY');
		const base = `${real}/o/${process.env.GRIST_ORG || 'docs'}`;
		const call = async (method, path, body) => {
			const res = await fetch(`${base}/api${path}`, {
				method,
				headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
			return text ? JSON.parse(text) : undefined;
		};
		// GRIST_VERSION: what the operator says the server is (Grist has no public version route).
		serverName = `grist-core ${process.env.GRIST_VERSION ?? '(GRIST_VERSION not set)'} at ${real}`;
		// BENCH_READ_DOC: a document of an earlier run whose BenchRead table is kept (no seeding).
		const kept = process.env.BENCH_READ_DOC;
		// The reads go through a timing proxy: the server's time of each variant's requests.
		const proxy = await startTimingProxy(real);
		const timed = `${proxy.url}/o/${process.env.GRIST_ORG || 'docs'}`;
		const closeProxy = async () => await proxy.close();
		cleanup = closeProxy;
		if (kept) {
			const tableUrl = `${timed}/api/docs/${kept}/tables/BenchRead/records`;
			ctx = { credentialData: { apiKey, url: timed }, docId: kept, apiKey, tableUrl };
		}
		if (!kept) {
			const orgs = await call('GET', '/orgs');
			const org = orgs.find((o) => o.domain === (process.env.GRIST_ORG || 'docs')) ?? orgs[0];
			const ws = await call('POST', `/orgs/${org.id}/workspaces`, {
				name: `n8n-bench-read-${Date.now()}`,
			});
			cleanup = async () => {
				await closeProxy();
				await call('DELETE', `/workspaces/${ws}`);
			};
			const docId = await call('POST', `/workspaces/${ws}/docs`, { name: 'Read bench' });
			await call('POST', `/docs/${docId}/tables`, {
				tables: [
					{
						id: 'BenchRead',
						columns: COLUMNS.map((c) => ({ id: c.id, fields: { type: c.type } })),
					},
				],
			});
			log(`seeding ${fmtInt(READ_ROWS)} rows in ${serverName}…`);
			for (let i = 0; i < READ_ROWS; i += 5_000) {
				const n = Math.min(5_000, READ_ROWS - i);
				await call('POST', `/docs/${docId}/tables/BenchRead/records`, {
					records: Array.from({ length: n }, (_, j) => ({ fields: makeRow(i + j) })),
				});
			}
			ctx = { credentialData: { apiKey, url: timed }, docId, apiKey };
			ctx.tableUrl = `${timed}/api/docs/${docId}/tables/BenchRead/records`;
		}
		ctx.requestLog = proxy;
	} else {
		const emu = await startEmulator({ logBodies: false, timing: true });
		cleanup = async () => await emu.close();
		serverName = 'the Grist emulator (in the bench process)';
		const demo = emu.seedDemo();
		const base = `${emu.url}/o/${demo.orgDomain}`;
		emu.addTable(demo.docId, 'BenchRead', COLUMNS);
		for (let i = 0; i < READ_ROWS; i += 10_000)
			emu.addRecords(
				demo.docId,
				'BenchRead',
				Array.from({ length: Math.min(10_000, READ_ROWS - i) }, (_, j) => makeRow(i + j)),
			);
		ctx = {
			credentialData: { apiKey: demo.apiKey, url: base },
			docId: demo.docId,
			apiKey: demo.apiKey,
			tableUrl: `${base}/api/docs/${demo.docId}/tables/BenchRead/records`,
			requestLog: emu,
		};
	}
	try {
		const r = await readRounds({ ...ctx, n8nOptions, builtin: true });
		log('allocations of the read through n8n-core (bench/read-alloc.cjs)…');
		const alloc = await readAllocations({
			url: ctx.credentialData.url,
			apiKey: ctx.apiKey,
			docId: ctx.docId,
			tableId: 'BenchRead',
			rows: READ_ROWS,
			rounds: REPEATS,
		});
		const rd = Object.fromEntries(Object.entries(r.read).map(([k, v]) => [k, median(v)]));
		const mem = Object.fromEntries(Object.entries(r.readMem).map(([k, v]) => [k, median(v)]));
		const nodeMem = Object.fromEntries(
			Object.entries(r.readNodeMem).map(([k, v]) => [k, median(v)]),
		);
		const pad = (x, n) => String(x).padEnd(n);
		const label = {
			package: 'n8n-nodes-grist (getAll, all, Simplify)',
			builtin: 'n8n-nodes-base.grist (getAll, all)',
			n8nHttp: 'n8n HTTP Request GET + Split Out',
			raw: 'raw GET + JSON.parse (bench process)',
		};
		const out = [
			'',
			`Read ${fmtInt(READ_ROWS)} rows (${(r.payloadBytes / 1e6).toFixed(1)} MB) — n8n ${N8N_VERSION} against ${serverName}; median of ${REPEATS} rounds, variants interleaved`,
			`   server: the raw GET's answer headers after ${ms(median(r.server))} ms (runs ${r.server.map(ms).join(' / ')})`,
			`   ${pad('variant', 42)}${pad('median ms', 11)}${pad('vs raw', 8)}${pad('vs built-in', 13)}${pad('server ms', 11)}${pad('requests', 10)}${pad('peak − baseline', 28)}${pad('during the node', 18)}runs`,
		];
		for (const k of ['package', 'builtin', 'n8nHttp', 'raw']) {
			if (!r.read[k].length) {
				out.push(`   ${pad(label[k], 42)}—  ${r.builtinError ?? ''}`);
				continue;
			}
			const m = `${(mem[k] / 1e6).toFixed(0)} MB = ${(mem[k] / r.payloadBytes).toFixed(1)}× payload`;
			const n = nodeMem[k] === undefined ? '—' : `${(nodeMem[k] / 1e6).toFixed(0)} MB`;
			const srv = r.serverMs[k].length ? ms(median(r.serverMs[k])) : '—';
			out.push(
				`   ${pad(label[k], 42)}${pad(ms(rd[k]), 11)}${pad(`${(rd[k] / rd.raw).toFixed(2)}×`, 8)}${pad(rd.builtin ? `${(rd[k] / rd.builtin).toFixed(2)}×` : '—', 13)}${pad(srv, 11)}${pad(r.readReq[k]?.text ?? '—', 10)}${pad(m, 28)}${pad(n, 18)}${r.read[k].map(ms).join(' / ')}`,
			);
		}
		out.push(
			"   (n8n variants: the nodes' executionTime in a fresh n8n each; server ms: the longest request of the read (the records), from its arrival to the last byte of the answer, in the emulator's log or a timing proxy in front of a real Grist;",
			"    peak: n8n's VmHWM − RSS after a 1-row warm-up, raw: a bare Node 24 process;",
			"    during the node: the largest RSS sampled every 4 ms while the variant's nodes ran − the same baseline, without n8n's saving of the execution after them)",
			`   memory runs, package: ${r.readMem.package.map((x) => (x / 1e6).toFixed(0)).join(' / ')} MB (during the node ${r.readNodeMem.package.map((x) => (x / 1e6).toFixed(0)).join(' / ')}); built-in: ${r.readMem.builtin.map((x) => (x / 1e6).toFixed(0)).join(' / ')} MB (during the node ${r.readNodeMem.builtin.map((x) => (x / 1e6).toFixed(0)).join(' / ')})`,
			'',
			`   through n8n-core, no n8n server around it (bench/read-alloc.cjs), median of ${REPEATS}: allocated during the read (sampling heap profiler, collected objects included) / heap held after it (after a full GC) / peak RSS of the first full read in a fresh process, and its time`,
			...['package', 'builtin'].map(
				(k) =>
					`   ${pad(label[k], 42)}${pad(`${(median(alloc[k].allocated) / 1e6).toFixed(1)} MB / ${(median(alloc[k].held) / 1e6).toFixed(1)} MB / ${(median(alloc[k].peak) / 1e6).toFixed(0)} MB, ${ms(median(alloc[k].ms))} ms`, 36)}runs ${alloc[k].allocated.map((x) => (x / 1e6).toFixed(0)).join(' / ')}; held ${alloc[k].held.map((x) => (x / 1e6).toFixed(0)).join(' / ')}; peak ${alloc[k].peak.map((x) => (x / 1e6).toFixed(0)).join(' / ')}; ms ${alloc[k].ms.map(ms).join(' / ')}`,
			),
			'',
			'Targets (reading):',
			target(
				rd.package <= 1.2 * rd.raw,
				`read ≤ 1.2× raw GET + parse:   ${(rd.package / rd.raw).toFixed(2)}×`,
			),
			...(rd.builtin
				? [
						target(
							rd.package <= rd.builtin,
							`read ≤ built-in node:          ${(rd.package / rd.builtin).toFixed(2)}×`,
						),
						target(
							mem.package <= mem.builtin,
							`peak memory ≤ built-in node's: ${(mem.package / mem.builtin).toFixed(2)}×`,
						),
						target(
							nodeMem.package <= nodeMem.builtin,
							`memory during the node ≤ built-in node's: ${(nodeMem.package / nodeMem.builtin).toFixed(2)}×`,
						),
						target(
							median(alloc.package.allocated) <= median(alloc.builtin.allocated),
							`allocated ≤ built-in node's:    ${(median(alloc.package.allocated) / median(alloc.builtin.allocated)).toFixed(2)}×`,
						),
						target(
							median(alloc.package.held) <= median(alloc.builtin.held),
							`held after ≤ built-in node's:   ${(median(alloc.package.held) / median(alloc.builtin.held)).toFixed(2)}×`,
						),
						target(
							median(alloc.package.peak) <= median(alloc.builtin.peak),
							`first-read peak (n8n-core) ≤ built-in node's: ${(median(alloc.package.peak) / median(alloc.builtin.peak)).toFixed(2)}×`,
						),
					]
				: []),
			'',
			`(whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
		);
		process.stdout.write(`${out.join('\n')}\n`);
		if (process.env.BENCH_JSON)
			writeFileSync(
				process.env.BENCH_JSON,
				JSON.stringify({ server: serverName, ...r, alloc }, null, '\t'),
			);
	} finally {
		await cleanup().catch((e) => log(`cleanup failed: ${e.message}`));
		clearInterval(keepAlive);
	}
}

// ------------------------------------------------------------------ create: before the first POST
/**
 * BENCH_ONLY=create: where a create spends its time before its first POST, in a real
 * n8n against the emulator (in this process, with its log's arrival times). Per run of the Grist
 * node (Record → Create, Map Automatically, after a Code node making the items): its startTime
 * in the run data, the arrival of its first request (GET …/columns) and of its first POST, and
 * the node's executionTime. 1 item and CREATE_ROWS items; 2 warm-up runs each, not counted.
 */
async function createStartOnly(t0) {
	const n8nOptions = process.env.BENCH_N8N_NODE_OPTIONS
		? { env: { NODE_OPTIONS: process.env.BENCH_N8N_NODE_OPTIONS } }
		: {};
	const emu = await startEmulator({ logBodies: false, timing: true });
	let n8n;
	try {
		const demo = emu.seedDemo();
		n8n = await startN8n(n8nOptions);
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
				const t = `Start${++tableNo}`;
				emu.addTable(demo.docId, t, COLUMNS);
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
							table: rl(t),
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
				const run = {
					node: r.ms,
					toGet: get.at - r.startTime,
					get: get.ms,
					toPost: post.at - r.startTime,
					afterGet: post.at - (get.at + get.ms),
					requests: emu.log.length,
				};
				if (rep >= 1) runs[n].push(run);
				log(
					`create ${fmtInt(n)} #${rep < 1 ? `warm-up ${rep + 2}` : rep}: node ${run.node} ms; first request (GET columns) after ${run.toGet} ms, answered in ${ms(run.get)} ms; first POST after ${run.toPost} ms (${ms(run.afterGet)} ms after the GET's answer); ${run.requests} requests`,
				);
			}
		}
		const pad = (x, k) => String(x).padEnd(k);
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
		if (process.env.BENCH_JSON)
			writeFileSync(process.env.BENCH_JSON, JSON.stringify(runs, null, '\t'));
	} finally {
		await n8n?.stop().catch(() => undefined);
		await emu.close().catch(() => undefined);
	}
}

// ------------------------------------------------------------------ main
async function main() {
	const t0 = Date.now();
	if (process.env.BENCH_ONLY === 'read') return await readOnly(t0);
	if (process.env.BENCH_ONLY === 'create') return await createStartOnly(t0);
	if (process.env.BENCH_ONLY === 'own') {
		log(`own time only: ${fmtInt(CREATE_ROWS)} items, ${OWN_REPEATS} repeats`);
		const refCheck = await refCheckTime();
		const own = await ownTime();
		own.refCheck = refCheck;
		const r = ownReport(own);
		process.stdout.write(
			`${['', ...r.lines, '', 'Targets (our own time):', ...r.targets].join('\n')}\n`,
		);
		return;
	}
	log(
		`n8n ${N8N_VERSION}; create ${fmtInt(CREATE_ROWS)} rows (built-in sample ${fmtInt(BUILTIN_ITEMS)}), read ${fmtInt(READ_ROWS)} rows, ${REPEATS} repeats (built-in create ${BUILTIN_REPEATS})`,
	);
	const refCheck = await refCheckTime();
	const own = await ownTime();
	own.refCheck = refCheck;
	const emu = await startEmulator({ logBodies: false, timing: true });
	let n8n;
	const stop = async () => {
		await n8n?.stop().catch(() => undefined);
		await emu.close().catch(() => undefined);
	};
	process.once('SIGINT', () => void stop().then(() => process.exit(130)));
	try {
		const demo = emu.seedDemo();
		const docId = demo.docId;
		const base = `${emu.url}/o/${demo.orgDomain}`;
		const auth = { Authorization: `Bearer ${demo.apiKey}` };
		const tableUrl = (t) => `${base}/api/docs/${docId}/tables/${t}/records`;

		const n8nOptions = process.env.BENCH_N8N_NODE_OPTIONS
			? { env: { NODE_OPTIONS: process.env.BENCH_N8N_NODE_OPTIONS } }
			: {};
		/** This package's credential (gristRecordsApi) and n8n's own gristApi for the built-in node. */
		const createCredential = async (inst) => {
			const c = await inst.createCredential({
				name: 'Grist bench',
				type: 'gristRecordsApi',
				data: { apiKey: demo.apiKey, url: base },
			});
			// Not enumerable: the reference goes into workflow JSON as { id, name }.
			Object.defineProperty(c, 'builtin', {
				enumerable: false,
				value: await inst.createCredential({
					name: 'Grist bench (built-in)',
					type: 'gristApi',
					data: { apiKey: demo.apiKey, url: base },
				}),
			});
			return c;
		};

		log('starting n8n…');
		n8n = await startN8n(n8nOptions);
		log(`n8n up in ${n8n.startupMs} ms`);
		const startupMs = n8n.startupMs;
		const cred = await createCredential(n8n);

		// ---------------------------------------------------------------- 1. create
		const rows = Array.from({ length: CREATE_ROWS }, (_, i) => makeRow(i));
		const create = { package: [], builtin: [], n8nHttp: [], raw: [] };
		/** The chunked HTTP Request workflow: Chunk + HTTP executionTime (ms), checked. */
		const n8nHttpCreate = async (t) => {
			const ex = await execute(
				n8n,
				manualWorkflow([
					codeNode(CREATE_ROWS),
					chunkNode(),
					httpNode(cred, 'POST', tableUrl(t), '={{ $json.body }}'),
				]),
				300_000,
			);
			const chunk = await nodeRun(n8n, ex.executionId, 'Chunk');
			const http = await nodeRun(n8n, ex.executionId, 'HTTP');
			const bodies = Math.ceil(CREATE_ROWS / CHUNK);
			if (chunk.items !== bodies || http.items !== bodies)
				throw new Error(
					`n8n HTTP create: ${chunk.items} bodies, ${http.items} answers, expected ${bodies}`,
				);
			return { ms: chunk.ms + http.ms, chunkMs: chunk.ms, httpMs: http.ms };
		};
		const createReq = {};
		let tableNo = 0;
		// The built-in node reads `url` (then `selfHostedUrl`, `customSubdomain`) from the credential
		// type named gristApi, which this package's class replaces: without those fields it
		// cannot reach the server, and the bench goes on without it.
		let builtinError;
		const newTable = () => {
			const t = `Bench${++tableNo}`;
			emu.addTable(docId, t, COLUMNS);
			return t;
		};
		/** POSTs all rows, 500 per request, one after the other; returns the wall time (ms). */
		const rawCreate = async (t) => {
			const start = performance.now();
			for (let i = 0; i < rows.length; i += CHUNK) {
				const body = JSON.stringify({
					records: rows.slice(i, i + CHUNK).map((fields) => ({ fields })),
				});
				const res = await fetch(tableUrl(t), {
					method: 'POST',
					headers: { ...auth, 'content-type': 'application/json' },
					body,
				});
				if (!res.ok) throw new Error(`raw POST: HTTP ${res.status} ${await res.text()}`);
				await res.json();
			}
			return performance.now() - start;
		};
		const checkRows = (t, n, label) => {
			const got = emu.records(docId, t);
			if (got.length !== n) throw new Error(`${label}: ${got.length} rows in ${t}, expected ${n}`);
			const r = got[n - 1].fields;
			const want = makeRow(n - 1);
			for (const k of Object.keys(want)) {
				if (r[k] !== want[k])
					throw new Error(
						`${label}: row ${n} ${k} = ${JSON.stringify(r[k])}, expected ${JSON.stringify(want[k])}`,
					);
			}
		};

		// Warm-up round, not counted: JIT of the emulator, of n8n's paths and of the node code.
		{
			const t = newTable();
			const ex = await execute(
				n8n,
				manualWorkflow([
					codeNode(CREATE_ROWS),
					packageNode(cred, {
						resource: 'record',
						operation: 'create',
						document: rl(docId),
						table: rl(t),
						columns: autoMap,
					}),
				]),
				300_000,
			);
			await nodeRun(n8n, ex.executionId);
			await rawCreate(newTable());
			await n8nHttpCreate(newTable());
			log('warm-up round done');
		}
		for (let rep = 1; rep <= REPEATS; rep++) {
			// (a) this package
			let t = newTable();
			emu.clearLog();
			gc();
			let ex = await execute(
				n8n,
				manualWorkflow([
					codeNode(CREATE_ROWS),
					packageNode(cred, {
						resource: 'record',
						operation: 'create',
						document: rl(docId),
						table: rl(t),
						columns: autoMap,
					}),
				]),
				300_000,
			);
			let r = await nodeRun(n8n, ex.executionId);
			checkRows(t, CREATE_ROWS, 'package create');
			if (r.items !== CREATE_ROWS) throw new Error(`package create: ${r.items} output items`);
			create.package.push(r.ms);
			createReq.package = requestSummary(emu.log);
			log(`create #${rep} package: ${ms(r.ms)} ms, ${createReq.package.text} requests`);

			// (b) built-in node (10,000 requests a run: fewer repeats)
			if (!builtinError && rep <= BUILTIN_REPEATS) {
				t = newTable();
				emu.clearLog();
				gc();
				try {
					ex = await execute(
						n8n,
						manualWorkflow([
							codeNode(BUILTIN_ITEMS),
							builtinNode(cred, {
								operation: 'create',
								docId,
								tableId: t,
								dataToSend: 'autoMapInputs',
								inputsToIgnore: '',
							}),
						]),
						900_000,
					);
					r = await nodeRun(n8n, ex.executionId);
					checkRows(t, BUILTIN_ITEMS, 'built-in create');
					create.builtin.push((r.ms * CREATE_ROWS) / BUILTIN_ITEMS);
					createReq.builtin = requestSummary(emu.log);
					log(
						`create #${rep} built-in: ${ms(r.ms)} ms for ${fmtInt(BUILTIN_ITEMS)} items, ${createReq.builtin.text} requests`,
					);
				} catch (e) {
					builtinError = e.message.split('\n')[0];
					log(`built-in node failed, skipped from now on: ${builtinError}`);
				}
			}

			// (c) raw chunked HTTP inside n8n (Code node chunks, HTTP Request node posts)
			t = newTable();
			emu.clearLog();
			gc();
			const nh = await n8nHttpCreate(t);
			checkRows(t, CREATE_ROWS, 'n8n HTTP create');
			create.n8nHttp.push(nh.ms);
			createReq.n8nHttp = requestSummary(emu.log);
			log(
				`create #${rep} n8n HTTP Request: ${ms(nh.ms)} ms (Chunk ${ms(nh.chunkMs)} + HTTP ${ms(nh.httpMs)}), ${createReq.n8nHttp.text} requests`,
			);

			// (d) raw chunked HTTP from this process
			t = newTable();
			emu.clearLog();
			gc();
			const rawMs = await rawCreate(t);
			checkRows(t, CREATE_ROWS, 'raw create');
			create.raw.push(rawMs);
			createReq.raw = requestSummary(emu.log);
			log(`create #${rep} raw: ${ms(rawMs)} ms, ${createReq.raw.text} requests`);
		}

		// ---------------------------------------------------------------- 3./4. writes, Batch Size
		const half = Math.floor(CREATE_ROWS / 2);
		const seeded = () => {
			const t = newTable();
			emu.addRecords(docId, t, rows);
			return t;
		};
		const writeVariants = {
			create: {
				table: newTable,
				items: codeNode(CREATE_ROWS),
				params: { operation: 'create', columns: autoMap },
				rows: CREATE_ROWS,
			},
			update: {
				table: seeded,
				items: codeNode(CREATE_ROWS, `({ id: i + 1, ...${ROW_JS}, Name: 'Updated ' + i })`),
				params: { operation: 'update', rowId: '={{ $json.id }}', columns: autoMap },
				rows: CREATE_ROWS,
			},
			upsert: {
				table: seeded,
				items: codeNode(CREATE_ROWS, `((i) => ${ROW_JS})(i + ${half})`),
				params: { operation: 'upsert', columns: { ...autoMap, matchingColumns: ['Email'] } },
				rows: CREATE_ROWS + half,
			},
			batch100: {
				table: newTable,
				items: codeNode(CREATE_ROWS),
				params: { operation: 'create', columns: autoMap, options: { batchSize: 100 } },
				rows: CREATE_ROWS,
			},
			batchMax: {
				table: newTable,
				items: codeNode(CREATE_ROWS),
				params: { operation: 'create', columns: autoMap, options: { batchSize: 10_000 } },
				rows: CREATE_ROWS,
			},
		};
		const writes = Object.fromEntries(Object.keys(writeVariants).map((k) => [k, []]));
		const writeReq = {};
		for (let rep = 1; rep <= REPEATS; rep++) {
			for (const [name, v] of Object.entries(writeVariants)) {
				const t = v.table();
				emu.clearLog();
				gc();
				const ex = await execute(
					n8n,
					manualWorkflow([
						v.items,
						packageNode(cred, {
							resource: 'record',
							document: rl(docId),
							table: rl(t),
							...v.params,
						}),
					]),
					300_000,
				);
				const r = await nodeRun(n8n, ex.executionId);
				const have = emu.records(docId, t).length;
				if (r.items !== CREATE_ROWS || have !== v.rows)
					throw new Error(`${name}: ${r.items} items, ${have} rows, expected ${v.rows}`);
				const w = { node: r.ms, emu: emuMs(emu.log), longest: longestMs(emu.log) };
				writes[name].push(w);
				writeReq[name] = requestSummary(emu.log);
				log(
					`${name} #${rep}: node ${ms(w.node)} ms, emulator ${ms(w.emu)} ms, outside ${ms(w.node - w.emu)} ms, longest request ${ms(w.longest)} ms, ${writeReq[name].text} requests`,
				);
			}
		}

		// ---------------------------------------------------------------- 2. read
		log(`seeding ${fmtInt(READ_ROWS)} rows…`);
		emu.addTable(docId, 'BenchRead', COLUMNS);
		for (let i = 0; i < READ_ROWS; i += 10_000) {
			emu.addRecords(
				docId,
				'BenchRead',
				Array.from({ length: Math.min(10_000, READ_ROWS - i) }, (_, j) => makeRow(i + j)),
			);
		}
		await n8n.stop();
		n8n = undefined;
		const reads = await readRounds({
			n8nOptions,
			credentialData: { apiKey: demo.apiKey, url: base },
			docId,
			tableUrl: tableUrl('BenchRead'),
			apiKey: demo.apiKey,
			requestLog: emu,
			builtin: !builtinError,
		});
		const { read, readMem, readReq, payloadBytes } = reads;
		if (!builtinError && reads.builtinError) builtinError = reads.builtinError;

		// ---------------------------------------------------------------- 5. trigger idle poll
		const { GristTrigger } = require('../dist/nodes/GristTrigger/GristTrigger.node.js');
		const tdoc = emu.addDoc(demo.workspaceId, { name: 'Trigger bench', owner: demo.email }).id;
		emu.addTable(tdoc, 'Events', COLUMNS);
		for (let i = 0; i < READ_ROWS; i += 10_000)
			emu.addRecords(
				tdoc,
				'Events',
				Array.from({ length: Math.min(10_000, READ_ROWS - i) }, (_, j) => makeRow(i + j)),
			);
		const pollVariants = {
			addedSql: { event: 'rowAdded', refused: false },
			addedRecords: { event: 'rowAdded', refused: true },
			updatedSql: { event: 'rowAddedOrUpdated', refused: false },
			updatedRecords: { event: 'rowAddedOrUpdated', refused: true },
		};
		const polls = Object.fromEntries(Object.keys(pollVariants).map((k) => [k, []]));
		const pollReq = {};
		for (const [name, v] of Object.entries(pollVariants)) {
			const p = createPoller({
				node: new GristTrigger(),
				parameters: {
					document: rl(tdoc),
					table: rl('Events'),
					event: v.event,
					...(v.event === 'rowAddedOrUpdated' ? { timestampColumn: 'Amount' } : {}),
				},
				credentials: { apiKey: demo.apiKey, url: base },
			});
			await p.poll('trigger'); // baseline
			if (v.refused)
				emu.fault({
					path: `/api/docs/${tdoc}/sql`,
					status: 403,
					times: 1,
					body: { error: 'insufficient document access' },
				});
			if ((await p.poll('trigger')) !== null) throw new Error(`${name}: the warm-up poll emitted`);
			for (let rep = 0; rep < Math.max(REPEATS, 5); rep++) {
				emu.clearLog();
				gc();
				const start = performance.now();
				if ((await p.poll('trigger')) !== null) throw new Error(`${name}: an idle poll emitted`);
				const t = performance.now() - start;
				const scanned = emu.log.reduce((a, e) => a + (e.rowsScanned ?? 0), 0);
				polls[name].push({ poll: t, emu: emuMs(emu.log), scanned });
				pollReq[name] = emu.log
					.map(
						(e) =>
							`${e.method} ${e.apiPath.split('/').pop()}${e.query.sort ? `?sort=${e.query.sort}&limit=${e.query.limit}` : ''}`,
					)
					.join(', ');
			}
			log(`trigger ${name}: ${pollReq[name]}, ${polls[name].at(-1).scanned} rows scanned`);
		}

		// ---------------------------------------------------------------- report
		const med = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, median(v)]));
		const c = med(create);
		const rd = med(read);
		const mem = med(readMem);
		const pad = (s, n) => String(s).padEnd(n);
		const padL = (s, n) => String(s).padStart(n);
		const runs = (xs) => xs.map(ms).join(' / ');
		const runsWidth = Math.max(
			30,
			...[...Object.values(create), ...Object.values(read)].map((xs) => runs(xs).length + 2),
		);
		const out = [];
		out.push('');
		out.push(
			`Grist benchmark — n8n ${N8N_VERSION} (Node 24) against the Grist emulator; median of ${REPEATS} runs (built-in create: ${BUILTIN_REPEATS}); times in ms`,
		);
		out.push('');
		out.push(`1. Create ${fmtInt(CREATE_ROWS)} rows from ${fmtInt(CREATE_ROWS)} items`);
		out.push(
			`   ${pad('variant', 40)}${padL('median', 10)}  ${pad('runs', runsWidth)}${pad('requests', 22)}${pad('vs raw', 10)}vs n8n HTTP`,
		);
		const createLabel = {
			package: 'n8n-nodes-grist (record create)',
			builtin: `n8n-nodes-base.grist${BUILTIN_ITEMS < CREATE_ROWS ? ` (×${CREATE_ROWS / BUILTIN_ITEMS} of ${fmtInt(BUILTIN_ITEMS)})` : ''}`,
			n8nHttp: `n8n Code + HTTP Request, ${CHUNK} rows/POST`,
			raw: `raw HTTP, ${CHUNK} rows/POST`,
		};
		const failed = `   ${' '.repeat(40)}failed: ${builtinError ?? ''}`;
		for (const k of ['package', 'builtin', 'n8nHttp', 'raw']) {
			if (!create[k].length) {
				out.push(`   ${pad(createLabel[k], 40)}${padL('—', 10)}`, failed);
				continue;
			}
			out.push(
				`   ${pad(createLabel[k], 40)}${padL(ms(c[k]), 10)}  ${pad(runs(create[k]), runsWidth)}${pad(createReq[k].text, 22)}${pad(`${(c[k] / c.raw).toFixed(2)}×`, 10)}${(c[k] / c.n8nHttp).toFixed(2)}×`,
			);
		}
		out.push(
			"   (n8n Code + HTTP Request = the chunking Code node's + the HTTP Request node's executionTime; the Code node making the items is excluded everywhere)",
		);
		out.push('');
		out.push(
			`2. Read all rows of a ${fmtInt(READ_ROWS)}-row table (payload ${(payloadBytes / 1e6).toFixed(1)} MB)`,
		);
		out.push(
			`   ${pad('variant', 40)}${padL('median', 10)}  ${pad('runs', runsWidth)}${pad('requests', 22)}${pad('vs raw', 10)}${pad('vs n8n HTTP', 13)}peak − baseline`,
		);
		const readLabel = {
			package: 'n8n-nodes-grist (getAll, all)',
			builtin: 'n8n-nodes-base.grist (getAll, all)',
			n8nHttp: 'n8n HTTP Request GET + Split Out',
			raw: 'raw GET + JSON.parse',
		};
		for (const k of ['package', 'builtin', 'n8nHttp', 'raw']) {
			if (!read[k].length) {
				out.push(`   ${pad(readLabel[k], 40)}${padL('—', 10)}`, failed);
				continue;
			}
			const m =
				mem[k] === undefined
					? '—'
					: `${(mem[k] / 1e6).toFixed(0)} MB = ${(mem[k] / payloadBytes).toFixed(2)}× payload`;
			out.push(
				`   ${pad(readLabel[k], 40)}${padL(ms(rd[k]), 10)}  ${pad(runs(read[k]), runsWidth)}${pad(readReq[k].text, 22)}${pad(`${(rd[k] / rd.raw).toFixed(2)}×`, 10)}${pad(`${(rd[k] / rd.n8nHttp).toFixed(2)}×`, 13)}${m}`,
			);
		}
		out.push(
			"   (n8n HTTP Request GET + Split Out = both nodes' executionTime; Split Out gives one { id, fields } item per row; peak: n8n's, or a bare Node 24 for raw)",
		);
		out.push('');
		const medOf = (list, key) => median(list.map((x) => x[key]));
		out.push(
			`3. Writes of ${fmtInt(CREATE_ROWS)} items in n8n: the node's time, the emulator's (Grist's) share, the rest (package + n8n's request helper)`,
		);
		out.push(
			`   ${pad('operation', 40)}${padL('node', 10)}${padL('emulator', 10)}${padL('outside', 10)}  ${pad('requests', 22)}longest request`,
		);
		const writeLabel = {
			create: 'record create (Batch Size 500, default)',
			update: 'record update (Row ID ={{ $json.id }})',
			upsert: `upsert on Email (${fmtInt(half)} match)`,
			batch100: 'record create, Batch Size 100',
			batchMax: 'record create, Batch Size 10,000',
		};
		const writeLine = (k) => {
			const w = writes[k];
			const node = medOf(w, 'node');
			const e = medOf(w, 'emu');
			return `   ${pad(writeLabel[k], 40)}${padL(ms(node), 10)}${padL(ms(e), 10)}${padL(ms(median(w.map((x) => x.node - x.emu))), 10)}  ${pad(writeReq[k].text, 22)}${ms(medOf(w, 'longest'))}`;
		};
		for (const k of ['create', 'update', 'upsert']) out.push(writeLine(k));
		out.push(...ownReport(own).lines);
		out.push('');
		out.push(
			`4. Batch Size (Options), create ${fmtInt(CREATE_ROWS)} rows: fewer, bigger requests load faster; each holds the document longer (longest request)`,
		);
		out.push(
			`   ${pad('variant', 40)}${padL('node', 10)}${padL('emulator', 10)}${padL('outside', 10)}  ${pad('requests', 22)}longest request`,
		);
		for (const k of ['batch100', 'create', 'batchMax']) out.push(writeLine(k));
		out.push('');
		out.push(
			`5. Grist Trigger, idle poll on a ${fmtInt(READ_ROWS)}-row table (n8n-core in this process; emulator cost model: rows scanned per poll)`,
		);
		out.push(
			`   ${pad('variant', 40)}${padL('poll', 10)}${padL('emulator', 10)}${padL('rows', 10)}  requests`,
		);
		const pollLabel = {
			addedSql: 'Row Added, /sql max(id)',
			addedRecords: 'Row Added, /sql refused: records -id',
			updatedSql: 'Added or Updated, /sql newest timestamps',
			updatedRecords: 'Added or Updated, refused: records sort',
		};
		for (const k of Object.keys(polls))
			out.push(
				`   ${pad(pollLabel[k], 40)}${padL(ms(medOf(polls[k], 'poll')), 10)}${padL(ms(medOf(polls[k], 'emu')), 10)}${padL(fmtInt(medOf(polls[k], 'scanned')), 10)}  ${pollReq[k]}`,
			);
		out.push(
			"   (the emulator keeps every table in memory: its time understates Grist's document load, which /sql avoids; see docs/PERFORMANCE.md for grist-core's figures)",
		);
		out.push('');
		out.push('Targets (our own time):');
		out.push(...ownReport(own).targets);
		out.push(
			target(
				medOf(polls.addedSql, 'scanned') <= 2,
				`idle Row Added poll scans O(1) rows:              ${fmtInt(medOf(polls.addedSql, 'scanned'))} (records query: ${fmtInt(medOf(polls.addedRecords, 'scanned'))})`,
			),
		);
		out.push('');
		out.push(
			'Targets, against each baseline: "raw" = HTTP from the bench process (no n8n); "n8n HTTP" = the same chunked requests made by n8n\'s own Code + HTTP Request nodes',
		);
		out.push(
			target(
				c.package <= 2 * c.raw,
				`create ≤ 2× raw HTTP:             ${(c.package / c.raw).toFixed(2)}×`,
			),
		);
		out.push(
			target(
				c.package <= 2 * c.n8nHttp,
				`create ≤ 2× n8n HTTP Request:     ${(c.package / c.n8nHttp).toFixed(2)}×`,
			),
		);
		out.push(
			c.builtin === undefined
				? '   n/a   create ≥ 50× faster than the built-in node: the built-in node did not run'
				: target(
						c.builtin >= 50 * c.package,
						`create ≥ 50× faster than the built-in node: ${(c.builtin / c.package).toFixed(1)}×`,
					),
		);
		out.push(
			target(
				rd.package <= 1.5 * rd.raw,
				`read ≤ 1.5× raw GET:              ${(rd.package / rd.raw).toFixed(2)}×`,
			),
		);
		if (rd.n8nHttp !== undefined)
			out.push(
				target(
					rd.package <= 1.5 * rd.n8nHttp,
					`read ≤ 1.5× n8n HTTP GET + Split: ${(rd.package / rd.n8nHttp).toFixed(2)}×`,
				),
			);
		out.push(
			target(
				mem.package <= 3 * payloadBytes,
				`read peak memory ≤ 3× payload:    ${(mem.package / payloadBytes).toFixed(2)}×`,
			),
		);
		if (mem.n8nHttp !== undefined)
			out.push(
				`   info  n8n HTTP GET + Split Out peak memory: ${(mem.n8nHttp / payloadBytes).toFixed(2)}× payload; bare Node 24 GET + parse: ${(mem.raw / payloadBytes).toFixed(2)}×`,
			);
		out.push('');
		out.push(
			`(n8n start-up ${(startupMs / 1000).toFixed(1)} s, excluded; whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
		);
		process.stdout.write(`${out.join('\n')}\n`);

		if (process.env.BENCH_JSON) {
			writeFileSync(
				process.env.BENCH_JSON,
				JSON.stringify(
					{
						n8n: N8N_VERSION,
						repeats: REPEATS,
						builtinRepeats: BUILTIN_REPEATS,
						createRows: CREATE_ROWS,
						builtinItems: BUILTIN_ITEMS,
						readRows: READ_ROWS,
						payloadBytes,
						create,
						createReq,
						read,
						readMem,
						readReq,
						writes,
						writeReq,
						own,
						polls,
						pollReq,
						builtinError,
					},
					null,
					'\t',
				),
			);
		}
	} finally {
		await stop();
	}
}

main().then(
	() => process.exit(0),
	(e) => {
		process.stderr.write(`[bench] failed: ${e.stack ?? e}\n`);
		process.exit(1);
	},
);
