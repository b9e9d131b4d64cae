/**
 * What a trigger emitted, as the tests compare it: the items of one poll (in-process poller), of
 * each webhook delivery that started the workflow (in-process webhook bridge), or of a polling
 * workflow's executions in a real n8n.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RunResult } from './e2e';
import type { DeliveryResult } from './inprocess/webhook';

/** The json of the items one poll emitted (none when it returned null); a poll emits on one output. */
export function emittedJson(result: INodeExecutionData[][] | null): IDataObject[] {
	if (result === null) return [];
	expect(result).toHaveLength(1);
	return result[0].map((item) => item.json);
}

/** The row ids one poll emitted. */
export function emittedIds(result: INodeExecutionData[][] | null): number[] {
	return emittedJson(result).map((j) => j.id as number);
}

/** For each delivery that started the workflow, the json of the items it emitted. */
export function deliveredJson(results: DeliveryResult[]): IDataObject[][] {
	return results
		.filter((r) => r.result.workflowData)
		.map((r) => r.result.workflowData![0].map((i) => i.json));
}

/**
 * The row ids `node` emitted over a workflow's executions, oldest first (n8n lists executions
 * newest first).
 */
export function executionsEmittedIds(runs: RunResult[], node: string): number[] {
	return runs
		.slice()
		.reverse()
		.flatMap((run) => run.output(node).map((j) => j.id as number));
}
