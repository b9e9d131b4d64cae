/**
 * How long one poll of the Grist Trigger may take: its requests and their retries end well before
 * the next poll time, so that a poll meeting an outage or a slow Grist gives up (keeping its
 * cursor) instead of running into the next one.
 *
 * The budget is half the shortest time between two polls that the trigger's Poll Times allow, at
 * most n8n's own budget for a poll (`getPollBudgetMs`: 5 minutes in n8n's default engine) and at
 * least `MIN_BUDGET_MS`:
 * - one entry of Every Minute, Every Hour, Every Day, Every Week, Every Month or Every X: its
 *   shortest gap (Every 7 minutes fires at :49, :56 and :00, so 4 minutes);
 * - one Custom (Cron) entry: 1 minute, the shortest n8n accepts for one entry;
 * - several entries: n8n gives each entry a random second, so their polls may fall anywhere; the
 *   shortest of their gaps divided by the number of entries (the gap if they were spread evenly).
 *   Polls of entries closer than that are kept apart by the one-poll-at-a-time rule
 *   (./pollGuard.ts): the later one emits nothing.
 */

import type { IPollFunctions } from 'n8n-workflow';

/** One entry of n8n's Poll Times (`pollTimes.item`). */
export interface PollTimeEntry {
	mode?: string;
	value?: number;
	unit?: string;
	cronExpression?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The least budget: time for a few requests and one or two retries. */
export const MIN_BUDGET_MS = 5_000;

/** n8n's budget for a poll where n8n does not say (before n8n 2.41): its default engine's 5 minutes. */
export const N8N_POLL_BUDGET_MS = 5 * MINUTE;

/** `*\/step` over a field of `size` values (minutes of an hour, hours of a day): the shortest gap. */
function stepGap(step: number, size: number): number {
	if (!Number.isInteger(step) || step < 1 || step >= size) return size;
	const last = Math.floor((size - 1) / step) * step;
	return Math.min(step, size - last);
}

/** The shortest time between two polls of one entry (ms). */
export function entryGapMs(entry: PollTimeEntry): number {
	switch (entry.mode) {
		case 'everyHour':
			return HOUR;
		case 'everyDay':
			return DAY;
		case 'everyWeek':
			return 7 * DAY;
		case 'everyMonth':
			return 28 * DAY;
		case 'everyX':
			if (entry.unit === 'hours') return stepGap(Number(entry.value), 24) * HOUR;
			return stepGap(Number(entry.value), 60) * MINUTE;
		default:
			// Every Minute, and Custom (Cron): n8n refuses an entry that polls more often
			return MINUTE;
	}
}

/** The budget of one poll (ms), from the trigger's Poll Times and n8n's own budget for a poll. */
export function pollBudgetMs(entries: PollTimeEntry[], n8nBudgetMs = N8N_POLL_BUDGET_MS): number {
	const gaps = entries.map(entryGapMs);
	const shortest = gaps.length === 0 ? MINUTE : Math.min(...gaps) / gaps.length;
	const cap = Number.isFinite(n8nBudgetMs) && n8nBudgetMs > 0 ? n8nBudgetMs : N8N_POLL_BUDGET_MS;
	return Math.max(MIN_BUDGET_MS, Math.min(shortest / 2, cap));
}

/** n8n's own budget for this poll (`getPollBudgetMs`, n8n 2.41 on), else `N8N_POLL_BUDGET_MS`. */
export function n8nPollBudgetMs(fn: IPollFunctions): number {
	const get = (fn as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	const value = typeof get === 'function' ? get.call(fn) : NaN;
	return Number.isFinite(value) && value > 0 ? value : N8N_POLL_BUDGET_MS;
}
