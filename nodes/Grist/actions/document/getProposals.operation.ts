import type { INodeProperties } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { listProposals } from '../../api/proposals';
import { proposalOutput } from '../../documents/versions';
import { withHint } from '../../errors/hints';
import { optionsCollection } from '../../parameters/commonFields';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [
			{
				name: 'Made to This Document',
				value: 'incoming',
				description: 'Suggestions made from forks of this document (in Grist: Suggest changes)',
			},
			{
				name: 'Made From This Fork',
				value: 'outgoing',
				description: 'The proposal this fork made to its trunk document',
			},
		],
		default: 'incoming',
	},
	optionsCollection([
		{
			displayName: 'Include Changes',
			name: 'includeChanges',
			type: 'boolean',
			default: false,
			description:
				'Whether to add "tables": the changes each proposal makes, per table, with its added, updated and deleted rows',
		},
		{
			displayName: 'Only Open',
			name: 'onlyOpen',
			type: 'boolean',
			default: false,
			description: 'Whether to leave out proposals already applied, dismissed or retracted',
		},
	]),
];

export const description = operationDescription('document', 'getProposals', properties);

/** GET /api/docs/{docId}/proposals (`outgoing`): one item per proposal, newest first. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const outgoing = itemParameter.call(this, 'direction', itemIndex, 'incoming') === 'outgoing';
	const withChanges = Boolean(itemParameter.call(this, 'options.includeChanges', itemIndex, false));
	const onlyOpen = Boolean(itemParameter.call(this, 'options.onlyOpen', itemIndex, false));
	try {
		const proposals = await listProposals(client, docId, outgoing, itemIndex);
		return proposals
			.map((p) => proposalOutput(p, withChanges))
			.filter((p) => !onlyOpen || p.status === 'open');
	} catch (error) {
		throw withHint(error, 'document.proposals', { docId });
	}
});
