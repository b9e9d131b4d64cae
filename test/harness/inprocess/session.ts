/**
 * The credentials of one in-process run: the credential types the harness knows (this package's
 * and n8n's generic OAuth2), a credentials helper holding the test's credential data, and the
 * node credential references that point at it.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeCredentials,
	INodeTypes,
} from 'n8n-workflow';

import { GristRecordsApi } from '../../../credentials/GristRecordsApi.credentials';
import { GristRecordsOAuth2Api } from '../../../credentials/GristRecordsOAuth2Api.credentials';
import { HarnessCredentialTypes, HarnessCredentialsHelper } from './credentials';
import { OAuth2Api } from './oauth2';

/** The `gristRecordsApi` credential as a user fills it in (`url` is the "Server URL" field). */
export interface CredentialData {
	apiKey: string;
	url: string;
}

/** Credential data by credential type name; any type's fields (e.g. `{ apiKey, url }`). */
export type CredentialsByType = Record<string, CredentialData | ICredentialDataDecryptedObject>;

export const GRIST_CREDENTIAL_TYPE = 'gristRecordsApi';

export interface Session {
	credentialTypes: HarnessCredentialTypes;
	credentialsHelper: HarnessCredentialsHelper;
	nodeCredentials: Record<string, { id: string; name: string }>;
}

export function createSession(
	credentials: CredentialsByType = {},
	extraCredentialTypes: ICredentialType[] = [],
): Session {
	const credentialTypes = new HarnessCredentialTypes([
		new GristRecordsApi(),
		new GristRecordsOAuth2Api(),
		new OAuth2Api(),
		...extraCredentialTypes,
	]);
	const credentialsHelper = new HarnessCredentialsHelper(credentialTypes);
	const nodeCredentials: Session['nodeCredentials'] = {};
	for (const [type, data] of Object.entries(credentials)) {
		nodeCredentials[type] = credentialsHelper.addCredential({
			id: `harness-${type}`,
			name: `${type} account`,
			type,
			data: { ...data },
		}) as { id: string; name: string };
	}
	return { credentialTypes, credentialsHelper, nodeCredentials };
}

/** A session with the `gristRecordsApi` credential (`credentials`) and others by type. */
export function gristSession(
	credentials: CredentialData | undefined,
	otherCredentials: CredentialsByType = {},
	extraCredentialTypes?: ICredentialType[],
): Session {
	return createSession(
		{ ...otherCredentials, ...(credentials ? { [GRIST_CREDENTIAL_TYPE]: credentials } : {}) },
		extraCredentialTypes,
	);
}

/** Points each node's credential slots at the session's credentials, adding the ones it needs. */
export function attachCredentials(node: INode, nodeTypes: INodeTypes, session: Session): void {
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const credentials: INodeCredentials = { ...(node.credentials ?? {}) };
	for (const type of Object.keys(credentials)) {
		const ours = session.nodeCredentials[type];
		if (ours) credentials[type] = { ...ours };
	}
	for (const description of nodeType.description.credentials ?? []) {
		const ours = session.nodeCredentials[description.name];
		if (ours && !credentials[description.name]) credentials[description.name] = { ...ours };
	}
	if (Object.keys(credentials).length > 0) node.credentials = credentials;
}
