import type { INodeProperties } from 'n8n-workflow';

import {
	documentLocator,
	readTarget,
	tableLocator,
	columnIdValue,
} from '../../parameters/locators';
import { deleteColumn } from '../../api/columns';
import { columnLocator } from '../../parameters/columnDefinition';
import { forEachSchemaItem } from '../schemaChanges';
import { operationDescription, perItemThrough } from '../operationFrame';
import { noticeField } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	noticeField('deleteNotice', 'This deletes the column and every value in it.'),
	documentLocator,
	tableLocator,
	columnLocator,
];

export const description = operationDescription('column', 'delete', properties);

/** DELETE …/columns/{colId}. */
export const execute = perItemThrough(forEachSchemaItem, async function (client, itemIndex) {
	const target = readTarget.call(this, itemIndex);
	const colId = columnIdValue.call(this, itemIndex);
	await deleteColumn(client, target, colId, itemIndex);
	return { id: colId, deleted: true };
});
