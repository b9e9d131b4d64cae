/**
 * The demo site, described once: its users, team site, workspaces, documents, tables, columns
 * and rows. `seedDemoSite` builds it through the seeding methods both the emulator
 * (`GristEmulator.seedDemo`) and the real-Grist facade (`RealGrist.seedDemo`, ../harness/real-grist)
 * have; only who is added first and where the members get their roles differ between the two,
 * and each says so in its `DemoSeedOptions`.
 *
 * A cell may point at what seeding made before it: `rowOf('Customers', 0)` is the id of the
 * Customers table's first row, `attachmentOf(0)` the id of the document's first attachment.
 */
import type { DemoSite } from './index';

export type DemoUserRole = 'owner' | 'editor' | 'viewer';
type MemberRole = 'editors' | 'viewers';

export interface DemoColumn {
	id: string;
	type?: string;
	label?: string;
	formula?: string;
	isFormula?: boolean;
	widgetOptions?: object;
	visibleCol?: string;
	/** With `formula` on a data column: a trigger formula (2: recalculated on any change). */
	recalcWhen?: number;
}

interface RowRef {
	$row: [table: string, index: number];
}
interface AttachmentRef {
	$attachment: number;
}
type DemoCell = string | number | boolean | null | RowRef | AttachmentRef | DemoCell[];

export interface DemoTable {
	id: string;
	columns: DemoColumn[];
	rows: Array<Record<string, DemoCell>>;
}

export interface DemoDoc {
	name: string;
	/** Uploaded before the tables' rows (a row may point at one with `attachmentOf`). */
	attachments?: Array<{ fileName: string; text: string }>;
	tables: DemoTable[];
}

export interface DemoWorkspace {
	name: string;
	docs: DemoDoc[];
}

const rowOf = (table: string, index: number): RowRef => ({ $row: [table, index] });
const attachmentOf = (index: number): AttachmentRef => ({ $attachment: index });

export const DEMO_SITE = {
	/** Listed in the order the emulator adds them (its user ids follow it). */
	users: {
		owner: { email: 'demo@example.com', name: 'Demo Owner' },
		editor: { email: 'editor@example.com', name: 'Eddie Editor' },
		viewer: { email: 'viewer@example.com', name: 'Vera Viewer' },
	} satisfies Record<DemoUserRole, { email: string; name: string }>,
	org: { name: 'Demo Team', domain: 'demo' },
	/** The site's members besides its owner. */
	members: { editor: 'editors', viewer: 'viewers' } as Record<'editor' | 'viewer', MemberRole>,
	workspaces: [
		{
			name: 'Sales',
			docs: [
				{
					name: 'CRM',
					attachments: [
						{ fileName: 'invoice-1.txt', text: 'Invoice #1\nAlice Martin\nTotal: 120.50\n' },
					],
					tables: [
						{
							id: 'Customers',
							columns: [
								{ id: 'Name', type: 'Text', label: 'Name' },
								{ id: 'Email', type: 'Text' },
								{
									id: 'Country',
									type: 'Choice',
									widgetOptions: { choices: ['France', 'Germany', 'USA'] },
								},
								{ id: 'Since', type: 'Date' },
							],
							rows: [
								{
									Name: 'Alice Martin',
									Email: 'alice@example.com',
									Country: 'France',
									Since: 1704067200,
								},
								{
									Name: 'Bob Schmidt',
									Email: 'bob@example.com',
									Country: 'Germany',
									Since: 1706745600,
								},
								{
									Name: 'Carol Jones',
									Email: 'carol@example.com',
									Country: 'USA',
									Since: 1709251200,
								},
							],
						},
						{
							id: 'Orders',
							columns: [
								{ id: 'Customer', type: 'Ref:Customers', visibleCol: 'Name' },
								{ id: 'Amount', type: 'Numeric' },
								{ id: 'Ordered', type: 'Date' },
								{
									id: 'Status',
									type: 'Choice',
									widgetOptions: { choices: ['New', 'Paid', 'Shipped'] },
								},
								{
									id: 'Tags',
									type: 'ChoiceList',
									widgetOptions: { choices: ['rush', 'gift', 'bulk'] },
								},
								{ id: 'Invoice', type: 'Attachments' },
								{ id: 'Total', type: 'Numeric', formula: '$Amount * 2', isFormula: true },
							],
							rows: [
								{
									Customer: rowOf('Customers', 0),
									Amount: 120.5,
									Ordered: 1717200000,
									Status: 'Paid',
									Tags: ['L', 'rush'],
									Invoice: ['L', attachmentOf(0)],
								},
								{
									Customer: rowOf('Customers', 1),
									Amount: 80,
									Ordered: 1717286400,
									Status: 'New',
									Tags: null,
									Invoice: null,
								},
								{
									Customer: rowOf('Customers', 0),
									Amount: 42.25,
									Ordered: 1717372800,
									Status: 'Shipped',
									Tags: ['L', 'gift', 'bulk'],
									Invoice: null,
								},
							],
						},
					],
				},
			],
		},
		{
			name: 'Projects',
			docs: [
				{
					name: 'Tasks',
					tables: [
						{
							id: 'Tasks',
							columns: [
								{ id: 'Title', type: 'Text' },
								{ id: 'Done', type: 'Bool' },
								{ id: 'Due', type: 'DateTime:UTC' },
								{ id: 'Points', type: 'Int' },
								// what Row Added or Updated polls on: NOW() on new records and on any change
								{
									id: 'UpdatedAt',
									type: 'DateTime:UTC',
									label: 'Updated At',
									formula: 'NOW()',
									isFormula: false,
									recalcWhen: 2,
								},
							],
							rows: [
								{ Title: 'Write spec', Done: true, Due: 1717243200, Points: 3 },
								{ Title: 'Build emulator', Done: false, Due: 1717329600, Points: 8 },
							],
						},
					],
				},
			],
		},
	] satisfies DemoWorkspace[] as DemoWorkspace[],
};

type AccessKind = 'org' | 'workspace';

/** The seeding methods the emulator and the real-Grist facade share (their own signatures). */
export interface DemoSeedTarget {
	addUser(u: { email: string; name?: string }): { id: number; email: string; apiKey: string };
	addOrg(o: { name: string; domain: string; owner?: string }): { id: number; domain: string };
	setAccess(kind: AccessKind, ref: number, email: string, role: MemberRole): void;
	addWorkspace(org: number, name: string): { id: number };
	addDoc(workspaceId: number, d: { name: string }): { id: string };
	addTable(docId: string, tableId: string, columns: DemoColumn[]): void;
	addRecords(docId: string, tableId: string, rows: Array<Record<string, unknown>>): number[];
	addAttachment(docId: string, a: { fileName: string; data: Buffer }): number;
}

export interface DemoSeedOptions {
	/** The order the users are added in (default: `DEMO_SITE.users`'s). */
	userOrder?: readonly DemoUserRole[];
	/**
	 * Where the members get their roles: on the site, right after it is made (default), or on
	 * each demo workspace, right after it is made.
	 */
	shareOn?: AccessKind;
	/** The members who get a role (default both). */
	members?: ReadonlyArray<'editor' | 'viewer'>;
}

type Users = Record<DemoUserRole, { id: number; email: string; apiKey: string }>;

interface Seeded {
	docIds: string[];
	workspaceIds: number[];
	/** Row ids by table id (the demo's table ids are unique across its documents). */
	rows: Record<string, number[]>;
	attachments: number[];
}

function resolveCell(cell: DemoCell, seeded: Seeded): unknown {
	if (Array.isArray(cell)) return cell.map((c) => resolveCell(c, seeded));
	if (cell && typeof cell === 'object') {
		if ('$row' in cell) return seeded.rows[cell.$row[0]][cell.$row[1]];
		return seeded.attachments[cell.$attachment];
	}
	return cell;
}

function share(
	target: DemoSeedTarget,
	kind: AccessKind,
	id: number,
	users: Users,
	o: DemoSeedOptions,
) {
	for (const member of o.members ?? (['editor', 'viewer'] as const))
		target.setAccess(kind, id, users[member].email, DEMO_SITE.members[member]);
}

function pointsAtAttachment(cell: DemoCell): boolean {
	if (Array.isArray(cell)) return cell.some(pointsAtAttachment);
	return Boolean(cell && typeof cell === 'object' && '$attachment' in cell);
}

function seedDoc(target: DemoSeedTarget, workspaceId: number, d: DemoDoc, seeded: Seeded): void {
	const doc = target.addDoc(workspaceId, { name: d.name });
	seeded.docIds.push(doc.id);
	// the emulator's order: each table with its columns, the attachments before the first
	// table whose rows may point at them, then that table's rows
	let attached = false;
	for (const t of d.tables) {
		target.addTable(doc.id, t.id, t.columns);
		if (!attached && t.rows.some((r) => Object.values(r).some(pointsAtAttachment))) {
			attached = true;
			for (const a of d.attachments ?? [])
				seeded.attachments.push(
					target.addAttachment(doc.id, { fileName: a.fileName, data: Buffer.from(a.text) }),
				);
		}
		const rows = t.rows.map((r) =>
			Object.fromEntries(Object.entries(r).map(([k, v]) => [k, resolveCell(v, seeded)])),
		);
		seeded.rows[t.id] = target.addRecords(doc.id, t.id, rows);
	}
}

/** Seeds `DEMO_SITE` into `target` and returns the ids the tests use. */
export function seedDemoSite(target: DemoSeedTarget, options: DemoSeedOptions = {}): DemoSite {
	const order = options.userOrder ?? (Object.keys(DEMO_SITE.users) as DemoUserRole[]);
	const users = {} as Users;
	for (const role of order) users[role] = target.addUser(DEMO_SITE.users[role]);
	const org = target.addOrg({ ...DEMO_SITE.org, owner: users.owner.email });
	const shareOn = options.shareOn ?? 'org';
	if (shareOn === 'org') share(target, 'org', org.id, users, options);
	const seeded: Seeded = { docIds: [], workspaceIds: [], rows: {}, attachments: [] };
	const docs: DemoSite['docs'] = [];
	for (const w of DEMO_SITE.workspaces) {
		const ws = target.addWorkspace(org.id, w.name);
		seeded.workspaceIds.push(ws.id);
		if (shareOn === 'workspace') share(target, 'workspace', ws.id, users, options);
		for (const d of w.docs) {
			seedDoc(target, ws.id, d, seeded);
			docs.push({
				workspace: w.name,
				name: d.name,
				id: seeded.docIds[seeded.docIds.length - 1],
				tables: d.tables.map((t) => t.id),
			});
		}
	}
	return {
		apiKey: users.owner.apiKey,
		email: users.owner.email,
		userId: users.owner.id,
		orgId: org.id,
		orgDomain: org.domain,
		workspaceId: seeded.workspaceIds[0],
		docId: seeded.docIds[0],
		workspace2Id: seeded.workspaceIds[1],
		doc2Id: seeded.docIds[1],
		editorApiKey: users.editor.apiKey,
		editorEmail: users.editor.email,
		viewerApiKey: users.viewer.apiKey,
		viewerEmail: users.viewer.email,
		customerIds: seeded.rows.Customers,
		orderIds: seeded.rows.Orders,
		attachmentId: seeded.attachments[0],
		docs,
	};
}
