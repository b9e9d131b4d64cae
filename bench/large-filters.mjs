// Reads with a long list of values (a filter of many e-mail addresses, many row IDs) against a
// real Grist, sent the ways a client can send them: POST …/records/list with the filter in the
// body, GET …/records or …/data with the filter in the URL split into requests whose URL stays
// under Node's 16 KB header limit, and POST /sql with the list as one JSON argument. Prints the
// median time (from the first request to the last answer's last byte), the request count and
// the bytes answered, per variant, for 1,000 and 10,000 values (docs/PERFORMANCE.md, Inputs of
// any size).
//
//   GRIST_URL=… GRIST_API_KEY=… [GRIST_ORG=docs] [LARGE_ROWS=100000] [LARGE_REPEATS=7] \
//     node bench/large-filters.mjs
//
// It works in a workspace of its own (`n8n-bench-large-<time>`), deleted at the end.

const url = process.env.GRIST_URL?.replace(/\/+$/, '');
const key = process.env.GRIST_API_KEY;
if (!url || !key) {
	console.error('GRIST_URL and GRIST_API_KEY are needed');
	process.exit(2);
}
const site = `${url}/o/${process.env.GRIST_ORG || 'docs'}`;
const ROWS = Number(process.env.LARGE_ROWS || 100_000);
const REPEATS = Number(process.env.LARGE_REPEATS || 7);
/** Characters of the encoded filter per split GET (the package's URL_QUERY_CHARS). */
const URL_CHARS = 6000;

async function call(method, path, body) {
	const res = await fetch(`${site}/api${path}`, {
		method,
		headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
	return { bytes: Buffer.byteLength(text), json: text ? JSON.parse(text) : undefined };
}

const email = (i) => `person${String(i).padStart(6, '0')}@example.com`;

async function setUp() {
	const { json: orgs } = await call('GET', '/orgs');
	const org = orgs.find((o) => o.domain === (process.env.GRIST_ORG || 'docs')) ?? orgs[0];
	const { json: ws } = await call('POST', `/orgs/${org.id}/workspaces`, {
		name: `n8n-bench-large-${Date.now()}`,
	});
	const { json: docId } = await call('POST', `/workspaces/${ws}/docs`, { name: 'large' });
	await call('POST', `/docs/${docId}/tables`, {
		tables: [
			{
				id: 'People',
				columns: [
					{ id: 'Email', fields: { type: 'Text' } },
					{ id: 'Name', fields: { type: 'Text' } },
					{ id: 'Amount', fields: { type: 'Numeric' } },
					{ id: 'Due', fields: { type: 'Date' } },
				],
			},
		],
	});
	for (let from = 0; from < ROWS; from += 10_000) {
		const n = Math.min(10_000, ROWS - from);
		const idx = Array.from({ length: n }, (_, k) => from + k + 1);
		await call('POST', `/docs/${docId}/tables/People/data`, {
			Email: idx.map(email),
			Name: idx.map((i) => `Name ${i}`),
			Amount: idx.map((i) => i / 100),
			Due: idx.map((i) => 1_700_000_000 + (i % 1000) * 86_400),
		});
	}
	return { docId, drop: async () => await call('DELETE', `/workspaces/${ws}`) };
}

/** `values` in runs whose encoded `{"col":[…]}` stays under URL_CHARS characters. */
function urlChunks(col, values) {
	const chunks = [];
	let chunk = [];
	for (const v of values) {
		chunk.push(v);
		const encoded = encodeURIComponent(JSON.stringify({ [col]: chunk })).length;
		if (encoded > URL_CHARS && chunk.length > 1) {
			chunk.pop();
			chunks.push(chunk);
			chunk = [v];
		}
	}
	if (chunk.length) chunks.push(chunk);
	return chunks;
}

function variants(docId, col, values) {
	const t = `/docs/${docId}/tables/People`;
	const split = (route) => async () => {
		let requests = 0;
		let bytes = 0;
		let rows = 0;
		for (const chunk of urlChunks(col, values)) {
			const filter = encodeURIComponent(JSON.stringify({ [col]: chunk }));
			const res = await call('GET', `${t}/${route}?filter=${filter}`);
			requests++;
			bytes += res.bytes;
			rows += route === 'data' ? res.json.id.length : res.json.records.length;
		}
		return { requests, bytes, rows };
	};
	return {
		'POST records/list': async () => {
			const res = await call('POST', `${t}/records/list`, { filter: { [col]: values } });
			return { requests: 1, bytes: res.bytes, rows: res.json.records.length };
		},
		'GET records, split': split('records'),
		'GET data, split': split('data'),
		'POST sql (json_each)': async () => {
			const sql = `SELECT * FROM People WHERE "${col}" IN (SELECT value FROM json_each(?))`;
			const res = await call('POST', `/docs/${docId}/sql`, {
				sql,
				args: [JSON.stringify(values)],
			});
			return { requests: 1, bytes: res.bytes, rows: res.json.records.length };
		},
	};
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
	const { docId, drop } = await setUp();
	try {
		console.log(`${ROWS} rows (Email, Name, Amount, Due), ${REPEATS} runs each, medians`);
		const step = Math.floor(ROWS / 10_000) || 1;
		for (const [col, make] of [
			['Email', (i) => email(i)],
			['id', (i) => i],
		]) {
			for (const n of [1000, 10_000]) {
				const values = Array.from({ length: n }, (_, k) => make(1 + ((k * step) % ROWS)));
				const vs = variants(docId, col, values);
				const times = Object.fromEntries(Object.keys(vs).map((k) => [k, []]));
				const facts = {};
				for (let r = 0; r < REPEATS; r++) {
					for (const [name, run] of Object.entries(vs)) {
						const t0 = performance.now();
						facts[name] = await run();
						times[name].push(performance.now() - t0);
					}
				}
				for (const name of Object.keys(vs)) {
					const f = facts[name];
					console.log(
						`${col} × ${n}\t${name}\t${median(times[name]).toFixed(0)} ms\t${f.requests} requests\t${f.rows} rows\t${(f.bytes / 1024).toFixed(0)} KB`,
					);
				}
			}
		}
	} finally {
		await drop();
	}
}

await main();
