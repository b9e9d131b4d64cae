import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { forkDocument } from '../../api/forks';
import { documentUrl } from '../../documents/lifecycle';
import { forkOutput } from '../../documents/versions';
import { withHint } from '../../errors/hints';
import { noticeField } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';

const properties: INodeProperties[] = [
	noticeField(
		'forkNotice',
		'A fork is a private copy of the document, with its history, to try changes on. Use its docId in other operations; Compare and Replace Content bring changes back.',
	),
	{ ...documentLocator, description: 'The document to fork (not a fork itself)' },
];

export const description = operationDescription('document', 'fork', properties);

/** POST /api/docs/{docId}/fork: the fork's IDs and URL. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	try {
		const fork = await forkDocument(client, docId, itemIndex);
		return forkOutput(fork, docId, documentUrl(client.server.base, fork.urlId));
	} catch (error) {
		throw withHint(error, 'document.fork', { docId });
	}
});
