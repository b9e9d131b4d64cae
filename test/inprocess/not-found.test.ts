/**
 * 404 hints name what was actually missing, derived from the failed request's
 * path and Grist's message: an unknown document on a record read names the document, not the
 * table the operation was about.
 */
import type { DemoSite, GristEmulator } from '../emulator';
import { rl } from '../harness/builders';
import { resourceRunner, useDemoSite } from '../harness/demo-site';

const fx = useDemoSite();
let emu: GristEmulator;
let demo: DemoSite;
beforeAll(() => ({ emu, demo } = fx));
const requests = () => emu.log.map((e) => `${e.method} ${e.apiPath} ${e.status}`);
const record = resourceRunner(fx, 'record');
const document = resourceRunner(fx, 'document');

const documentHint = (id: string) =>
	`Document "${id}" was not found, or the user of this API key cannot see it. Check the document ID (the Document field lists them, or paste the document URL) and that the Server URL is the team site the document is on.`;

describe('an unknown document', () => {
	it.each([
		// The column read's error is the one shown (the records are read at the same time).
		['Simplify on (columns and records read together)', true, ['columns', 'data']],
		['Simplify off', false, ['data']],
	])(
		'on a record read names the document, not the table: %s',
		async (_label, simplify, endpoints) => {
			const { error } = await record({
				operation: 'getAll',
				document: rl('id', 'NoSuchDocumentId12345'),
				table: rl('id', 'Customers'),
				simplify,
			});
			expect(error?.message).toBe('Document not found');
			expect(error?.httpCode).toBe('404');
			expect(error?.description).toBe(documentHint('NoSuchDocumentId12345'));
			expect(error?.description).not.toMatch(/Customers|table/i);
			expect(requests().sort()).toEqual(
				endpoints.map((e) => `GET /api/docs/NoSuchDocumentId12345/tables/Customers/${e} 404`),
			);
		},
	);

	it('on a document get names the document', async () => {
		const { error } = await document({
			operation: 'get',
			document: rl('id', 'NoSuchDocumentId12345'),
		});
		expect(error?.message).toBe('Document not found');
		expect(error?.description).toBe(documentHint('NoSuchDocumentId12345'));
		expect(requests()).toEqual(['GET /api/docs/NoSuchDocumentId12345 404']);
	});

	it.each([
		['../../orgs', '..%2F..%2Forgs'],
		['abc?x=1', 'abc%3Fx%3D1'],
	])(
		'with the ID %p: stays one path segment, and the hint says what a document ID looks like',
		async (id, encoded) => {
			const { error } = await record({
				operation: 'getAll',
				document: rl('id', id),
				table: rl('id', 'Customers'),
				simplify: false,
			});
			expect(error?.message).toBe('Document not found');
			expect(error?.description).toBe(
				`${documentHint(id)} A document ID has only letters, digits, - and _: "${id}" looks like a name, a URL or a path. Pick it from the list or enter its ID (or paste the whole document URL).`,
			);
			expect(emu.log.map((e) => e.path)).toEqual([
				`/o/demo/api/docs/${encoded}/tables/Customers/data`,
			]);
		},
	);
});

describe('other missing objects are named too', () => {
	it('an unknown table names the table and its document', async () => {
		const { error } = await record({
			operation: 'getAll',
			document: rl('id', demo.docId),
			table: rl('id', 'Nope'),
			simplify: false,
		});
		expect(error?.message).toBe('Table not found "Nope"');
		expect(error?.description).toBe(
			`Table "Nope" was not found in document "${demo.docId}", or the user of this API key cannot see it. Check the table ID (not its label); the Table field lists the tables in "From list" mode.`,
		);
	});

	it('an unknown workspace names the workspace', async () => {
		const { error } = await resourceRunner(
			fx,
			'workspace',
		)({ operation: 'get', workspace: rl('id', '987654') });
		expect(error?.message).toBe('Workspace not found');
		expect(error?.description).toMatch(
			/^Workspace 987654 was not found, or the user of this API key cannot see it\. Check the workspace ID/,
		);
	});

	it('an unknown organization names the organization', async () => {
		const { error } = await resourceRunner(
			fx,
			'org',
		)({ operation: 'get', org: rl('id', 'nosuchteam') });
		expect(error?.message).toBe('Organization not found');
		expect(error?.description).toMatch(/^Organization "nosuchteam" was not found/);
	});
});
