/** Authentication of the Grist node and both triggers: API key (default) or OAuth2, and the credential each uses. */
import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

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
