import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { applyUserActions } from '../../api/documents';
import { noticeField, optionsCollection } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { parseUserActions } from '../../documents/lifecycle';
import { itemParameterValue } from '../../parameters/read';

const properties: INodeProperties[] = [
	noticeField(
		'applyNotice',
		"Advanced: sends Grist user actions as they are, for what no other operation covers. They run all or none; Grist's own error is shown when one fails. See Grist's docs on user actions.",
	),
	documentLocator,
	{
		displayName: 'User Actions (JSON)',
		name: 'userActions',
		type: 'json',
		default: '[\n  ["AddRecord", "Table1", null, {"A": "hello"}]\n]',
		required: true,
		description:
			'A list of Grist user actions, each a list starting with its name, e.g. [["RemoveTable", "Old"], ["RenameColumn", "People", "Name", "FullName"]]',
	},
	optionsCollection([
		{
			displayName: 'Parse Strings',
			name: 'parseStrings',
			type: 'boolean',
			default: true,
			description:
				'Whether Grist parses text values for the column\'s type (e.g. "2024-01-31" into a date), as when typing in a cell',
		},
	]),
];

export const description = operationDescription('document', 'applyActions', properties);

/** POST /api/docs/{docId}/apply: one item with Grist's answer (actionNum, retValues…) per input item. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	let actions: unknown[][];
	try {
		actions = parseUserActions(
			itemParameterValue.call(this, 'userActions', itemIndex, '' as unknown),
		);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`User Actions (JSON) in item ${itemIndex}: ${(error as Error).message}`,
			{ itemIndex },
		);
	}
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as {
		parseStrings?: boolean;
	};
	const result = await applyUserActions(
		client,
		docId,
		actions,
		itemIndex,
		options.parseStrings === false ? { noparse: 1 } : undefined,
	);
	return { documentId: docId, ...result };
});
