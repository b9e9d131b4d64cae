/** Authentication of the Grist node and both triggers: API key (default) or OAuth2, and the credential each uses. */
import type { IExecuteFunctions, INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { itemParameter, nodeParameter, type NodeContext } from './read';

/** Authentication of the Grist node and the triggers: API key (default) or OAuth2. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'apiKey',
	description:
		'OAuth2 (a Grist OAuth app) can read and write records, tables, columns and attachments; organization, workspace and document administration and access management need an API key',
};

/** The two credentials, each shown for its Authentication choice. */
export const credentialOptions: INodeCredentialDescription[] = [
	{
		name: 'gristRecordsApi',
		required: true,
		displayOptions: { show: { authentication: ['apiKey'] } },
	},
	{
		name: 'gristRecordsOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];

export type Authentication = 'apiKey' | 'oAuth2';

/**
 * The node's Authentication, for the client (GristClient.create): `oAuth2`, else `apiKey`, the
 * property's default (n8n fills it in for a node saved without it; the fallback covers a context
 * that does not). An execution reads it as n8n's nodes do, for item 0 (one credential per node
 * run); a poll, a trigger's webhook methods and webhook, and the editor's pickers have no items
 * and read the node's value (their getNodeParameter takes no item index). Only an execution's
 * context has `getInputData`.
 */
export function authenticationOf(ctx: IExecuteFunctions | NodeContext): Authentication {
	const value =
		'getInputData' in ctx
			? itemParameter.call(ctx, 'authentication', 0, 'apiKey')
			: nodeParameter(ctx, 'authentication', 'apiKey');
	return value === 'oAuth2' ? 'oAuth2' : 'apiKey';
}
