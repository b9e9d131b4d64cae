import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { operationDescription, perItem } from '../operationFrame';
import { applyProposal, listProposals } from '../../api/proposals';
import { patchFailure, proposalOutput, proposalStatus } from '../../documents/versions';
import { withHint } from '../../errors/hints';
import { noticeField, optionsCollection } from '../../parameters/commonFields';
import {
	documentIdValue,
	documentLocator,
	proposalIdValue,
	proposalLocator,
} from '../../parameters/locators';
import { itemParameter } from '../../parameters/read';

const properties: INodeProperties[] = [
	noticeField(
		'applyProposalNotice',
		"Applies the rows a fork's proposal adds, changes and deletes to this document. Grist does not apply table or column changes this way (use Replace Content for those). Needs the Owner role.",
	),
	{ ...documentLocator, description: 'The document the proposal was made to' },
	proposalLocator,
	optionsCollection([
		{
			displayName: 'Apply Again',
			name: 'applyAgain',
			type: 'boolean',
			default: false,
			description:
				'Whether to apply a proposal that was applied before (Grist then adds its new rows a second time)',
		},
	]),
];

export const description = operationDescription('document', 'applyProposal', properties);

/**
 * GET /api/docs/{docId}/proposals (does it exist, is it applied already?), then POST
 * …/proposals/{id}/apply: the proposal afterwards and what Grist did.
 */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const proposalId = proposalIdValue.call(this, itemIndex);
	const applyAgain = Boolean(itemParameter.call(this, 'options.applyAgain', itemIndex, false));
	try {
		const proposals = await listProposals(client, docId, false, itemIndex);
		const proposal = proposals.find((p) => p.shortId === proposalId);
		if (!proposal) {
			throw new NodeOperationError(
				this.getNode(),
				`The document "${docId}" has no proposal ${proposalId} (item ${itemIndex})`,
				{
					itemIndex,
					description:
						proposals.length === 0
							? "No proposal was made to this document. Proposals are made from forks of it, with Grist's Suggest changes."
							: `Its proposals are ${proposals.map((p) => p.shortId).join(', ')}: Get Proposals lists them.`,
				},
			);
		}
		const status = proposalStatus(proposal);
		if (status !== 'open' && !(status === 'applied' && applyAgain)) {
			throw new NodeOperationError(
				this.getNode(),
				`Proposal ${proposalId} of document "${docId}" is ${status} (item ${itemIndex})`,
				{
					itemIndex,
					description:
						status === 'applied'
							? 'It was applied before; applying it again would add its new rows a second time. Turn on Apply Again to do it anyway.'
							: `A ${status} proposal is not applied. Only open proposals are.`,
				},
			);
		}
		const result = await applyProposal(client, docId, proposalId, itemIndex);
		const log = result.changes?.log;
		const failure = patchFailure(log);
		if (failure !== undefined) {
			throw new NodeOperationError(
				this.getNode(),
				log?.applied
					? `Grist applied proposal ${proposalId} to document "${docId}" only in part: ${failure} (item ${itemIndex})`
					: `Grist could not apply proposal ${proposalId} to document "${docId}": ${failure} (item ${itemIndex})`,
				{
					itemIndex,
					description:
						'Grist applies only row changes from a proposal. To bring table or column changes over, use Replace Content with the fork as Source Document (after checking it with Compare).',
				},
			);
		}
		const after = result.changes?.proposal ?? proposal;
		return {
			...proposalOutput(after, false),
			applied: log?.applied ?? false,
			log: (log?.changes ?? []).map((c) => c.msg ?? ''),
		};
	} catch (error) {
		throw withHint(error, 'document.proposals', { docId });
	}
});
