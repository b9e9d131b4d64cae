/**
 * The differential check's script: the calls sent, in this order, to the emulator and to a real
 * Grist (run.ts), each side in a fresh workspace of its own. Every endpoint of
 * the endpoint files of nodes/Grist/api/ (and the credential test's GET /api/profile/user) is named in some
 * call's `covers`; record.test.ts fails when one is not. A call's values come from what earlier
 * calls of the same side answered (`save`), so both sides run the same script on their own ids.
 */
import { createHash } from 'node:crypto';

import { tarFiles } from '../emulator/tar';

/** What a side has learnt so far (ids it created, the users it runs as, the webhook receiver). */
export interface Vars {
	org: string;
	orgId?: number;
	orgName?: string;
	ownerEmail?: string;
	viewerEmail?: string;
	wsId?: number;
	ws2Id?: number;
	docId?: string;
	copyId?: string;
	importId?: string;
	webhookId?: string;
	attachmentId?: number;
	/** The URL Grist posts webhook deliveries to (a receiver of run.ts, one path per side). */
	hookUrl: string;
	[key: string]: unknown;
}

/** Who sends the call: the owner's key, the viewer's key, a key Grist does not know, or no key. */
export type Caller = 'owner' | 'viewer' | 'badkey' | 'anon';

/** How the answer is read and compared: JSON, or a file read back into comparable values. */
export type Answer = 'json' | 'csv' | 'xlsx' | 'grist' | 'bytes' | 'tar' | 'zip';

export interface Call {
	name: string;
	/** The api/ functions (or `credentialTest`) whose endpoint this call exercises. */
	covers?: string[];
	as?: Caller;
	method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
	/** The path after the site (`/o/<org>`), e.g. `/api/docs/…`. */
	path: (v: Vars) => string;
	query?: (v: Vars) => Record<string, string>;
	/** A JSON body. */
	body?: (v: Vars) => unknown;
	/** A body sent as is, with its content type (bad JSON). */
	raw?: { text: string; contentType: string };
	/** A multipart body: file parts (field `upload`) and text fields. */
	form?: (v: Vars) => {
		/** A file's content: `text`, or `data` for bytes. */
		files: Array<{ name: string; type: string; text?: string; data?: Buffer }>;
		fields?: Record<string, string>;
	};
	answer?: Answer;
	/**
	 * Home-DB answers carry org, workspace and user ids: numbers under `id` are normalised by the
	 * kind of object holding them; `root` is the kind of the answer's top-level object(s).
	 */
	home?: { root: string };
	/** Keeps only what this run made (other workspaces, orgs and users of the server are not ours). */
	keep?: (json: unknown, v: Vars) => unknown;
	save?: (json: unknown, v: Vars) => void;
	/** Waits for the webhook delivery this many ms at most and compares its body instead of an answer. */
	delivery?: number;
}

type J = Record<string, unknown>;

/** The differential's attachment (`attachments upload`), as Grist names it in an archive. */
const NOTE = Buffer.from('hello grist\n');
const NOTE_ENTRY = `${createHash('sha1').update(NOTE).digest('hex')}_note.txt`;
const restoreForm = (name: string, type: string, data: Buffer) => () => ({
	files: [{ name, type, data }],
});
const obj = (x: unknown) => (x ?? {}) as J;
const docPath = (v: Vars, rest = '') => `/api/docs/${v.docId}${rest}`;
const people = (v: Vars, rest = '') => docPath(v, `/tables/People${rest}`);
const onlyOurs = (list: unknown, ids: Array<number | undefined>) =>
	(list as J[]).filter((x) => ids.includes(x.id as number));
const ourUsers = (json: unknown, v: Vars) => {
	const users = (obj(json).users as J[] | undefined)?.filter((u) =>
		[v.ownerEmail, v.viewerEmail].includes(String(u.email)),
	);
	return { ...obj(json), users };
};

/** Some keys of an object answer. */
const pick = (j: unknown, keys: string[]) =>
	Object.fromEntries(keys.filter((k) => k in obj(j)).map((k) => [k, obj(j)[k]]));
/** A state `{n, h}` of a comparison: each side's history has its own numbers and hashes. */
const state = (s: unknown) => (s ? Object.keys(obj(s)).sort().join(',') : s);
/** A comparison of two documents: the states' shapes, which ones are the parent, and the rest as is. */
const comparison = (j: unknown) => {
	const c = obj(j);
	const h = (k: string) => obj(c[k]).h;
	return {
		...c,
		left: state(c.left),
		right: state(c.right),
		parent: state(c.parent),
		parentIs: c.parent ? ['left', 'right'].filter((k) => h(k) === h('parent')) : null,
	};
};
/** A proposal: its fields, its comparison as `comparison` gives it, the source and target documents' main fields. */
const proposal = (p: unknown) => {
	const x = obj(p);
	const doc = (d: unknown) =>
		d === undefined
			? undefined
			: {
					...pick(d, ['name', 'id', 'isPinned', 'urlId', 'trunkId', 'type', 'options']),
					creator: pick(obj(d).creator, ['name', 'email', 'type', 'anonymous']),
				};
	return {
		...pick(x, [
			'shortId',
			'status',
			'srcDocId',
			'destDocId',
			'createdAt',
			'updatedAt',
			'appliedAt',
		]),
		comparison: comparison(obj(x.comparison).comparison),
		srcDoc: doc(x.srcDoc),
		destDoc: doc(x.destDoc),
	};
};
/** Attachments: the archive (download, restore), the stores, the transfers, removing unused ones. */
const ARCHIVE_CALLS: Call[] = [
	{
		name: 'attachments archive zip',
		covers: ['downloadAttachmentArchive'],
		method: 'GET',
		path: (v) => docPath(v, '/attachments/archive'),
		answer: 'zip',
	},
	{
		name: 'attachments archive tar',
		method: 'GET',
		path: (v) => docPath(v, '/attachments/archive'),
		query: () => ({ format: 'tar' }),
		answer: 'tar',
	},
	{
		name: 'attachments archive unknown format',
		method: 'GET',
		path: (v) => docPath(v, '/attachments/archive'),
		query: () => ({ format: 'rar' }),
	},
	{
		name: 'attachments restore',
		covers: ['restoreAttachmentArchive'],
		method: 'POST',
		path: (v) => docPath(v, '/attachments/archive'),
		form: restoreForm('a.tar', 'application/x-tar', tarFiles([{ name: NOTE_ENTRY, data: NOTE }])),
	},
	{
		name: 'attachments restore a file of another type',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/archive'),
		form: restoreForm('a.zip', 'application/zip', Buffer.from('PK not really a zip')),
	},
	{
		name: 'attachments restore a tar cut short',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/archive'),
		form: restoreForm(
			'a.tar',
			'application/x-tar',
			tarFiles([{ name: NOTE_ENTRY, data: NOTE }]).subarray(0, 600),
		),
	},
	{
		name: 'attachments restore a text named .tar',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/archive'),
		form: restoreForm('a.tar', 'application/x-tar', Buffer.alloc(2048, 0x41)),
	},
	{
		name: 'attachments restore as viewer',
		as: 'viewer',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/archive'),
		form: restoreForm('a.tar', 'application/x-tar', tarFiles([{ name: NOTE_ENTRY, data: NOTE }])),
	},
	{
		name: 'attachments restore without a body',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/archive'),
	},
	{
		name: 'attachments store',
		covers: ['getAttachmentStore'],
		method: 'GET',
		path: (v) => docPath(v, '/attachments/store'),
	},
	{
		name: 'attachments stores',
		covers: ['listAttachmentStores'],
		method: 'GET',
		path: (v) => docPath(v, '/attachments/stores'),
	},
	{
		name: 'attachments store set unknown type',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/store'),
		body: () => ({ type: 'cloud' }),
	},
	{
		name: 'attachments store set external',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/store'),
		body: () => ({ type: 'external' }),
		// `<the server's install id>-snapshots`
		keep: (j) => ({ store: String(obj(j).store).replace(/^.*-/, '<install>-') }),
	},
	{
		name: 'attachments store after external',
		method: 'GET',
		path: (v) => docPath(v, '/attachments/store'),
	},
	{
		name: 'attachments store set internal',
		covers: ['setAttachmentStore'],
		method: 'POST',
		path: (v) => docPath(v, '/attachments/store'),
		body: () => ({ type: 'internal' }),
	},
	{
		name: 'attachments transfer all',
		covers: ['transferAllAttachments'],
		method: 'POST',
		path: (v) => docPath(v, '/attachments/transferAll'),
	},
	{
		name: 'attachments transfer status',
		covers: ['getAttachmentTransferStatus'],
		method: 'GET',
		path: (v) => docPath(v, '/attachments/transferStatus'),
	},
	{
		name: 'attachments remove unused expired only',
		covers: ['removeUnusedAttachments'],
		method: 'POST',
		path: (v) => docPath(v, '/attachments/removeUnused'),
		query: () => ({ expiredonly: '1' }),
	},
	{
		name: 'attachments list after expired only',
		method: 'GET',
		path: (v) => docPath(v, '/attachments'),
	},
	{
		name: 'attachments remove unused',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/removeUnused'),
		query: () => ({ verifyfiles: '1' }),
	},
	{
		name: 'attachments list after remove unused',
		method: 'GET',
		path: (v) => docPath(v, '/attachments'),
	},
	{
		name: 'attachments remove unused as viewer',
		as: 'viewer',
		method: 'POST',
		path: (v) => docPath(v, '/attachments/removeUnused'),
	},
];

/** Export Table's other formats. */
const EXPORT_FORMAT_CALLS: Call[] = [
	{
		name: 'export tsv',
		method: 'GET',
		path: (v) => docPath(v, '/download/tsv'),
		query: () => ({ tableId: 'People', header: 'colId' }),
		answer: 'csv',
	},
	{
		name: 'export dsv',
		method: 'GET',
		path: (v) => docPath(v, '/download/dsv'),
		query: () => ({ tableId: 'People' }),
		answer: 'csv',
	},
	{
		name: 'export dsv without table',
		method: 'GET',
		path: (v) => docPath(v, '/download/dsv'),
	},
	{
		name: 'export table schema',
		method: 'GET',
		path: (v) => docPath(v, '/download/table-schema'),
		query: () => ({ tableId: 'People', title: 'people' }),
		// `path` is the CSV export's URL on this server
		keep: (j) => ({
			...obj(j),
			path: String(obj(j).path).replace(/^.*\/download\//, '…/download/'),
		}),
	},
	{
		name: 'export table schema unknown table',
		method: 'GET',
		path: (v) => docPath(v, '/download/table-schema'),
		query: () => ({ tableId: 'Nope' }),
	},
];

const PEOPLE_COLUMNS = [
	{ id: 'Name', fields: { label: 'Name', type: 'Text' } },
	{ id: 'Age', fields: { type: 'Numeric' } },
	{ id: 'Joined', fields: { type: 'Date' } },
	{ id: 'Active', fields: { type: 'Bool' } },
	{ id: 'Tags', fields: { type: 'ChoiceList', widgetOptions: '{"choices":["a","b","c"]}' } },
	{ id: 'Score', fields: { type: 'Int' } },
	{ id: 'Double', fields: { formula: '$Age * 2', isFormula: true } },
];

export const CALLS: Call[] = [
	// ---------------------------------------------------------------- profile, orgs
	{
		name: 'profile',
		covers: ['credentialTest'],
		method: 'GET',
		path: () => '/api/profile/user',
		home: { root: 'user' },
	},
	{
		name: 'profile of the viewer',
		as: 'viewer',
		method: 'GET',
		path: () => '/api/profile/user',
		home: { root: 'user' },
	},
	{
		name: 'profile bad key',
		as: 'badkey',
		method: 'GET',
		path: () => '/api/profile/user',
	},
	{
		name: 'org current',
		method: 'GET',
		path: () => '/api/orgs/current',
		home: { root: 'org' },
	},
	{
		name: 'orgs list',
		covers: ['listOrgs'],
		method: 'GET',
		path: () => '/api/orgs',
		home: { root: 'org' },
		// the site's org: the one of that domain, or for `docs` (the merged personal site) the personal org
		save: (j, v) => {
			const orgs = j as J[];
			const site =
				orgs.find((o) => o.domain === v.org) ??
				orgs.find((o) => v.org === 'docs' && /^docs-\d+$/.test(String(o.domain)));
			v.orgId = site?.id as number;
		},
		keep: (j, v) => onlyOurs(j, [v.orgId]),
	},
	{
		name: 'org get',
		covers: ['getOrg', 'siteOrg'],
		method: 'GET',
		path: (v) => `/api/orgs/${v.org}`,
		home: { root: 'org' },
		save: (j, v) => (v.orgName = String(obj(j).name)),
	},
	{
		name: 'org get by id',
		method: 'GET',
		path: (v) => `/api/orgs/${v.orgId}`,
		home: { root: 'org' },
	},
	{
		name: 'org get unknown',
		method: 'GET',
		path: () => '/api/orgs/999999',
	},
	{
		name: 'org patch same name',
		covers: ['updateOrg'],
		method: 'PATCH',
		path: (v) => `/api/orgs/${v.org}`,
		body: (v) => ({ name: v.orgName }),
	},
	{
		name: 'org patch unknown property',
		method: 'PATCH',
		path: (v) => `/api/orgs/${v.org}`,
		body: () => ({ colour: 'red' }),
	},
	{
		name: 'org access',
		covers: ['getAccess'],
		method: 'GET',
		path: (v) => `/api/orgs/${v.org}/access`,
		home: { root: 'user' },
		keep: ourUsers,
	},
	// ---------------------------------------------------------------- workspaces
	{
		name: 'workspace create',
		covers: ['createWorkspace'],
		method: 'POST',
		path: (v) => `/api/orgs/${v.org}/workspaces`,
		body: () => ({ name: 'Differential check' }),
		home: { root: 'ws' },
		save: (j, v) => (v.wsId = j as number),
	},
	{
		name: 'workspace create second',
		method: 'POST',
		path: (v) => `/api/orgs/${v.org}/workspaces`,
		body: () => ({ name: 'Differential check 2' }),
		home: { root: 'ws' },
		save: (j, v) => (v.ws2Id = j as number),
	},
	{
		name: 'workspace create without name',
		method: 'POST',
		path: (v) => `/api/orgs/${v.org}/workspaces`,
		body: () => ({}),
	},
	{
		name: 'workspace get',
		covers: ['getWorkspace'],
		method: 'GET',
		path: (v) => `/api/workspaces/${v.wsId}`,
		home: { root: 'ws' },
	},
	{
		name: 'workspace get unknown',
		method: 'GET',
		path: () => '/api/workspaces/999999',
	},
	{
		name: 'workspace get not a number',
		method: 'GET',
		path: () => '/api/workspaces/abc',
	},
	{
		name: 'workspace patch',
		covers: ['updateWorkspace'],
		method: 'PATCH',
		home: { root: 'ws' },
		path: (v) => `/api/workspaces/${v.ws2Id}`,
		body: () => ({ name: 'Differential check two' }),
	},
	{
		name: 'workspace access share with viewer',
		covers: ['updateAccess'],
		method: 'PATCH',
		path: (v) => `/api/workspaces/${v.wsId}/access`,
		// nothing inherited: the viewer stays a viewer whatever its role in the org
		body: (v) => ({
			delta: { maxInheritedRole: null, users: { [String(v.viewerEmail)]: 'viewers' } },
		}),
	},
	{
		name: 'workspace access bad role',
		method: 'PATCH',
		path: (v) => `/api/workspaces/${v.wsId}/access`,
		body: (v) => ({ delta: { users: { [String(v.viewerEmail)]: 'kings' } } }),
	},
	{
		name: 'workspace access',
		method: 'GET',
		path: (v) => `/api/workspaces/${v.wsId}/access`,
		home: { root: 'user' },
		keep: ourUsers,
	},
	// ---------------------------------------------------------------- documents
	{
		name: 'doc create',
		covers: ['createDocument'],
		method: 'POST',
		path: (v) => `/api/workspaces/${v.wsId}/docs`,
		body: () => ({ name: 'Diff' }),
		save: (j, v) => (v.docId = j as string),
	},
	{
		name: 'doc create in unknown workspace',
		method: 'POST',
		path: () => '/api/workspaces/999999/docs',
		body: () => ({ name: 'Nowhere' }),
	},
	{
		name: 'doc get',
		covers: ['getDocument'],
		method: 'GET',
		path: (v) => docPath(v),
		home: { root: 'doc' },
	},
	{
		name: 'history states of a new doc',
		method: 'GET',
		path: (v) => docPath(v, '/states'),
		// A document made through the API starts with one state (the emulator starts the document's
		// history here: it keeps one only from the first /states or /compare on).
		keep: (j) => {
			const states = (obj(j).states ?? []) as Array<{ n: number; h: string }>;
			return { count: states.length, hashes: states.every((x) => /^[0-9a-f]{64}$/.test(x.h)) };
		},
	},
	{
		name: 'doc get unknown',
		method: 'GET',
		path: () => '/api/docs/NoSuchDocument1234',
	},
	{
		name: 'doc patch',
		covers: ['updateDocument'],
		method: 'PATCH',
		path: (v) => docPath(v),
		body: () => ({ name: 'Diff renamed', isPinned: true }),
	},
	{
		name: 'doc patch unknown property',
		method: 'PATCH',
		path: (v) => docPath(v),
		body: () => ({ colour: 'red' }),
	},
	{
		name: 'doc access',
		method: 'GET',
		path: (v) => docPath(v, '/access'),
		home: { root: 'user' },
		keep: ourUsers,
	},
	{
		name: 'org workspaces',
		covers: ['listOrgWorkspaces', 'documentsOfWorkspaces'],
		method: 'GET',
		path: (v) => `/api/orgs/${v.org}/workspaces`,
		home: { root: 'ws' },
		keep: (j, v) => onlyOurs(j, [v.wsId, v.ws2Id]),
	},
	// ---------------------------------------------------------------- tables and columns
	{
		name: 'tables of a new doc',
		covers: ['listTables', 'fetchTables', 'TableCache'],
		method: 'GET',
		path: (v) => docPath(v, '/tables'),
	},
	{
		name: 'tables create',
		covers: ['createTables'],
		method: 'POST',
		path: (v) => docPath(v, '/tables'),
		body: () => ({
			tables: [
				{ id: 'People', columns: PEOPLE_COLUMNS },
				{ id: 'Scratch', columns: [{ id: 'X', fields: {} }] },
			],
		}),
	},
	{
		name: 'tables create bad body',
		method: 'POST',
		path: (v) => docPath(v, '/tables'),
		body: () => ({ tables: [{ columns: 'none' }] }),
	},
	{
		name: 'tables with columns',
		method: 'GET',
		path: (v) => docPath(v, '/tables'),
		query: () => ({ expand: 'column' }),
	},
	{
		name: 'tables rename',
		covers: ['updateTables'],
		method: 'PATCH',
		path: (v) => docPath(v, '/tables'),
		body: () => ({ tables: [{ id: 'Scratch', fields: { tableId: 'Scratch2' } }] }),
	},
	{
		name: 'tables rename unknown',
		method: 'PATCH',
		path: (v) => docPath(v, '/tables'),
		body: () => ({ tables: [{ id: 'Nope', fields: { tableId: 'Nope2' } }] }),
	},
	{
		name: 'tables of unknown doc',
		method: 'GET',
		path: () => '/api/docs/NoSuchDocument1234/tables',
	},
	{
		name: 'columns hidden',
		covers: ['fetchColumns', 'ColumnCache'],
		method: 'GET',
		path: (v) => people(v, '/columns'),
		query: () => ({ hidden: '1' }),
	},
	{
		name: 'columns of unknown table',
		method: 'GET',
		path: (v) => docPath(v, '/tables/Nope/columns'),
	},
	{
		name: 'columns add',
		covers: ['addColumnsToTable'],
		method: 'POST',
		path: (v) => people(v, '/columns'),
		body: () => ({
			columns: [
				{ id: 'Notes', fields: { type: 'Text', label: 'Notes' } },
				{ id: 'Extra', fields: {} },
			],
		}),
	},
	{
		name: 'columns add duplicate id',
		method: 'POST',
		path: (v) => people(v, '/columns'),
		body: () => ({ columns: [{ id: 'Notes', fields: { type: 'Text' } }] }),
	},
	{
		name: 'columns patch',
		covers: ['writeColumns'],
		method: 'PATCH',
		path: (v) => people(v, '/columns'),
		body: () => ({ columns: [{ id: 'Notes', fields: { label: 'Remarks' } }] }),
	},
	{
		name: 'columns patch unknown column',
		method: 'PATCH',
		path: (v) => people(v, '/columns'),
		body: () => ({ columns: [{ id: 'Nope', fields: { label: 'x' } }] }),
	},
	{
		name: 'columns put noadd',
		method: 'PUT',
		path: (v) => people(v, '/columns'),
		query: () => ({ noadd: '1' }),
		body: () => ({
			columns: [
				{ id: 'Extra', fields: { type: 'Numeric' } },
				{ id: 'NotAdded', fields: { type: 'Text' } },
			],
		}),
	},
	{
		name: 'columns put replaceall on scratch',
		method: 'PUT',
		path: (v) => docPath(v, '/tables/Scratch2/columns'),
		query: () => ({ replaceall: '1' }),
		body: () => ({ columns: [{ id: 'Y', fields: { type: 'Int' } }] }),
	},
	{
		name: 'column delete',
		covers: ['deleteColumn'],
		method: 'DELETE',
		path: (v) => people(v, '/columns/Extra'),
	},
	{
		name: 'column delete unknown',
		method: 'DELETE',
		path: (v) => people(v, '/columns/Nope'),
	},
	{
		name: 'columns after changes',
		method: 'GET',
		path: (v) => people(v, '/columns'),
	},
	// ---------------------------------------------------------------- records
	{
		name: 'records add',
		covers: ['addRecords'],
		method: 'POST',
		path: (v) => people(v, '/records'),
		body: () => ({
			records: [
				{
					fields: {
						Name: 'Ann',
						Age: 31,
						Joined: '2024-01-15',
						Active: true,
						Tags: ['L', 'a'],
						Score: 5,
					},
				},
				{ fields: { Name: 'Bob', Age: '42', Joined: '3/2/2024', Active: 'false', Score: '7' } },
				{ fields: { Name: 'Cy', Age: 'old', Joined: 'someday', Score: 2.5 } },
			],
		}),
	},
	{
		name: 'records add noparse',
		method: 'POST',
		path: (v) => people(v, '/records'),
		query: () => ({ noparse: '1' }),
		body: () => ({ records: [{ fields: { Name: 'Dee', Age: '$7', Joined: 1718000000 } }] }),
	},
	{
		name: 'records add unknown column',
		method: 'POST',
		path: (v) => people(v, '/records'),
		body: () => ({ records: [{ fields: { Nope: 1 } }] }),
	},
	{
		name: 'records add bad body',
		method: 'POST',
		path: (v) => people(v, '/records'),
		body: () => ({ records: { fields: {} } }),
	},
	{
		name: 'records add bad json',
		method: 'POST',
		path: (v) => people(v, '/records'),
		raw: { text: '{records: []}', contentType: 'application/json' },
	},
	{
		name: 'records add to unknown table',
		method: 'POST',
		path: (v) => docPath(v, '/tables/Nope/records'),
		body: () => ({ records: [{ fields: {} }] }),
	},
	{
		name: 'records read',
		covers: ['fetchRecords'],
		method: 'GET',
		path: (v) => people(v, '/records'),
	},
	{
		name: 'records read hidden sorted limited',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ hidden: '1', sort: '-Age', limit: '2' }),
	},
	{
		name: 'records read filter',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ filter: JSON.stringify({ Name: ['Ann', 'Cy'] }) }),
	},
	{
		name: 'records read filter by id',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ filter: '{"id": [1, 999]}' }),
		covers: ['fetchRecordsById'],
	},
	{
		name: 'records read filter bad json',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ filter: '{Name: ["Ann"]}' }),
	},
	{
		name: 'records read filter not arrays',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ filter: '{"Name": "Ann"}' }),
	},
	{
		name: 'records read filter unknown column',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ filter: '{"Nope": [1]}' }),
	},
	{
		name: 'records read sort unknown column',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ sort: 'Nope' }),
	},
	{
		name: 'records read unknown table',
		method: 'GET',
		path: (v) => docPath(v, '/tables/Nope/records'),
	},
	{
		name: 'records update',
		covers: ['updateRecords'],
		method: 'PATCH',
		path: (v) => people(v, '/records'),
		body: () => ({ records: [{ id: 2, fields: { Age: 43, Active: true } }] }),
	},
	{
		name: 'records update mixed fields',
		method: 'PATCH',
		path: (v) => people(v, '/records'),
		body: () => ({
			records: [
				{ id: 1, fields: { Age: 1 } },
				{ id: 2, fields: { Name: 'x' } },
			],
		}),
	},
	{
		name: 'records update unknown row',
		method: 'PATCH',
		path: (v) => people(v, '/records'),
		body: () => ({ records: [{ id: 999, fields: { Age: 1 } }] }),
	},
	{
		name: 'records upsert',
		covers: ['upsertRecords'],
		method: 'PUT',
		path: (v) => people(v, '/records'),
		body: () => ({
			records: [
				{ require: { Name: 'Ann' }, fields: { Score: 9 } },
				{ require: { Name: 'Eve' }, fields: { Age: 22 } },
			],
		}),
	},
	{
		name: 'records upsert noadd noupdate',
		method: 'PUT',
		path: (v) => people(v, '/records'),
		query: () => ({ noadd: '1', noupdate: '1' }),
		body: () => ({ records: [{ require: { Name: 'Zed' } }] }),
	},
	{
		name: 'records upsert bad onmany',
		method: 'PUT',
		path: (v) => people(v, '/records'),
		query: () => ({ onmany: 'some' }),
		body: () => ({ records: [{ require: { Name: 'Ann' } }] }),
	},
	{
		name: 'records upsert empty require',
		method: 'PUT',
		path: (v) => people(v, '/records'),
		body: () => ({ records: [{ require: {}, fields: { Name: 'Nobody' } }] }),
	},
	{
		name: 'records after writes',
		method: 'GET',
		path: (v) => people(v, '/records'),
	},
	{
		name: 'records delete',
		covers: ['deleteRows'],
		method: 'POST',
		path: (v) => people(v, '/records/delete'),
		body: () => [5],
	},
	{
		name: 'history states',
		covers: ['fetchStates'],
		method: 'GET',
		path: (v) => docPath(v, '/states'),
		// Each side's history has its own length and hashes: their shape and order are compared.
		keep: (j) => {
			const states = (obj(j).states ?? []) as Array<{ n: number; h: string }>;
			return {
				newestFirst: states.every((x, i) => i === 0 || x.n === states[i - 1].n - 1),
				hashes: states.every((x) => /^[0-9a-f]{64}$/.test(x.h)),
				some: states.length > 1,
			};
		},
	},
	{
		name: 'history compare of the last action',
		covers: ['compareStates'],
		method: 'GET',
		path: (v) => docPath(v, '/compare'),
		query: () => ({ left: 'HEAD~1', right: 'HEAD', maxRows: '10000' }),
		keep: (j) => ({
			summary: obj(j).summary,
			sides: ['left', 'right', 'parent'].map((k) => Object.keys(obj(obj(j)[k])).sort()),
			details: obj(j).details,
		}),
	},
	{
		name: 'records delete bad id',
		method: 'POST',
		path: (v) => people(v, '/records/delete'),
		body: () => ['x'],
	},
	// ---------------------------------------------------------------- /data (deprecated)
	{
		name: 'data read',
		covers: ['fetchColumnar'],
		method: 'GET',
		path: (v) => people(v, '/data'),
		query: () => ({ sort: 'Name' }),
	},
	{
		name: 'data read filtered, sorted, limited (Record → Get Many)',
		covers: ['fetchRows'],
		method: 'GET',
		path: (v) => people(v, '/data'),
		query: () => ({ filter: '{"Active":[true,false]}', sort: '-Age', limit: '2' }),
	},
	{
		name: 'data add',
		covers: ['writeColumnarData'],
		method: 'POST',
		path: (v) => people(v, '/data'),
		body: () => ({ Name: ['Fay', 'Gus'], Age: [50, 60] }),
	},
	{
		name: 'data update',
		method: 'PATCH',
		path: (v) => people(v, '/data'),
		body: () => ({ id: [6], Age: [51] }),
	},
	{
		name: 'data update unknown column',
		method: 'PATCH',
		path: (v) => people(v, '/data'),
		body: () => ({ id: [6], Nope: [1] }),
	},
	{
		name: 'data delete',
		method: 'POST',
		path: (v) => people(v, '/data/delete'),
		body: () => [7],
	},
	// ---------------------------------------------------------------- /apply
	{
		name: 'apply actions',
		covers: ['applyUserActions'],
		method: 'POST',
		path: (v) => docPath(v, '/apply'),
		body: () => [
			['AddRecord', 'People', null, { Name: 'Hal', Age: 70 }],
			['BulkUpdateRecord', 'People', [1, 2], { Score: [11, 12] }],
			['RemoveTable', 'Scratch2'],
			['AddTable', 'Extra Table', [{ id: 'Kind' }, { id: 'Count', type: 'Int' }]],
		],
	},
	{
		name: 'apply unknown action',
		method: 'POST',
		path: (v) => docPath(v, '/apply'),
		body: () => [['Frobnicate', 'People']],
	},
	{
		name: 'apply unknown table',
		method: 'POST',
		path: (v) => docPath(v, '/apply'),
		body: () => [['AddRecord', 'Nope', null, {}]],
	},
	{
		name: 'apply not a list',
		method: 'POST',
		path: (v) => docPath(v, '/apply'),
		body: () => ({ actions: [] }),
	},
	// ---------------------------------------------------------------- SQL
	{
		name: 'sql select',
		covers: ['runSql'],
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({
			sql: 'SELECT id, Name, Age, Active, Joined, Tags FROM People WHERE Age > ? ORDER BY id',
			args: [30],
			timeout: 1000,
		}),
	},
	{
		name: 'sql max id (polling trigger)',
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 'SELECT max(id) AS m FROM People', args: [] }),
	},
	{
		name: 'sql ids of a reference check',
		covers: ['missingRowIds'],
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 'SELECT id FROM "People" WHERE id IN (1,2,999)', args: [] }),
	},
	{
		name: 'sql rows by id (reference display values)',
		covers: ['readRowsById'],
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({
			sql: 'SELECT "id", "Name" FROM "People" WHERE id IN (SELECT value FROM json_each(?))',
			args: ['[1,2,999]'],
		}),
	},
	{
		name: 'sql rows by shown value (references given by name)',
		covers: ['findRowsByValue'],
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({
			sql: 'SELECT id, "Name" FROM "People" WHERE "Name" IN (SELECT value FROM json_each(?))',
			args: ['["Ann","Nobody"]'],
		}),
	},
	{
		name: 'sql get form',
		method: 'GET',
		path: (v) => docPath(v, '/sql'),
		query: () => ({ q: 'select count(*) as n from People' }),
	},
	{
		name: 'sql not a select',
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 'DELETE FROM People', args: [] }),
	},
	{
		name: 'sql syntax error',
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 'SELECT FROM WHERE', args: [] }),
	},
	{
		name: 'sql unknown table',
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 'SELECT * FROM Nope', args: [] }),
	},
	{
		name: 'sql bad body',
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 1 }),
	},
	// ---------------------------------------------------------------- attachments
	{
		name: 'attachments upload',
		covers: ['uploadAttachments'],
		method: 'POST',
		path: (v) => docPath(v, '/attachments'),
		form: () => ({ files: [{ name: 'note.txt', type: 'text/plain', text: 'hello grist\n' }] }),
		save: (j, v) => (v.attachmentId = (j as number[])[0]),
	},
	{
		name: 'attachments list',
		covers: ['listAttachments'],
		method: 'GET',
		path: (v) => docPath(v, '/attachments'),
		query: () => ({ limit: '5' }),
	},
	{
		name: 'attachment get',
		covers: ['getAttachment'],
		method: 'GET',
		path: (v) => docPath(v, `/attachments/${v.attachmentId}`),
	},
	{
		name: 'attachment get unknown',
		method: 'GET',
		path: (v) => docPath(v, '/attachments/999'),
	},
	{
		name: 'attachment download',
		covers: ['downloadAttachment'],
		method: 'GET',
		path: (v) => docPath(v, `/attachments/${v.attachmentId}/download`),
		answer: 'bytes',
	},
	{
		name: 'attachment download unknown',
		method: 'GET',
		path: (v) => docPath(v, '/attachments/999/download'),
	},
	...ARCHIVE_CALLS,
	// ---------------------------------------------------------------- webhooks
	{
		name: 'webhooks create',
		covers: ['createWebhooks'],
		method: 'POST',
		path: (v) => docPath(v, '/webhooks'),
		body: (v) => ({
			webhooks: [
				{
					fields: {
						url: v.hookUrl,
						tableId: 'People',
						eventTypes: ['add', 'update'],
						enabled: true,
						name: 'diff',
						memo: 'differential check',
						isReadyColumn: 'Active',
						watchedColumns: ['Name', 'Age'],
					},
				},
			],
		}),
		save: (j, v) => (v.webhookId = String((obj(j).webhooks as J[])[0].id)),
	},
	{
		name: 'triggers list',
		covers: ['listTriggers'],
		method: 'GET',
		path: (v) => docPath(v, '/triggers'),
		// The actions hold each side's receiver URL and generated ids: their types are compared.
		keep: (j) =>
			((obj(j).records ?? []) as J[]).map((r) => {
				const { actions, ...fields } = obj(r.fields);
				return { ...fields, actions: typeof actions };
			}),
	},
	{
		name: 'webhooks create unknown table',
		method: 'POST',
		path: (v) => docPath(v, '/webhooks'),
		body: (v) => ({
			webhooks: [{ fields: { url: v.hookUrl, tableId: 'Nope', eventTypes: ['add'] } }],
		}),
	},
	{
		name: 'webhooks create no event types',
		method: 'POST',
		path: (v) => docPath(v, '/webhooks'),
		body: (v) => ({ webhooks: [{ fields: { url: v.hookUrl, tableId: 'People' } }] }),
	},
	{
		name: 'webhooks create bad url',
		method: 'POST',
		path: (v) => docPath(v, '/webhooks'),
		body: () => ({
			webhooks: [{ fields: { url: 'ftp://nowhere', tableId: 'People', eventTypes: ['add'] } }],
		}),
	},
	{
		name: 'webhooks list',
		covers: ['listWebhooks'],
		method: 'GET',
		path: (v) => docPath(v, '/webhooks'),
	},
	{
		name: 'webhook update',
		covers: ['updateWebhook'],
		method: 'PATCH',
		path: (v) => docPath(v, `/webhooks/${v.webhookId}`),
		body: () => ({ isReadyColumn: null, watchedColumns: [] }),
	},
	{
		name: 'webhook update unknown property',
		method: 'PATCH',
		path: (v) => docPath(v, `/webhooks/${v.webhookId}`),
		body: () => ({ colour: 'red' }),
	},
	{
		name: 'records add for webhook',
		method: 'POST',
		path: (v) => people(v, '/records'),
		body: () => ({ records: [{ fields: { Name: 'Ivy', Age: 28, Active: true } }] }),
	},
	{
		name: 'webhook delivery',
		method: 'POST',
		path: () => '(delivery)',
		delivery: 15000,
	},
	{
		name: 'webhooks list after delivery',
		method: 'GET',
		path: (v) => docPath(v, '/webhooks'),
	},
	{
		name: 'webhooks clear queue',
		covers: ['clearWebhookQueue'],
		method: 'DELETE',
		path: (v) => docPath(v, '/webhooks/queue'),
	},
	{
		name: 'webhook delete',
		covers: ['deleteWebhook'],
		method: 'DELETE',
		path: (v) => docPath(v, `/webhooks/${v.webhookId}`),
	},
	{
		name: 'webhook delete again',
		method: 'DELETE',
		path: (v) => docPath(v, `/webhooks/${v.webhookId}`),
	},
	// ---------------------------------------------------------------- the viewer
	{
		name: 'viewer reads records',
		as: 'viewer',
		method: 'GET',
		path: (v) => people(v, '/records'),
		query: () => ({ limit: '1' }),
	},
	{
		name: 'viewer adds records',
		as: 'viewer',
		method: 'POST',
		path: (v) => people(v, '/records'),
		body: () => ({ records: [{ fields: { Name: 'Mallory' } }] }),
	},
	{
		name: 'viewer adds columns',
		as: 'viewer',
		method: 'POST',
		path: (v) => people(v, '/columns'),
		body: () => ({ columns: [{ id: 'Evil', fields: {} }] }),
	},
	{
		name: 'viewer runs sql',
		as: 'viewer',
		method: 'POST',
		path: (v) => docPath(v, '/sql'),
		body: () => ({ sql: 'SELECT count(*) AS n FROM People', args: [] }),
	},
	{
		name: 'viewer lists webhooks',
		as: 'viewer',
		method: 'GET',
		path: (v) => docPath(v, '/webhooks'),
	},
	{
		name: 'viewer renames doc',
		as: 'viewer',
		method: 'PATCH',
		path: (v) => docPath(v),
		body: () => ({ name: 'Mine' }),
	},
	{
		name: 'viewer deletes doc',
		as: 'viewer',
		method: 'DELETE',
		path: (v) => docPath(v),
	},
	{
		name: 'viewer shares workspace',
		as: 'viewer',
		method: 'PATCH',
		path: (v) => `/api/workspaces/${v.wsId}/access`,
		body: () => ({ delta: { users: { 'someone@example.com': 'owners' } } }),
	},
	{
		name: 'anonymous reads records',
		as: 'anon',
		method: 'GET',
		path: (v) => people(v, '/records'),
	},
	// ---------------------------------------------------------------- downloads
	{
		name: 'export csv',
		covers: ['exportDocument'],
		method: 'GET',
		path: (v) => docPath(v, '/download/csv'),
		query: () => ({ tableId: 'People' }),
		answer: 'csv',
	},
	{
		name: 'export csv without table',
		method: 'GET',
		path: (v) => docPath(v, '/download/csv'),
	},
	...EXPORT_FORMAT_CALLS,
	{
		name: 'export xlsx',
		method: 'GET',
		path: (v) => docPath(v, '/download/xlsx'),
		answer: 'xlsx',
	},
	{
		name: 'download .grist',
		covers: ['downloadDocumentFile'],
		method: 'GET',
		path: (v) => docPath(v, '/download'),
		query: () => ({ nohistory: '1' }),
		answer: 'grist',
	},
	// ---------------------------------------------------------------- forks, compare, replace, snapshots, proposals
	{
		name: 'forks doc create',
		method: 'POST',
		path: (v) => `/api/workspaces/${v.wsId}/docs`,
		body: () => ({ name: 'Diff forks' }),
		save: (j, v) => (v.forksDocId = j as string),
	},
	{
		name: 'forks doc add records',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/tables/Table1/records`,
		// every column written (a new document's empty columns become data columns), and below
		body: () => ({
			records: [{ fields: { A: 'x', B: 1, C: 'p' } }, { fields: { A: 'y', B: 2, C: 'q' } }],
		}),
	},
	{
		name: 'forks doc get',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}`,
		home: { root: 'doc' },
		keep: (j) => pick(j, ['id', 'urlId', 'trunkId', 'forks']),
	},
	{
		name: 'fork',
		covers: ['forkDocument'],
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/fork`,
		save: (j, v) => {
			v.forkId = obj(j).forkId;
			v.forkDocId = obj(j).docId;
			v.forkUrlId = obj(j).urlId;
			v.forkUserId = String(obj(j).docId).split('~')[2];
		},
		// the fork's IDs end with the user's id, which differs between the sides
		keep: (j) => ({
			forkId: obj(j).forkId,
			docId: String(obj(j).docId).replace(/~\d+$/, '~<user>'),
			urlId: String(obj(j).urlId).replace(/~\d+$/, '~<user>'),
		}),
	},
	{
		name: 'fork of a fork',
		method: 'POST',
		path: (v) => `/api/docs/${v.forkDocId}/fork`,
	},
	{
		name: 'fork unknown doc',
		method: 'POST',
		path: () => '/api/docs/NoSuchDocument1234/fork',
	},
	{
		name: 'fork get',
		method: 'GET',
		path: (v) => `/api/docs/${v.forkDocId}`,
		home: { root: 'doc' },
		keep: (j) => ({
			...pick(j, ['trunkId', 'name', 'access', 'trunkAccess', 'forks']),
			id: String(obj(j).id).replace(/~\d+$/, '~<user>'),
			urlId: String(obj(j).urlId).replace(/~\d+$/, '~<user>'),
		}),
	},
	{
		name: 'fork trunk get',
		covers: ['forksOfDocument'],
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}`,
		home: { root: 'doc' },
		keep: (j) => pick(j, ['trunkId', 'forks']),
	},
	{
		name: 'fork edit',
		method: 'PATCH',
		path: (v) => `/api/docs/${v.forkDocId}/tables/Table1/records`,
		body: () => ({ records: [{ id: 1, fields: { A: 'changed' } }] }),
	},
	{
		name: 'fork add',
		method: 'POST',
		path: (v) => `/api/docs/${v.forkDocId}/tables/Table1/records`,
		body: () => ({ records: [{ fields: { A: 'new', B: 3, C: 'r' } }] }),
	},
	{
		name: 'compare with fork',
		covers: ['compareDocuments'],
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/${v.forkDocId}`,
		query: () => ({ detail: '1', maxRows: 'null' }),
		keep: comparison,
	},
	{
		name: 'compare with fork summary',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/${v.forkDocId}`,
		keep: comparison,
	},
	{
		name: 'compare fork with trunk',
		method: 'GET',
		path: (v) => `/api/docs/${v.forkDocId}/compare/${v.forksDocId}`,
		query: () => ({ detail: '1' }),
		keep: comparison,
	},
	{
		name: 'compare unrelated',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/${v.docId}`,
		query: () => ({ detail: '1' }),
		keep: comparison,
	},
	{
		name: 'compare with unknown doc',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/NoSuchDocument1234`,
	},
	{
		name: 'compare with unknown fork',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/${v.forksDocId}~nofork~${v.forkUserId}`,
	},
	{
		name: 'compare bad maxRows',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/${v.forkDocId}`,
		query: () => ({ maxRows: '0' }),
	},
	{
		name: 'snapshots',
		covers: ['listSnapshots'],
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/snapshots`,
	},
	{
		name: 'snapshots raw',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/snapshots`,
		query: () => ({ raw: '1' }),
	},
	{
		name: 'snapshots remove ids',
		covers: ['removeSnapshots'],
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/snapshots/remove`,
		body: () => ({ snapshotIds: ['current'] }),
	},
	{
		name: 'snapshots remove unlisted',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/snapshots/remove`,
		body: () => ({ select: 'unlisted' }),
	},
	{
		name: 'snapshots remove nothing',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/snapshots/remove`,
		body: () => ({}),
	},
	{
		name: 'propose from trunk',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/propose`,
		body: () => ({}),
	},
	{
		name: 'propose from fork',
		method: 'POST',
		path: (v) => `/api/docs/${v.forkDocId}/propose`,
		body: () => ({}),
		// Grist's answer names the fork's creator with fields it lists nowhere else: only the proposal
		keep: (j) => proposal(j),
	},
	{
		name: 'proposals incoming',
		covers: ['listProposals'],
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/proposals`,
		keep: (j) => ({ proposals: ((obj(j).proposals ?? []) as unknown[]).map(proposal) }),
	},
	{
		name: 'proposals outgoing',
		method: 'GET',
		path: (v) => `/api/docs/${v.forkDocId}/proposals`,
		query: () => ({ outgoing: '1' }),
		keep: (j) => ({ proposals: ((obj(j).proposals ?? []) as unknown[]).map(proposal) }),
	},
	{
		name: 'proposal apply bad id',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/proposals/abc/apply`,
	},
	{
		name: 'proposal apply unknown',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/proposals/99/apply`,
	},
	{
		name: 'proposal apply',
		covers: ['applyProposal'],
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/proposals/1/apply`,
		keep: (j) => {
			const changes = obj(obj(j).changes);
			const log = obj(changes.log);
			return {
				proposalId: obj(j).proposalId,
				proposal: proposal(changes.proposal),
				applied: log.applied,
				// Patch's messages, in the order of the delta's columns (not compared)
				log: ((log.changes ?? []) as J[]).map((c) => c.msg).sort(),
			};
		},
	},
	{
		name: 'forks doc records after apply',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/tables/Table1/records`,
	},
	{
		name: 'replace from unknown doc',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/replace`,
		body: () => ({ sourceDocId: 'NoSuchDocument1234' }),
	},
	{
		name: 'replace with a snapshot',
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/replace`,
		body: () => ({ snapshotId: 'current' }),
	},
	{
		name: 'replace from fork',
		covers: ['replaceDocumentContent'],
		method: 'POST',
		path: (v) => `/api/docs/${v.forksDocId}/replace`,
		body: (v) => ({ sourceDocId: v.forkDocId }),
	},
	{
		name: 'forks doc records after replace',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/tables/Table1/records`,
	},
	{
		name: 'compare with fork after replace',
		method: 'GET',
		path: (v) => `/api/docs/${v.forksDocId}/compare/${v.forkDocId}`,
		keep: comparison,
	},
	// ---------------------------------------------------------------- lifecycle
	{
		name: 'doc copy',
		covers: ['copyDocument'],
		method: 'POST',
		path: (v) => docPath(v, '/copy'),
		body: (v) => ({ workspaceId: v.ws2Id, documentName: 'Diff copy', asTemplate: false }),
		save: (j, v) => (v.copyId = j as string),
	},
	{
		name: 'doc copy records',
		method: 'GET',
		path: (v) => `/api/docs/${v.copyId}/tables/People/records`,
		query: () => ({ limit: '2' }),
	},
	{
		name: 'doc copy to unknown workspace',
		method: 'POST',
		path: (v) => docPath(v, '/copy'),
		body: () => ({ workspaceId: 999999, documentName: 'x', asTemplate: false }),
	},
	{
		name: 'doc import csv',
		covers: ['importDocument'],
		method: 'POST',
		path: (v) => `/api/workspaces/${v.ws2Id}/import`,
		form: () => ({
			files: [{ name: 'pets.csv', type: 'text/csv', text: 'Pet,Legs,Born\nRex,4,2020-05-01\n' }],
			fields: { documentName: 'Pets' },
		}),
		save: (j, v) => (v.importId = String(obj(j).id)),
	},
	{
		name: 'doc import columns',
		method: 'GET',
		path: (v) => `/api/docs/${v.importId}/tables/Pets/records`,
	},
	{
		name: 'doc import unsupported',
		method: 'POST',
		path: (v) => `/api/workspaces/${v.ws2Id}/import`,
		form: () => ({ files: [{ name: 'x.zzz', type: 'application/octet-stream', text: 'zzz' }] }),
	},
	{
		name: 'doc move',
		covers: ['moveDocument'],
		method: 'PATCH',
		path: (v) => `/api/docs/${v.copyId}/move`,
		body: (v) => ({ workspace: v.wsId }),
	},
	{
		name: 'doc move to unknown workspace',
		method: 'PATCH',
		path: (v) => `/api/docs/${v.copyId}/move`,
		body: () => ({ workspace: 999999 }),
	},
	{
		name: 'doc trash',
		covers: ['moveToTrash'],
		method: 'POST',
		path: (v) => `/api/docs/${v.copyId}/remove`,
	},
	{
		name: 'doc get trashed',
		method: 'GET',
		path: (v) => `/api/docs/${v.copyId}`,
	},
	{
		name: 'doc get trashed showRemoved',
		covers: ['getTrashedDocument'],
		method: 'GET',
		path: (v) => `/api/docs/${v.copyId}`,
		query: () => ({ showRemoved: '1' }),
		home: { root: 'doc' },
	},
	{
		name: 'workspace trash view',
		covers: ['getWorkspaceTrash'],
		method: 'GET',
		path: (v) => `/api/workspaces/${v.wsId}`,
		query: () => ({ showRemoved: '1' }),
		home: { root: 'ws' },
	},
	{
		name: 'doc restore',
		covers: ['restoreFromTrash'],
		method: 'POST',
		path: (v) => `/api/docs/${v.copyId}/unremove`,
	},
	{
		name: 'workspace trash',
		method: 'POST',
		path: (v) => `/api/workspaces/${v.ws2Id}/remove`,
	},
	{
		name: 'workspace get trashed',
		method: 'GET',
		path: (v) => `/api/workspaces/${v.ws2Id}`,
	},
	{
		name: 'workspace restore',
		method: 'POST',
		path: (v) => `/api/workspaces/${v.ws2Id}/unremove`,
	},
	{
		name: 'doc delete',
		covers: ['deleteDocument'],
		method: 'DELETE',
		path: (v) => `/api/docs/${v.copyId}`,
	},
	{
		name: 'doc delete again',
		method: 'DELETE',
		path: (v) => `/api/docs/${v.copyId}`,
	},
	{
		name: 'workspace delete',
		covers: ['deleteWorkspace'],
		home: { root: 'ws' },
		method: 'DELETE',
		path: (v) => `/api/workspaces/${v.ws2Id}`,
	},
	{
		name: 'workspace delete again',
		method: 'DELETE',
		path: (v) => `/api/workspaces/${v.ws2Id}`,
	},
	{
		name: 'workspace delete main',
		home: { root: 'ws' },
		method: 'DELETE',
		path: (v) => `/api/workspaces/${v.wsId}`,
	},
	// Service accounts (the server runs with GRIST_ENABLE_SERVICE_ACCOUNTS): the account's id,
	// login and key differ by side, and are checked for their form instead.
	{
		name: 'service account create',
		covers: ['createServiceAccount'],
		method: 'POST',
		path: () => '/api/service-accounts',
		body: () => ({ label: 'diff', description: 'differential', expiresAt: '2099-01-31T00:00:00Z' }),
		keep: (j, v) => serviceAccountForm(j, v),
		save: (j, v) => (v.serviceAccountId = obj(j).id),
	},
	{
		name: 'service account create without expiry',
		method: 'POST',
		path: () => '/api/service-accounts',
		body: () => ({ label: 'x', foo: 1 }),
	},
	{
		name: 'service account create with a bad date',
		method: 'POST',
		path: () => '/api/service-accounts',
		body: () => ({ expiresAt: 'soon' }),
	},
	{
		name: 'service account list',
		covers: ['listServiceAccounts'],
		method: 'GET',
		path: () => '/api/service-accounts',
		keep: (j, v) =>
			(j as J[]).filter((a) => a.id === v.serviceAccountId).map((a) => serviceAccountForm(a, v)),
	},
	{
		name: 'service account get',
		covers: ['getServiceAccount'],
		method: 'GET',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
		keep: (j, v) => serviceAccountForm(j, v),
	},
	{
		name: 'service account update',
		covers: ['updateServiceAccount'],
		method: 'PATCH',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
		body: () => ({ label: 'diff 2', description: '', expiresAt: '2098-02-03T04:05:06Z' }),
	},
	{
		name: 'service account update with unknown fields',
		method: 'PATCH',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
		body: () => ({ foo: 1, bar: 2 }),
	},
	{
		name: 'service account new key',
		covers: ['createServiceAccountKey'],
		method: 'POST',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}/apikey`,
		keep: (j, v) => serviceAccountForm(j, v),
	},
	{
		name: 'service account revoke key',
		covers: ['revokeServiceAccountKey'],
		method: 'DELETE',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}/apikey`,
	},
	{
		name: 'service account get after revoke',
		method: 'GET',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
		keep: (j, v) => serviceAccountForm(j, v),
	},
	{
		name: 'service account of another user',
		as: 'viewer',
		method: 'GET',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
	},
	{
		name: 'service account not a number',
		method: 'GET',
		path: () => '/api/service-accounts/abc',
	},
	{
		name: 'service account delete',
		covers: ['deleteServiceAccount'],
		method: 'DELETE',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
	},
	{
		name: 'service account delete again',
		method: 'DELETE',
		path: (v) => `/api/service-accounts/${v.serviceAccountId}`,
	},
	// An organization's usage: the attachments' size is the whole site's, which differs by side.
	{
		name: 'org usage',
		covers: ['getOrgUsage'],
		method: 'GET',
		path: (v) => `/api/orgs/${v.org}/usage`,
		keep: (j) => ({
			...obj(j),
			attachments: { totalBytes: typeof obj(obj(j).attachments).totalBytes },
		}),
	},
	{
		name: 'org usage as viewer',
		as: 'viewer',
		method: 'GET',
		path: (v) => `/api/orgs/${v.org}/usage`,
	},
	// Formula timing, in a workspace of its own (the main one is gone by now).
	{
		name: 'timing workspace create',
		method: 'POST',
		path: (v) => `/api/orgs/${v.org}/workspaces`,
		body: () => ({ name: 'Differential check timing' }),
		home: { root: 'ws' },
		save: (j, v) => (v.timingWsId = j as number),
	},
	{
		name: 'timing doc create',
		method: 'POST',
		path: (v) => `/api/workspaces/${v.timingWsId}/docs`,
		body: () => ({ name: 'Timing' }),
		save: (j, v) => (v.timingDocId = j as string),
	},
	{
		name: 'timing doc table',
		method: 'POST',
		path: (v) => `/api/docs/${v.timingDocId}/tables`,
		body: () => ({
			tables: [
				{
					id: 'T',
					columns: [
						{ id: 'A', fields: { type: 'Numeric' } },
						{ id: 'B', fields: { type: 'Numeric', isFormula: true, formula: '$A * 2' } },
					],
				},
			],
		}),
	},
	{
		name: 'timing get when off',
		covers: ['getTiming'],
		method: 'GET',
		path: (v) => `/api/docs/${v.timingDocId}/timing`,
	},
	{
		name: 'timing stop when off',
		covers: ['stopTiming'],
		method: 'POST',
		path: (v) => `/api/docs/${v.timingDocId}/timing/stop`,
	},
	{
		name: 'timing start',
		covers: ['startTiming'],
		method: 'POST',
		path: (v) => `/api/docs/${v.timingDocId}/timing/start`,
	},
	{
		name: 'timing start again',
		method: 'POST',
		path: (v) => `/api/docs/${v.timingDocId}/timing/start`,
	},
	{
		name: 'timing write',
		method: 'POST',
		path: (v) => `/api/docs/${v.timingDocId}/tables/T/records`,
		body: () => ({ records: [{ fields: { A: 1 } }, { fields: { A: 2 } }] }),
	},
	{
		name: 'timing get while on',
		method: 'GET',
		path: (v) => `/api/docs/${v.timingDocId}/timing`,
		keep: (j) => ({ ...obj(j), timing: timingForm(obj(j).timing) }),
	},
	{
		name: 'timing stop',
		method: 'POST',
		path: (v) => `/api/docs/${v.timingDocId}/timing/stop`,
		keep: (j) => timingForm(j),
	},
	{
		name: 'timing as viewer',
		as: 'viewer',
		method: 'GET',
		path: (v) => `/api/docs/${v.timingDocId}/timing`,
	},
	{
		name: 'timing workspace delete',
		home: { root: 'ws' },
		method: 'DELETE',
		path: (v) => `/api/workspaces/${v.timingWsId}`,
	},
];

/** A service account's answer with its id, login and key replaced by what they look like. */
function serviceAccountForm(json: unknown, v: Vars): J {
	const a = obj(json);
	const out: J = { ...a, id: a.id === v.serviceAccountId ? '<the account>' : a.id };
	if (typeof a.login === 'string')
		out.login = /^[0-9a-f-]{36}@serviceaccounts\.invalid$/.test(a.login) ? '<uuid login>' : a.login;
	if (typeof a.key === 'string') out.key = /^[0-9a-f]{40}$/.test(a.key) ? '<40 hex>' : a.key;
	return out;
}

/**
 * Formula timing entries with their measures as types (times differ by run); only the formula
 * column B: grist-core also times its lookup helpers (`#lookup#`), which the emulator does not.
 */
function timingForm(list: unknown): unknown {
	if (!Array.isArray(list)) return list;
	return (list as J[])
		.filter((t) => t.colId === 'B')
		.map((t) =>
			Object.fromEntries(
				Object.entries(t).map(([k, x]) => [k, typeof x === 'number' ? typeof x : x]),
			),
		);
}

/**
 * The exports of the endpoint files of api/ that send no request of their own (helpers around
 * calls; path builders and table keys live in api/paths.ts, which is not an endpoint file). Every
 * other export must be covered by a call.
 */
export const NOT_ENDPOINTS: string[] = [
	// records.ts' sizing of a long query (URL or POST …/records/list body), made of no request
	'URL_QUERY_CHARS',
	'LIST_BODY_BYTES',
	'queryChars',
	'splitFilter',
	'listBody',
	'isMissingRoute',
];
