import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Grist API key + one Server URL. The URL accepts whatever a user pastes (a site URL, a team
 * site, `https://host/o/team`, with or without `/api`, even a document URL); nodes normalise it
 * with `normalizeServerUrl` (nodes/Grist/helpers/url.ts). The credential test uses the same rule,
 * written as an expression: keep the origin and an optional `/o/<team>` right after it.
 *
 * n8n's built-in Grist node has a credential type of the same name, and n8n keys credential types
 * by name: once this package is installed, this class serves both nodes and the credentials users
 * already made for the built-in node. So its fields are a superset of the built-in ones: `url`
 * ("Server URL") and the hidden legacy `selfHostedUrl` / `customSubdomain`, which both nodes read
 * when `url` is empty (see `credentialServerUrl`). Dropping them would strip the stored address
 * from old credentials and send their key to the hosted Grist instead. For the same reason `url`
 * defaults to empty (meaning https://docs.getgrist.com) and is not required: n8n fills a field's
 * default into stored credentials that lack it, and a non-empty default would override the
 * legacy address.
 */
export class GristApi implements ICredentialType {
	name = 'gristApi';

	displayName = 'Grist API';

	icon = { light: 'file:../icons/grist.svg', dark: 'file:../icons/grist.dark.svg' } as const;

	documentationUrl = 'https://support.getgrist.com/rest-api/#authentication';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Your Grist API key, from Profile Settings → API in Grist',
		},
		{
			displayName: 'Server URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'https://docs.getgrist.com',
			description:
				'Address of your Grist site: https://docs.getgrist.com (used when empty) for your personal site, https://<team>.getgrist.com for a team site, or https://<host>/o/<team> for a self-hosted server. A pasted document URL works too.',
		},
		// Fields of credentials made with n8n's built-in Grist node (same credential type name);
		// hidden, and read only when the Server URL is empty.
		{
			displayName: 'Self-Hosted URL',
			name: 'selfHostedUrl',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Custom Subdomain',
			name: 'customSubdomain',
			type: 'hidden',
			default: '',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ (("" + ($credentials.url || $credentials.selfHostedUrl || ($credentials.customSubdomain ? "https://" + $credentials.customSubdomain + ".getgrist.com" : "") || "https://docs.getgrist.com")).trim().replace(/^(?![a-z][a-z0-9+.-]*:\\/\\/)/i, "https://").match(/^https?:\\/\\/[^\\/?#\\s]+(\\/o\\/[^\\/?#\\s]+)?(?=[\\/?#]|$)(?=\\S*$)/i) || ["https://the-server-url-is-not-a-valid-url.invalid"])[0] }}',
			url: '/api/orgs',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'Grist rejected the API key. Copy it again from Profile Settings → API in Grist and paste it into the API Key field.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'This server did not answer like Grist (404). Check the Server URL: use your site address, e.g. https://docs.getgrist.com, https://<team>.getgrist.com or https://<host>/o/<team>. A self-hosted server that says "Domain not recognized" needs its public URL, APP_HOME_INTERNAL_URL or GRIST_SINGLE_ORG.',
				},
			},
		],
	};
}
