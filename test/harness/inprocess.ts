/**
 * In-process n8n harness (test level b): runs our real node classes with the real, pinned
 * `n8n-core@2.41.1` / `n8n-workflow@2.41.0`, in this Node process, against whatever HTTP server
 * the test points the credential at (a loopback server or the Grist emulator).
 *
 * Usage (jest):
 * ```ts
 * import { runNode, loadOptions, testCredential, createPoller } from '../harness/inprocess';
 * const { items, error } = await runNode({
 *   node: new Grist(),
 *   parameters: { resource: 'record', operation: 'getAll', docId: '={{ $json.doc }}' },
 *   credentials: { apiKey: 'k', url: `http://127.0.0.1:${port}` },
 *   input: [{ json: { doc: 'abc' } }],
 * });
 * ```
 * - `runNode` builds a two-node workflow (`Start` → the node, named after its `defaults.name`,
 *   typed `n8n-nodes-grist.<name>` as after a real install) and runs it with `WorkflowExecute`
 *   (mode `manual`, settings `{ executionOrder: 'v1' }`). Parameters get their defaults and are
 *   checked for issues (missing required parameters fail the run like in n8n), expressions are
 *   resolved by n8n-workflow, `continueOnFail` sets `onError: 'continueRegularOutput'` like the
 *   editor's "On Error → Continue", paired items and binary data go through n8n-core.
 * - `runWorkflow` runs any workflow JSON (nodes typed by the keys of `nodeTypes`).
 * - `loadOptions` calls `methods.listSearch|loadOptions|resourceMapping[method]` with a real
 *   `LoadOptionsContext`, as n8n's DynamicNodeParametersService does (`Temp-Node` workflow,
 *   `currentNodeParameters` = the raw parameters).
 * - `testCredential` does what n8n's CredentialsTester does for a credential with a `test`
 *   request: defaults + expressions of the data, then a `RoutingNode` request through
 *   `httpRequestWithAuthentication` (so `authenticate` applies), then the `rules`.
 * - `createPoller` models an active workflow with a polling trigger: a `PollContext` whose
 *   trigger-mode polls run through n8n-core's `PollTriggerExecutor` and keep static data in
 *   memory across polls. Static data is "saved" exactly when n8n 2.41 (default settings: no
 *   durable poll cursors) saves it: when a poll emits (the trigger context's emit), and once
 *   after a successful activation, i.e. right after the activation poll even when it emitted
 *   nothing (active-workflow-manager `add` / trigger activator `activateInternal`). A poll that
 *   returns null or fails saves nothing. A failed activation poll fails the activation: n8n
 *   drops the in-memory workflow and the next attempt activates again from the saved copy.
 *   `restart()` re-activates (mode `init`) from the saved copy. Manual polls run through
 *   `WorkflowExecute` (n8n's "Fetch test event") on a copy of the saved static data, which is
 *   then discarded.
 *
 * HTTP: requests go through n8n's real `OutboundHttp` (axios, proxies from the environment, SSRF
 * protection off unless `N8N_SSRF_PROTECTION_ENABLED` is set, as in n8n). Expressions use the
 * `legacy` engine: n8n 2.41's default `vm` engine needs the native `isolated-vm`, not built here.
 *
 * n8n-core internals this depends on (they change between versions; we pin exactly): the DI
 * services in ./inprocess/runtime.ts (`InstanceSettingsConfig`, `Logger`, `BinaryDataConfig`,
 * `BinaryDataService`), `WorkflowExecute` + `ExecutionLifecycleHooks`, `LoadOptionsContext`,
 * `PollContext` + `PollTriggerExecutor`, `ExecuteContext` + `RoutingNode` (credential test), the
 * loader's `commonPollingParameters` / `validateNodeDescription` (deep imports from
 * `n8n-core/dist/nodes-loader/`), the abstract `ICredentialsHelper` of n8n-workflow, and the
 * `IWorkflowExecuteAdditionalData` shape (./inprocess/additional-data.ts).
 */
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	PollTriggerExecutor,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ExecutionBaseError,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteData,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IPinData,
	IRun,
	ITaskDataConnections,
	IWorkflowSettings,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	NodeHelpers,
	UnexpectedError,
	Workflow,
	createRunExecutionData,
	deepCopy,
} from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { GristRecordsApi } from '../../credentials/GristRecordsApi.credentials';
import { GristRecordsOAuth2Api } from '../../credentials/GristRecordsOAuth2Api.credentials';
import { buildAdditionalData } from './inprocess/additional-data';
import { Container } from './inprocess/core-deps';
import { HarnessCredentialTypes, HarnessCredentialsHelper } from './inprocess/credentials';
import { OAuth2Api } from './inprocess/oauth2';
import {
	HarnessNodeTypes,
	HarnessStart,
	START_NODE_NAME,
	START_NODE_TYPE,
	isVersioned,
	latestVersionOf,
	typeNameOf,
} from './inprocess/node-types';
import type { AnyNodeType } from './inprocess/node-types';
import { ensureRuntime } from './inprocess/runtime';

export { START_NODE_NAME, START_NODE_TYPE, typeNameOf } from './inprocess/node-types';
export type { AnyNodeType } from './inprocess/node-types';
export { ensureRuntime } from './inprocess/runtime';
export type { LogEntry } from './inprocess/runtime';

/** The `gristRecordsApi` credential as a user fills it in (`url` is the "Server URL" field). */
export interface CredentialData {
	apiKey: string;
	url: string;
}

/** Credential data by credential type name; any type's fields (e.g. `{ apiKey, url }`). */
export type CredentialsByType = Record<string, CredentialData | ICredentialDataDecryptedObject>;

/** An error as n8n reports it for a failed node (NodeApiError / NodeOperationError / …). */
export type NodeRunError = ExecutionBaseError & { httpCode?: string | null };

const GRIST_CREDENTIAL_TYPE = 'gristRecordsApi';

interface Session {
	credentialTypes: HarnessCredentialTypes;
	credentialsHelper: HarnessCredentialsHelper;
	nodeCredentials: Record<string, { id: string; name: string }>;
}

function createSession(
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

/** Points each node's credential slots at the session's credentials, adding the ones it needs. */
function attachCredentials(node: INode, nodeTypes: INodeTypes, session: Session): void {
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

export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
	pinData?: IPinData;
}

export interface RunWorkflowOptions {
	/** Credential data by credential type name (e.g. `{ gristRecordsApi: { apiKey, url } }`). */
	credentials?: CredentialsByType;
	/** Node types by the type name used in the workflow JSON. */
	nodeTypes: Record<string, AnyNodeType>;
	/** Credential types besides `GristRecordsApi`. */
	credentialTypes?: ICredentialType[];
	/** Execution mode; `manual` (the editor's "Execute workflow") unless given. */
	mode?: WorkflowExecuteMode;
	/** Name of the node to start from (default: n8n's `getStartNode()`). */
	startNode?: string;
	/** Items the start node receives (default `[{ json: {} }]`). */
	input?: INodeExecutionData[];
}

export interface WorkflowRunDetails {
	run: IRun;
	workflow: Workflow;
	/** Static data as n8n hands it to `workflowExecuteAfter` (only when it changed). */
	newStaticData?: IDataObject;
	executionId: string;
}

async function executeWorkflow(
	workflowJson: WorkflowJson,
	opts: RunWorkflowOptions,
	session: Session,
): Promise<WorkflowRunDetails> {
	await ensureRuntime();
	const nodeTypes = new HarnessNodeTypes(opts.nodeTypes);
	const nodes = deepCopy(workflowJson.nodes);
	for (const node of nodes) {
		if (nodeTypes.has(node.type)) attachCredentials(node, nodeTypes, session);
	}
	const workflowId = workflowJson.id ?? `harness-wf-${randomUUID()}`;
	const executionId = randomUUID();
	const mode = opts.mode ?? 'manual';
	const settings = workflowJson.settings ?? { executionOrder: 'v1' };
	const workflow = new Workflow({
		id: workflowId,
		name: workflowJson.name ?? 'Harness workflow',
		nodes,
		connections: deepCopy(workflowJson.connections),
		active: false,
		nodeTypes,
		staticData: deepCopy(workflowJson.staticData ?? {}),
		settings,
		pinData: workflowJson.pinData,
	});
	const startNode = opts.startNode ? workflow.getNode(opts.startNode) : workflow.getStartNode();
	if (!startNode) throw new UnexpectedError('No node to start the workflow from could be found');

	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflowId,
		name: workflow.name ?? '',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: workflowJson.connections,
		settings,
	});
	let newStaticData: IDataObject | undefined;
	hooks.addHandler('workflowExecuteAfter', (_run, staticData) => {
		newStaticData = staticData;
	});
	const additionalData = buildAdditionalData({
		credentialsHelper: session.credentialsHelper,
		hooks,
		executionId,
		workflowId,
		workflowSettings: settings,
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: startNode,
					data: { main: [opts.input ?? [{ json: {} }]] },
					source: null,
				},
			],
		},
		resultData: { pinData: workflowJson.pinData },
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const run = await workflowExecute.processRunExecutionData(workflow);
	return { run, workflow, newStaticData, executionId };
}

/** Runs a workflow JSON in-process with WorkflowExecute and returns n8n's IRun. */
export async function runWorkflow(
	workflowJson: WorkflowJson,
	opts: RunWorkflowOptions,
): Promise<IRun> {
	const session = createSession(opts.credentials, opts.credentialTypes);
	return (await executeWorkflow(workflowJson, opts, session)).run;
}

/** Same as runWorkflow, with the Workflow object (static data) and execution id. */
export async function runWorkflowDetailed(
	workflowJson: WorkflowJson,
	opts: RunWorkflowOptions,
): Promise<WorkflowRunDetails> {
	const session = createSession(opts.credentials, opts.credentialTypes);
	return await executeWorkflow(workflowJson, opts, session);
}

export interface RunNodeOptions {
	/** The node under test, e.g. `new Grist()`. */
	node: AnyNodeType;
	/** Node parameters as in a workflow JSON (expressions start with `=`). */
	parameters: INodeParameters;
	/** Data of the node's `gristRecordsApi` credential. */
	credentials?: CredentialData;
	/** Items fed into the node (default `[{ json: {} }]`). */
	input?: INodeExecutionData[];
	/** The editor's "On Error → Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** Another `onError` setting, e.g. `continueErrorOutput` (wins over `continueOnFail`). */
	onError?: INode['onError'];
	/** Node version (default: the latest). */
	typeVersion?: number;
	/** Node settings such as `retryOnFail`, `alwaysOutputData`, `executeOnce`. */
	nodeSettings?: Pick<
		INode,
		'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'alwaysOutputData' | 'executeOnce'
	>;
	/** Workflow settings (default `{ executionOrder: 'v1' }`, what new workflows get). */
	settings?: IWorkflowSettings;
	/** Workflow static data before the run. */
	staticData?: IDataObject;
	/** Execution mode (default `manual`; `trigger` for a production run). */
	mode?: WorkflowExecuteMode;
	/** Credentials of other types, by type name; their types go in `credentialTypes`. */
	otherCredentials?: CredentialsByType;
	credentialTypes?: ICredentialType[];
}

export interface RunNodeResult {
	/** Main output 0 of the node under test (empty when it failed or did not run). */
	items: INodeExecutionData[];
	/** All outputs of the node under test. */
	outputs: INodeExecutionData[][];
	/** The node's error if the run failed, as n8n reports it. */
	error?: NodeRunError;
	/** Reads a binary property of an output item through n8n's BinaryDataService. */
	binary(itemIndex: number, prop: string): Promise<Buffer>;
	/** The whole n8n run. */
	run: IRun;
	/** Name of the node under test in the workflow. */
	nodeName: string;
	/** Workflow static data after the run. */
	staticData: IDataObject;
	/** Hints the node added (`this.addExecutionHints`). */
	hints: unknown[];
}

function nodeDisplayName(nodeType: AnyNodeType): string {
	if (isVersioned(nodeType)) {
		const current = nodeType.nodeVersions[nodeType.currentVersion];
		return String(current?.description.defaults.name ?? nodeType.description.displayName);
	}
	return String(nodeType.description.defaults.name ?? nodeType.description.displayName);
}

/** Reads binary data of an item through n8n-core's BinaryDataService (any binary mode). */
export async function readBinary(
	item: INodeExecutionData | undefined,
	prop: string,
): Promise<Buffer> {
	const binaryData = item?.binary?.[prop];
	if (!binaryData) throw new UnexpectedError(`The item has no binary property "${prop}"`);
	const { binaryDataService } = await ensureRuntime();
	return await binaryDataService.getAsBuffer(binaryData);
}

/** Runs one node (after a Start node that emits `input`) exactly as n8n runs a workflow. */
export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	const typeName = typeNameOf(opts.node);
	const nodeName = nodeDisplayName(opts.node);
	const onError = opts.onError ?? (opts.continueOnFail ? 'continueRegularOutput' : undefined);
	const node: INode = {
		id: randomUUID(),
		name: nodeName,
		type: typeName,
		typeVersion: opts.typeVersion ?? latestVersionOf(opts.node),
		position: [220, 0],
		parameters: deepCopy(opts.parameters),
		...(onError ? { onError } : {}),
		...(opts.nodeSettings ?? {}),
	};
	const start: INode = {
		id: randomUUID(),
		name: START_NODE_NAME,
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const workflowJson: WorkflowJson = {
		nodes: [start, node],
		connections: {
			[START_NODE_NAME]: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
		settings: opts.settings ?? { executionOrder: 'v1' },
		staticData: opts.staticData,
	};
	const credentials: CredentialsByType = { ...(opts.otherCredentials ?? {}) };
	if (opts.credentials) credentials[GRIST_CREDENTIAL_TYPE] = opts.credentials;
	const session = createSession(credentials, opts.credentialTypes);
	const { run, workflow } = await executeWorkflow(
		workflowJson,
		{
			nodeTypes: { [START_NODE_TYPE]: new HarnessStart(), [typeName]: opts.node },
			mode: opts.mode,
			startNode: START_NODE_NAME,
			input: opts.input,
		},
		session,
	);
	const taskData = run.data.resultData.runData[nodeName]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	const error = (run.data.resultData.error ?? taskData?.error) as NodeRunError | undefined;
	const items = outputs[0] ?? [];
	return {
		items,
		outputs,
		error,
		binary: async (itemIndex, prop) => await readBinary(items[itemIndex], prop),
		run,
		nodeName,
		staticData: deepCopy(workflow.staticData as IDataObject),
		hints: taskData?.hints ?? [],
	};
}

export type LoadOptionsKind = 'listSearch' | 'loadOptions' | 'resourceMapping';

export interface LoadOptionsOptions {
	node: AnyNodeType;
	/** The node's current parameters, as the editor sends them. */
	parameters: INodeParameters;
	credentials?: CredentialData;
	/** Credentials of other types, by type name (e.g. `gristRecordsOAuth2Api`). */
	otherCredentials?: CredentialsByType;
	method: string;
	kind: LoadOptionsKind;
	filter?: string;
	paginationToken?: string;
	typeVersion?: number;
	/** Path of the parameter being edited (default: found from the method in the description). */
	path?: string;
}

function findParameterPath(
	properties: INodeProperties[],
	method: string,
	kind: LoadOptionsKind,
): string | undefined {
	for (const property of properties) {
		const options = property.typeOptions;
		if (kind === 'loadOptions' && options?.loadOptionsMethod === method) return property.name;
		if (kind === 'resourceMapping' && options?.resourceMapper?.resourceMapperMethod === method) {
			return property.name;
		}
		if (kind === 'listSearch') {
			const modes = property.modes ?? [];
			if (modes.some((mode) => mode.typeOptions?.searchListMethod === method)) return property.name;
		}
	}
	return undefined;
}

/** Calls a node's listSearch / loadOptions / resourceMapping method with a real LoadOptionsContext. */
export async function loadOptions(opts: LoadOptionsOptions): Promise<unknown> {
	await ensureRuntime();
	const typeName = typeNameOf(opts.node);
	const nodeTypes = new HarnessNodeTypes({ [typeName]: opts.node });
	const typeVersion = opts.typeVersion ?? latestVersionOf(opts.node);
	const nodeType = nodeTypes.getByNameAndVersion(typeName, typeVersion);
	const method = nodeType.methods?.[opts.kind]?.[opts.method];
	if (typeof method !== 'function') {
		throw new UnexpectedError(
			`Node type does not have method defined: ${opts.kind}.${opts.method}`,
		);
	}
	const session = createSession({
		...(opts.otherCredentials ?? {}),
		...(opts.credentials ? { [GRIST_CREDENTIAL_TYPE]: opts.credentials } : {}),
	});
	// The editor sends the node's parameters with their defaults (e.g. `authentication`, which
	// decides which credential the node may use).
	const currentNodeParameters =
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			deepCopy(opts.parameters),
			true,
			false,
			null,
			null,
		) ?? deepCopy(opts.parameters);
	const node: INode = {
		parameters: deepCopy(opts.parameters),
		id: 'uuid-1234',
		name: 'Temp-Node',
		type: typeName,
		typeVersion,
		position: [0, 0],
	};
	attachCredentials(node, nodeTypes, session);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData({
		credentialsHelper: session.credentialsHelper,
		currentNodeParameters,
	});
	const parameterName = findParameterPath(nodeType.description.properties, opts.method, opts.kind);
	const path = opts.path ?? `parameters.${parameterName ?? opts.method}`;
	const context = new LoadOptionsContext(
		workflow,
		workflow.getNode('Temp-Node') ?? node,
		additionalData,
		path,
	);
	if (opts.kind === 'listSearch') {
		const listSearch = method as (
			this: LoadOptionsContext,
			filter?: string,
			paginationToken?: string,
		) => Promise<unknown>;
		return await listSearch.call(context, opts.filter, opts.paginationToken);
	}
	const loader = method as (this: LoadOptionsContext) => Promise<unknown>;
	return await loader.call(context);
}

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
	const baseAdditionalData = buildAdditionalData({ credentialsHelper: session.credentialsHelper });
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'harness-credential-test',
		name: `${typeName} account`,
		type: typeName,
		data: { ...opts.data },
	};
	try {
		credentialsDecrypted.data = await session.credentialsHelper.applyDefaultsAndOverwrites(
			baseAdditionalData,
			credentialsDecrypted.data ?? {},
			typeName,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: error instanceof Error ? error.message : String(error) };
	}

	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: noOpNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [typeName]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...noOpNodeType.description,
			credentials: [{ name: typeName, required: true }],
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
	const routingNode = new RoutingNode(context, nodeTypeCopy, credentialsDecrypted);
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (error) {
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
		return { status: 'Error', message: error instanceof Error ? error.message : String(error) };
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

/** lodash's `get(value, key)` as n8n calls it: walks every value but null and undefined (a string's `constructor` too). */
function getPath(value: unknown, key: string): unknown {
	let current: unknown = value;
	for (const part of key.split('.')) {
		if (current === null || current === undefined) return undefined;
		current = (Object(current) as Record<string, unknown>)[part];
	}
	return current;
}

export type PollMode = 'manual' | 'trigger';

export interface PollerOptions {
	node: AnyNodeType;
	parameters: INodeParameters;
	credentials?: CredentialData;
	/** Credentials of other types, by type name (e.g. `gristRecordsOAuth2Api`). */
	otherCredentials?: CredentialsByType;
	/** Workflow static data as stored by n8n (e.g. `{ 'node:Grist Trigger': { … } }`). */
	staticData?: IDataObject;
	typeVersion?: number;
	/** Activation mode of the first activation (default `activate`; `restart()` uses `init`). */
	activation?: WorkflowActivateMode;
	/** Workflow timezone (default: n8n's default timezone). */
	timezone?: string;
}

export interface Poller {
	/**
	 * One poll. `trigger`: a scheduled poll of the active workflow (the first one after an
	 * activation, a restart or a failed activation runs as n8n's activation poll); resolves with what the node emitted or `null`, rejects with
	 * the node's error. `manual`: the editor's "Fetch test event".
	 */
	poll(mode: PollMode): Promise<INodeExecutionData[][] | null>;
	/** The active workflow's static data in memory (what the node sees between polls). */
	readonly staticData: IDataObject;
	/** This node's part of `staticData` (`getWorkflowStaticData('node')`). */
	readonly nodeStaticData: IDataObject;
	/** Static data as n8n saved it to the database (after activation, and when a trigger poll emits). */
	readonly savedStaticData: IDataObject;
	/** n8n restarts: the workflow is re-activated (mode `init`) from `savedStaticData`. */
	restart(): void;
	/** Name of the trigger node in the workflow. */
	readonly nodeName: string;
}

/** A polling trigger in an active workflow, polled on demand. */
export function createPoller(opts: PollerOptions): Poller {
	const typeName = typeNameOf(opts.node);
	const nodeName = nodeDisplayName(opts.node);
	const nodeTypes = new HarnessNodeTypes({ [typeName]: opts.node });
	const session = createSession({
		...(opts.otherCredentials ?? {}),
		...(opts.credentials ? { [GRIST_CREDENTIAL_TYPE]: opts.credentials } : {}),
	});
	const workflowId = `harness-wf-${randomUUID()}`;
	const nodeJson: INode = {
		id: randomUUID(),
		name: nodeName,
		type: typeName,
		typeVersion: opts.typeVersion ?? latestVersionOf(opts.node),
		position: [0, 0],
		parameters: deepCopy(opts.parameters),
	};
	attachCredentials(nodeJson, nodeTypes, session);
	const settings: IWorkflowSettings = {
		executionOrder: 'v1',
		...(opts.timezone ? { timezone: opts.timezone } : {}),
	};

	let saved: IDataObject = deepCopy(opts.staticData ?? {});
	const makeWorkflow = (staticData: IDataObject): Workflow =>
		new Workflow({
			id: workflowId,
			name: 'Harness poll workflow',
			nodes: [deepCopy(nodeJson)],
			connections: {},
			active: true,
			nodeTypes,
			staticData: deepCopy(staticData),
			settings,
		});

	let active = makeWorkflow(saved);
	let activation: WorkflowActivateMode = opts.activation ?? 'activate';
	let activationPollDone = false;

	/** n8n's WorkflowStaticDataService.saveStaticData: saves only when the data changed. */
	const saveStaticData = (workflow: Workflow): void => {
		if (workflow.staticData.__dataChanged === true) {
			saved = deepCopy(workflow.staticData as IDataObject);
			workflow.staticData.__dataChanged = false;
		}
	};

	const pollTrigger = async (): Promise<INodeExecutionData[][] | null> => {
		await ensureRuntime();
		const workflow = active;
		const node = workflow.getNode(nodeName);
		if (!node) throw new UnexpectedError(`Node "${nodeName}" is missing`);
		let emitted: INodeExecutionData[][] | null = null;
		let emittedError: Error | undefined;
		const additionalData = buildAdditionalData({
			credentialsHelper: session.credentialsHelper,
			workflowId,
			workflowSettings: settings,
		});
		const pollFunctions = new PollContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activation,
			(data) => {
				saveStaticData(workflow);
				emitted = data;
			},
			(error) => {
				emittedError = error;
			},
		);
		const executor = Container.get(PollTriggerExecutor);
		const execute = executor.create(workflow, node, pollFunctions, () => workflow === active);
		if (activationPollDone) {
			// A scheduled poll: n8n reports its error through emitError and saves nothing.
			await execute(false);
			if (emittedError) throw emittedError;
			return emitted;
		}
		// The activation poll (`executePollTrigger(true)`): its error fails the activation, and n8n
		// keeps nothing of that attempt; after a successful activation n8n saves the static data.
		const failure = await execute(true).then(
			() => undefined,
			(error: unknown) => ({ error }),
		);
		if (failure) {
			active = makeWorkflow(saved);
			throw failure.error;
		}
		activationPollDone = true;
		saveStaticData(workflow);
		return emitted;
	};

	const pollManual = async (): Promise<INodeExecutionData[][] | null> => {
		const manualWorkflow: WorkflowJson = {
			id: workflowId,
			nodes: [deepCopy(nodeJson)],
			connections: {},
			settings,
			staticData: deepCopy(saved),
		};
		const { run } = await executeWorkflow(
			manualWorkflow,
			{ nodeTypes: { [typeName]: opts.node }, mode: 'manual', startNode: nodeName },
			session,
		);
		const { error } = run.data.resultData;
		if (error) throw error;
		const data = run.data.resultData.runData[nodeName]?.[0]?.data?.main;
		if (!data) return null;
		return data.map((output) => output ?? []);
	};

	return {
		poll: async (mode) => (mode === 'manual' ? await pollManual() : await pollTrigger()),
		get staticData() {
			return active.staticData as IDataObject;
		},
		get nodeStaticData() {
			const node = active.getNode(nodeName);
			if (!node) throw new UnexpectedError(`Node "${nodeName}" is missing`);
			return active.getStaticData('node', node);
		},
		get savedStaticData() {
			return deepCopy(saved);
		},
		restart() {
			active = makeWorkflow(saved);
			activation = 'init';
			activationPollDone = false;
		},
		nodeName,
	};
}
