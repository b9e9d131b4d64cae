/**
 * Emulator: what GET /columns says about a Reference column's shown column, which Options → Add
 * Reference Display Values relies on (the same assertions pass against a real Grist with
 * `npm run test:real`): `visibleCol` is the column reference (colRef) of the shown column of the
 * referenced table as POST /columns set it; POST /tables drops it; `displayCol` stays 0 for
 * columns made through the REST API (only Grist's web client adds the display helper column).
 */
import { startEmulator, type GristEmulator } from './index';
import { client, type ColumnsBody } from './testutil';

let emu: GristEmulator;
let docId: string;
let api: ReturnType<typeof client>;
const OWNER = 'refcols-test-key-0123456789';

beforeAll(async () => {
	emu = await startEmulator();
	emu.addUser({ email: 'o@example.com', name: 'O', apiKey: OWNER });
	const org = emu.addOrg({ name: 'T', domain: 't', owner: 'o@example.com' });
	const ws = emu.addWorkspace(org.id, 'W');
	docId = emu.addDoc(ws.id, { name: 'D' }).id;
	api = client(emu, OWNER);
});
afterAll(() => emu.close());

const columnsOf = async (table: string) =>
	(await api.get<ColumnsBody>(`/api/docs/${docId}/tables/${table}/columns`)).json.columns;

it('visibleCol names the shown column by colRef; POST /tables drops it; displayCol stays 0', async () => {
	const made = await api.post(`/api/docs/${docId}/tables`, {
		tables: [
			{
				id: 'Clients',
				columns: [
					{ id: 'Name', fields: { type: 'Text' } },
					{ id: 'Email', fields: { type: 'Text' } },
				],
			},
		],
	});
	expect(made.status).toBe(200);
	const email = (await columnsOf('Clients')).find((c) => c.id === 'Email')!;
	const emailRef = email.fields.colRef as number;
	expect(typeof emailRef).toBe('number');

	const deals = await api.post(`/api/docs/${docId}/tables`, {
		tables: [
			{
				id: 'Deals',
				columns: [{ id: 'Client', fields: { type: 'Ref:Clients', visibleCol: emailRef } }],
			},
		],
	});
	expect(deals.status).toBe(200);
	const added = await api.post(`/api/docs/${docId}/tables/Deals/columns`, {
		columns: [
			{ id: 'Shown', fields: { type: 'Ref:Clients', visibleCol: emailRef } },
			{ id: 'Many', fields: { type: 'RefList:Clients', visibleCol: emailRef } },
		],
	});
	expect(added.status).toBe(200);
	const fields = Object.fromEntries(
		(await columnsOf('Deals')).map((c) => [
			c.id,
			{ type: c.fields.type, visibleCol: c.fields.visibleCol, displayCol: c.fields.displayCol },
		]),
	);
	expect(fields).toEqual({
		Client: { type: 'Ref:Clients', visibleCol: 0, displayCol: 0 },
		Shown: { type: 'Ref:Clients', visibleCol: emailRef, displayCol: 0 },
		Many: { type: 'RefList:Clients', visibleCol: emailRef, displayCol: 0 },
	});
});
