// 5. Grist Trigger, idle polls on a READ_ROWS-row table: the trigger in n8n-core in this process,
// a document of its own; with /sql, and with /sql refused (403, remembered).
import {
	COLUMNS,
	READ_ROWS,
	REPEATS,
	createPoller,
	gc,
	log,
	makeRows,
	require,
} from './common.mjs';
import { emuMs, rl } from './n8n-runs.mjs';

const POLL_VARIANTS = {
	addedSql: { event: 'rowAdded', refused: false },
	addedRecords: { event: 'rowAdded', refused: true },
	updatedSql: { event: 'rowAddedOrUpdated', refused: false },
	updatedRecords: { event: 'rowAddedOrUpdated', refused: true },
};

/** The requests of one poll, short: `GET records?sort=…&limit=…`, `POST sql`. */
const requestsText = (entries) =>
	entries
		.map(
			(e) =>
				`${e.method} ${e.apiPath.split('/').pop()}${e.query.sort ? `?sort=${e.query.sort}&limit=${e.query.limit}` : ''}`,
		)
		.join(', ');

/** A poller on the Events table after its baseline poll and one idle warm-up poll. */
async function readyPoller(b, tdoc, name, v) {
	const { GristTrigger } = require('../../dist/nodes/GristTrigger/GristTrigger.node.js');
	const p = createPoller({
		node: new GristTrigger(),
		parameters: {
			document: rl(tdoc),
			table: rl('Events'),
			event: v.event,
			...(v.event === 'rowAddedOrUpdated' ? { timestampColumn: 'Amount' } : {}),
		},
		credentials: { apiKey: b.demo.apiKey, url: b.base },
	});
	await p.poll('trigger'); // baseline
	if (v.refused)
		b.emu.fault({
			path: `/api/docs/${tdoc}/sql`,
			status: 403,
			times: 1,
			body: { error: 'insufficient document access' },
		});
	if ((await p.poll('trigger')) !== null) throw new Error(`${name}: the warm-up poll emitted`);
	return p;
}

export async function idlePollSection(b) {
	const tdoc = b.emu.addDoc(b.demo.workspaceId, { name: 'Trigger bench', owner: b.demo.email }).id;
	b.emu.addTable(tdoc, 'Events', COLUMNS);
	for (let i = 0; i < READ_ROWS; i += 10_000)
		b.emu.addRecords(tdoc, 'Events', makeRows(Math.min(10_000, READ_ROWS - i), i));
	const polls = Object.fromEntries(Object.keys(POLL_VARIANTS).map((k) => [k, []]));
	const pollReq = {};
	for (const [name, v] of Object.entries(POLL_VARIANTS)) {
		const p = await readyPoller(b, tdoc, name, v);
		for (let rep = 0; rep < Math.max(REPEATS, 5); rep++) {
			b.emu.clearLog();
			gc();
			const start = performance.now();
			if ((await p.poll('trigger')) !== null) throw new Error(`${name}: an idle poll emitted`);
			const t = performance.now() - start;
			const scanned = b.emu.log.reduce((a, e) => a + (e.rowsScanned ?? 0), 0);
			polls[name].push({ poll: t, emu: emuMs(b.emu.log), scanned });
			pollReq[name] = requestsText(b.emu.log);
		}
		log(`trigger ${name}: ${pollReq[name]}, ${polls[name].at(-1).scanned} rows scanned`);
	}
	return { polls, pollReq };
}
