// Workflows of the bench in a real n8n: the nodes it builds them from, a run (saved, started,
// awaited without fetching its data), a node's executionTime from the run data, the credentials
// and the request counts of the emulator's log.
import {
	CHUNK,
	CREATE_ROWS,
	MANUAL_TRIGGER_NAME,
	ROW_JS,
	fmtInt,
	require,
	sleep,
} from './common.mjs';

const { waitFor } = require('../../test/harness/until.ts');
const DONE = new Set(['success', 'error', 'crashed', 'canceled', 'cancelled']);

/** Saves and starts the workflow, waits (without fetching run data) until it is finished. */
export async function execute(n8n, wf, timeoutMs) {
	const id = await n8n.createWorkflow(wf);
	const workflowData = await n8n.rest('GET', `/workflows/${id}`);
	const started = await n8n.rest('POST', `/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: MANUAL_TRIGGER_NAME },
	});
	if (!started.executionId)
		throw new Error(`n8n did not start an execution: ${JSON.stringify(started)}`);
	const finished = async () => {
		try {
			return await n8n.api('GET', `/executions/${started.executionId}`);
		} catch (err) {
			if (!String(err.message).includes('→ 404')) throw err;
			return undefined; // not saved yet
		}
	};
	await sleep(200);
	const e = await waitFor(
		`execution ${started.executionId} is finished`,
		finished,
		(x) => x !== undefined && (x.finished === true || DONE.has(String(x.status))),
		{ timeoutMs, intervalMs: 200 },
	);
	return { executionId: String(started.executionId), status: String(e.status) };
}

/** The Grist node's run: executionTime (ms), item count, error. */
export async function nodeRun(n8n, executionId, node = 'Grist') {
	const e = await n8n.api('GET', `/executions/${executionId}?includeData=true`);
	const resultData = e.data?.resultData ?? {};
	const task = resultData.runData?.[node]?.[0];
	if (!task)
		throw new Error(
			`node ${node} did not run: ${JSON.stringify(resultData.error ?? {}).slice(0, 500)}`,
		);
	if (task.error)
		throw new Error(`node ${node} failed: ${task.error.message} ${task.error.description ?? ''}`);
	return {
		ms: task.executionTime,
		items: task.data?.main?.[0]?.length ?? 0,
		startTime: task.startTime,
	};
}

/**
 * This package's credential (gristRecordsApi) and, not enumerable (the reference goes into
 * workflow JSON as { id, name }), n8n's own gristApi for the built-in node as `builtin`.
 */
export async function benchCredential(n8n, data) {
	const c = await n8n.createCredential({ name: 'Grist bench', type: 'gristRecordsApi', data });
	Object.defineProperty(c, 'builtin', {
		enumerable: false,
		value: await n8n.createCredential({
			name: 'Grist bench (built-in)',
			type: 'gristApi',
			data,
		}),
	});
	return c;
}

export const rl = (value) => ({ __rl: true, mode: 'id', value });
export const codeNode = (n, json = ROW_JS) => ({
	name: 'Items',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return Array.from({ length: ${n} }, (_, i) => ({ json: ${json} }));` },
});
export const packageNode = (cred, parameters) => ({
	name: 'Grist',
	type: 'n8n-nodes-grist.grist',
	typeVersion: 1,
	parameters,
	credentials: { gristRecordsApi: cred },
});
export const builtinNode = (cred, parameters) => ({
	name: 'Grist',
	type: 'n8n-nodes-base.grist',
	typeVersion: 1,
	parameters: { authentication: 'apiKey', ...parameters },
	credentials: { gristApi: cred.builtin ?? cred },
});
/**
 * Raw chunked HTTP inside n8n: a Code node groups the items into bodies of 500 records, n8n's HTTP
 * Request node POSTs each body (predefined credential type gristApi: the key stays in n8n's
 * credential store, not in the workflow). The HTTP Request node sends its items' requests
 * concurrently (no Batching option set), as a user's workflow would by default.
 */
export const chunkNode = () => ({
	name: 'Chunk',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: {
		jsCode: `const all = $input.all();\nconst out = [];\nfor (let i = 0; i < all.length; i += ${CHUNK}) out.push({ json: { body: { records: all.slice(i, i + ${CHUNK}).map((it) => ({ fields: it.json })) } } });\nreturn out;`,
	},
});
export const httpNode = (cred, method, url, body) => ({
	name: 'HTTP',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		method,
		url,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'gristRecordsApi',
		...(body ? { sendBody: true, specifyBody: 'json', jsonBody: body } : {}),
		options: {},
	},
	credentials: { gristRecordsApi: cred },
});
/** One item per record ({ id, fields }, as the package's getAll without Simplify) from the GET answer. */
export const splitNode = () => ({
	name: 'Split',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: 'records', include: 'noOtherFields', options: {} },
});
export const autoMap = {
	mappingMode: 'autoMapInputData',
	value: null,
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
};

/**
 * The record writes of CREATE_ROWS items (the table is the caller's: new for create, seeded with
 * the bench rows for update and upsert): the Code node making the items, the Grist node's
 * parameters and the rows the table has after the write.
 */
export function recordWrites() {
	const half = Math.floor(CREATE_ROWS / 2);
	return {
		create: {
			items: codeNode(CREATE_ROWS),
			params: { operation: 'create', columns: autoMap },
			rows: CREATE_ROWS,
		},
		update: {
			items: codeNode(CREATE_ROWS, `({ id: i + 1, ...${ROW_JS}, Name: 'Updated ' + i })`),
			params: { operation: 'update', rowId: '={{ $json.id }}', columns: autoMap },
			rows: CREATE_ROWS,
		},
		upsert: {
			items: codeNode(CREATE_ROWS, `((i) => ${ROW_JS})(i + ${half})`),
			params: { operation: 'upsert', columns: { ...autoMap, matchingColumns: ['Email'] } },
			rows: CREATE_ROWS + half,
		},
	};
}

export function requestSummary(entries) {
	const by = {};
	for (const e of entries) by[e.method] = (by[e.method] ?? 0) + 1;
	const parts = Object.entries(by).map(([m, n]) => `${fmtInt(n)} ${m}`);
	return {
		count: entries.length,
		text: `${fmtInt(entries.length)}${parts.length > 1 ? ` (${parts.join(', ')})` : ` ${Object.keys(by)[0] ?? ''}`}`,
	};
}

/** The emulator's handling time of these requests (log `ms`), and the longest one. */
export const emuMs = (entries) => entries.reduce((a, e) => a + (e.ms ?? 0), 0);
export const longestMs = (entries) => Math.max(0, ...entries.map((e) => e.ms ?? 0));
