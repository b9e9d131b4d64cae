// `npm run bench` without BENCH_ONLY: every section in one run (see ../run.mjs), the emulator in
// this process and one real n8n for the creates and writes (the reads start n8ns of their own).
import { writeFileSync } from 'node:fs';

import {
	BUILTIN_ITEMS,
	BUILTIN_REPEATS,
	COLUMNS,
	CREATE_ROWS,
	N8N_VERSION,
	READ_ROWS,
	REPEATS,
	fmtInt,
	log,
	PEOPLE,
	peopleRows,
	makeRows,
	n8nOptions,
	startEmulator,
	startN8n,
} from './common.mjs';
import { createSection } from './create.mjs';
import { idlePollSection } from './idle-poll.mjs';
import { benchCredential } from './n8n-runs.mjs';
import { needsPeople } from './targets.mjs';
import { ownTime, refCheckTime } from './own-time.mjs';
import { readRounds } from './read.mjs';
import { printReport } from './report.mjs';
import { writesSection } from './writes.mjs';

/** What the sections share: the emulator's demo site, its document and a table maker. */
function benchContext(emu) {
	const demo = emu.seedDemo();
	const docId = demo.docId;
	const base = `${emu.url}/o/${demo.orgDomain}`;
	let tableNo = 0;
	return {
		emu,
		demo,
		docId,
		base,
		auth: { Authorization: `Bearer ${demo.apiKey}` },
		tableUrl: (t) => `${base}/api/docs/${docId}/tables/${t}/records`,
		rows: makeRows(CREATE_ROWS),
		newTable: () => {
			if (tableNo === 0 && needsPeople(COLUMNS)) {
				emu.addTable(docId, PEOPLE.tableId, PEOPLE.columns);
				emu.addRecords(docId, PEOPLE.tableId, peopleRows());
			}
			const t = `Bench${++tableNo}`;
			emu.addTable(docId, t, COLUMNS);
			return t;
		},
	};
}

/** 2. The reads, after the n8n of the writes is stopped; the table seeded in the emulator. */
async function readSection(b, builtinError) {
	log(`seeding ${fmtInt(READ_ROWS)} rows…`);
	b.emu.addTable(b.docId, 'BenchRead', COLUMNS);
	for (let i = 0; i < READ_ROWS; i += 10_000)
		b.emu.addRecords(b.docId, 'BenchRead', makeRows(Math.min(10_000, READ_ROWS - i), i));
	return await readRounds({
		n8nOptions: n8nOptions(),
		credentialData: { apiKey: b.demo.apiKey, url: b.base },
		docId: b.docId,
		tableUrl: b.tableUrl('BenchRead'),
		apiKey: b.demo.apiKey,
		requestLog: b.emu,
		builtin: !builtinError,
	});
}

function writeJson(r) {
	const { create, createReq, read, readMem, readReq, writes, writeReq, own, polls, pollReq } = r;
	const json = {
		n8n: N8N_VERSION,
		repeats: REPEATS,
		builtinRepeats: BUILTIN_REPEATS,
		createRows: CREATE_ROWS,
		builtinItems: BUILTIN_ITEMS,
		readRows: READ_ROWS,
		payloadBytes: r.payloadBytes,
		create,
		createReq,
		read,
		readMem,
		readReq,
		writes,
		writeReq,
		own,
		polls,
		pollReq,
		builtinError: r.builtinError,
	};
	writeFileSync(process.env.BENCH_JSON, JSON.stringify(json, null, '\t'));
}

export async function fullBench(t0) {
	log(
		`n8n ${N8N_VERSION}; create ${fmtInt(CREATE_ROWS)} rows (built-in sample ${fmtInt(BUILTIN_ITEMS)}), read ${fmtInt(READ_ROWS)} rows, ${REPEATS} repeats (built-in create ${BUILTIN_REPEATS})`,
	);
	const refCheck = await refCheckTime();
	const own = await ownTime();
	own.refCheck = refCheck;
	const emu = await startEmulator({ logBodies: false, timing: true });
	let n8n;
	const stop = async () => {
		await n8n?.stop().catch(() => undefined);
		await emu.close().catch(() => undefined);
	};
	process.once('SIGINT', () => void stop().then(() => process.exit(130)));
	try {
		const b = benchContext(emu);
		log('starting n8n…');
		n8n = await startN8n(n8nOptions());
		log(`n8n up in ${n8n.startupMs} ms`);
		const startupMs = n8n.startupMs;
		Object.assign(b, {
			n8n,
			cred: await benchCredential(n8n, { apiKey: b.demo.apiKey, url: b.base }),
		});
		const created = await createSection(b);
		const written = await writesSection(b);
		await n8n.stop();
		n8n = undefined;
		const reads = await readSection(b, created.builtinError);
		const polled = await idlePollSection(b);
		const r = { ...created, ...written, ...reads, ...polled, own, startupMs };
		r.builtinError = created.builtinError ?? reads.builtinError;
		printReport(r, t0);
		if (process.env.BENCH_JSON) writeJson(r);
	} finally {
		await stop();
	}
}
