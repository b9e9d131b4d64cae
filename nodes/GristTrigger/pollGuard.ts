/**
 * One poll at a time per trigger in an n8n process. n8n starts a scheduled poll whether or not
 * the previous one of the same trigger has ended; both would read the cursor the earlier one has
 * not moved yet and emit the same rows. So a poll that finds another one of its trigger running
 * returns nothing at once, without a request, and leaves the cursor to the running one; the next
 * poll starts from the cursor that one saved.
 *
 * n8n makes one Workflow object (with its static data) per activation and hands it to every poll
 * of that activation; a deactivation and activation make a new one, while a poll of the old one
 * may still run (n8n then drops its result). So the key is the workflow's and the node's IDs,
 * which stay the same across activations, not the objects.
 */
import type { IPollFunctions } from 'n8n-workflow';

/** The triggers with a poll running in this process, by `<workflow id>:<node id>`. */
const running = new Set<string>();

/** The trigger's key: its workflow and node, as n8n names them (the node's name if it has no ID). */
export function triggerKey(fn: IPollFunctions): string {
	const node = fn.getNode();
	return JSON.stringify([fn.getWorkflow().id ?? '', node.id || node.name]);
}

/** Runs `poll` unless a poll of the same trigger is running; then null at once. */
export async function pollAlone<T>(
	fn: IPollFunctions,
	poll: () => Promise<T | null>,
): Promise<T | null> {
	const key = triggerKey(fn);
	if (running.has(key)) {
		fn.logger.info(
			'Grist Trigger: the previous poll of this trigger is still running, so this one is skipped',
			{ workflowId: fn.getWorkflow().id, node: fn.getNode().name },
		);
		return null;
	}
	running.add(key);
	try {
		return await poll();
	} finally {
		running.delete(key);
	}
}
