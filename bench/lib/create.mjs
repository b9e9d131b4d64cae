// 1. Create CREATE_ROWS rows from as many items: this package's node, n8n's built-in Grist node,
// n8n's Code + HTTP Request nodes (chunked), and raw chunked HTTP from this process.
import {
	BUILTIN_ITEMS,
	BUILTIN_REPEATS,
	CHUNK,
	CREATE_ROWS,
	REPEATS,
	fmtInt,
	gc,
	log,
	makeWireRow,
	manualWorkflow,
	ms,
} from './common.mjs';
import {
	autoMap,
	builtinNode,
	chunkNode,
	codeNode,
	execute,
	httpNode,
	nodeRun,
	packageNode,
	requestSummary,
	rl,
} from './n8n-runs.mjs';

/** The chunked HTTP Request workflow: Chunk + HTTP executionTime (ms), checked. */
async function n8nHttpCreate(b, t) {
	const ex = await execute(
		b.n8n,
		manualWorkflow([
			codeNode(CREATE_ROWS),
			chunkNode(),
			httpNode(b.cred, 'POST', b.tableUrl(t), '={{ $json.body }}'),
		]),
		300_000,
	);
	const chunk = await nodeRun(b.n8n, ex.executionId, 'Chunk');
	const http = await nodeRun(b.n8n, ex.executionId, 'HTTP');
	const bodies = Math.ceil(CREATE_ROWS / CHUNK);
	if (chunk.items !== bodies || http.items !== bodies)
		throw new Error(
			`n8n HTTP create: ${chunk.items} bodies, ${http.items} answers, expected ${bodies}`,
		);
	return { ms: chunk.ms + http.ms, chunkMs: chunk.ms, httpMs: http.ms };
}

/** POSTs all rows, 500 per request, one after the other; returns the wall time (ms). */
async function rawCreate(b, t) {
	const start = performance.now();
	for (let i = 0; i < b.rows.length; i += CHUNK) {
		const body = JSON.stringify({
			records: b.rows.slice(i, i + CHUNK).map((fields) => ({ fields })),
		});
		const res = await fetch(b.tableUrl(t), {
			method: 'POST',
			headers: { ...b.auth, 'content-type': 'application/json' },
			body,
		});
		if (!res.ok) throw new Error(`raw POST: HTTP ${res.status} ${await res.text()}`);
		await res.json();
	}
	return performance.now() - start;
}

/** The package's create workflow into table `t`: the Grist node's run. */
async function packageCreate(b, t) {
	const ex = await execute(
		b.n8n,
		manualWorkflow([
			codeNode(CREATE_ROWS),
			packageNode(b.cred, {
				resource: 'record',
				operation: 'create',
				document: rl(b.docId),
				table: rl(t),
				columns: autoMap,
			}),
		]),
		300_000,
	);
	return await nodeRun(b.n8n, ex.executionId);
}

/** The built-in node's create of BUILTIN_ITEMS items (one request per item). */
async function builtinCreate(b, t) {
	const ex = await execute(
		b.n8n,
		manualWorkflow([
			codeNode(BUILTIN_ITEMS),
			builtinNode(b.cred, {
				operation: 'create',
				docId: b.docId,
				tableId: t,
				dataToSend: 'autoMapInputs',
				inputsToIgnore: '',
			}),
		]),
		900_000,
	);
	return await nodeRun(b.n8n, ex.executionId);
}

function checkRows(b, t, n, label) {
	const got = b.emu.records(b.docId, t);
	if (got.length !== n) throw new Error(`${label}: ${got.length} rows in ${t}, expected ${n}`);
	const r = got[n - 1].fields;
	const want = makeWireRow(n - 1);
	for (const k of Object.keys(want)) {
		if (JSON.stringify(r[k]) !== JSON.stringify(want[k]))
			throw new Error(
				`${label}: row ${n} ${k} = ${JSON.stringify(r[k])}, expected ${JSON.stringify(want[k])}`,
			);
	}
}

/** A new table, the emulator's log cleared and this process collected: before each measured run. */
function freshTable(b) {
	const t = b.newTable();
	b.emu.clearLog();
	gc();
	return t;
}

/** One round: (a) this package, (b) the built-in node, (c) n8n HTTP Request, (d) raw HTTP. */
async function createRound(b, rep, out) {
	let t = freshTable(b);
	const r = await packageCreate(b, t);
	checkRows(b, t, CREATE_ROWS, 'package create');
	if (r.items !== CREATE_ROWS) throw new Error(`package create: ${r.items} output items`);
	out.create.package.push(r.ms);
	out.createReq.package = requestSummary(b.emu.log);
	log(`create #${rep} package: ${ms(r.ms)} ms, ${out.createReq.package.text} requests`);

	// (b) built-in node (10,000 requests a run: fewer repeats)
	if (!out.builtinError && rep <= BUILTIN_REPEATS) {
		t = freshTable(b);
		try {
			const rb = await builtinCreate(b, t);
			checkRows(b, t, BUILTIN_ITEMS, 'built-in create');
			out.create.builtin.push((rb.ms * CREATE_ROWS) / BUILTIN_ITEMS);
			out.createReq.builtin = requestSummary(b.emu.log);
			log(
				`create #${rep} built-in: ${ms(rb.ms)} ms for ${fmtInt(BUILTIN_ITEMS)} items, ${out.createReq.builtin.text} requests`,
			);
		} catch (e) {
			out.builtinError = e.message.split('\n')[0];
			log(`built-in node failed, skipped from now on: ${out.builtinError}`);
		}
	}

	// (c) raw chunked HTTP inside n8n (Code node chunks, HTTP Request node posts)
	t = freshTable(b);
	const nh = await n8nHttpCreate(b, t);
	checkRows(b, t, CREATE_ROWS, 'n8n HTTP create');
	out.create.n8nHttp.push(nh.ms);
	out.createReq.n8nHttp = requestSummary(b.emu.log);
	log(
		`create #${rep} n8n HTTP Request: ${ms(nh.ms)} ms (Chunk ${ms(nh.chunkMs)} + HTTP ${ms(nh.httpMs)}), ${out.createReq.n8nHttp.text} requests`,
	);

	// (d) raw chunked HTTP from this process
	t = freshTable(b);
	const rawMs = await rawCreate(b, t);
	checkRows(b, t, CREATE_ROWS, 'raw create');
	out.create.raw.push(rawMs);
	out.createReq.raw = requestSummary(b.emu.log);
	log(`create #${rep} raw: ${ms(rawMs)} ms, ${out.createReq.raw.text} requests`);
}

/**
 * 1. Create: a warm-up round (package + raw + n8n HTTP, not counted: JIT of the emulator, of
 * n8n's paths and of the node code), then REPEATS rounds. The built-in node reads `url` (then
 * `selfHostedUrl`, `customSubdomain`) from the credential type named gristApi, which this
 * package's class replaces: without those fields it cannot reach the server, and the bench goes
 * on without it (`builtinError`).
 */
export async function createSection(b) {
	const out = {
		create: { package: [], builtin: [], n8nHttp: [], raw: [] },
		createReq: {},
		builtinError: undefined,
	};
	await packageCreate(b, b.newTable());
	await rawCreate(b, b.newTable());
	await n8nHttpCreate(b, b.newTable());
	log('warm-up round done');
	for (let rep = 1; rep <= REPEATS; rep++) await createRound(b, rep, out);
	return out;
}
