// The Grist a bench runs against: the emulator in this process (default), or a real Grist at
// GRIST_URL with GRIST_API_KEY (GRIST_ORG, default docs; GRIST_VERSION names it in the report),
// in a workspace of its own that is deleted at the end. Both give the same interface: a site URL
// and credential data, the document, tables and rows made for the bench, the request log (the
// emulator's, or a timing proxy's in front of a real Grist), and `close()`.
import { startTimingProxy } from '../timing-proxy.mjs';
import { COLUMNS, PEOPLE, fmtInt, log, makeRows, peopleRows, startEmulator } from './common.mjs';

/** The bench's target: a real Grist when GRIST_URL is set. */
export const realGristUrl = () => process.env.GRIST_URL?.replace(/\/+$/, '');

export async function emulatorTarget() {
	const emu = await startEmulator({ logBodies: false, timing: true });
	const demo = emu.seedDemo();
	const site = `${emu.url}/o/${demo.orgDomain}`;
	let people = false;
	return {
		serverName: 'the Grist emulator (in the bench process)',
		emu,
		demo,
		site,
		docId: demo.docId,
		apiKey: demo.apiKey,
		credentialData: { apiKey: demo.apiKey, url: site },
		requestLog: emu,
		tableUrl: (t) => `${site}/api/docs/${demo.docId}/tables/${t}/records`,
		addTable: async (t, columns = COLUMNS) => {
			if (needsPeople(columns) && !people) {
				people = true;
				emu.addTable(demo.docId, PEOPLE.tableId, PEOPLE.columns);
				emu.addRecords(demo.docId, PEOPLE.tableId, peopleRows());
			}
			emu.addTable(demo.docId, t, columns);
		},
		/** `count` bench rows (makeRow) from row `from` on, 10,000 per call. */
		seedRows: async (t, count, from = 0) => {
			for (let i = 0; i < count; i += 10_000)
				emu.addRecords(demo.docId, t, makeRows(Math.min(10_000, count - i), from + i));
		},
		rowCount: async (t) => emu.records(demo.docId, t).length,
		close: async () => await emu.close(),
	};
}

/** Whether `columns` refer to the PEOPLE table (made, with its rows, before the first of them). */
export const needsPeople = (columns) => columns.some((c) => c.type === `Ref:${PEOPLE.tableId}`);

/** The real server's API at GRIST_ORG's site, with GRIST_API_KEY. */
function realApi(real, apiKey) {
	const base = `${real}/o/${process.env.GRIST_ORG || 'docs'}`;
	return async (method, path, body) => {
		const res = await fetch(`${base}/api${path}`, {
			method,
			headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
		return text ? JSON.parse(text) : undefined;
	};
}

/** A workspace of the bench's own in GRIST_ORG, with one document; `drop()` deletes it. */
async function benchWorkspace(call, docName, prefix) {
	const orgs = await call('GET', '/orgs');
	const org = orgs.find((o) => o.domain === (process.env.GRIST_ORG || 'docs')) ?? orgs[0];
	const ws = await call('POST', `/orgs/${org.id}/workspaces`, {
		name: `${prefix}-${Date.now()}`,
	});
	const docId = await call('POST', `/workspaces/${ws}/docs`, { name: docName });
	return { docId, drop: async () => await call('DELETE', `/workspaces/${ws}`) };
}

/**
 * A real Grist. `timingProxy`: every request of the bench's credential goes through
 * ../timing-proxy.mjs (its log: each request's server time). `keptDoc` (BENCH_READ_DOC): the
 * document of an earlier run, kept and not seeded; otherwise a workspace of its own holds the
 * document `docName` (workspace `<workspacePrefix>-<time>`).
 */
export async function realGristTarget({
	timingProxy = false,
	keptDoc,
	docName = 'Read bench',
	workspacePrefix = 'n8n-bench-read',
} = {}) {
	const real = realGristUrl();
	const apiKey = process.env.GRIST_API_KEY;
	if (!apiKey) throw new Error('a bench with GRIST_URL needs GRIST_API_KEY');
	const call = realApi(real, apiKey);
	const org = process.env.GRIST_ORG || 'docs';
	const proxy = timingProxy ? await startTimingProxy(real) : undefined;
	const site = `${proxy?.url ?? real}/o/${org}`;
	const ws = keptDoc ? undefined : await benchWorkspace(call, docName, workspacePrefix);
	const docId = keptDoc ?? ws.docId;
	const records = (t) => `/docs/${docId}/tables/${t}/records`;
	const newTable = async (t, columns) =>
		await call('POST', `/docs/${docId}/tables`, {
			tables: [{ id: t, columns: columns.map((c) => ({ id: c.id, fields: { type: c.type } })) }],
		});
	let people = !!keptDoc;
	return {
		// GRIST_VERSION: what the operator says the server is (Grist has no public version route).
		serverName: `grist-core ${process.env.GRIST_VERSION ?? '(GRIST_VERSION not set)'} at ${real}`,
		site,
		docId,
		apiKey,
		credentialData: { apiKey, url: site },
		requestLog: proxy,
		tableUrl: (t) => `${site}/api${records(t)}`,
		addTable: async (t, columns = COLUMNS) => {
			if (needsPeople(columns) && !people) {
				people = true;
				await newTable(PEOPLE.tableId, PEOPLE.columns);
				await call('POST', records(PEOPLE.tableId), {
					records: peopleRows().map((fields) => ({ fields })),
				});
			}
			await newTable(t, columns);
		},
		seedRows: async (t, count, from = 0) => {
			log(`seeding ${fmtInt(count)} rows in ${t}…`);
			for (let i = 0; i < count; i += 5_000) {
				const rows = makeRows(Math.min(5_000, count - i), from + i);
				await call('POST', records(t), { records: rows.map((fields) => ({ fields })) });
			}
		},
		rowCount: async (t) => (await call('GET', records(t))).records.length,
		close: async () => {
			await proxy?.close();
			await ws?.drop();
		},
	};
}
