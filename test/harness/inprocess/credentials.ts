/**
 * Credential plumbing for the in-process harness: an in-memory credential store and an
 * `ICredentialsHelper` that does what n8n 2.41's `packages/cli/src/credentials-helper.ts` does for
 * a plain (non-OAuth) credential type:
 * - `getDecrypted`: stored data → defaults of the credential's properties
 *   (`NodeHelpers.getNodeParameters`) → expressions resolved (`={{ … }}` values);
 * - `authenticate`: a function `authenticate` is called; a `generic` one has each
 *   `properties.{headers,qs,body,auth}` entry resolved with `{ $credentials }` through the
 *   workflow's expression engine (`getSimpleParameterValue`, mode `internal`) and set on the
 *   request;
 * - `preAuthentication`: only runs when the type has an expirable hidden property (as in n8n).
 * OAuth2 types (`extends: ['oAuth2Api']`, base type in ./oauth2.ts) go through n8n-core's own
 * OAuth2 path: it signs with the stored `oauthTokenData`, refreshes on 401 and stores the new
 * token through `updateCredentialsOauthTokenData` (kept for the rest of the run).
 * Not modelled: credential overwrites, external secrets, dynamic (per-user) credentials, the
 * OAuth connect flow (tests issue tokens with the emulator's `oauth.issue`).
 */
import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	IDataObject,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	isExpression,
} from 'n8n-workflow';

/** Credential types by name (`ICredentialType.name`), with n8n's `extends` resolution. */
export class HarnessCredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[] = []) {
		for (const type of types) this.add(type);
	}

	add(type: ICredentialType): void {
		this.types.set(type.name, type);
	}

	recognizes(name: string): boolean {
		return this.types.has(name);
	}

	getByName(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) {
			throw new UnexpectedError(`Unknown credential type "${name}" (register it with the harness)`);
		}
		return type;
	}

	getParentTypes(name: string): string[] {
		const type = this.types.get(name);
		if (!type?.extends) return [];
		const parents = [...type.extends];
		for (const parent of type.extends) parents.push(...this.getParentTypes(parent));
		return parents;
	}
}

/** One stored credential: what a user saved in n8n's credential dialog. */
export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** A node type without parameters, only used to resolve credential expressions (as n8n does). */
const mockNodeType: INodeType = {
	description: {
		displayName: 'Mock',
		name: 'mock',
		group: [],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: [],
		properties: [],
	},
};

const mockNodeTypes: INodeTypes = {
	getByName: () => mockNodeType,
	getByNameAndVersion: () => mockNodeType,
	getKnownTypes: (): IDataObject => ({}),
};

const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, StoredCredential>();

	constructor(readonly credentialTypes: HarnessCredentialTypes) {
		super();
	}

	/** Saves a credential and returns the reference a node stores in `node.credentials[type]`. */
	addCredential(credential: StoredCredential): INodeCredentialsDetails {
		this.store.set(credential.id, { ...credential, data: { ...credential.data } });
		return { id: credential.id, name: credential.name };
	}

	getStored(id: string): StoredCredential | undefined {
		return this.store.get(id);
	}

	private find(nodeCredentials: INodeCredentialsDetails, type: string): StoredCredential {
		const byId = nodeCredentials.id ? this.store.get(nodeCredentials.id) : undefined;
		if (byId && byId.type === type) return byId;
		// n8n: CredentialNotFoundError / CredentialMissingIdError
		throw new UnexpectedError(
			nodeCredentials.id
				? `Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`
				: `Credential "${nodeCredentials.name}" of type "${type}" has no ID.`,
		);
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		// Our credential types do not set `restrictToSupportedNodes`.
		return this.credentialTypes.getByName(credentialType).restrictToSupportedNodes !== true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const credentialType = this.credentialTypes.getByName(typeName);
		const { authenticate } = credentialType;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (!workflow || !node) {
			throw new UnexpectedError(
				'Workflow and node are required for declarative credential authentication',
			);
		}
		requestOptions.headers ??= {};
		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<
				string,
				Record<string, unknown> | undefined
			>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					const keyResolved = this.resolveValue(key, credentials, workflow, node);
					const valueResolved = this.resolveValue(value as string, credentials, workflow, node);
					const bucket = (target[outerKey] ??= {});
					bucket[keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	private resolveValue(
		parameterValue: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const value = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		if (!value) return '';
		return String(value);
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined) return undefined;
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] === '' || credentialsExpired || isTestingCredentials) {
			const output = (await credentialType.preAuthentication.call(
				helpers,
				credentials,
			)) as ICredentialDataDecryptedObject;
			if (output[expirable.name] === undefined) return undefined;
			const nodeCredentials = node.credentials?.[credentialType.name];
			if (nodeCredentials?.id) {
				const stored = this.find(nodeCredentials, credentialType.name);
				stored.data = { ...stored.data, ...output };
			}
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		return (await credentialType.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const stored = this.find(nodeCredentials, type);
		const credentials = new Credentials({ id: stored.id, name: stored.name }, stored.type);
		await credentials.setData(stored.data);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.find(nodeCredentials, type);
		const data = structuredClone(stored.data);
		if (raw === true) return data;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Credential defaults, then expressions: n8n's `applyDefaultsAndOverwrites` without overwrites. */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const properties = this.getCredentialsProperties(type);
		let decryptedData = NodeHelpers.getNodeParameters(
			properties,
			decryptedDataOriginal as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
				decryptedData as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		} else {
			const workflow = new Workflow({
				nodes: [{ ...mockNode }],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decryptedData = workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		}
		return decryptedData;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.find(nodeCredentials, type).data = { ...data };
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.find(nodeCredentials, type);
		stored.data = { ...stored.data, oauthTokenData: data.oauthTokenData };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (credentialType.extends === undefined) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
