import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialOptions } from './actions/common.descriptions';
import { resourceModules, subtitleExpression } from './actions/resources';
import { router } from './actions/router';
import { listSearch, loadOptions, resourceMapping } from './methods';

export class Grist implements INodeType {
	description: INodeTypeDescription = {
		// Not just 'Grist': n8n's built-in Grist node has that name, and both show up side by side.
		displayName: 'Grist Records & Documents',
		name: 'grist',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['input'],
		version: 1,
		// The operation's action text ("Get many records"), built from every Operation option.
		subtitle: subtitleExpression(),
		description:
			'Read, create, update and delete records (rows) of Grist tables; search them with conditions or read-only SQL; create and change tables and columns; manage documents, workspaces, sites and attachments',
		documentationUrl: 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#operations',
		defaults: { name: 'Grist' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialOptions,
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceModules.map((m) => m.option),
				default: 'org',
			},
			...resourceModules.flatMap((m) => m.description),
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
