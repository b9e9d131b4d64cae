// BENCH_ONLY=writes: create, update and upsert of CREATE_ROWS items of the bench table, this
// package in a real n8n against plain HTTP from this process at the same batch size (CHUNK rows
// per request, sequential, keep-alive fetch, the rows already encoded as Grist stores them),
// interleaved round by round (the order flips every round); against the emulator or a real Grist
// (GRIST_URL, GRIST_API_KEY). Per write: the Grist node's executionTime, and n8n's peak RSS during
// it (VmHWM after `clear_refs`) over its RSS before it; plain HTTP: wall time including
// JSON.stringify of the bodies.
import { writeFileSync } from 'node:fs';

import {
	CHUNK,
	CREATE_ROWS,
	N8N_VERSION,
	REPEATS,
	TABLE_TEXT,
	fmtInt,
	gc,
	log,
	makeRows,
	manualWorkflow,
	median,
	ms,
	n8nOptions,
	pad,
	startN8n,
	target,
} from './common.mjs';
import { memKb, n8nPid, resetPeak } from './memory.mjs';
import { execute, nodeRun, packageNode, recordWrites, rl } from './n8n-runs.mjs';
import { emulatorTarget, realGristTarget, realGristUrl } from './targets.mjs';

const HALF = Math.floor(CREATE_ROWS / 2);
const LABEL = {
	create: `Create ${fmtInt(CREATE_ROWS)} rows`,
	update: `Update ${fmtInt(CREATE_ROWS)} rows (Row ID ={{ $json.id }})`,
	upsert: `Create or Update ${fmtInt(CREATE_ROWS)} on Email (${fmtInt(HALF)} match)`,
};

/** The plain HTTP bodies of each write, CHUNK records each, as this package sends them. */
function plainBodies() {
	const rows = makeRows(CREATE_ROWS);
	const upsertRows = makeRows(CREATE_ROWS, HALF);
	const chunks = (records) =>
		Array.from({ length: Math.ceil(records.length / CHUNK) }, (_, c) => ({
			records: records.slice(c * CHUNK, (c + 1) * CHUNK),
		}));
	return {
		create: { method: 'POST', bodies: () => chunks(rows.map((fields) => ({ fields }))) },
		update: {
			method: 'PATCH',
			bodies: () =>
				chunks(rows.map((r, i) => ({ id: i + 1, fields: { ...r, Name: `Updated ${i}` } }))),
		},
		upsert: {
			method: 'PUT',
			bodies: () =>
				chunks(upsertRows.map(({ Email, ...fields }) => ({ require: { Email }, fields }))),
		},
	};
}

/** One plain HTTP write: the requests one after the other, each body stringified just before. */
async function plainWrite(t, table, op) {
	const url = t.tableUrl(table);
	const headers = { Authorization: `Bearer ${t.apiKey}`, 'Content-Type': 'application/json' };
	const bodies = op.bodies();
	gc();
	const start = performance.now();
	for (const body of bodies) {
		const res = await fetch(url, { method: op.method, headers, body: JSON.stringify(body) });
		const text = await res.text();
		if (!res.ok) throw new Error(`plain ${op.method}: ${res.status} ${text.slice(0, 200)}`);
	}
	return { ms: performance.now() - start, requests: bodies.length };
}

/** One write by this package in n8n: its executionTime, n8n's peak over its RSS before. */
async function packageWrite(n8n, pid, cred, t, table, op) {
	gc();
	const params = { resource: 'record', document: rl(t.docId), table: rl(table), ...op.params };
	const before = resetPeak(pid);
	const wf = manualWorkflow([op.items, packageNode(cred, params)]);
	const r = await nodeRun(n8n, (await execute(n8n, wf, 300_000)).executionId);
	const peak = (memKb(pid).hwm - before) * 1024;
	if (r.items !== CREATE_ROWS) throw new Error(`package: ${r.items} items`);
	return { ms: r.ms, peak };
}

export async function writesOnly(t0) {
	const keepAlive = setInterval(() => undefined, 60_000);
	let t;
	let n8n;
	try {
		t = realGristUrl()
			? await realGristTarget({ docName: 'Write bench', workspacePrefix: 'n8n-bench-write' })
			: await emulatorTarget();
		let n = 0;
		const table = async (seeded) => {
			const name = `W${++n}`;
			await t.addTable(name);
			if (seeded) await t.seedRows(name, CREATE_ROWS);
			return name;
		};
		log('starting n8n…');
		n8n = await startN8n(n8nOptions());
		const pid = n8nPid(n8n.userFolder);
		const cred = await n8n.createCredential({
			name: 'Grist bench',
			type: 'gristRecordsApi',
			data: t.credentialData,
		});
		const ours = recordWrites();
		const plain = plainBodies();
		const rowsAfter = { create: CREATE_ROWS, update: CREATE_ROWS, upsert: CREATE_ROWS + HALF };
		const out = Object.fromEntries(
			Object.keys(LABEL).map((k) => [k, { package: [], plain: [], peak: [], requests: 0 }]),
		);
		// A warm-up of each side, not counted.
		await packageWrite(n8n, pid, cred, t, await table(false), ours.create);
		await plainWrite(t, await table(false), plain.create);
		for (let rep = 1; rep <= REPEATS; rep++) {
			for (const k of Object.keys(LABEL)) {
				const sides = rep % 2 ? ['package', 'plain'] : ['plain', 'package'];
				for (const side of sides) {
					const name = await table(k !== 'create');
					if (side === 'package') {
						const r = await packageWrite(n8n, pid, cred, t, name, ours[k]);
						out[k].package.push(r.ms);
						out[k].peak.push(r.peak);
					} else {
						const r = await plainWrite(t, name, plain[k]);
						out[k].plain.push(r.ms);
						out[k].requests = r.requests;
					}
					const have = await t.rowCount(name);
					if (have !== rowsAfter[k])
						throw new Error(`${side} ${k}: ${have} rows, expected ${rowsAfter[k]}`);
				}
				log(
					`${k} #${rep}: package ${ms(out[k].package.at(-1))} ms (n8n +${(out[k].peak.at(-1) / 1e6).toFixed(0)} MB), plain ${ms(out[k].plain.at(-1))} ms`,
				);
			}
		}
		const runs = (xs) => xs.map(ms).join(' / ');
		const lines = [
			'',
			`Writes of the ${TABLE_TEXT} — n8n ${N8N_VERSION} against ${t.serverName}; median of ${REPEATS} rounds, interleaved; plain HTTP: ${CHUNK} rows per request, sequential, from this process`,
			`   ${pad('write', 48)}${pad('package ms', 12)}${pad('plain ms', 10)}${pad('ratio', 8)}${pad('n8n peak', 11)}runs (package | plain)`,
		];
		const targets = [];
		for (const [k, o] of Object.entries(out)) {
			const ratio = median(o.package) / median(o.plain);
			lines.push(
				`   ${pad(LABEL[k], 48)}${pad(ms(median(o.package)), 12)}${pad(ms(median(o.plain)), 10)}${pad(`${ratio.toFixed(2)}×`, 8)}${pad(`+${(median(o.peak) / 1e6).toFixed(0)} MB`, 11)}${runs(o.package)} | ${runs(o.plain)} (plain: ${o.requests} requests)`,
			);
			targets.push(target(ratio <= 1.2, `${LABEL[k]} ≤ 1.2× plain HTTP: ${ratio.toFixed(2)}×`));
		}
		lines.push('', 'Targets (writes):', ...targets);
		lines.push('', `(whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
		process.stdout.write(`${lines.join('\n')}\n`);
		if (process.env.BENCH_JSON)
			writeFileSync(
				process.env.BENCH_JSON,
				JSON.stringify({ server: t.serverName, table: TABLE_TEXT, out }, null, '\t'),
			);
	} finally {
		await n8n?.stop().catch(() => undefined);
		await t?.close().catch((e) => log(`cleanup failed: ${e.message}`));
		clearInterval(keepAlive);
	}
}
