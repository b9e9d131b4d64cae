/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tool: raw HTTP to a Grist server and a webhook receiver */
/**
 * Runs the differential script (script.ts) against one side (the emulator or a real Grist) and
 * returns each call's answer, read into comparable values and normalised (normalise.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import type { Call, Caller, Vars } from './script';
import { CALLS } from './script';
import { Identities, normalise } from './normalise';
import { waitFor } from '../harness/until';
import { untarFiles } from '../emulator/tar';
import { unzip } from '../emulator/zip';

export interface Side {
	/** The site's base URL, e.g. `http://127.0.0.1:8484/o/docs`. */
	base: string;
	keys: Partial<Record<Caller, string>>;
	vars: Vars;
}

export interface Answer {
	status: number;
	/** Content type (without parameters) and disposition, for file answers. */
	headers?: Record<string, string>;
	body: unknown;
}

/** Receives webhook deliveries, one path per side. */
export class HookReceiver {
	private readonly bodies = new Map<string, unknown[]>();
	private server?: http.Server;
	url = '';

	async start(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				const list = this.bodies.get(req.url ?? '') ?? [];
				try {
					list.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
				} catch {
					list.push(Buffer.concat(chunks).toString('utf8'));
				}
				this.bodies.set(req.url ?? '', list);
				res.writeHead(200).end('ok');
			});
		});
		await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** The next body delivered to `path`, or undefined when none comes within `timeoutMs`. */
	async next(path: string, timeoutMs: number): Promise<unknown> {
		const list = await waitFor(
			`a delivery to ${path}`,
			() => this.bodies.get(path),
			(bodies) => Boolean(bodies?.length),
			{ timeoutMs, intervalMs: 100 },
		).catch(() => undefined);
		return list?.shift();
	}

	async close(): Promise<void> {
		await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
	}
}

async function readXlsx(buf: Buffer): Promise<unknown> {
	const wb = new ExcelJS.Workbook();
	await wb.xlsx.load(buf as unknown as ArrayBuffer);
	const sheets: Record<string, unknown[][]> = {};
	wb.eachSheet((ws) => {
		const rows: unknown[][] = [];
		ws.eachRow({ includeEmpty: true }, (row) => {
			const values = (row.values as unknown[]).slice(1);
			rows.push(values.map((x) => (x instanceof Date ? x.toISOString() : (x ?? null))));
		});
		sheets[ws.name] = rows;
	});
	return sheets;
}

/* eslint-disable @typescript-eslint/no-require-imports -- sql.js ships no types; CommonJS */
interface SqlJs {
	Database: new (data?: Uint8Array) => {
		exec(sql: string): Array<{ columns: string[]; values: unknown[][] }>;
		close(): void;
	};
}
const initSqlJs = () => (require('sql.js') as () => Promise<SqlJs>)();

/** A .grist file: its user tables (columns and rows) and the names of its metadata tables. */
async function readGrist(buf: Buffer): Promise<unknown> {
	const SQL = await initSqlJs();
	const db = new SQL.Database(buf);
	try {
		const names = db
			.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]
			.values.map((r) => String(r[0]));
		const tables: Record<string, unknown> = {};
		for (const name of names.filter((n) => !n.startsWith('_grist'))) {
			const res = db.exec(`SELECT * FROM "${name}" ORDER BY id`)[0];
			const cols = db.exec(`PRAGMA table_info("${name}")`)[0].values.map((r) => String(r[1]));
			tables[name] = { columns: cols, rows: res?.values ?? [] };
		}
		return { metadataTables: names.filter((n) => n.startsWith('_grist')), tables };
	} finally {
		db.close();
	}
}

/** An attachment archive as its entries: name and content, in order. */
function readArchive(kind: 'tar' | 'zip', buf: Buffer): Array<{ name: string; text: string }> {
	const entries =
		kind === 'tar' ? untarFiles(buf) : [...unzip(buf)].map(([name, data]) => ({ name, data }));
	return entries.map((e) => ({ name: e.name, text: e.data.toString('utf8') }));
}

async function send(side: Side, call: Call): Promise<Answer> {
	const v = side.vars;
	const url = new URL(side.base + call.path(v));
	for (const [k, x] of Object.entries(call.query?.(v) ?? {})) url.searchParams.set(k, x);
	const headers: Record<string, string> = {};
	const key = call.as === 'badkey' ? 'not-a-key-of-this-server' : side.keys[call.as ?? 'owner'];
	if (call.as !== 'anon' && key) headers.Authorization = `Bearer ${key}`;
	let body: string | FormData | undefined;
	if (call.raw) {
		headers['Content-Type'] = call.raw.contentType;
		body = call.raw.text;
	} else if (call.form) {
		const f = call.form(v);
		const form = new FormData();
		for (const file of f.files)
			form.append(
				'upload',
				new Blob([file.data ? new Uint8Array(file.data) : (file.text ?? '')], { type: file.type }),
				file.name,
			);
		for (const [k, x] of Object.entries(f.fields ?? {})) form.append(k, x);
		body = form;
	} else if (call.body) {
		headers['Content-Type'] = 'application/json';
		body = JSON.stringify(call.body(v));
	} else if (call.method !== 'GET') {
		headers['Content-Type'] = 'application/json';
	}
	const res = await fetch(url, { method: call.method, headers, body, redirect: 'manual' });
	const buf = Buffer.from(await res.arrayBuffer());
	const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
	const fileAnswer = call.answer && call.answer !== 'json' && res.status === 200;
	if (!fileAnswer) {
		const text = buf.toString('utf8');
		let parsed: unknown;
		try {
			parsed = text === '' ? null : JSON.parse(text);
		} catch {
			parsed = { text, contentType: type };
		}
		return { status: res.status, body: parsed };
	}
	const fileHeaders = {
		'content-type': type,
		'content-disposition': res.headers.get('content-disposition') ?? '',
	};
	const read =
		call.answer === 'xlsx'
			? await readXlsx(buf)
			: call.answer === 'grist'
				? await readGrist(buf)
				: call.answer === 'tar' || call.answer === 'zip'
					? readArchive(call.answer, buf)
					: buf.toString('utf8');
	return { status: res.status, headers: fileHeaders, body: read };
}

/** Names the identities an answer reveals (so that both sides' answers can be compared). */
function learn(call: Call, body: unknown, v: Vars, ids: Identities): void {
	const o = (body ?? {}) as Record<string, unknown>;
	if (call.name === 'profile' || call.name === 'profile of the viewer') {
		const who = call.name === 'profile' ? 'owner' : 'viewer';
		ids.number('user', o.id, who);
		ids.string(o.email, `${who} email`);
		ids.string(o.name, `${who} name`, true);
		ids.string(o.ref, `${who} ref`);
	}
	if (call.name === 'orgs list') {
		const site = (body as Array<Record<string, unknown>>).find((x) => x.id === v.orgId);
		ids.string(site?.domain, 'site domain', true);
	}
	// a document's urlId (a prefix of its id) is named after the document
	const urlIdsOf = (x: unknown): void => {
		if (Array.isArray(x)) x.forEach(urlIdsOf);
		else if (x && typeof x === 'object') {
			const r = x as Record<string, unknown>;
			const name = typeof r.id === 'string' ? ids.nameOf(r.id) : undefined;
			if (name && typeof r.urlId === 'string') ids.string(r.urlId, `${name} urlId`);
			Object.values(r).forEach(urlIdsOf);
		}
	};
	if (call.home) urlIdsOf(body);
	for (const w of (o.webhooks as Array<{ fields?: { unsubscribeKey?: string } }> | undefined) ?? [])
		ids.string(w.fields?.unsubscribeKey, 'unsubscribe key');
}

export interface SideRun {
	answers: Answer[];
}

/** Runs every call in order on one side; `onlyUntil` stops early (for debugging). */
export async function runSide(
	side: Side,
	receiver: HookReceiver,
	hookPath: string,
): Promise<SideRun> {
	const ids = new Identities();
	const v = side.vars;
	v.hookUrl = receiver.url + hookPath;
	ids.string(v.hookUrl, 'hook url');
	const answers: Answer[] = [];
	try {
		for (const call of CALLS) {
			let answer: Answer;
			if (call.delivery) {
				const body = await receiver.next(hookPath, call.delivery);
				answer = { status: body === undefined ? 0 : 200, body: body ?? null };
			} else if (call.as === 'viewer' && !side.keys.viewer) {
				answer = { status: -1, body: 'no viewer key' };
			} else {
				answer = await send(side, call);
			}
			if (answer.status === 200) {
				if (call.save) call.save(answer.body, v);
				learn(call, answer.body, v, ids);
			}
			registerVars(v, ids);
			const kept = call.keep && answer.status === 200 ? call.keep(answer.body, v) : answer.body;
			answers.push({
				status: answer.status,
				...(answer.headers
					? { headers: normalise(answer.headers, ids) as Record<string, string> }
					: {}),
				body: normalise(kept, ids, call.home?.root),
			});
		}
	} finally {
		await cleanup(side);
	}
	return { answers };
}

function registerVars(v: Vars, ids: Identities): void {
	ids.number('org', v.orgId, 'site');
	ids.number('ws', v.wsId, 'main');
	ids.number('ws', v.ws2Id, 'second');
	ids.string(v.docId, 'doc');
	ids.string(v.copyId, 'copy');
	ids.string(v.importId, 'import');
	ids.string(v.webhookId, 'webhook');
	ids.string(v.ownerEmail, 'owner email');
	ids.string(v.viewerEmail, 'viewer email');
	ids.string(v.forksDocId, 'forks doc');
	ids.string(v.forkId, 'fork');
	ids.number('ws', v.timingWsId, 'timing');
	ids.string(v.timingDocId, 'timing doc');
}

/** Removes what the run made, whatever happened (the script's last calls do so when all went well). */
async function cleanup(side: Side): Promise<void> {
	for (const wid of [side.vars.ws2Id, side.vars.wsId, side.vars.timingWsId]) {
		if (wid === undefined) continue;
		await fetch(`${side.base}/api/workspaces/${wid}`, {
			method: 'DELETE',
			headers: { Authorization: `Bearer ${side.keys.owner}` },
		}).catch(() => undefined);
	}
	if (side.vars.serviceAccountId !== undefined)
		await fetch(`${side.base}/api/service-accounts/${String(side.vars.serviceAccountId)}`, {
			method: 'DELETE',
			headers: { Authorization: `Bearer ${side.keys.owner}` },
		}).catch(() => undefined);
}
