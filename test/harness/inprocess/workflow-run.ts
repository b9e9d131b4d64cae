/**
 * A workflow run in-process with n8n-core's `WorkflowExecute`, as n8n runs an execution:
 * lifecycle hooks (the static data n8n would save), additional data with the session's
 * credentials, the start node fed with the given items.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	IDataObject,
	ICredentialType,
	INode,
	INodeExecutionData,
	IPinData,
	IRun,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, Workflow, createRunExecutionData, deepCopy } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { buildAdditionalData } from './additional-data';
import { HarnessNodeTypes, type AnyNodeType } from './node-types';
import { ensureRuntime } from './runtime';
import { attachCredentials, createSession, type CredentialsByType, type Session } from './session';

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

/** The Workflow object of a workflow JSON, its nodes' credentials pointed at the session's. */
function workflowOf(
	workflowJson: WorkflowJson,
	nodeTypes: HarnessNodeTypes,
	session: Session,
): Workflow {
	const nodes = deepCopy(workflowJson.nodes);
	for (const node of nodes) {
		if (nodeTypes.has(node.type)) attachCredentials(node, nodeTypes, session);
	}
	return new Workflow({
		id: workflowJson.id ?? `harness-wf-${randomUUID()}`,
		name: workflowJson.name ?? 'Harness workflow',
		nodes,
		connections: deepCopy(workflowJson.connections),
		active: false,
		nodeTypes,
		staticData: deepCopy(workflowJson.staticData ?? {}),
		settings: workflowJson.settings ?? { executionOrder: 'v1' },
		pinData: workflowJson.pinData,
	});
}

/** The execution's lifecycle hooks; `staticData()` is what `workflowExecuteAfter` got. */
function lifecycleHooks(
	workflow: Workflow,
	workflowJson: WorkflowJson,
	mode: WorkflowExecuteMode,
	executionId: string,
) {
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name ?? '',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: Object.values(workflow.nodes),
		connections: workflowJson.connections,
		settings: workflow.settings,
	});
	let newStaticData: IDataObject | undefined;
	hooks.addHandler('workflowExecuteAfter', (_run, staticData) => {
		newStaticData = staticData;
	});
	return { hooks, staticData: () => newStaticData };
}

export async function executeWorkflow(
	workflowJson: WorkflowJson,
	opts: RunWorkflowOptions,
	session: Session,
): Promise<WorkflowRunDetails> {
	await ensureRuntime();
	const workflow = workflowOf(workflowJson, new HarnessNodeTypes(opts.nodeTypes), session);
	const executionId = randomUUID();
	const mode = opts.mode ?? 'manual';
	const startNode = opts.startNode ? workflow.getNode(opts.startNode) : workflow.getStartNode();
	if (!startNode) throw new UnexpectedError('No node to start the workflow from could be found');
	const { hooks, staticData } = lifecycleHooks(workflow, workflowJson, mode, executionId);
	const additionalData = buildAdditionalData({
		credentialsHelper: session.credentialsHelper,
		hooks,
		executionId,
		workflowId: workflow.id,
		workflowSettings: workflow.settings,
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [opts.input ?? [{ json: {} }]] }, source: null },
			],
		},
		resultData: { pinData: workflowJson.pinData },
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const run = await workflowExecute.processRunExecutionData(workflow);
	return { run, workflow, newStaticData: staticData(), executionId };
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
