/**
 * Formula timing of a document (owners only): start measuring how long each formula column takes
 * to calculate, read the measures so far, stop and get them.
 */
import type { FormulaTiming, TimingStatus } from '../admin/formulaTimings';
import type { GristClient } from './client';
import { documentEndpoint } from './paths';

/** POST /api/docs/{docId}/timing/start (400 `Timing already started for <docId>` when it runs). */
export async function startTiming(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<void> {
	const endpoint = documentEndpoint(client, docId, 'timing', 'start');
	// Grist answers a plain-text "OK"
	await client.request({ method: 'POST', ...endpoint, itemIndex });
}

/**
 * GET /api/docs/{docId}/timing: `{ status: "disabled" }`, or `active` with the measures so far
 * (`pending`, without them, while the document is busy).
 */
export async function getTiming(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<TimingStatus> {
	const endpoint = documentEndpoint(client, docId, 'timing');
	return await client.request<TimingStatus>({ method: 'GET', ...endpoint, itemIndex });
}

/** POST /api/docs/{docId}/timing/stop: the measures (400 `Timing not started for <docId>`). */
export async function stopTiming(
	client: GristClient,
	docId: string,
	itemIndex: number,
): Promise<FormulaTiming[]> {
	const endpoint = documentEndpoint(client, docId, 'timing', 'stop');
	return await client.request<FormulaTiming[]>({ method: 'POST', ...endpoint, itemIndex });
}
