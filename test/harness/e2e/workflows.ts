/**
 * Workflow JSON builders for the real-n8n harness (the shape n8n's REST API stores).
 */
import { randomUUID } from 'node:crypto';

export const GRIST_NODE_TYPE = 'n8n-nodes-grist.grist';
export const GRIST_TRIGGER_TYPE = 'n8n-nodes-grist.gristTrigger';
export const MANUAL_TRIGGER_NAME = 'Manual Trigger';
export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

/** `{ id, name }` of a stored credential, as a node references it. */
export interface CredentialRef {
	id: string;
	name: string;
}

export interface NodeSpec {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	/** By credential type, e.g. `{ gristRecordsApi: { id, name } }`. */
	credentials?: Record<string, CredentialRef>;
	typeVersion?: number;
	/** n8n's "On Error" setting; `continueRegularOutput` is the editor's "Continue". */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	position?: [number, number];
	disabled?: boolean;
}

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, CredentialRef>;
	onError?: string;
	disabled?: boolean;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	>;
	settings?: Record<string, unknown>;
	staticData?: unknown;
	pinData?: Record<string, unknown>;
}

let counter = 0;

function toNode(spec: NodeSpec, index: number): WorkflowNode {
	const node: WorkflowNode = {
		id: randomUUID(),
		name: spec.name,
		type: spec.type,
		typeVersion: spec.typeVersion ?? 1,
		position: spec.position ?? [index * 220, 0],
		parameters: spec.parameters ?? {},
	};
	if (spec.credentials) node.credentials = spec.credentials;
	if (spec.onError) node.onError = spec.onError;
	if (spec.disabled) node.disabled = true;
	return node;
}

/** Nodes connected in a line (first → second → …), each main output 0 to the next input 0. */
export function chainWorkflow(
	nodes: NodeSpec[],
	opts: { name?: string; settings?: Record<string, unknown> } = {},
): WorkflowJson {
	const built = nodes.map(toNode);
	const connections: WorkflowJson['connections'] = {};
	for (let i = 0; i + 1 < built.length; i++) {
		connections[built[i].name] = { main: [[{ node: built[i + 1].name, type: 'main', index: 0 }]] };
	}
	counter += 1;
	return {
		name: opts.name ?? `e2e ${counter} ${randomUUID().slice(0, 8)}`,
		nodes: built,
		connections,
		settings: { executionOrder: 'v1', ...opts.settings },
	};
}

/** Manual Trigger → nodes in order. Run it with `n8n.runWorkflow(wf)`. */
export function manualWorkflow(
	nodes: NodeSpec[],
	opts: { name?: string; settings?: Record<string, unknown> } = {},
): WorkflowJson {
	return chainWorkflow([{ name: MANUAL_TRIGGER_NAME, type: MANUAL_TRIGGER_TYPE }, ...nodes], opts);
}

/** A Grist node spec with the `gristRecordsApi` credential. */
export function gristNode(
	parameters: Record<string, unknown>,
	credential: CredentialRef,
	extra: Partial<NodeSpec> = {},
): NodeSpec {
	return {
		name: 'Grist',
		type: GRIST_NODE_TYPE,
		parameters,
		credentials: { gristRecordsApi: credential },
		...extra,
	};
}

/** A Grist Trigger node spec (polling; `pollTimes` defaults to every minute). */
export function gristTriggerNode(
	parameters: Record<string, unknown>,
	credential: CredentialRef,
	extra: Partial<NodeSpec> = {},
): NodeSpec {
	return {
		name: 'Grist Trigger',
		type: GRIST_TRIGGER_TYPE,
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
		credentials: { gristRecordsApi: credential },
		...extra,
	};
}

/** Set (one item holding `rows`) → Split Out: one item per row, the input of a bulk write. */
export function rowsSource(rows: Array<Record<string, unknown>>): NodeSpec[] {
	return [
		{
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows }) },
		},
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'rows', include: 'noOtherFields' },
		},
	];
}

/** Set (one item holding `content` in base64) → Convert to File: the binary property `data`. */
export function fileSource(content: Buffer, fileName: string, mimeType: string): NodeSpec[] {
	return [
		{
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ b64: content.toString('base64') }) },
		},
		{
			name: 'Convert to File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			parameters: {
				operation: 'toBinary',
				sourceProperty: 'b64',
				binaryPropertyName: 'data',
				options: { fileName, mimeType },
			},
		},
	];
}
