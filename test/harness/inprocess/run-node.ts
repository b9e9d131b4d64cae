/**
 * `runNode`: one node after a Start node that emits the test's items, run exactly as n8n runs a
 * workflow (./workflow-run.ts), and what the tests read of it.
 */
import type {
	ExecutionBaseError,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, deepCopy } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import {
	HarnessStart,
	START_NODE_NAME,
	START_NODE_TYPE,
	isVersioned,
	latestVersionOf,
	typeNameOf,
	type AnyNodeType,
} from './node-types';
import { ensureRuntime } from './runtime';
import { gristSession, type CredentialData, type CredentialsByType } from './session';
import { executeWorkflow, type WorkflowJson } from './workflow-run';

/** An error as n8n reports it for a failed node (NodeApiError / NodeOperationError / …). */
export type NodeRunError = ExecutionBaseError & { httpCode?: string | null };

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

export function nodeDisplayName(nodeType: AnyNodeType): string {
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

/** The two-node workflow: `Start` → the node under test, named `nodeName`. */
function nodeWorkflow(opts: RunNodeOptions, nodeName: string): WorkflowJson {
	const onError = opts.onError ?? (opts.continueOnFail ? 'continueRegularOutput' : undefined);
	const node: INode = {
		id: randomUUID(),
		name: nodeName,
		type: typeNameOf(opts.node),
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
	return {
		nodes: [start, node],
		connections: {
			[START_NODE_NAME]: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
		settings: opts.settings ?? { executionOrder: 'v1' },
		staticData: opts.staticData,
	};
}

/** Runs one node (after a Start node that emits `input`) exactly as n8n runs a workflow. */
export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	const typeName = typeNameOf(opts.node);
	const nodeName = nodeDisplayName(opts.node);
	const session = gristSession(opts.credentials, opts.otherCredentials, opts.credentialTypes);
	const { run, workflow } = await executeWorkflow(
		nodeWorkflow(opts, nodeName),
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
