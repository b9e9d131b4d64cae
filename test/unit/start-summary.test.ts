/**
 * The block `npm start` prints when ready (scripts/lib/start-summary.cjs): the editor and its
 * login, then what another tool needs to use the demo (the emulator's URL, API key, team, the demo
 * documents with their tables), aligned; with a real Grist its URL and never its key.
 */
import { startSummary, type StartSummary } from '../../scripts/lib/start-summary.cjs';

const base = {
	editorUrl: 'http://127.0.0.1:5678',
	email: 'owner@example.com',
	password: 'Grist-n8n-1',
	credentialName: 'Grist Records & Documents API',
	pid: 4242,
};
const emulator: StartSummary = {
	...base,
	grist: {
		kind: 'emulator',
		url: 'http://127.0.0.1:8484/o/demo',
		apiKey: 'the-demo-key',
		orgDomain: 'demo',
		orgName: 'Demo Team',
		docs: [
			{ name: 'CRM', id: 'aBcDeFgHiJkLmNoPqRsTuV', tables: ['Customers', 'Orders'] },
			{ name: 'Tasks', id: 'zYxWvUtSrQpOnMlKjIhGfE', tables: ['Tasks'] },
		],
	},
};

it('with the emulator: the login, then its URL, API key, team and documents with their tables', () => {
	expect(startSummary(emulator)).toBe(
		[
			'',
			'  n8n editor: http://127.0.0.1:5678',
			'  login:      owner@example.com',
			'  password:   Grist-n8n-1',
			'  credential: "Grist Records & Documents API" (ready in n8n, on the Grist below)',
			'',
			'  Grist URL:  http://127.0.0.1:8484/o/demo   (the emulator)',
			"  API key:    the-demo-key   (the emulator's local demo key)",
			'  team:       demo (Demo Team)',
			'  documents:  CRM    aBcDeFgHiJkLmNoPqRsTuV  tables Customers, Orders',
			'              Tasks  zYxWvUtSrQpOnMlKjIhGfE  tables Tasks',
			'  try:        curl -H "Authorization: Bearer the-demo-key" http://127.0.0.1:8484/o/demo/api/docs/aBcDeFgHiJkLmNoPqRsTuV/tables/Customers/records',
			'',
			'  stop:       Ctrl-C here, or kill 4242 (stops n8n and the emulator)',
			'',
			'  Add a "Grist Records & Documents" node to a workflow and pick the credential; other',
			"  tools (n8n's own Grist node, curl) take the Grist URL and API key above.",
			'',
		].join('\n'),
	);
});

it("lines the document ids up whatever the lengths of the documents' names", () => {
	const text = startSummary({
		...emulator,
		grist: {
			...(emulator.grist as Extract<StartSummary['grist'], { kind: 'emulator' }>),
			docs: [
				{ name: 'A', id: 'id1', tables: ['T1'] },
				{ name: 'Long name', id: 'id2', tables: ['T2', 'T3'] },
			],
		},
	});
	expect(text).toContain(
		'  documents:  A          id1  tables T1\n              Long name  id2  tables T2, T3\n',
	);
});

it('with a real Grist: its URL, and neither its key nor emulator details', () => {
	const text = startSummary({ ...base, grist: { kind: 'real', url: 'https://docs.getgrist.com' } });
	expect(text).toContain('  Grist URL:  https://docs.getgrist.com   (GRIST_URL)\n');
	expect(text).toContain('  API key:    yours, from GRIST_API_KEY (not shown)\n');
	expect(text).toContain('  stop:       Ctrl-C here, or kill 4242 (stops n8n)\n');
	expect(text).not.toMatch(/emulator|documents:|team:|curl -H|Bearer/);
});
