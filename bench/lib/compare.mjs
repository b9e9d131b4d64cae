// BENCH_BASELINE=<git rev>: this package against that revision's, in one run. Two real n8n
// instances, one with each packed package, against the same Grist (the emulator in this process,
// or a real Grist with GRIST_URL and GRIST_API_KEY); create, update, upsert (CREATE_ROWS items)
// and read (READ_ROWS rows) alternated run by run (the order flips every round), medians side by
// side with the ratio new/baseline.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildBaseline, currentRevision } from './baseline.mjs';
import {
	CREATE_ROWS,
	N8N_VERSION,
	READ_ROWS,
	REPEATS,
	fmtInt,
	gc,
	log,
	manualWorkflow,
	median,
	ms,
	n8nOptions,
	pad,
	padL,
	startN8n,
} from './common.mjs';
import { N8N_GC, n8nFullGc, n8nPid, withGcPreload } from './memory.mjs';
import { execute, nodeRun, packageNode, recordWrites, rl } from './n8n-runs.mjs';
import { emulatorTarget, realGristTarget, realGristUrl } from './targets.mjs';

const HALF = Math.floor(CREATE_ROWS / 2);
const LABEL = {
	create: `create ${fmtInt(CREATE_ROWS)} rows`,
	update: `update ${fmtInt(CREATE_ROWS)} rows (Row ID ={{ $json.id }})`,
	upsert: `upsert ${fmtInt(CREATE_ROWS)} items on Email (${fmtInt(HALF)} match)`,
	read: `read ${fmtInt(READ_ROWS)} rows (getAll, Return All)`,
};

/** The writes: each one's table (new, or seeded with the bench rows), items, parameters, rows after. */
function writeOps(t) {
	let n = 0;
	const newTable = async () => {
		const table = `AB${++n}`;
		await t.addTable(table);
		return table;
	};
	const seeded = async () => {
		const table = await newTable();
		await t.seedRows(table, CREATE_ROWS);
		return table;
	};
	const { create, update, upsert } = recordWrites();
	return {
		create: { ...create, table: newTable },
		update: { ...update, table: seeded },
		upsert: { ...upsert, table: seeded },
	};
}

/** One n8n with the package of `packageDir` installed, and its credential at the target. */
async function startSide(name, packageDir, t) {
	const gcAck = N8N_GC ? join(tmpdir(), `n8n-bench-ab-gc-${process.pid}-${name}`) : '';
	const options = { ...n8nOptions(), packageDir };
	log(`starting the ${name} n8n…`);
	const n8n = await startN8n(N8N_GC ? withGcPreload(options, gcAck) : options);
	const cred = await n8n.createCredential({
		name: 'Grist bench',
		type: 'gristRecordsApi',
		data: t.credentialData,
	});
	return { name, n8n, cred, gcAck };
}

/** The Grist node's executionTime of one write on `side`, its output and table checked. */
async function writeOnce(side, t, name, op) {
	const table = await op.table();
	gc();
	const params = { resource: 'record', document: rl(t.docId), table: rl(table), ...op.params };
	const wf = manualWorkflow([op.items, packageNode(side.cred, params)]);
	const r = await nodeRun(side.n8n, (await execute(side.n8n, wf, 300_000)).executionId);
	const have = await t.rowCount(table);
	if (r.items !== CREATE_ROWS || have !== op.rows)
		throw new Error(`${side.name} ${name}: ${r.items} items, ${have} rows, expected ${op.rows}`);
	return r.ms;
}

/** The getAll of the read table: all rows, or 1 (the warm-up). */
const readNode = (side, t, all) =>
	packageNode(side.cred, {
		resource: 'record',
		operation: 'getAll',
		document: rl(t.docId),
		table: rl('BenchRead'),
		...(all ? { returnAll: true } : { limit: 1 }),
	});

/**
 * One read on `side`. n8n keeps the heap it grew, so each measured read runs in a freshly
 * restarted n8n: a 1-row warm-up read, a full collection in n8n, then the full read.
 */
async function readOnce(side, t) {
	await side.n8n.restart();
	const warm = await execute(side.n8n, manualWorkflow([readNode(side, t, false)]), 60_000);
	if ((await nodeRun(side.n8n, warm.executionId)).items !== 1)
		throw new Error(`${side.name} read (limit 1): not 1 item`);
	gc();
	if (side.gcAck) await n8nFullGc(n8nPid(side.n8n.userFolder), side.gcAck);
	const ex = await execute(side.n8n, manualWorkflow([readNode(side, t, true)]), 300_000);
	const r = await nodeRun(side.n8n, ex.executionId);
	if (r.items !== READ_ROWS)
		throw new Error(`${side.name} read: ${r.items} items, expected ${READ_ROWS}`);
	return r.ms;
}

/** REPEATS rounds after a warm-up create on each side; the order of the sides flips every round. */
async function rounds(sides, t) {
	const ops = writeOps(t);
	const times = Object.fromEntries(
		sides.map((s) => [s.name, { create: [], update: [], upsert: [], read: [] }]),
	);
	for (const side of sides) await writeOnce(side, t, 'warm-up create', ops.create);
	log('warm-up round done');
	for (let rep = 1; rep <= REPEATS; rep++) {
		const order = rep % 2 ? sides : [...sides].reverse();
		for (const name of Object.keys(ops))
			for (const side of order)
				times[side.name][name].push(await writeOnce(side, t, name, ops[name]));
		for (const side of order) times[side.name].read.push(await readOnce(side, t));
		for (const side of order)
			log(
				`#${rep} ${side.name}: ${Object.entries(times[side.name])
					.map(([k, v]) => `${k} ${ms(v.at(-1))} ms`)
					.join(', ')}`,
			);
	}
	return times;
}

function report(times, info, t0) {
	const runs = (xs) => xs.map(ms).join(' / ');
	const out = [
		'',
		`A/B — this package (${info.current}) vs baseline ${info.rev} (${info.baseline.slice(0, 12)}): n8n ${N8N_VERSION} against ${info.serverName};`,
		`   the Grist node's executionTime in ms, median of ${REPEATS} runs, the two n8n instances alternated run by run`,
		`   ${pad('measurement', 48)}${padL('new', 10)}${padL('baseline', 10)}${padL('new/baseline', 14)}  runs (new | baseline)`,
	];
	for (const k of Object.keys(LABEL)) {
		const a = median(times.new[k]);
		const b = median(times.baseline[k]);
		out.push(
			`   ${pad(LABEL[k], 48)}${padL(ms(a), 10)}${padL(ms(b), 10)}${padL((a / b).toFixed(3), 14)}  ${runs(times.new[k])} | ${runs(times.baseline[k])}`,
		);
	}
	out.push('', `(whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
	process.stdout.write(`${out.join('\n')}\n`);
}

/** The target with the read table seeded (READ_ROWS rows). */
async function compareTarget() {
	const t = realGristUrl()
		? await realGristTarget({ docName: 'A/B bench', workspacePrefix: 'n8n-bench-ab' })
		: await emulatorTarget();
	await t.addTable('BenchRead');
	await t.seedRows('BenchRead', READ_ROWS);
	return t;
}

export async function compareWithBaseline(t0) {
	const rev = process.env.BENCH_BASELINE;
	// Without the emulator's server nothing else keeps this process alive while the harness waits
	// on n8n with unreferenced timers (a real Grist target).
	const keepAlive = setInterval(() => undefined, 60_000);
	const baseline = buildBaseline(rev);
	const sides = [];
	let t;
	const stop = async () => {
		for (const s of sides) await s.n8n.stop().catch(() => undefined);
		await t?.close().catch((e) => log(`cleanup failed: ${e.message}`));
		baseline.remove();
		clearInterval(keepAlive);
	};
	process.once('SIGINT', () => void stop().then(() => process.exit(130)));
	try {
		t = await compareTarget();
		sides.push(await startSide('new', undefined, t));
		sides.push(await startSide('baseline', baseline.dir, t));
		const times = await rounds(sides, t);
		const info = {
			rev,
			baseline: baseline.commit,
			current: currentRevision(),
			serverName: t.serverName,
		};
		report(times, info, t0);
		if (process.env.BENCH_JSON)
			writeFileSync(process.env.BENCH_JSON, JSON.stringify({ ...info, times }, null, '\t'));
	} finally {
		await stop();
	}
}
