/**
 * n8n's generic `oAuth2Api` credential type (n8n-nodes-base, not a dependency of this package),
 * reduced to the fields n8n-core's OAuth2 request path reads: credential types that
 * `extends: ['oAuth2Api']` get these fields and their defaults, and n8n-core's
 * `httpRequestWithAuthentication` sees the parent type and signs requests with the stored
 * `oauthTokenData` (refreshing it on 401 through the token URL).
 */
import type { ICredentialType, INodeProperties } from 'n8n-workflow';

export class OAuth2Api implements ICredentialType {
	name = 'oAuth2Api';

	displayName = 'OAuth2 API';

	properties: INodeProperties[] = [
		{ displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'authorizationCode' },
		{ displayName: 'Authorization URL', name: 'authUrl', type: 'string', default: '' },
		{ displayName: 'Access Token URL', name: 'accessTokenUrl', type: 'string', default: '' },
		{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '' },
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Scope', name: 'scope', type: 'string', default: '' },
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'string',
			default: '',
		},
		{ displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'header' },
		{ displayName: 'Ignore SSL Issues', name: 'ignoreSSLIssues', type: 'boolean', default: false },
	];
}
