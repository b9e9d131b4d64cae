// Preloaded into the benchmark's n8n (`NODE_OPTIONS=--require …/n8n-gc.cjs`, bench/run.mjs): on
// SIGUSR2 a full garbage collection, then the time it ended is written to BENCH_GC_ACK. The bench
// sends it before each measured read, so that both nodes start from the same heap: without it,
// the garbage of n8n's start and warm-up read is collected inside whichever node's read V8 picks
// (a full collection of n8n's heap takes 200–500 ms here), which decided a round more than the
// node did. BENCH_TRACE_GC=1 also prints V8's one-line trace of every collection (NODE_OPTIONS
// refuses --trace-gc itself).
'use strict';
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');

const ack = process.env.BENCH_GC_ACK;
if (ack) {
	v8.setFlagsFromString('--expose-gc');
	const gc = vm.runInNewContext('gc');
	if (process.env.BENCH_TRACE_GC === '1') v8.setFlagsFromString('--trace-gc');
	process.on('SIGUSR2', () => {
		gc();
		writeFileSync(ack, String(Date.now()));
	});
}
