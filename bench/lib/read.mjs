// 2. Reads of all rows of a table: this package's getAll, the built-in node's, n8n's HTTP Request
// GET + Split Out (each in a fresh n8n), a raw GET in this process, and their memory; and the
// allocations of the read through n8n-core (../read-alloc.cjs).
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	READ_PACKAGES,
	READ_ROWS,
	READ_VARIANTS,
	REPEATS,
	fmtInt,
	gc,
	locateRuntime,
	log,
	manualWorkflow,
	ms,
	startN8n,
} from './common.mjs';
import {
	N8N_GC,
	cpuOf,
	gristCpu,
	memKb,
	n8nFullGc,
	n8nPid,
	peakIn,
	rawReadMemory,
	resetPeak,
	rssSampler,
	withGcPreload,
} from './memory.mjs';
import {
	benchCredential,
	builtinNode,
	execute,
	httpNode,
	longestMs,
	nodeRun,
	packageNode,
	requestSummary,
	rl,
	splitNode,
} from './n8n-runs.mjs';

/** Each variant: its nodes, and the nodes whose executionTime adds up to its time (the last one's output is the rows). */
function readVariants(docId, tableId, tableUrl) {
	const count = (all) => (all ? { returnAll: true } : { limit: 1 });
	const ours = (simplify) => (c, all) => ({
		nodes: [
			packageNode(c, {
				resource: 'record',
				operation: 'getAll',
				document: rl(docId),
				table: rl(tableId),
				...count(all),
				...(simplify ? {} : { simplify: false }),
			}),
		],
		timed: ['Grist'],
	});
	return {
		package: ours(true),
		packageRaw: ours(false),
		...Object.fromEntries(READ_PACKAGES.map((p) => [p.name, ours(true)])),
		builtin: (c, all) => ({
			nodes: [builtinNode(c, { operation: 'getAll', docId, tableId, ...count(all) })],
			timed: ['Grist'],
		}),
		n8nHttp: (c, all) => ({
			nodes: [httpNode(c, 'GET', tableUrl + (all ? '' : '?limit=1')), splitNode()],
			timed: ['HTTP', 'Split'],
		}),
	};
}

/**
 * Grist's time for one read from the timing proxy's log (a real Grist; the emulator's log has no
 * first byte): `span` from the first request's arrival to the last byte of the last answer (the
 * whole read as Grist sees it, columns included), and the records answer's (the longest request)
 * `wait` (arrival → its first byte: Grist building the answer) and `send` (first → last byte: the
 * transfer, which a reader that drains slowly stretches). `requests`: each request's method and
 * path with its query string, in arrival order, for comparing what the variants ask.
 */
export function gristTime(entries) {
	if (!entries.length || entries[0].firstByte === undefined) return undefined;
	const records = entries.reduce((a, e) => (e.ms > a.ms ? e : a));
	return {
		span: Math.max(...entries.map((e) => e.lastByte)) - Math.min(...entries.map((e) => e.arrived)),
		wait: records.firstByte - records.arrived,
		send: records.lastByte - records.firstByte,
		requests: [...entries]
			.sort((a, b) => a.arrived - b.arrived)
			.map(
				(e) =>
					`${e.method} ${e.url} [${Object.entries(e.headers)
						.map(([k, v]) => `${k}: ${v}`)
						.join('; ')}]`,
			),
	};
}

/** The time of a variant's nodes in one execution, its rows, and when its nodes ran. */
async function variantRun(n8n, executionId, timed) {
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
}

/**
 * One measured read of a variant in a running n8n: a 1-row warm-up read, a full collection in
 * n8n (`gcAck`), the peak reset, then the full read, its peak and its peak during the nodes.
 */
async function measuredRead(n8n, name, variant, c, { gcAck, clearLog }) {
	const p = n8nPid(n8n.userFolder);
	const warmV = variant(c, false);
	const warm = await execute(n8n, manualWorkflow(warmV.nodes), 60_000);
	if ((await variantRun(n8n, warm.executionId, warmV.timed)).items !== 1)
		throw new Error(`${name} getAll (limit 1): not 1 item`);
	clearLog();
	gc();
	if (gcAck) await n8nFullGc(p, gcAck);
	const baseline = resetPeak(p);
	const fullV = variant(c, true);
	const sampler = rssSampler(p);
	const grist = gristCpu();
	const n8nCpu = cpuOf(p);
	let samples;
	let ex;
	let cpu;
	try {
		ex = await execute(n8n, manualWorkflow(fullV.nodes), 300_000);
	} finally {
		cpu = { grist: grist.stop(), n8n: cpuOf(p) - n8nCpu };
		samples = sampler.stop();
	}
	const peak = memKb(p).hwm;
	const r = await variantRun(n8n, ex.executionId, fullV.timed);
	r.mem = (peak - baseline) * 1024;
	r.nodeMem = (peakIn(samples, r.from, r.to) - baseline) * 1024;
	r.cpu = cpu;
	return r;
}

/** The server's time of a variant's read: its longest request, and Grist's time when known. */
function noteServer(out, name, entries, run) {
	out.serverMs[name].push(longestMs(entries));
	const g = gristTime(entries);
	if (!g) return;
	if (run) {
		// n8n's clock is this machine's: the node's start and end against the proxy's epoch times.
		const epoch = (t) => performance.timeOrigin + t;
		out.gristBefore[name].push(epoch(Math.min(...entries.map((e) => e.arrived))) - run.from);
		out.gristAfter[name].push(run.to - epoch(Math.max(...entries.map((e) => e.lastByte))));
	}
	out.gristSpan[name].push(g.span);
	out.gristWait[name].push(g.wait);
	out.gristSend[name].push(g.send);
	out.gristRequests[name] = g.requests;
}

/** A log line's server part: `312 ms` or, with Grist's times, `span 320 = wait 250 + send 62 ms …`. */
function serverText(out, name) {
	if (!out.serverMs[name].length) return '—';
	if (!out.gristSpan[name].length) return `${ms(out.serverMs[name].at(-1))} ms`;
	const around = out.gristBefore[name].length
		? `; node: ${ms(out.gristBefore[name].at(-1))} ms before the first request, ${ms(out.gristAfter[name].at(-1))} ms after the last byte`
		: '';
	const cpu = out.gristCpu[name].length
		? `; CPU: Grist ${ms(out.gristCpu[name].at(-1))} ms${out.n8nCpu[name]?.length ? `, n8n ${ms(out.n8nCpu[name].at(-1))} ms` : ''}`
		: '';
	return `Grist ${ms(out.gristSpan[name].at(-1))} ms${cpu}, records wait ${ms(out.gristWait[name].at(-1))} + send ${ms(out.gristSend[name].at(-1))} ms${around}`;
}

/** A raw GET + JSON.parse of the table in this process, then the same in a bare Node 24. */
async function rawRead(ctx, out, requests) {
	const { tableUrl, apiKey, requestLog } = ctx;
	// A 1-row warm-up first, as the n8n variants have: a real Grist closes a document a few
	// seconds after its last request, and the full read must not time its loading.
	const warm = await fetch(`${tableUrl}?limit=1`, {
		headers: { Authorization: `Bearer ${apiKey}` },
	});
	if ((await warm.json()).records?.length !== 1) throw new Error('raw GET (limit 1): not 1 record');
	requestLog?.clearLog();
	gc();
	const grist = gristCpu();
	const start = performance.now();
	const res = await fetch(tableUrl, { headers: { Authorization: `Bearer ${apiKey}` } });
	out.server.push(performance.now() - start);
	const text = await res.text();
	const parsed = JSON.parse(text);
	const rawMs = performance.now() - start;
	if (grist) out.gristCpu.raw.push(grist.stop());
	if (parsed.records.length !== READ_ROWS)
		throw new Error(`raw GET: ${parsed.records.length} records`);
	out.payloadBytes = Buffer.byteLength(text);
	out.read.raw.push(rawMs);
	out.readReq.raw = requests();
	if (requestLog) noteServer(out, 'raw', requestLog.log);
	out.readMem.raw.push(await rawReadMemory(tableUrl, apiKey, READ_ROWS));
	return rawMs;
}

/** One variant's read in a fresh n8n; false when the built-in node failed (skipped from then on). */
async function freshN8nRead(ctx, out, name, rep, requests) {
	const { n8nOptions, credentialData, requestLog } = ctx;
	const gcAck = N8N_GC ? join(tmpdir(), `n8n-bench-gc-${process.pid}-${rep}-${name}`) : '';
	const packageDir = READ_PACKAGES.find((p) => p.name === name)?.dir;
	const options = packageDir ? { ...n8nOptions, packageDir } : n8nOptions;
	const n8n = await startN8n(N8N_GC ? withGcPreload(options, gcAck) : options);
	try {
		const c = await benchCredential(n8n, credentialData);
		let r;
		try {
			const clearLog = () => requestLog?.clearLog();
			r = await measuredRead(n8n, name, ctx.variants[name], c, { gcAck, clearLog });
		} catch (e) {
			if (name !== 'builtin') throw e;
			out.builtinError = e.message.split('\n')[0];
			log(`built-in node failed, skipped from now on: ${out.builtinError}`);
			return false;
		}
		if (r.items !== READ_ROWS)
			throw new Error(`${name} getAll: ${r.items} items, expected ${READ_ROWS}`);
		out.read[name].push(r.ms);
		out.gristCpu[name].push(r.cpu.grist);
		out.n8nCpu[name].push(r.cpu.n8n);
		out.readMem[name].push(r.mem);
		out.readNodeMem[name].push(r.nodeMem);
		out.readReq[name] = requests();
		if (requestLog) noteServer(out, name, requestLog.log, r);
		log(
			`read #${rep} ${name}: ${ms(r.ms)} ms (server ${serverText(out, name)}), peak +${fmtInt(Math.round(r.mem / 1e6))} MB (during the node: +${fmtInt(Math.round(r.nodeMem / 1e6))} MB), ${out.readReq[name].text} requests`,
		);
		return true;
	} finally {
		await n8n.stop();
	}
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
export async function readRounds(ctx) {
	const { docId, tableUrl, requestLog, builtin } = ctx;
	const tableId = decodeURIComponent(tableUrl.split('/tables/')[1].split('/')[0]);
	const extra = READ_PACKAGES.map((p) => p.name);
	const lists = (names = ['package', 'packageRaw', ...extra, 'builtin', 'n8nHttp', 'raw']) =>
		Object.fromEntries(names.map((k) => [k, []]));
	const out = {
		read: lists(),
		readMem: lists(),
		// The peak during the variant's own nodes (sampled RSS), without n8n's work after them.
		readNodeMem: lists(['package', 'packageRaw', ...extra, 'builtin', 'n8nHttp']),
		readReq: {},
		// The server's time for each variant's longest request (the records read): the emulator's
		// log, or the timing proxy's in front of a real Grist.
		serverMs: lists(),
		// Grist's time (a real Grist through the timing proxy, see gristTime): span, and the records
		// answer's wait and send; the requests of the last read of each variant.
		gristSpan: lists(),
		gristWait: lists(),
		gristSend: lists(),
		gristRequests: {},
		// n8n variants: from the node's start to the first request's arrival at the proxy, and from
		// the last answer's last byte to the node's end (parsing, output items, n8n's own work).
		// CPU time (ms) of Grist's processes during each read (0 without a real Grist on this
		// machine), and of n8n's main process during each n8n read (its whole execution).
		gristCpu: lists(),
		n8nCpu: lists(['package', 'packageRaw', ...extra, 'builtin', 'n8nHttp']),
		gristBefore: lists(),
		gristAfter: lists(),
		payloadBytes: 0,
		server: [],
		builtinError: builtin ? undefined : 'skipped',
	};
	const requests = () => (requestLog ? requestSummary(requestLog.log) : { count: 0, text: '—' });
	const run = { ...ctx, variants: readVariants(docId, tableId, tableUrl) };
	for (let rep = 1; rep <= REPEATS; rep++) {
		// Alternate the order, so that a trend in the machine's load does not favour one.
		const names = ['package', 'packageRaw', ...extra, 'builtin', 'n8nHttp'].filter(
			(v) => READ_VARIANTS.includes(v) || extra.includes(v),
		);
		const order = rep % 2 ? names : names.reverse();
		for (const name of order) {
			if (name === 'builtin' && out.builtinError) continue;
			await freshN8nRead(run, out, name, rep, requests);
		}
		const rawMs = await rawRead(ctx, out, requests);
		log(
			`read #${rep} raw: ${ms(rawMs)} ms (headers after ${ms(out.server.at(-1))} ms; server ${serverText(out, 'raw')}), ${fmtInt(out.payloadBytes)} bytes; the same GET + JSON.parse in a bare Node 24: peak +${fmtInt(Math.round(out.readMem.raw.at(-1) / 1e6))} MB`,
		);
	}
	return out;
}

/**
 * bench/read-alloc.cjs in a child Node 24 (n8n's runtime) with --expose-gc: bytes allocated during
 * the read and heap held after it, this package's node and the built-in one through n8n-core.
 */
export async function readAllocations(args) {
	const runtime = locateRuntime();
	const script = new URL('../read-alloc.cjs', import.meta.url).pathname;
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
