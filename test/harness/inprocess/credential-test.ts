/**
 * `testCredential`: what n8n's CredentialsTester does for a credential with a `test` request
 * (`POST /rest/credentials/test`): defaults + expressions of the data, then a `RoutingNode`
 * request through `httpRequestWithAuthentication` (so `authenticate` applies), then the `rules`.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestRequest,
	ICredentialType,
	IExecuteData,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	ITaskDataConnections,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { ensureRuntime } from './runtime';
import { createSession, type CredentialData, type Session } from './session';

export interface TestCredentialOptions {
	/** The credential type, e.g. `new GristRecordsApi()`. */
	credentialType: ICredentialType;
	/** What the user typed into the credential dialog. */
	data: CredentialData | ICredentialDataDecryptedObject;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** The node type n8n's CredentialsTester uses for a credential's own `test` request. */
const noOpNodeType: INodeType = {
	description: {
		displayName: 'No Operation, do nothing',
		name: 'n8n-nodes-base.noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
};

interface ResponseLikeCause {
	response?: { status?: number; statusText?: string };
	code?: string;
}

const failed = (error: unknown): CredentialTestResult => ({
	status: 'Error',
	message: error instanceof Error ? error.message : String(error),
});

/** The RoutingNode that sends the test request with the decrypted credential. */
function testRoutingNode(
	session: Session,
	testRequest: ICredentialTestRequest,
	credentials: ICredentialsDecrypted,
): RoutingNode {
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: noOpNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [credentials.type]: { id: credentials.id, name: credentials.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...noOpNodeType.description,
			credentials: [{ name: credentials.type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: () => nodeTypeCopy,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const executeData: IExecuteData = { node, data: {}, source: null };
	const runExecutionData = createRunExecutionData({ resultData: { runData: {} } });
	const context = new ExecuteContext(
		workflow,
		workflow.getNode('Temp-Node') ?? node,
		buildAdditionalData({ credentialsHelper: session.credentialsHelper }),
		'internal',
		runExecutionData,
		0,
		[],
		inputData,
		executeData,
		[],
	);
	return new RoutingNode(context, nodeTypeCopy, credentials);
}

/** The result of a test request that failed, by the rules and the answer's status. */
function requestFailure(testRequest: ICredentialTestRequest, error: unknown): CredentialTestResult {
	const cause = (error as { cause?: ResponseLikeCause }).cause;
	if (cause?.response) {
		const statusCode = cause.response.status ?? 0;
		for (const rule of testRequest.rules ?? []) {
			if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		if (statusCode < 199 || statusCode > 299) {
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${statusCode}`,
			};
		}
	} else if (cause?.code) {
		return { status: 'Error', message: cause.code };
	}
	return failed(error);
}

/** lodash's `get(value, key)` as n8n calls it: walks every value but null and undefined (a string's `constructor` too). */
function getPath(value: unknown, key: string): unknown {
	let current: unknown = value;
	for (const part of key.split('.')) {
		if (current === null || current === undefined) return undefined;
		current = (Object(current) as Record<string, unknown>)[part];
	}
	return current;
}

/** Tests credential data like n8n's CredentialsTester (`POST /rest/credentials/test`). */
export async function testCredential(opts: TestCredentialOptions): Promise<CredentialTestResult> {
	await ensureRuntime();
	const { credentialType } = opts;
	const typeName = credentialType.name;
	const testRequest = credentialType.test;
	if (!testRequest) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}
	const session = createSession({}, [credentialType]);
	session.credentialTypes.add(credentialType);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'harness-credential-test',
		name: `${typeName} account`,
		type: typeName,
		data: { ...opts.data },
	};
	try {
		credentialsDecrypted.data = await session.credentialsHelper.applyDefaultsAndOverwrites(
			buildAdditionalData({ credentialsHelper: session.credentialsHelper }),
			credentialsDecrypted.data ?? {},
			typeName,
			'internal',
		);
	} catch (error) {
		return failed(error);
	}
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await testRoutingNode(session, testRequest, credentialsDecrypted).runNode();
	} catch (error) {
		return requestFailure(testRequest, error);
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			// n8n reads the first item's json as it is (undefined when the answer had no body)
			const json: unknown = response?.[0]?.[0]?.json;
			if (getPath(json, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
