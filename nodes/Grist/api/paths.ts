/**
 * Grist API paths, built from encoded segments (a bad id fails as an input error naming the
 * field, and can never change the endpoint). Only the files of api/ build paths, with these
 * functions; operations, pickers and the triggers call api/'s named endpoints.
 */
import { toNodeError } from '../errors/nodeErrors';
import type { GristClient } from './client';
import { apiPath } from './url';

export type Segment = string | number | { value: string | number; label: string };

/** Builds an API path; bad ids give a NodeOperationError naming the field. */
export function buildPath(client: GristClient, ...parts: Segment[]): string {
	try {
		return apiPath(...parts);
	} catch (error) {
		throw toNodeError(client.getNode(), error);
	}
}

/** A table of a document: what record, column and /data calls address. */
export interface Target {
	docId: string;
	tableId: string;
}

const targetKeys = new WeakMap<Target, string>();

/** A key for maps by table (computed once per Target object). */
export function targetKey(t: Target): string {
	let key = targetKeys.get(t);
	if (key === undefined) {
		key = JSON.stringify([t.docId, t.tableId]);
		targetKeys.set(t, key);
	}
	return key;
}

/**
 * Where a request goes and what it is about (the `what` of its error hints): what the
 * `…Endpoint` functions below return, spread into a request.
 */
export interface Endpoint {
	path: string;
	what: string;
}

/** `/api/orgs/{org}/…`. */
export function orgEndpoint(client: GristClient, key: string | number, ...rest: Segment[]) {
	const path = buildPath(client, 'orgs', { value: key, label: 'organization' }, ...rest);
	return { path, what: `organization "${key}"` };
}

/** `/api/workspaces/{wid}/…`. */
export function workspaceEndpoint(client: GristClient, wid: string | number, ...rest: Segment[]) {
	const path = buildPath(client, 'workspaces', { value: wid, label: 'workspace ID' }, ...rest);
	return { path, what: `workspace ${wid}` };
}

/** `/api/docs/{docId}/…`. */
export function documentEndpoint(client: GristClient, docId: string, ...rest: Segment[]) {
	const path = buildPath(client, 'docs', { value: docId, label: 'document ID' }, ...rest);
	return { path, what: `document "${docId}"` };
}

/** `/api/docs/{docId}/tables/{tableId}/…`. */
export function tableEndpoint(client: GristClient, t: Target, ...rest: Segment[]): Endpoint {
	const table = { value: t.tableId, label: 'table ID' };
	const { path } = documentEndpoint(client, t.docId, 'tables', table, ...rest);
	return { path, what: `table "${t.tableId}"` };
}
