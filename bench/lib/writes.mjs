// 3./4. Writes of CREATE_ROWS items in n8n (create, update, upsert) and the Batch Size option at
// both ends: the node's time, the emulator's handling time of its requests, the longest request.
import { CREATE_ROWS, REPEATS, gc, log, manualWorkflow, ms } from './common.mjs';
import {
	emuMs,
	execute,
	longestMs,
	nodeRun,
	packageNode,
	recordWrites,
	requestSummary,
	rl,
} from './n8n-runs.mjs';

/** Each write: its table (new, or seeded with the rows), its items, parameters and rows after. */
function writeVariants(b) {
	const seeded = () => {
		const t = b.newTable();
		b.emu.addRecords(b.docId, t, b.rows);
		return t;
	};
	const { create, update, upsert } = recordWrites();
	const withBatch = (batchSize) => ({
		...create,
		table: b.newTable,
		params: { ...create.params, options: { batchSize } },
	});
	return {
		create: { ...create, table: b.newTable },
		update: { ...update, table: seeded },
		upsert: { ...upsert, table: seeded },
		batch100: withBatch(100),
		batchMax: withBatch(10_000),
	};
}

/** One write of variant `v`: the node's time, the emulator's share, the longest request. */
async function writeRun(b, name, v) {
	const t = v.table();
	b.emu.clearLog();
	gc();
	const ex = await execute(
		b.n8n,
		manualWorkflow([
			v.items,
			packageNode(b.cred, { resource: 'record', document: rl(b.docId), table: rl(t), ...v.params }),
		]),
		300_000,
	);
	const r = await nodeRun(b.n8n, ex.executionId);
	const have = b.emu.records(b.docId, t).length;
	if (r.items !== CREATE_ROWS || have !== v.rows)
		throw new Error(`${name}: ${r.items} items, ${have} rows, expected ${v.rows}`);
	return { node: r.ms, emu: emuMs(b.emu.log), longest: longestMs(b.emu.log) };
}

export async function writesSection(b) {
	const variants = writeVariants(b);
	const writes = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
	const writeReq = {};
	for (let rep = 1; rep <= REPEATS; rep++) {
		for (const [name, v] of Object.entries(variants)) {
			const w = await writeRun(b, name, v);
			writes[name].push(w);
			writeReq[name] = requestSummary(b.emu.log);
			log(
				`${name} #${rep}: node ${ms(w.node)} ms, emulator ${ms(w.emu)} ms, outside ${ms(w.node - w.emu)} ms, longest request ${ms(w.longest)} ms, ${writeReq[name].text} requests`,
			);
		}
	}
	return { writes, writeReq };
}
