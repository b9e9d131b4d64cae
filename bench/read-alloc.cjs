// The memory of a read without the garbage collector's timing in it: run by bench/run.mjs
// (BENCH_ONLY=read) in a child process (`node --expose-gc`). The same Get Many of all rows by
// this package's node (dist/, Return All, Simplify) and by n8n's built-in Grist node (from the
// runtime cache's n8n-nodes-base), each through n8n-core in this process
// (test/harness/inprocess.ts), against the server the bench reads from. Per read:
//   - allocated: the bytes V8 allocated during it, from its sampling heap profiler with the
//     objects later collected by minor and major GCs kept in the profile (one sample every 256
//     bytes on average) — the parse, the output, n8n-core's work around the node;
//   - held: the heap still used 300 ms after it, after a full GC, minus the heap before it: the
//     output items that n8n keeps.
// Neither depends on when V8 happens to collect, which decides most of an RSS peak in n8n (see
// docs/PERFORMANCE.md, Reading 100,000 rows). With `peak` set to a variant instead: that variant's first full read in this
// fresh process (after a 1-row read and a full GC), without the profiler: its peak RSS (VmHWM
// after `clear_refs`) minus the RSS before it, and its time.
// Args: one JSON { url, apiKey, docId, tableId, rows, rounds, builtinDir, peak? }. Prints one
// JSON line: { package: { allocated: [...], held: [...] }, builtin: {...} }, or { peak, ms }.
'use strict';
require('./ts-register.cjs');
const inspector = require('node:inspector/promises');
const { runInNewContext } = require('node:vm');
const { runNode } = require('../test/harness/inprocess.ts');

const gc = runInNewContext('gc');
const args = JSON.parse(process.argv[2]);
const { Grist } = require('../dist/nodes/Grist/Grist.node.js');
const Builtin = require(`${args.builtinDir}/nodes/Grist/Grist.node.js`).Grist;
const { GristApi } = require(`${args.builtinDir}/credentials/GristApi.credentials.js`);

const rl = (value) => ({ __rl: true, mode: 'id', value });
const variants = {
	package: (all) => ({
		node: new Grist(),
		parameters: {
			resource: 'record',
			operation: 'getAll',
			document: rl(args.docId),
			table: rl(args.tableId),
			...(all ? { returnAll: true } : { limit: 1 }),
		},
		credentials: { apiKey: args.apiKey, url: args.url },
	}),
	builtin: (all) => ({
		node: new Builtin(),
		parameters: {
			operation: 'getAll',
			docId: args.docId,
			tableId: args.tableId,
			...(all ? { returnAll: true } : { limit: 1 }),
		},
		otherCredentials: { gristApi: { apiKey: args.apiKey, url: args.url } },
		credentialTypes: [new GristApi()],
	}),
};

const status = () => require('node:fs').readFileSync('/proc/self/status', 'utf8');
const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status())[1]);

/** One variant's first full read in this process: peak RSS over the RSS before it, and its time. */
async function firstReadPeak(name) {
	const warm = await runNode(variants[name](false));
	if (warm.error) throw new Error(`${name} (1 row): ${warm.error.message}`);
	gc();
	gc();
	require('node:fs').writeFileSync('/proc/self/clear_refs', '5');
	const before = kb('VmRSS');
	const start = performance.now();
	const r = await runNode(variants[name](true));
	const ms = performance.now() - start;
	const peak = (kb('VmHWM') - before) * 1024;
	if (r.error) throw new Error(`${name}: ${r.error.message}`);
	if (r.items.length !== args.rows)
		throw new Error(`${name}: ${r.items.length} items, expected ${args.rows}`);
	process.stdout.write(`${JSON.stringify({ peak, ms })}\n`);
}

async function main() {
	if (args.peak) return await firstReadPeak(args.peak);
	const session = new inspector.Session();
	session.connect();
	const out = { package: { allocated: [], held: [] }, builtin: { allocated: [], held: [] } };
	for (let round = 0; round < args.rounds; round++) {
		// Alternate the order, as the n8n rounds do.
		for (const name of round % 2 ? ['builtin', 'package'] : ['package', 'builtin']) {
			const warm = await runNode(variants[name](false));
			if (warm.error) throw new Error(`${name} (1 row): ${warm.error.message}`);
			gc();
			gc();
			const before = process.memoryUsage().heapUsed;
			await session.post('HeapProfiler.startSampling', {
				samplingInterval: 256,
				includeObjectsCollectedByMajorGC: true,
				includeObjectsCollectedByMinorGC: true,
			});
			let r = await runNode(variants[name](true));
			const { profile } = await session.post('HeapProfiler.stopSampling');
			if (r.error) throw new Error(`${name}: ${r.error.message}`);
			if (r.items.length !== args.rows)
				throw new Error(`${name}: ${r.items.length} items, expected ${args.rows}`);
			let allocated = 0;
			const walk = (n) => {
				allocated += n.selfSize;
				for (const c of n.children) walk(c);
			};
			walk(profile.head);
			// Sockets and their buffers are let go shortly after the answer.
			await new Promise((resolve) => setTimeout(resolve, 300));
			gc();
			gc();
			const held = process.memoryUsage().heapUsed - before;
			out[name].allocated.push(allocated);
			out[name].held.push(held);
			r = undefined;
		}
	}
	session.disconnect();
	process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().then(
	() => process.exit(0),
	(e) => {
		process.stderr.write(`${e?.stack ?? e}\n`);
		process.exit(1);
	},
);
