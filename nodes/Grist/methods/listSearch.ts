/**
 * "From list" pickers: organizations, workspaces, documents and tables, searchable by name.
 * Lists are scoped to the site of the Server URL (`/o/<team>`, team host), or cover every org the
 * key can see where the server has no notion of a current site.
 */
import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { isSaasHost, siteOrgKey } from '../api/url';
import { pickedLocator, pickedTarget } from '../parameters/locators';
import { GristClient } from '../api/client';
import { fetchColumns } from '../api/columns';
import { getWorkspace } from '../api/workspaces';
import { listOrgWorkspaces, listOrgs } from '../api/orgs';
import { listTables } from '../api/tables';
import { forksOfDocument } from '../api/forks';
import { listProposals } from '../api/proposals';
import { listSnapshots } from '../api/snapshots';
import { documentUrl } from '../documents/lifecycle';
import { forkDocId, proposalStatus } from '../documents/versions';

interface OrgInfo {
	id: number;
	name: string;
	domain: string | null;
}
interface DocInfo {
	id: string;
	name: string;
	urlId?: string | null;
	isPinned?: boolean;
}
interface WorkspaceInfo {
	id: number;
	name: string;
	docs?: DocInfo[];
	orgDomain?: string;
}

function matches(name: string, filter?: string): boolean {
	return !filter || name.toLowerCase().includes(filter.trim().toLowerCase());
}

/** The org of the node's Organization field if it has one, else the site's org(s). */
async function orgKeysToList(
	ctx: ILoadOptionsFunctions,
	client: GristClient,
): Promise<Array<string | number>> {
	const picked = pickedLocator(ctx, 'org'); // '' where the operation has no Organization field
	if (picked) return [picked];
	const site = siteOrgKey(client.server);
	if (site) return [site];
	const orgs = await listOrgs<OrgInfo>(client);
	return orgs.map((o) => o.id);
}

async function workspacesOf(
	ctx: ILoadOptionsFunctions,
	client: GristClient,
): Promise<WorkspaceInfo[]> {
	const keys = await orgKeysToList(ctx, client);
	const lists = await Promise.all(
		keys.map(async (key) => await listOrgWorkspaces<WorkspaceInfo>(client, key)),
	);
	return lists.flat();
}

/** The address of a site in the browser: `https://<team>.getgrist.com` on SaaS, else `<origin>/o/<team>`. */
function siteUrl(client: GristClient, domain: string): string {
	const { server } = client;
	if (isSaasHost(server.hostname)) {
		return /^docs(-\d+)?$/.test(domain)
			? 'https://docs.getgrist.com'
			: `https://${encodeURIComponent(domain)}.getgrist.com`;
	}
	return `${server.origin}/o/${encodeURIComponent(domain)}`;
}

export async function searchOrgs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await GristClient.create(this);
	const orgs = await listOrgs<OrgInfo>(client);
	const results: INodeListSearchItems[] = orgs
		.filter((o) => matches(`${o.name} ${o.domain ?? ''}`, filter))
		.map((o) => ({
			name: o.domain ? `${o.name} (${o.domain})` : o.name,
			value: String(o.id),
			...(o.domain ? { url: siteUrl(client, o.domain) } : {}),
		}));
	return { results };
}

export async function searchWorkspaces(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await GristClient.create(this);
	const workspaces = await workspacesOf(this, client);
	const many = new Set(workspaces.map((w) => w.orgDomain)).size > 1;
	return {
		results: workspaces
			.filter((w) => matches(w.name, filter))
			.map((w) => ({
				name: many && w.orgDomain ? `${w.name} (${w.orgDomain})` : w.name,
				value: String(w.id),
				url: `${w.orgDomain ? siteUrl(client, w.orgDomain) : client.server.base}/ws/${w.id}/`,
			})),
	};
}

export async function searchDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await GristClient.create(this);
	let workspaces: WorkspaceInfo[];
	const picked = pickedLocator(this, 'workspace');
	if (picked && client.isOAuth) {
		// Grist refuses GET /workspaces/{id} to OAuth tokens; the org listing has the same docs.
		workspaces = (await workspacesOf(this, client)).filter((w) => String(w.id) === picked);
	} else if (picked) {
		workspaces = [await getWorkspace<WorkspaceInfo>(client, picked)];
	} else {
		workspaces = await workspacesOf(this, client);
	}
	const results: INodeListSearchItems[] = [];
	for (const ws of workspaces) {
		for (const doc of ws.docs ?? []) {
			if (!matches(`${doc.name} ${ws.name}`, filter)) continue;
			results.push({
				name: workspaces.length > 1 ? `${doc.name} (${ws.name})` : doc.name,
				value: doc.id,
				url: documentUrl(client.server.base, doc.urlId || doc.id),
			});
		}
	}
	results.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

export async function searchTables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const docId = pickedLocator(this, 'document');
	if (!docId) return { results: [] };
	const client = await GristClient.create(this);
	const tables = await listTables(client, docId);
	return {
		results: tables
			.filter((t) => !t.id.startsWith('GristHidden_') && matches(t.id, filter))
			.map((t) => ({
				name: Number(t.fields.summarySourceTable ?? 0) !== 0 ? `${t.id} (summary)` : t.id,
				value: t.id,
			})),
	};
}

/** The picked table's columns (not Grist's helper columns), searchable by ID or label. */
export async function searchColumns(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const target = pickedTarget(this);
	if (!target) return { results: [] };
	const client = await GristClient.create(this);
	const columns = await fetchColumns(client, target);
	return {
		results: columns
			.filter((c) => matches(c.id, filter) || matches(c.label, filter))
			.map((c) => ({
				name: c.label === c.id ? `${c.id} · ${c.type}` : `${c.label} (${c.id}) · ${c.type}`,
				value: c.id,
			})),
	};
}

/**
 * The second document of Compare and Replace Content: the picked Document's trunk (when it is a
 * fork) and your forks of it first, then the site's documents.
 */
export async function searchRelatedDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const docId = pickedLocator(this, 'document');
	const results: INodeListSearchItems[] = [];
	if (docId) {
		const client = await GristClient.create(this);
		const info = await forksOfDocument(client, docId).catch(() => undefined);
		if (info) {
			if (info.trunkId && matches(`${info.name} trunk`, filter))
				results.push({
					name: `${info.name} (the document it was forked from)`,
					value: info.trunkId,
					url: documentUrl(client.server.base, info.trunkId),
				});
			const forks = [...info.forks].sort((a, b) =>
				String(b.updatedAt ?? '').localeCompare(String(a.updatedAt ?? '')),
			);
			for (const fork of forks) {
				const id = forkDocId(fork.trunkId, fork.id, info.userId);
				const when = fork.updatedAt
					? `, changed ${fork.updatedAt.slice(0, 16).replace('T', ' ')}`
					: '';
				const name = `Fork ${fork.id} of ${info.name}${when}`;
				if (matches(name, filter))
					results.push({ name, value: id, url: documentUrl(client.server.base, id) });
			}
		}
	}
	const others = await searchDocuments.call(this, filter);
	results.push(...others.results.filter((r) => r.value !== docId));
	return { results };
}

/** The picked Document's snapshots, newest first. */
export async function searchSnapshots(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const docId = pickedLocator(this, 'document');
	if (!docId) return { results: [] };
	const client = await GristClient.create(this);
	const snapshots = await listSnapshots(client, docId, false);
	return {
		results: snapshots
			.map((s) => ({ name: `${s.lastModified} (${s.snapshotId})`, value: s.snapshotId }))
			.filter((r) => matches(r.name, filter)),
	};
}

/** The proposals made to the picked Document, newest first, with their status. */
export async function searchProposals(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const docId = pickedLocator(this, 'document');
	if (!docId) return { results: [] };
	const client = await GristClient.create(this);
	const proposals = await listProposals(client, docId, false);
	return {
		results: proposals
			.map((p) => {
				const by = p.srcDoc?.creator?.name || p.srcDoc?.creator?.email || 'someone';
				return {
					name: `#${p.shortId} by ${by} (${proposalStatus(p)})`,
					value: String(p.shortId),
				};
			})
			.filter((r) => matches(r.name, filter)),
	};
}
export { searchServiceAccounts } from './serviceAccountSearch';
