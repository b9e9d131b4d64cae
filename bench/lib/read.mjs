// 2. Reads of all rows of a table: this package's getAll, the built-in node's, n8n's HTTP Request
// GET + Split Out (each in a fresh n8n), a raw GET in this process, and their memory; and the
// allocations of the read through n8n-core (../read-alloc.cjs).
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
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
	return {
		package: (c, all) => ({
			nodes: [
				packageNode(c, {
					resource: 'record',
					operation: 'getAll',
					document: rl(docId),
					table: rl(tableId),
					...count(all),
				}),
			],
			timed: ['Grist'],
		}),
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
	let samples;
	let ex;
	try {
		ex = await execute(n8n, manualWorkflow(fullV.nodes), 300_000);
	} finally {
		samples = sampler.stop();
	}
	const peak = memKb(p).hwm;
	const r = await variantRun(n8n, ex.executionId, fullV.timed);
	r.mem = (peak - baseline) * 1024;
	r.nodeMem = (peakIn(samples, r.from, r.to) - baseline) * 1024;
	return r;
}

/** A raw GET + JSON.parse of the table in this process, then the same in a bare Node 24. */
async function rawRead(ctx, out, requests) {
	const { tableUrl, apiKey, requestLog } = ctx;
	requestLog?.clearLog();
	gc();
	const start = performance.now();
	const res = await fetch(tableUrl, { headers: { Authorization: `Bearer ${apiKey}` } });
	out.server.push(performance.now() - start);
	const text = await res.text();
	const parsed = JSON.parse(text);
	const rawMs = performance.now() - start;
	if (parsed.records.length !== READ_ROWS)
		throw new Error(`raw GET: ${parsed.records.length} records`);
	out.payloadBytes = Buffer.byteLength(text);
	out.read.raw.push(rawMs);
	out.readReq.raw = requests();
	if (requestLog) out.serverMs.raw.push(longestMs(requestLog.log));
	out.readMem.raw.push(await rawReadMemory(tableUrl, apiKey, READ_ROWS));
	return rawMs;
}

/** One variant's read in a fresh n8n; false when the built-in node failed (skipped from then on). */
async function freshN8nRead(ctx, out, name, rep, requests) {
	const { n8nOptions, credentialData, requestLog } = ctx;
	const gcAck = N8N_GC ? join(tmpdir(), `n8n-bench-gc-${process.pid}-${rep}-${name}`) : '';
	const n8n = await startN8n(N8N_GC ? withGcPreload(n8nOptions, gcAck) : n8nOptions);
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
		out.readMem[name].push(r.mem);
		out.readNodeMem[name].push(r.nodeMem);
		out.readReq[name] = requests();
		if (requestLog) out.serverMs[name].push(longestMs(requestLog.log));
		log(
			`read #${rep} ${name}: ${ms(r.ms)} ms (server ${requestLog ? ms(out.serverMs[name].at(-1)) : '—'} ms), peak +${fmtInt(Math.round(r.mem / 1e6))} MB (during the node: +${fmtInt(Math.round(r.nodeMem / 1e6))} MB), ${out.readReq[name].text} requests`,
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
	const lists = () => ({ package: [], builtin: [], n8nHttp: [], raw: [] });
	const out = {
		read: lists(),
		readMem: lists(),
		// The peak during the variant's own nodes (sampled RSS), without n8n's work after them.
		readNodeMem: { package: [], builtin: [], n8nHttp: [] },
		readReq: {},
		// The server's time for each variant's longest request (the records read): the emulator's
		// log, or the timing proxy's in front of a real Grist.
		serverMs: lists(),
		payloadBytes: 0,
		server: [],
		builtinError: builtin ? undefined : 'skipped',
	};
	const requests = () => (requestLog ? requestSummary(requestLog.log) : { count: 0, text: '—' });
	const run = { ...ctx, variants: readVariants(docId, tableId, tableUrl) };
	for (let rep = 1; rep <= REPEATS; rep++) {
		// Alternate the order, so that a trend in the machine's load does not favour one.
		const order = (
			rep % 2 ? ['package', 'builtin', 'n8nHttp'] : ['n8nHttp', 'builtin', 'package']
		).filter((v) => READ_VARIANTS.includes(v));
		for (const name of order) {
			if (name === 'builtin' && out.builtinError) continue;
			await freshN8nRead(run, out, name, rep, requests);
		}
		const rawMs = await rawRead(ctx, out, requests);
		log(
			`read #${rep} raw: ${ms(rawMs)} ms (headers after ${ms(out.server.at(-1))} ms), ${fmtInt(out.payloadBytes)} bytes; the same GET + JSON.parse in a bare Node 24: peak +${fmtInt(Math.round(out.readMem.raw.at(-1) / 1e6))} MB`,
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
