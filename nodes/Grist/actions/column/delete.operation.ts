import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItemThrough } from '../operationFrame';
import { noticeField } from '../../parameters/commonFields';
import { documentLocator, locatorValue, readTarget, tableLocator } from '../../parameters/locators';
import { deleteColumn } from '../../transport/api';
import { columnLocator, forEachSchemaItem } from '../schema';

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
	const colId = locatorValue(this, 'column', itemIndex);
	if (colId === '') {
		throw new NodeOperationError(this.getNode(), `The Column of item ${itemIndex} is empty`, {
			itemIndex,
			description: 'Pick a column from the list, or enter its ID.',
		});
	}
	await deleteColumn(client, target, colId, itemIndex);
	return { id: colId, deleted: true };
});
