/**
 * Workflows and their executions through an instance's APIs: save a workflow, run it like the
 * editor's "Execute workflow" and wait for its saved execution, list and await the executions of
 * an active workflow, read its static data.
 */
import { parse as parseFlatted } from 'flatted';

import type { N8nClient } from './client';
import { isDone, toResult, type RunResult } from './results';
import { MANUAL_TRIGGER_NAME, type WorkflowJson } from './workflows';
import { waitFor } from '../until';

type Json = Record<string, unknown>;

export interface Workflows {
	createWorkflow(wf: WorkflowJson): Promise<string>;
	runWorkflow(
		wf: WorkflowJson | string,
		opts?: { triggerNode?: string; timeoutMs?: number },
	): Promise<RunResult>;
	executions(workflowId: string): Promise<RunResult[]>;
	waitForExecutions(workflowId: string, count: number, timeoutMs?: number): Promise<RunResult[]>;
	workflowStaticData(workflowId: string): Promise<Json | null>;
}

/** The workflow helpers of one instance; `legacy` for n8n 1.x. */
export function executionsApi(client: N8nClient, legacy: boolean): Workflows {
	const result = (e: Json, data: Json) =>
		toResult(String(e.id), String(e.status), data, client.fetchBinary);
	/** A workflow's executions with their data (n8n 1.x has no ignoreDataSizeLimit). */
	const executionsQuery = (workflowId: string) =>
		`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true${legacy ? '' : '&ignoreDataSizeLimit=true'}&limit=250`;
	const listExecutions = async (workflowId: string) =>
		(await client.api<{ data: Json[] }>('GET', executionsQuery(workflowId))).data;

	const createWorkflow = async (wf: WorkflowJson): Promise<string> => {
		// n8n 1.x stores `active` as sent and has no default for it
		const body = legacy ? { active: false, ...wf } : wf;
		return (await client.rest<{ id: string }>('POST', '/workflows', body)).id;
	};

	/** The finished execution with its data, or undefined while n8n has not saved both. */
	const savedRun = async (executionId: string): Promise<RunResult | undefined> => {
		// 404 until n8n has saved the execution
		const exec = await client.restOrMissing<Json>(`/executions/${executionId}`);
		if (!exec || !isDone(exec) || typeof exec.data !== 'string') return undefined;
		// n8n 1.x on SQLite without a pool saves an execution's status, then its data, in two
		// updates (updateExistingExecution): between them it is finished with no result data yet,
		// so poll again
		const data = parseFlatted(exec.data) as Json | undefined;
		return data && typeof data === 'object' && data.resultData ? result(exec, data) : undefined;
	};

	return {
		createWorkflow,
		runWorkflow: async (wf, opts = {}) => {
			const id = typeof wf === 'string' ? wf : await createWorkflow(wf);
			const workflowData = await client.rest<Json>('GET', `/workflows/${id}`);
			const started = await client.rest<{ executionId?: string }>('POST', `/workflows/${id}/run`, {
				workflowData,
				triggerToStartFrom: { name: opts.triggerNode ?? MANUAL_TRIGGER_NAME },
			});
			const executionId = started.executionId;
			if (!executionId)
				throw new Error(`n8n did not start an execution: ${JSON.stringify(started)}`);
			const run = await waitFor(
				`execution ${executionId} is finished and saved`,
				async () => await savedRun(executionId),
				(r) => r !== undefined,
				{ timeoutMs: opts.timeoutMs ?? 60_000, intervalMs: 50 },
			);
			return run!;
		},
		executions: async (workflowId) =>
			(await listExecutions(workflowId)).map((e) => result(e, (e.data ?? {}) as Json)),
		waitForExecutions: async (workflowId, count, timeoutMs = 30_000) => {
			const done = await waitFor(
				`${count} executions of ${workflowId} are finished`,
				async () =>
					// with their data: see savedRun (n8n 1.x saves the status first)
					(await listExecutions(workflowId)).filter(
						(e) => isDone(e) && Boolean((e.data as Json | undefined)?.resultData),
					),
				(list) => list.length >= count,
				{ timeoutMs, intervalMs: 200 },
			);
			return done.map((e) => result(e, (e.data ?? {}) as Json));
		},
		workflowStaticData: async (workflowId) => {
			const wf = await client.api<{ staticData?: unknown }>('GET', `/workflows/${workflowId}`);
			const sd = wf.staticData;
			if (sd === null || sd === undefined) return null;
			return (typeof sd === 'string' ? JSON.parse(sd) : sd) as Json;
		},
	};
}
