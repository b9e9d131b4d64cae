// BENCH_ONLY=read: the reads of (2.) alone, with the server's time, the RSS peak during the nodes
// alone and the allocations through n8n-core; against the emulator, or a real Grist.
import { writeFileSync } from 'node:fs';

import {
	N8N_VERSION,
	READ_ROWS,
	REPEATS,
	TABLE_TEXT,
	fmtInt,
	log,
	median,
	medians,
	ms,
	n8nOptions,
	pad,
	target,
} from './common.mjs';
import { readAllocations, readRounds } from './read.mjs';
import { emulatorTarget, realGristTarget, realGristUrl } from './targets.mjs';

const LABEL = {
	package: 'n8n-nodes-grist (getAll, all, Simplify)',
	packageRaw: 'n8n-nodes-grist (getAll, all, Simplify off)',
	builtin: 'n8n-nodes-base.grist (getAll, all)',
	n8nHttp: 'n8n HTTP Request GET + Split Out',
	raw: 'raw GET + JSON.parse (bench process)',
};
const mb = (x, digits = 0) => (x / 1e6).toFixed(digits);
const mbRuns = (xs) => xs.map((x) => mb(x)).join(' / ');

/** The table of the variants: time, ratios, server time, requests, memory. */
function variantLines(r, serverName) {
	const rd = medians(r.read);
	const mem = medians(r.readMem);
	const nodeMem = medians(r.readNodeMem);
	const out = [
		'',
		`Read ${fmtInt(READ_ROWS)} rows of the ${TABLE_TEXT} (${mb(r.payloadBytes, 1)} MB) — n8n ${N8N_VERSION} against ${serverName}; median of ${REPEATS} rounds, variants interleaved`,
		`   server: the raw GET's answer headers after ${ms(median(r.server))} ms (runs ${r.server.map(ms).join(' / ')})`,
		`   ${pad('variant', 42)}${pad('median ms', 11)}${pad('vs raw', 8)}${pad('vs built-in', 13)}${pad('server ms', 22)}${pad('Grist CPU', 11)}${pad('requests', 10)}${pad('peak − baseline', 28)}${pad('during the node', 18)}runs`,
	];
	for (const k of Object.keys(r.read)) {
		if (!r.read[k].length) {
			out.push(`   ${pad(LABEL[k] ?? k, 42)}—  ${r.builtinError ?? ''}`);
			continue;
		}
		const m = `${mb(mem[k])} MB = ${(mem[k] / r.payloadBytes).toFixed(1)}× payload`;
		const n = nodeMem[k] === undefined ? '—' : `${mb(nodeMem[k])} MB`;
		const srv = r.gristSpan[k].length
			? `${ms(median(r.gristSpan[k]))} (${ms(median(r.gristWait[k]))} + ${ms(median(r.gristSend[k]))})`
			: r.serverMs[k].length
				? ms(median(r.serverMs[k]))
				: '—';
		out.push(
			`   ${pad(LABEL[k] ?? `${k} (BENCH_READ_PACKAGES)`, 42)}${pad(ms(rd[k]), 11)}${pad(`${(rd[k] / rd.raw).toFixed(2)}×`, 8)}${pad(rd.builtin ? `${(rd[k] / rd.builtin).toFixed(2)}×` : '—', 13)}${pad(srv, 22)}${pad(r.gristSpan[k].length ? ms(median(r.gristCpu[k])) : '—', 11)}${pad(r.readReq[k]?.text ?? '—', 10)}${pad(m, 28)}${pad(n, 18)}${r.read[k].map(ms).join(' / ')}`,
		);
	}
	const gristRuns = Object.keys(r.gristSpan).filter((k) => r.gristSpan[k].length);
	if (gristRuns.length)
		out.push(
			"   Grist's time per read, through the timing proxy: from the first request's arrival to the last byte of the last answer (all the read's requests), and the records answer's wait (arrival → first byte: Grist building it) + send (first → last byte: the transfer, stretched by a reader that drains slowly), runs:",
			...gristRuns.map(
				(k) =>
					`   ${pad(k, 10)}${r.gristSpan[k].map(ms).join(' / ')}  (wait ${r.gristWait[k].map(ms).join(' / ')}; send ${r.gristSend[k].map(ms).join(' / ')}); Grist CPU ${r.gristCpu[k].map(ms).join(' / ')}${r.n8nCpu[k]?.length ? `; n8n CPU ${r.n8nCpu[k].map(ms).join(' / ')}` : ''}${r.gristBefore[k].length ? `; the node before the first request ${r.gristBefore[k].map(ms).join(' / ')}, after the last byte ${r.gristAfter[k].map(ms).join(' / ')}` : ''}`,
			),
			'   requests of each variant (the last read; method, path and query, the headers that can matter):',
			...gristRuns.flatMap((k) => r.gristRequests[k].map((q) => `   ${pad(k, 10)}${q}`)),
		);
	out.push(
		"   (n8n variants: the nodes' executionTime in a fresh n8n each; server ms: with a real Grist, Grist's time for the whole read (first arrival → last byte) and, in brackets, the records answer's wait + send; with the emulator the longest request of the read (the records), from its arrival to the last byte of the answer;",
		"    peak: n8n's VmHWM − RSS after a 1-row warm-up, raw: a bare Node 24 process;",
		"    during the node: the largest RSS sampled every 4 ms while the variant's nodes ran − the same baseline, without n8n's saving of the execution after them)",
		`   memory runs, package: ${mbRuns(r.readMem.package)} MB (during the node ${mbRuns(r.readNodeMem.package)}); Simplify off: ${mbRuns(r.readMem.packageRaw)} MB (during the node ${mbRuns(r.readNodeMem.packageRaw)}); built-in: ${mbRuns(r.readMem.builtin)} MB (during the node ${mbRuns(r.readNodeMem.builtin)})`,
	);
	return out;
}

/** The allocations through n8n-core (bench/read-alloc.cjs). */
function allocationLines(alloc) {
	return [
		'',
		`   through n8n-core, no n8n server around it (bench/read-alloc.cjs), median of ${REPEATS}: allocated during the read (sampling heap profiler, collected objects included) / heap held after it (after a full GC) / peak RSS of the first full read in a fresh process, and its time`,
		...['package', 'builtin'].map(
			(k) =>
				`   ${pad(LABEL[k], 42)}${pad(`${mb(median(alloc[k].allocated), 1)} MB / ${mb(median(alloc[k].held), 1)} MB / ${mb(median(alloc[k].peak))} MB, ${ms(median(alloc[k].ms))} ms`, 36)}runs ${mbRuns(alloc[k].allocated)}; held ${mbRuns(alloc[k].held)}; peak ${mbRuns(alloc[k].peak)}; ms ${alloc[k].ms.map(ms).join(' / ')}`,
		),
	];
}

/** The reading targets: against the raw GET, and (when it ran) against the built-in node. */
function targetLines(r, alloc) {
	const rd = medians(r.read);
	const mem = medians(r.readMem);
	const nodeMem = medians(r.readNodeMem);
	const med = (k, key) => median(alloc?.[k][key] ?? []);
	const vsBuiltin = (label, a, b) => target(a <= b, `${label}${(a / b).toFixed(2)}×`);
	const ours = ['package', 'packageRaw'].filter((k) => rd[k] !== undefined);
	return [
		'',
		'Targets (reading):',
		...ours.flatMap((k) => [
			target(
				rd[k] <= 1.2 * rd.raw,
				`${k}: read ≤ 1.2× raw GET + parse:   ${(rd[k] / rd.raw).toFixed(2)}×`,
			),
			...(rd.builtin
				? [
						vsBuiltin(`${k}: read ≤ built-in node:          `, rd[k], rd.builtin),
						vsBuiltin(`${k}: peak memory ≤ built-in node's: `, mem[k], mem.builtin),
						vsBuiltin(
							`${k}: memory during the node ≤ built-in node's: `,
							nodeMem[k],
							nodeMem.builtin,
						),
					]
				: []),
		]),
		...(rd.builtin && alloc ? allocTargets(vsBuiltin, med) : []),
	];
}

/** The allocation targets (when bench/read-alloc.cjs ran). */
function allocTargets(vsBuiltin, med) {
	return [
		vsBuiltin(
			"allocated ≤ built-in node's:    ",
			med('package', 'allocated'),
			med('builtin', 'allocated'),
		),
		vsBuiltin("held after ≤ built-in node's:   ", med('package', 'held'), med('builtin', 'held')),
		vsBuiltin(
			"first-read peak (n8n-core) ≤ built-in node's: ",
			med('package', 'peak'),
			med('builtin', 'peak'),
		),
	];
}

/** The read's target: a real Grist's timed table (kept, or seeded now), or the emulator's. */
async function readTarget() {
	if (!realGristUrl()) {
		const t = await emulatorTarget();
		await t.addTable('BenchRead');
		await t.seedRows('BenchRead', READ_ROWS);
		return t;
	}
	// BENCH_READ_DOC: a document of an earlier run whose BenchRead table is kept (no seeding).
	const kept = process.env.BENCH_READ_DOC;
	const t = await realGristTarget({ timingProxy: true, keptDoc: kept });
	if (!kept) {
		await t.addTable('BenchRead');
		await t.seedRows('BenchRead', READ_ROWS);
	}
	return t;
}

/**
 * BENCH_ONLY=read: the reads of (2.) alone, against the emulator, or against a real Grist when
 * GRIST_URL, GRIST_API_KEY (and GRIST_ORG, default docs) are set: then a workspace of its own
 * holds the table and is deleted at the end.
 */
export async function readOnly(t0) {
	// Without the emulator's server nothing else keeps this process alive while the harness waits
	// on n8n with unreferenced timers: Node would exit early, with code 0 and no report.
	const keepAlive = setInterval(() => undefined, 60_000);
	let t;
	try {
		t = await readTarget();
		const ctx = {
			...t,
			tableUrl: t.tableUrl('BenchRead'),
			n8nOptions: n8nOptions(),
			builtin: true,
		};
		const r = await readRounds(ctx);
		// BENCH_READ_ALLOC=0: without the allocations through n8n-core (some minutes), e.g. for
		// repeated runs of the time comparison alone.
		let alloc;
		if (process.env.BENCH_READ_ALLOC !== '0') {
			log('allocations of the read through n8n-core (bench/read-alloc.cjs)…');
			alloc = await readAllocations({
				url: t.credentialData.url,
				apiKey: t.apiKey,
				docId: t.docId,
				tableId: 'BenchRead',
				rows: READ_ROWS,
				rounds: REPEATS,
			});
		}
		const out = [
			...variantLines(r, t.serverName),
			...(alloc ? allocationLines(alloc) : []),
			...targetLines(r, alloc),
			'',
			`(whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
		];
		process.stdout.write(`${out.join('\n')}\n`);
		if (process.env.BENCH_JSON)
			writeFileSync(
				process.env.BENCH_JSON,
				JSON.stringify({ server: t.serverName, ...r, alloc }, null, '\t'),
			);
	} finally {
		await t?.close().catch((e) => log(`cleanup failed: ${e.message}`));
		clearInterval(keepAlive);
	}
}
