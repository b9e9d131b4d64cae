/** The read-only SQL endpoint of a document. */
import type { IDataObject } from 'n8n-workflow';

import type { GristClient } from './client';
import { documentEndpoint } from './paths';

/**
 * POST /api/docs/{doc}/sql: a read-only SELECT with `?` arguments; the rows come back with raw
 * SQLite values (Bool 0/1, dates as numbers, lists as JSON text). Needs an API key whose user may
 * read the whole document: OAuth tokens and access rules get 403.
 */
export async function runSql(
	client: GristClient,
	docId: string,
	sql: string,
	args: Array<string | number | null> = [],
	timeoutMs?: number,
	itemIndex?: number,
): Promise<Array<Record<string, unknown>>> {
	const body: IDataObject = { sql, args };
	if (timeoutMs !== undefined) body.timeout = timeoutMs;
	const res = await client.request<{ records?: Array<{ fields?: Record<string, unknown> }> }>({
		method: 'POST',
		...documentEndpoint(client, docId, 'sql'),
		body,
		itemIndex,
	});
	return (res?.records ?? []).map((r) => r.fields ?? {});
}
