/**
 * `createPoller`: an active workflow with a polling trigger. Trigger-mode polls run through
 * n8n-core's `PollTriggerExecutor` in a `PollContext` and keep static data in memory across
 * polls; static data is "saved" exactly when n8n 2.41 saves it (see ../inprocess.ts). Manual
 * polls run through `WorkflowExecute` on a copy of the saved static data.
 */
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWorkflowSettings,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { UnexpectedError, Workflow, deepCopy } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { buildAdditionalData } from './additional-data';
import { Container } from './core-deps';
import { HarnessNodeTypes, latestVersionOf, typeNameOf, type AnyNodeType } from './node-types';
import { nodeDisplayName } from './run-node';
import { ensureRuntime } from './runtime';
import {
	attachCredentials,
	gristSession,
	type CredentialData,
	type CredentialsByType,
	type Session,
} from './session';
import { executeWorkflow } from './workflow-run';

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

/** The active workflow between polls and what n8n saved of it. */
interface PollState {
	opts: PollerOptions;
	session: Session;
	nodeName: string;
	nodeJson: INode;
	workflowId: string;
	settings: IWorkflowSettings;
	nodeTypes: HarnessNodeTypes;
	saved: IDataObject;
	active: Workflow;
	activation: WorkflowActivateMode;
	activationPollDone: boolean;
}

function makeWorkflow(s: PollState, staticData: IDataObject): Workflow {
	return new Workflow({
		id: s.workflowId,
		name: 'Harness poll workflow',
		nodes: [deepCopy(s.nodeJson)],
		connections: {},
		active: true,
		nodeTypes: s.nodeTypes,
		staticData: deepCopy(staticData),
		settings: s.settings,
	});
}

/** n8n's WorkflowStaticDataService.saveStaticData: saves only when the data changed. */
function saveStaticData(s: PollState, workflow: Workflow): void {
	if (workflow.staticData.__dataChanged === true) {
		s.saved = deepCopy(workflow.staticData as IDataObject);
		workflow.staticData.__dataChanged = false;
	}
}

/** A poll of the active workflow in trigger mode (the activation poll first). */
async function pollTrigger(s: PollState): Promise<INodeExecutionData[][] | null> {
	await ensureRuntime();
	const workflow = s.active;
	const node = workflow.getNode(s.nodeName);
	if (!node) throw new UnexpectedError(`Node "${s.nodeName}" is missing`);
	let emitted: INodeExecutionData[][] | null = null;
	let emittedError: Error | undefined;
	const additionalData = buildAdditionalData({
		credentialsHelper: s.session.credentialsHelper,
		workflowId: s.workflowId,
		workflowSettings: s.settings,
	});
	const pollFunctions = new PollContext(
		workflow,
		node,
		additionalData,
		'trigger',
		s.activation,
		(data) => {
			saveStaticData(s, workflow);
			emitted = data;
		},
		(error) => {
			emittedError = error;
		},
	);
	const executor = Container.get(PollTriggerExecutor);
	const execute = executor.create(workflow, node, pollFunctions, () => workflow === s.active);
	if (s.activationPollDone) {
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
		s.active = makeWorkflow(s, s.saved);
		throw failure.error;
	}
	s.activationPollDone = true;
	saveStaticData(s, workflow);
	return emitted;
}

/** The editor's "Fetch test event" on a copy of the saved static data (then discarded). */
async function pollManual(s: PollState): Promise<INodeExecutionData[][] | null> {
	const { run } = await executeWorkflow(
		{
			id: s.workflowId,
			nodes: [deepCopy(s.nodeJson)],
			connections: {},
			settings: s.settings,
			staticData: deepCopy(s.saved),
		},
		{ nodeTypes: { [s.nodeJson.type]: s.opts.node }, mode: 'manual', startNode: s.nodeName },
		s.session,
	);
	const { error } = run.data.resultData;
	if (error) throw error;
	const data = run.data.resultData.runData[s.nodeName]?.[0]?.data?.main;
	if (!data) return null;
	return data.map((output) => output ?? []);
}

function pollState(opts: PollerOptions): PollState {
	const typeName = typeNameOf(opts.node);
	const nodeTypes = new HarnessNodeTypes({ [typeName]: opts.node });
	const session = gristSession(opts.credentials, opts.otherCredentials);
	const nodeName = nodeDisplayName(opts.node);
	const nodeJson: INode = {
		id: randomUUID(),
		name: nodeName,
		type: typeName,
		typeVersion: opts.typeVersion ?? latestVersionOf(opts.node),
		position: [0, 0],
		parameters: deepCopy(opts.parameters),
	};
	attachCredentials(nodeJson, nodeTypes, session);
	const s = {
		opts,
		session,
		nodeName,
		nodeJson,
		workflowId: `harness-wf-${randomUUID()}`,
		settings: { executionOrder: 'v1', ...(opts.timezone ? { timezone: opts.timezone } : {}) },
		nodeTypes,
		saved: deepCopy(opts.staticData ?? {}),
		activation: opts.activation ?? 'activate',
		activationPollDone: false,
	} as Omit<PollState, 'active'> as PollState;
	s.active = makeWorkflow(s, s.saved);
	return s;
}

/** A polling trigger in an active workflow, polled on demand. */
export function createPoller(opts: PollerOptions): Poller {
	const s = pollState(opts);
	return {
		poll: async (mode) => (mode === 'manual' ? await pollManual(s) : await pollTrigger(s)),
		get staticData() {
			return s.active.staticData as IDataObject;
		},
		get nodeStaticData() {
			const node = s.active.getNode(s.nodeName);
			if (!node) throw new UnexpectedError(`Node "${s.nodeName}" is missing`);
			return s.active.getStaticData('node', node);
		},
		get savedStaticData() {
			return deepCopy(s.saved);
		},
		restart() {
			s.active = makeWorkflow(s, s.saved);
			s.activation = 'init';
			s.activationPollDone = false;
		},
		nodeName: s.nodeName,
	};
}
