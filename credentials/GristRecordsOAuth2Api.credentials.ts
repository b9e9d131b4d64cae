import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialNotice, serverUrlMatch } from './GristRecordsApi.credentials';

/** The scopes every connection gets: read and write records, and a refresh token. */
export const BASE_SCOPES = ['offline_access', 'doc:read', 'doc:write'];

/** The origin of the Server URL field (`$self`: the credential's own fields), as an expression. */
const ORIGIN = `((${serverUrlMatch('$self["url"]')}) || ["", "https://invalid-server-url.invalid"])[1]`;

/**
 * Grist's "OAuth apps" (Account settings → Developer → OAuth apps): authorization code flow with
 * PKCE (S256) and a confidential client (client id + secret, sent with HTTP Basic on the token
 * endpoint). The endpoints are on the Grist server's origin (`/oidc/auth`, `/oidc/token`; Grist
 * sends the flow on to its login server itself). The Server URL field behaves as in the API key
 * credential; nodes normalise it with `normalizeServerUrl`.
 *
 * Named apart from n8n-nodes-base's `gristOAuth2Api` (n8n keys credential types by name).
 */
export class GristRecordsOAuth2Api implements ICredentialType {
	name = 'gristRecordsOAuth2Api';

	extends = ['oAuth2Api'];

	// Named for the node it serves, as the API key credential (n8n's list shows the name alone).
	displayName = 'Grist Records & Documents (Community Node) OAuth2 API';

	icon = { light: 'file:../icons/grist.svg', dark: 'file:../icons/grist.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#oauth2-credential';

	properties: INodeProperties[] = [
		credentialNotice,
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'pkce',
		},
		{
			displayName: 'Server URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'https://docs.getgrist.com',
			description:
				'Address of your Grist site: https://docs.getgrist.com (used when empty) for your personal site, https://TEAM.getgrist.com for a team site, or https://HOST/o/TEAM for a self-hosted server with OAuth apps enabled. A pasted document URL works too.',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: `={{ ${ORIGIN} + "/oidc/auth" }}`,
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `={{ ${ORIGIN} + "/oidc/token" }}`,
			required: true,
		},
		{
			displayName: 'Additional Scopes',
			name: 'additionalScopes',
			type: 'multiOptions',
			default: [],
			description:
				'Scopes beyond reading and writing records (offline_access doc:read doc:write, always requested). Your OAuth app in Grist must allow them; reconnect after changing them.',
			options: [
				{
					name: 'Tables and Columns (Doc.schema:write)',
					value: 'doc.schema:write',
					description: 'Create tables and columns; needed with Document → Create',
				},
				{
					name: 'Webhooks (Doc:webhooks)',
					value: 'doc:webhooks',
					description: 'Manage the webhooks of documents you own',
				},
				{
					name: 'Full Document Download (Doc:download)',
					value: 'doc:download',
					description: 'Download whole .grist files',
				},
				{
					name: 'Your Profile (User.profile:read)',
					value: 'user.profile:read',
					description: 'Read your name and email',
				},
			],
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: `={{ ${JSON.stringify(BASE_SCOPES)}.concat($self["additionalScopes"] || []).join(" ") }}`,
		},
		{
			// Grist drops offline_access (no refresh token) unless consent is prompted.
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: 'prompt=consent',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];
}
