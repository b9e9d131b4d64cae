/** The "From List" picker of the Service Account field: the API key's user's service accounts. */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { GristClient } from '../api/client';
import { listServiceAccounts } from '../api/serviceAccounts';

/** Searchable by label, description and login; an expired one or one without a key says so. */
export async function searchServiceAccounts(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await GristClient.create(this);
	const accounts = await listServiceAccounts(client);
	const wanted = (filter ?? '').trim().toLowerCase();
	const now = Date.now();
	const results = accounts
		.filter(
			(a) =>
				wanted === '' ||
				`${a.label} ${a.description} ${a.login} ${a.id}`.toLowerCase().includes(wanted),
		)
		.map((a) => {
			const notes = [
				Date.parse(a.expiresAt) <= now ? 'expired' : '',
				a.hasValidKey ? '' : 'no key',
			].filter((n) => n !== '');
			const name = a.label || a.login;
			return {
				name: notes.length ? `${name} (${notes.join(', ')})` : name,
				value: String(a.id),
			};
		});
	return { results };
}
