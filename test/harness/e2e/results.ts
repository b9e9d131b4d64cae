/**
 * A finished execution as the e2e tests read it: `RunResult` over n8n's saved run data (items,
 * errors and binary data of each node).
 */
type Json = Record<string, unknown>;

export interface NodeErrorInfo {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	/** Name of the node that failed. */
	node?: string;
	/** Error class, e.g. NodeApiError, NodeOperationError. */
	name?: string;
	raw: Json;
}

export interface RunItem {
	json: Json;
	binary?: Record<string, BinaryRef>;
	pairedItem?: unknown;
	error?: unknown;
}

export interface BinaryRef {
	data?: string;
	id?: string;
	mimeType?: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
}

export interface RunResult {
	executionId: string;
	status: string;
	/** The error that stopped the workflow, if any. */
	error?: NodeErrorInfo;
	/** Names of the nodes that ran, in order. */
	nodesRun: string[];
	output(node: string, outputIndex?: number, run?: number): Json[];
	items(node: string, outputIndex?: number, run?: number): RunItem[];
	nodeError(node: string, run?: number): NodeErrorInfo | undefined;
	binary(node: string, itemIndex: number, property?: string, outputIndex?: number): Promise<Buffer>;
	/** The parsed execution data (`{ resultData: { runData, error }, … }`). */
	raw: Json;
}

export function errorInfo(e: unknown): NodeErrorInfo | undefined {
	if (!e || typeof e !== 'object') return undefined;
	const err = e as Json;
	const node = err.node as Json | undefined;
	return {
		message: String(err.message ?? ''),
		description: (err.description as string | null | undefined) ?? undefined,
		httpCode: (err.httpCode as string | null | undefined) ?? undefined,
		node: typeof node?.name === 'string' ? node.name : undefined,
		name: typeof err.name === 'string' ? err.name : undefined,
		raw: err,
	};
}

/** Whether n8n is done with an execution (its status, or `finished` on n8n 1.x). */
export function isDone(e: Json): boolean {
	return (
		e.finished === true ||
		['success', 'error', 'crashed', 'canceled', 'cancelled'].includes(String(e.status))
	);
}

/** The run result of one execution's data; `fetchBinary` reads a binary property's bytes. */
export function toResult(
	executionId: string,
	status: string,
	data: Json,
	fetchBinary: (ref: BinaryRef) => Promise<Buffer>,
): RunResult {
	const resultData = (data.resultData ?? {}) as Json;
	const runData = (resultData.runData ?? {}) as Record<string, Json[]>;
	const taskOf = (node: string, run = 0): Json => {
		const runs = runData[node];
		if (!runs)
			throw new Error(`node "${node}" did not run; ran: ${Object.keys(runData).join(', ')}`);
		if (!runs[run]) throw new Error(`node "${node}" has no run ${run} (${runs.length} runs)`);
		return runs[run];
	};
	const items = (node: string, outputIndex = 0, run = 0): RunItem[] => {
		const task = taskOf(node, run);
		const main = ((task.data as Json | undefined)?.main ?? []) as Array<RunItem[] | null>;
		return main[outputIndex] ?? [];
	};
	return {
		executionId,
		status,
		error: errorInfo(resultData.error),
		nodesRun: Object.keys(runData),
		items,
		output: (node, outputIndex = 0, run = 0) => items(node, outputIndex, run).map((i) => i.json),
		nodeError: (node, run = 0) => errorInfo(taskOf(node, run).error),
		binary: async (node, itemIndex, property = 'data', outputIndex = 0) => {
			const item = items(node, outputIndex)[itemIndex];
			const ref = item?.binary?.[property];
			if (!ref)
				throw new Error(`node "${node}" item ${itemIndex} has no binary property "${property}"`);
			return await fetchBinary(ref);
		},
		raw: data,
	};
}
