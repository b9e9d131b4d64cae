/** Webhook → Create / Update: Filter and When as the webhook's fields. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { GristClient } from '../../api/client';
import { fetchColumns } from '../../api/columns';
import { InputError, attempt } from '../../errors/gristAnswers';
import {
	buildWebhookCondition,
	conditionEventTypes,
	conditionWatchedColumns,
	type ConditionInput,
} from '../../webhooks/webhookConditions';
import type { WebhookFields } from '../../webhooks/webhookFields';

/**
 * Sets `condition` (and, for a transition, the event types and watched columns it needs) on
 * `fields` for the webhook's table. Watched columns given in `fields` are kept (with the
 * condition's); on Update, the webhook's current ones are replaced (they may be an old condition's).
 */
export async function applyCondition(
	this: IExecuteFunctions,
	client: GristClient,
	itemIndex: number,
	target: { docId: string; tableId: string },
	input: ConditionInput,
	fields: WebhookFields,
): Promise<void> {
	const columns =
		input.type === 'none'
			? []
			: (await fetchColumns(client, target, { itemIndex })).filter((c) => !c.hidden);
	const built = attempt(() => buildWebhookCondition(input, columns));
	if (built.error) {
		const e = built.error;
		throw new NodeOperationError(this.getNode(), `${e.message} (item ${itemIndex})`, {
			description: e instanceof InputError ? e.hint : undefined,
			itemIndex,
		});
	}
	const { condition, notifyWhen } = built.value;
	// "" removes a condition (Grist stores null)
	fields.condition = condition ?? '';
	if (notifyWhen === 'matching') return;
	fields.eventTypes = conditionEventTypes([], notifyWhen);
	fields.watchedColIds = conditionWatchedColumns(
		notifyWhen,
		built.value.columns,
		fields.watchedColIds ?? [],
		columns.map((c) => c.id),
	);
}
