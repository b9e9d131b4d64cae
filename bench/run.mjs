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
// deletes, every read through bench/timing-proxy.mjs so that each variant's server time shows:
// Grist's time from the first request's arrival to the last byte, the records answer's wait and
// send, the CPU time of Grist's processes when they run on this machine, and each variant's
// query strings), BENCH_ONLY=create (a create's time before its first POST in a real n8n),
// BENCH_READ_DOC (with GRIST_URL: the document of an earlier read run, kept and not seeded),
// BENCH_READ_VARIANTS (package,builtin,n8nHttp), BENCH_READ_PACKAGES=<name>=<dir>,… (other
// builds of the package, e.g. variants of the read path, read in the same interleaved rounds),
// BENCH_READ_ALLOC=0 (BENCH_ONLY=read without bench/read-alloc.cjs), BENCH_GRIST_PID (the real
// Grist's server process, when it is not found by its command line), BENCH_SOURCE=1 (own time of the TypeScript sources instead of dist/, while changing them),
// BENCH_N8N_GC=0 (no full collection in n8n before a measured read),
// BENCH_BASELINE=<git rev> (A/B: this package against that revision's, see below).
//
// A/B (BENCH_BASELINE=<git rev>, e.g. `BENCH_BASELINE=main npm run bench`): the revision is checked
// out in a temporary git worktree (node_modules a hard-link copy, `cp -al`) and built there; two
// real n8n instances run side by side, one with each packed package, against the same Grist (the
// emulator in this process, or a real Grist when GRIST_URL and GRIST_API_KEY are set), and the
// create, update, upsert (BENCH_CREATE_ROWS) and read (BENCH_READ_ROWS; each measured read in a
// freshly restarted n8n) measurements alternate between them run by run; the report gives each
// median side by side and the ratio new/baseline. Real n8n rather than the in-process n8n-core
// harness: the measurement is the one users see (the Grist node's executionTime in n8n), the
// harness already installs any packed package, and both instances stay up, so a round costs only
// the runs and the reads' restarts (the default sizes take some minutes).
// Linux only (/proc).
//
// The parts, in bench/lib/: common.mjs (settings, harness, rows, formatting), targets.mjs (the
// emulator or a real Grist), n8n-runs.mjs (workflows, node times, credentials), memory.mjs (/proc,
// n8n's GC), own-time.mjs (3b, in-process), create.mjs (1), read.mjs (2), writes.mjs (3, 4),
// idle-poll.mjs (5), report.mjs, full.mjs (everything), read-only.mjs, create-start.mjs,
// baseline.mjs and compare.mjs (A/B).
import { log, fmtInt, CREATE_ROWS, OWN_REPEATS } from './lib/common.mjs';
import { compareWithBaseline } from './lib/compare.mjs';
import { createStartOnly } from './lib/create-start.mjs';
import { fullBench } from './lib/full.mjs';
import { ownReport, ownTime, refCheckTime } from './lib/own-time.mjs';
import { readOnly } from './lib/read-only.mjs';
import { writesOnly } from './lib/writes-only.mjs';

/** BENCH_ONLY=own: the package's own time (3b) alone. */
async function ownOnly() {
	log(`own time only: ${fmtInt(CREATE_ROWS)} items, ${OWN_REPEATS} repeats`);
	const refCheck = await refCheckTime();
	const own = await ownTime();
	own.refCheck = refCheck;
	const r = ownReport(own);
	process.stdout.write(
		`${['', ...r.lines, '', 'Targets (our own time):', ...r.targets].join('\n')}\n`,
	);
}

async function main() {
	const t0 = Date.now();
	if (process.env.BENCH_BASELINE) return await compareWithBaseline(t0);
	if (process.env.BENCH_ONLY === 'read') return await readOnly(t0);
	if (process.env.BENCH_ONLY === 'create') return await createStartOnly(t0);
	if (process.env.BENCH_ONLY === 'own') return await ownOnly();
	if (process.env.BENCH_ONLY === 'writes') return await writesOnly(t0);
	return await fullBench(t0);
}

main().then(
	() => process.exit(0),
	(e) => {
		process.stderr.write(`[bench] failed: ${e.stack ?? e}\n`);
		process.exit(1);
	},
);
