/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- a check run by hand outside n8n: its settings from the environment, the home database switched with sqlite3, the counts printed */
/**
 * A focused check against a real grist-core whose site has a daily API limit (not part of `npm
 * test` or `npm run test:real`: their servers have no limit). Every request of the package goes
 * through the fault proxy (test/harness/fault-proxy.ts), whose log is what is counted.
 *
 * Set up: a grist-core of your own (`/root/.cache/grist/run.sh PORT DATADIR` or any other), a
 * document with a table `Bulk` (columns `N` Int, `Name` Text) on a site whose product sets a low
 * limit in the home database, e.g.
 *   insert into products(name, features) values('limited', '{"workspaces":true,"baseMaxApiUnitsPerDocumentPerDay":5}');
 *   update billing_accounts set product_id=(select id from products where name='limited') where id=<the site's>;
 * then spend the day's allowance (e.g. 8 GET …/columns) and run
 *   LIMITED_GRIST_URL=http://127.0.0.1:PORT/o/docs LIMITED_GRIST_API_KEY=… LIMITED_GRIST_DOC=… \
 *   npx jest --testMatch '**' test/real-limit/daily-limit.check.ts
 * (the last case also switches the site's billing account between the products `Free` and
 * `limited`: LIMITED_GRIST_HOME_DB=<DATADIR>/home.sqlite3 LIMITED_GRIST_BILLING_ACCOUNT=<id>).
 * Grist lets about one request a minute through at the limit: a case that meets it fails on
 * its count; run it again.
 */
import { execFileSync } from 'node:child_process';

import { sleep } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { docTable, items } from '../harness/builders';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy';
import { createPoller, runNode } from '../harness/inprocess';

const url = process.env.LIMITED_GRIST_URL ?? '';
const apiKey = process.env.LIMITED_GRIST_API_KEY ?? '';
const docId = process.env.LIMITED_GRIST_DOC ?? '';
const autoMap = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };
let proxy: FaultProxy;

beforeAll(async () => {
	if (!url || !apiKey || !docId)
		throw new Error('Set LIMITED_GRIST_URL, LIMITED_GRIST_API_KEY and LIMITED_GRIST_DOC');
	proxy = await startFaultProxy(url);
});
afterAll(async () => await proxy?.close());
beforeEach(() => (proxy.log.length = 0));

const calls = () =>
	proxy.log.map((e) => `${e.method} ${e.path.split('?')[0].split('/').slice(-1)[0]} ${e.status}`);
const limitMessage = () => `Exceeded daily limit for document ${docId}`;

function record(parameters: Record<string, unknown>, n: number, continueOnFail = false) {
	return runNode({
		node: new Grist(),
		parameters: { resource: 'record', ...docTable(docId, 'Bulk'), ...parameters } as never,
		credentials: { apiKey, url: proxy.url },
		input: items(Array.from({ length: n }, (_, i) => ({ N: i, id: i + 1 }))),
		continueOnFail,
	});
}

it('Get Many: its two reads once each, the error of the limit', async () => {
	const { error } = await record({ operation: 'getAll', returnAll: true }, 1);
	console.log('Get Many', calls());
	// both refused, or the one of them Grist lets through in its minute
	expect(calls()).toHaveLength(2);
	expect(calls()).toContain('GET columns 429');
	expect(error?.message).toBe(limitMessage());
	expect(error?.description).toMatch(/^The document's API limit of its Grist plan is reached/);
});

it('Create of 1,200 items: one request', async () => {
	const { error } = await record({ operation: 'create', columns: autoMap }, 1200);
	console.log('Create', calls());
	expect(calls()).toEqual(['GET columns 429']);
	expect(error?.message).toBe(limitMessage());
});

it('Create with Continue On Fail: one request, every item gets the error', async () => {
	const { items: out } = await record({ operation: 'create', columns: autoMap }, 3, true);
	console.log('Create (Continue On Fail)', calls());
	expect(calls()).toEqual(['GET columns 429']);
	expect(out.map((o) => o.json.error)).toEqual(Array(3).fill(limitMessage()));
});

it('Grist Trigger: an activation while refused, two requests (one refused)', async () => {
	for (let attempt = 1; attempt <= 2; attempt++) {
		proxy.log.length = 0;
		const p = createPoller({
			node: new GristTrigger(),
			parameters: { ...docTable(docId, 'Bulk'), event: 'rowAdded' },
			credentials: { apiKey, url: proxy.url },
		});
		await expect(p.poll('trigger')).rejects.toMatchObject({ message: limitMessage() });
		console.log(`Trigger activation ${attempt}`, calls());
		expect(calls()).toEqual([`GET ${docId} 200`, 'GET columns 429']);
	}
});

// With the home database at hand: the baseline taken while the site has no limit, then polls
// while it has one.
const homeDb = process.env.LIMITED_GRIST_HOME_DB ?? '';
const account = process.env.LIMITED_GRIST_BILLING_ACCOUNT ?? '';
it('Grist Trigger: one request per poll while refused (LIMITED_GRIST_HOME_DB, LIMITED_GRIST_BILLING_ACCOUNT)', async () => {
	if (!homeDb || !account)
		throw new Error(
			"Set LIMITED_GRIST_HOME_DB and LIMITED_GRIST_BILLING_ACCOUNT (the site's billing account id)",
		);
	const product = (name: string) =>
		execFileSync('sqlite3', [
			homeDb,
			`update billing_accounts set product_id=(select id from products where name='${name}') where id=${Number(account)};`,
		]);
	const get = async () =>
		(
			await fetch(`${url}/api/docs/${docId}/tables/Bulk/columns`, {
				headers: { Authorization: `Bearer ${apiKey}` },
			})
		).status;
	product('Free');
	await sleep(6000); // grist-core's doc-auth cache
	const p = createPoller({
		node: new GristTrigger(),
		parameters: { ...docTable(docId, 'Bulk'), event: 'rowAdded' },
		credentials: { apiKey, url: proxy.url },
	});
	expect(await p.poll('trigger')).toBeNull();
	product('limited');
	await sleep(6000);
	while ((await get()) !== 429);
	delete p.nodeStaticData.updatedAt; // as if the document had changed
	for (let poll = 1; poll <= 3; poll++) {
		proxy.log.length = 0;
		const error = await p.poll('trigger').catch((e: Error & { description?: string }) => e);
		console.log(`Trigger poll ${poll}`, calls());
		expect(error).toMatchObject({ message: limitMessage() });
		expect((error as { description?: string }).description).toContain(
			'each poll makes one request',
		);
		expect(calls()).toEqual(poll === 1 ? [`GET ${docId} 200`, 'POST sql 429'] : ['POST sql 429']);
	}
}, 60_000);
