/**
 * Forks, comparisons between documents, replacing a document's content, snapshots and change
 * proposals (grist-core's DocApi.ts, ActiveDoc.fork/replace/applyProposal, Patch.ts,
 * HomeDBManager's proposals; measured on grist-core 1.7.17 without external storage):
 *
 * - POST /api/docs/{doc}/fork (viewers who may read everything): `{forkId, docId, urlId}` with
 *   `docId` = `{trunkId}~{forkId}~{userId}` and `urlId` the same on the trunk's urlId. The fork
 *   has the trunk's tables, attachments and history (same state hashes), is owned by its creator
 *   and viewable by others with access to the trunk, and is listed by no workspace; GET
 *   /api/docs/{trunk or fork} lists the caller's forks of the trunk (`forks`). A fork of a fork is
 *   400 `Cannot fork a document that's already a fork`; a restricted document (history.ts
 *   `restrict`) is 403 `Insufficient access to document to copy it entirely` for non-owners.
 *   A doc-worker request to a fork that does not exist (its trunk does) is 404 `Document fork not
 *   found`.
 * - GET /api/docs/{doc}/compare/{doc2} (`detail`, `maxRows`): history.ts `compareDocs`; a
 *   missing doc2 fork is 404 with the doc worker's JSON answer as the error text (as measured).
 * - POST /api/docs/{doc}/replace `{sourceDocId?, snapshotId?}` (editors; the source: 404 `document
 *   not found`, or 403 `access denied` without access), then 403 `Only owners can replace a document.` for non-owners;
 *   `snapshotId`: 500 `snapshots not supported without S3`; `sourceDocId`: the document takes the
 *   source's tables, attachments and history; neither: nothing changes (200 `null`).
 * - GET /api/docs/{doc}/snapshots (viewers; `raw` the same): one entry `current` (no external
 *   storage); restricted, for non-owners: 500 `cannot confirm access to snapshots because of access
 *   rules`. POST …/snapshots/remove (owners): `{snapshotIds}` echoed, nothing removed;
 *   `{select: "unlisted" | "past"}` → `{snapshotIds: []}`; else 500 `please specify snapshotIds
 *   to remove`.
 * - POST /api/docs/{fork}/propose (editors; 400 `Can only propose from a fork`): the fork's
 *   comparison with its trunk stored as proposal `shortId` (1, 2… per trunk; one per fork, updated
 *   by a new propose), status `{}` (`{status: "retracted"}` with `retracted`). GET
 *   /api/docs/{doc}/proposals (viewers who may read everything, else 400 `access denied`;
 *   `outgoing`: those of this fork): newest first. POST …/proposals/{id}/apply (editors; then 400
 *   `Only owners can apply proposals`; 404 `Proposal not found`): Patch.applyChanges on the stored
 *   `leftChanges` — removals, additions (new row ids; formula and hidden columns skipped), then
 *   cell updates, with Patch's log messages — and the status `applied`. Applying twice applies
 *   twice (as measured).
 *
 * Not modelled: external storage (real snapshots, `~v=` ids), forks of anonymous users, the
 * fork's own `_grist_Triggers` (webhooks are disabled in a real fork), `resetTutorialMetadata`,
 * dismissing proposals, notifications, and the 200 a home-server GET gives for a fork that does
 * not exist (the emulator: 404 `document not found`).
 */
import type { Ctx, Route } from './context';
import { docWorkerAccess, integerParam, json } from './context';
import { addRows, updateRows } from './actions';
import { docRoute } from './docworker';
import { historyOf } from './history';
import { ApiError } from './http';
import type { Doc, Row } from './model';
import { atLeast, isHiddenCol, makeId } from './model';
import { copyTables } from './routes-lifecycle';
import { docForHome, userOwner } from './home';

const isOwner = (c: Ctx, doc: Doc) => atLeast(c.store.docRole(c.user.id, doc), 'owners');

/** The caller's forks of `trunk`, as GET /api/docs/{doc} lists them. */
export function forksOf(c: Ctx, trunk: Doc): Array<Record<string, unknown>> {
	return [...c.store.forks.values()]
		.filter((f) => f.fork!.trunkId === trunk.id && f.fork!.userId === c.user.id)
		.map((f) => ({ updatedAt: f.updatedAt, id: f.fork!.forkId, trunkId: trunk.id }));
}

/** The other document of /compare/{doc2}: its doc worker's error comes back as JSON text. */
function openOther(c: Ctx, raw: string): Doc {
	const key = decodeURIComponent(raw);
	if (key.includes('~') && !c.store.docByKey(key) && c.store.docByKey(key.split('~')[0]))
		throw new ApiError(404, JSON.stringify({ error: 'Document fork not found' }));
	return docWorkerAccess(c, raw, 'viewers');
}

function fork(c: Ctx, trunk: Doc) {
	if (c.isAnon) throw new ApiError(401, 'Anonymous document creation is disabled');
	if (historyOf(c.store).isRestricted(trunk) && !isOwner(c, trunk))
		throw new ApiError(403, 'Insufficient access to document to copy it entirely');
	if (trunk.fork) throw new ApiError(400, "Cannot fork a document that's already a fork");
	const forkId = makeId(22);
	const userId = c.user.id;
	const now = c.store.now();
	const doc: Doc = {
		...trunk,
		id: `${trunk.id}~${forkId}~${userId}`,
		urlId: `${trunk.urlId ?? trunk.id}~${forkId}~${userId}`,
		isPinned: false,
		acl: new Map(),
		options: null,
		createdAt: now,
		updatedAt: now,
		tables: [],
		attachments: new Map(),
		colSlots: undefined,
		tableSlots: undefined,
		fork: { trunkId: trunk.id, forkId, userId },
	};
	copyTables(trunk, doc, true);
	c.store.forks.set(doc.id, doc);
	historyOf(c.store).share(trunk, doc);
	return { forkId, docId: doc.id, urlId: doc.urlId };
}

function replace(c: Ctx, doc: Doc) {
	const body = (json(c) ?? {}) as { sourceDocId?: unknown; snapshotId?: unknown };
	let source: Doc | undefined;
	// the home database checks the source (_confirmDocIdForRead): 404, or 403 `access denied`
	if (body.sourceDocId) source = docForHome(c, encodeURIComponent(String(body.sourceDocId)));
	if (!isOwner(c, doc)) throw new ApiError(403, 'Only owners can replace a document.');
	if (body.snapshotId) throw new ApiError(500, 'snapshots not supported without S3');
	if (source && source !== doc) {
		copyTables(source, doc, true);
		doc.attachments = new Map(
			[...source.attachments].map(([id, a]) => [id, { ...a, data: Buffer.from(a.data) }]),
		);
		doc.maxAttId = source.maxAttId;
		doc.colSlots = undefined;
		doc.tableSlots = undefined;
		doc.updatedAt = c.store.now();
		historyOf(c.store).share(source, doc);
	}
	return null;
}

function snapshots(c: Ctx, doc: Doc) {
	if (historyOf(c.store).isRestricted(doc) && !isOwner(c, doc))
		throw new ApiError(500, 'cannot confirm access to snapshots because of access rules');
	return { snapshots: [{ snapshotId: 'current', lastModified: c.store.now(), docId: doc.id }] };
}

function removeSnapshots(c: Ctx) {
	const body = (json(c) ?? {}) as { snapshotIds?: unknown; select?: unknown };
	if (body.snapshotIds) return { snapshotIds: body.snapshotIds };
	if (body.select === 'unlisted' || body.select === 'past') return { snapshotIds: [] };
	throw new ApiError(500, 'please specify snapshotIds to remove');
}

// ---------------------------------------------------------------- proposals

interface Proposal {
	shortId: number;
	srcDocId: string;
	destDocId: string;
	comparison: { comparison: Record<string, unknown> };
	status: { status?: string };
	createdAt: string;
	updatedAt: string;
	appliedAt: string | null;
}

const proposalStores = new WeakMap<object, Proposal[]>();
function proposalsOf(c: Ctx): Proposal[] {
	let list = proposalStores.get(c.store);
	if (!list) proposalStores.set(c.store, (list = []));
	return list;
}

function creatorJson(c: Ctx, userId: number) {
	const u = c.store.users.get(userId)!;
	return { ...userOwner(u), email: u.email, anonymous: false };
}

function docBrief(c: Ctx, doc: Doc) {
	return {
		name: doc.name,
		createdAt: doc.createdAt,
		updatedAt: doc.updatedAt,
		id: doc.fork ? doc.fork.forkId : doc.id,
		isPinned: doc.isPinned,
		urlId: doc.fork ? null : doc.urlId,
		...(doc.fork ? {} : { options: doc.options }),
		trunkId: doc.fork?.trunkId ?? null,
		type: doc.type,
		creator: creatorJson(c, doc.fork?.userId ?? ownerOf(c, doc)),
	};
}

/** The document's creator (not kept by the emulator): its first owner. */
function ownerOf(c: Ctx, doc: Doc): number {
	for (const [id, role] of doc.acl) if (role === 'owners') return id;
	for (const u of c.store.users.values())
		if (c.store.docRole(u.id, doc) === 'owners' && u.apiKey !== null) return u.id;
	return c.user.id;
}

/** A proposal as Grist lists it (an anonymous creator's fork, hidden from non-owners, is not emulated). */
function proposalJson(c: Ctx, p: Proposal) {
	const src = [...c.store.forks.values()].find(
		(f) => f.fork!.forkId === p.srcDocId && f.fork!.trunkId === p.destDocId,
	);
	const dest = c.store.docs.get(p.destDocId);
	const out: Record<string, unknown> = { ...p, appliedAt: p.appliedAt };
	if (src) out.srcDoc = docBrief(c, src);
	if (dest) out.destDoc = docBrief(c, dest);
	return out;
}

function propose(c: Ctx, doc: Doc) {
	if (!doc.fork) throw new ApiError(400, 'Can only propose from a fork');
	const trunk = c.store.docs.get(doc.fork.trunkId)!;
	const body = (json(c) ?? {}) as { retracted?: unknown };
	const c2 = { ...c, query: { ...c.query, maxRows: 'null' } } as Ctx;
	const comparison = historyOf(c.store).compareDocs(c2, doc, trunk, true, true);
	const list = proposalsOf(c);
	const now = c.store.now();
	let p = list.find((x) => x.srcDocId === doc.fork!.forkId && x.destDocId === trunk.id);
	const status = body.retracted ? { status: 'retracted' } : {};
	if (p) {
		Object.assign(p, { comparison: { comparison }, status, updatedAt: now, appliedAt: null });
	} else {
		const shortId =
			Math.max(0, ...list.filter((x) => x.destDocId === trunk.id).map((x) => x.shortId)) + 1;
		p = {
			shortId,
			srcDocId: doc.fork.forkId,
			destDocId: trunk.id,
			comparison: { comparison },
			status,
			createdAt: now,
			updatedAt: now,
			appliedAt: null,
		};
		list.push(p);
	}
	trunk.options = { ...(trunk.options ?? {}), proposedChanges: { mayHaveProposals: true } };
	const out = proposalJson(c, p);
	delete out.destDoc;
	// the answer's source is the fork's whole row (grist-core also puts the creator's whole user
	// row there, API key included; the emulator does not)
	out.srcDoc = {
		...(out.srcDoc as Record<string, unknown>),
		removedAt: null,
		disabledAt: null,
		gracePeriodStart: null,
		options: null,
		usage: null,
		createdBy: doc.fork.userId,
	};
	return out;
}

function listProposals(c: Ctx, doc: Doc) {
	if (historyOf(c.store).isRestricted(doc) && !isOwner(c, doc))
		throw new ApiError(400, 'access denied');
	const id = doc.fork ? doc.fork.forkId : doc.id;
	const outgoing = ['1', 'true', 'yes', 'on', 'y'].includes(
		String(c.query.outgoing ?? '').toLowerCase(),
	);
	const proposals = proposalsOf(c)
		.filter((p) => (outgoing ? p.srcDocId === id : p.destDocId === id))
		.sort((a, b) => b.shortId - a.shortId)
		.map((p) => proposalJson(c, p));
	return { proposals };
}

type CellSide = [unknown] | null | '?';
interface Delta {
	updateRows: number[];
	removeRows: number[];
	addRows: number[];
	columnDeltas: Record<string, Record<string, [CellSide, CellSide]>>;
	columnRenames: unknown[];
}

/** Patch.applyChanges: the fork's row changes on this document, with Patch's log. */
function applyPatch(c: Ctx, doc: Doc, details: Record<string, unknown>) {
	const changes: Array<{ msg: string; fail?: boolean }> = [];
	const summary = details.leftChanges as {
		tableRenames: unknown[];
		tableDeltas: Record<string, Delta>;
	};
	try {
		if (summary.tableRenames.length > 0)
			throw new Error('table-level changes cannot be handled yet');
		for (const delta of Object.values(summary.tableDeltas))
			if (delta.columnRenames.length > 0)
				throw new Error('column-level changes cannot be handled yet');
		for (const [tableId, delta] of Object.entries(summary.tableDeltas)) {
			if (tableId.startsWith('_grist_')) continue;
			const t = c.store.table(doc, tableId);
			if (!t) throw new Error(`Error: Table not found "${tableId}"`);
			const skip = (colId: string) => {
				const col = t.columns.find((x) => x.id === colId);
				return (col?.isFormula && col.formula.trim() !== '') || isHiddenCol(colId);
			};
			const cells = Object.entries(delta.columnDeltas);
			for (const row of delta.removeRows) {
				for (const [, d] of cells)
					if (!d[row]) changes.push({ msg: 'there is a row that does not exist anymore' });
				c.store.removeRows(t, [row]);
				changes.push({ msg: 'removed a record' });
			}
			for (const row of delta.addRows) {
				const rec: Row = {};
				for (const [colId, d] of cells) {
					const cell = d[row];
					if (!cell) {
						changes.push({ msg: 'there is a row that does not exist anymore' });
						continue;
					}
					if (!skip(colId)) rec[colId] = Array.isArray(cell[1]) ? cell[1][0] : undefined;
				}
				addRows(c, t, [rec]);
				changes.push({ msg: 'added a record' });
			}
			const added = new Set(delta.addRows);
			for (const row of delta.updateRows.filter((r) => !added.has(r))) {
				for (const [colId, d] of cells) {
					const cell = d[row];
					if (!cell) {
						changes.push({ msg: 'there is a row that does not exist anymore' });
						continue;
					}
					if (skip(colId)) {
						changes.push({ msg: 'skipped a cell' });
						continue;
					}
					if (t.rows.has(row))
						updateRows(c, t, [
							{ id: row, values: { [colId]: Array.isArray(cell[1]) ? cell[1][0] : null } },
						]);
					changes.push({ msg: 'updated a cell' });
				}
			}
		}
	} catch (e) {
		changes.push({ msg: String(e), fail: true });
	}
	doc.updatedAt = c.store.now();
	return { changes, applied: changes.some((x) => !x.fail) };
}

function applyProposal(c: Ctx, doc: Doc, rawId: string) {
	const proposalId = integerParam(rawId, 'proposalId');
	if (!isOwner(c, doc)) throw new ApiError(400, 'Only owners can apply proposals');
	const p = proposalsOf(c).find((x) => x.destDocId === doc.id && x.shortId === proposalId);
	if (!p) throw new ApiError(404, 'Proposal not found');
	const details = p.comparison.comparison.details as Record<string, unknown> | undefined;
	if (!details) throw new ApiError(500, 'Proposal details not found');
	const log = applyPatch(c, doc, details);
	if (log.applied) {
		const now = c.store.now();
		Object.assign(p, { status: { status: 'applied' }, updatedAt: now, appliedAt: now });
	}
	const proposal = proposalJson(c, p);
	delete proposal.destDoc;
	return { proposalId, changes: { proposal, log } };
}

export const forksRoutes: Route[] = [
	docRoute('POST', 'fork', 'viewers', (c, doc) => fork(c, doc)),
	{
		method: 'GET',
		re: /^\/api\/docs\/([^/]+)\/compare\/([^/]+)$/,
		handler: (c, m) => {
			const left = docWorkerAccess(c, m[1], 'viewers');
			const owner = isOwner(c, left);
			if (historyOf(c.store).isRestricted(left) && !owner)
				throw new ApiError(403, 'insufficient access');
			const right = openOther(c, m[2]);
			const detail = ['1', 'true', 'yes', 'on', 'y'].includes(
				String(c.query.detail ?? '').toLowerCase(),
			);
			return historyOf(c.store).compareDocs(c, left, right, detail, owner);
		},
	},
	docRoute('POST', 'replace', 'editors', (c, doc) => replace(c, doc)),
	docRoute('GET', 'snapshots', 'viewers', (c, doc) => snapshots(c, doc)),
	docRoute('POST', 'snapshots/remove', 'owners', (c) => removeSnapshots(c)),
	docRoute('POST', 'propose', 'editors', (c, doc) => propose(c, doc)),
	docRoute('GET', 'proposals', 'viewers', (c, doc) => listProposals(c, doc)),
	docRoute('POST', 'proposals/([^/]+)/apply', 'editors', (c, doc, m) =>
		applyProposal(c, doc, m[2]),
	),
];
