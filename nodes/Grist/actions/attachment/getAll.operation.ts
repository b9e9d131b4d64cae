import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { flattenAttachmentRecord } from './attachmentFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { limitFields, readLimit } from '../../parameters/limit';
import { listAttachments } from '../../api/attachments';
import { operationDescription, perItem } from '../operationFrame';

const properties: INodeProperties[] = [documentLocator, ...limitFields];

export const description = operationDescription('attachment', 'getAll', properties);

/** GET /api/docs/{doc}/attachments (with `limit` unless Return All): one item per attachment. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const limit = readLimit.call(this, itemIndex); // 0 for Return All; a bad Limit fails naming it
	const qs: IDataObject = {};
	if (limit > 0) qs.limit = limit;
	const records = await listAttachments(client, docId, qs, itemIndex);
	// Grist applies the limit; cut again in case a server ignores it.
	return (limit > 0 ? records.slice(0, limit) : records).map(flattenAttachmentRecord);
});
