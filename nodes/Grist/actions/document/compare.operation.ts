import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { compareDocuments } from '../../api/forks';
import { compareStates } from '../../api/history';
import { comparisonOutput, type Comparison } from '../../documents/versions';
import { withHint } from '../../errors/hints';
import { optionsCollection } from '../../parameters/commonFields';
import {
	documentIdValue,
	documentLocator,
	otherDocumentIdValue,
	otherDocumentLocator,
} from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';

const showFor = (compareWith: string) => ({ show: { compareWith: [compareWith] } });

const properties: INodeProperties[] = [
	{ ...documentLocator, description: 'The document on the left of the comparison' },
	{
		displayName: 'Compare With',
		name: 'compareWith',
		type: 'options',
		options: [
			{
				name: 'Another Document',
				value: 'document',
				description: 'A fork or copy of this document (or the document it was forked from)',
			},
			{
				name: 'An Earlier State of This Document',
				value: 'states',
				description: "Two states of this document's history",
			},
		],
		default: 'document',
	},
	{
		...otherDocumentLocator(
			'Other Document',
			'otherDocument',
			'The document on the right of the comparison, e.g. a fork of the Document',
		),
		displayOptions: showFor('document'),
	},
	{
		displayName: 'From State',
		name: 'fromState',
		type: 'string',
		default: 'HEAD~1',
		required: true,
		displayOptions: showFor('states'),
		description:
			'The earlier state: a state hash (the "h" of a comparison\'s left or right) or HEAD~N for N actions ago',
	},
	{
		displayName: 'To State',
		name: 'toState',
		type: 'string',
		default: 'HEAD',
		required: true,
		displayOptions: showFor('states'),
		description: 'The later state: HEAD (now), a state hash or HEAD~N',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'Summary and Changes by Table',
				value: 'changes',
				description:
					'The summary, and in "tables" one entry per changed table and side with its added, updated and deleted rows',
			},
			{
				name: 'Summary Only',
				value: 'summary',
				description:
					'Whether and on which side the documents changed (same, left, right, both, unrelated)',
			},
			{
				name: "Grist's Raw Comparison",
				value: 'raw',
				description: 'The comparison as Grist gives it, with its action summaries (details)',
			},
		],
		default: 'changes',
	},
	optionsCollection([
		{
			displayName: 'Max Rows With Values',
			name: 'maxRows',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 1000,
			description:
				'Grist keeps cell values for at most this many rows of each bulk change (the rows in between are listed without values). 0 for no limit.',
		},
	]),
];

export const description = operationDescription('document', 'compare', properties);

/**
 * GET /api/docs/{docId}/compare/{otherDocId} (another document) or GET
 * /api/docs/{docId}/compare?left&right (two states of one): one item with the summary and, by
 * default, the changes per table.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const output = itemParameter.call(this, 'output', itemIndex, 'changes');
	const withDetails = output !== 'summary';
	const maxRowsValue = Number(itemParameter.call(this, 'options.maxRows', itemIndex, 1000));
	if (!Number.isInteger(maxRowsValue) || maxRowsValue < 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Max Rows With Values of item ${itemIndex} must be a whole number (0 for no limit)`,
			{ itemIndex },
		);
	}
	const maxRows = maxRowsValue === 0 ? null : maxRowsValue;
	let comparison: Comparison;
	let about: IDataObject;
	if (itemParameter.call(this, 'compareWith', itemIndex, 'document') === 'states') {
		const left = String(itemParameter.call(this, 'fromState', itemIndex, '')).trim();
		const right = String(itemParameter.call(this, 'toState', itemIndex, '')).trim();
		for (const [value, label] of [
			[left, 'From State'],
			[right, 'To State'],
		]) {
			if (value === '')
				throw new NodeOperationError(this.getNode(), `The ${label} of item ${itemIndex} is empty`, {
					itemIndex,
					description: 'Enter HEAD, HEAD~N (N actions ago) or a state hash.',
				});
		}
		about = { docId, fromState: left, toState: right };
		try {
			comparison = await compareStates(client, docId, left, right, maxRows, itemIndex);
		} catch (error) {
			throw withHint(error, 'document.compare', { docId });
		}
	} else {
		const otherDocId = otherDocumentIdValue.call(
			this,
			'otherDocument',
			'Other Document',
			itemIndex,
		);
		about = { docId, otherDocId };
		const qs: IDataObject = withDetails
			? { detail: 1, maxRows: maxRows ?? 'null' }
			: { maxRows: maxRows ?? 'null' };
		try {
			comparison = await compareDocuments(client, docId, otherDocId, qs, itemIndex);
		} catch (error) {
			throw withHint(error, 'document.compare', { docId, otherDocId });
		}
	}
	if (output === 'raw') return { ...about, ...(comparison as IDataObject) };
	return comparisonOutput(comparison, about, withDetails);
});
