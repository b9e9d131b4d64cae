/**
 * The Grist Trigger's time budget per poll (nodes/GristTrigger/pollBudget.ts): half the shortest
 * time between two polls of its Poll Times, at most n8n's own budget, at least MIN_BUDGET_MS.
 */
import {
	MIN_BUDGET_MS,
	N8N_POLL_BUDGET_MS,
	entryGapMs,
	pollBudgetMs,
} from '../../nodes/GristTrigger/pollBudget';
import { retryFits } from '../../nodes/Grist/api/retry';

const MIN = 60_000;

test.each([
	[{ mode: 'everyMinute' }, MIN],
	[{ mode: 'everyHour' }, 60 * MIN],
	[{ mode: 'everyDay' }, 24 * 60 * MIN],
	[{ mode: 'everyWeek' }, 7 * 24 * 60 * MIN],
	[{ mode: 'everyMonth' }, 28 * 24 * 60 * MIN],
	[{ mode: 'everyX', value: 5, unit: 'minutes' }, 5 * MIN],
	// */7 fires at :49, :56, then :00 of the next hour
	[{ mode: 'everyX', value: 7, unit: 'minutes' }, 4 * MIN],
	[{ mode: 'everyX', value: 45, unit: 'minutes' }, 15 * MIN],
	[{ mode: 'everyX', value: 5, unit: 'hours' }, 4 * 60 * MIN],
	[{ mode: 'custom', cronExpression: '0 */5 * * * *' }, MIN],
	[{}, MIN],
])('the shortest gap of %j', (entry, gap) => {
	expect(entryGapMs(entry)).toBe(gap);
});

test('one entry: half its shortest gap, at most n8n’s budget', () => {
	expect(pollBudgetMs([{ mode: 'everyMinute' }])).toBe(30_000);
	expect(pollBudgetMs([{ mode: 'everyX', value: 5, unit: 'minutes' }])).toBe(150_000);
	expect(pollBudgetMs([{ mode: 'everyHour' }])).toBe(N8N_POLL_BUDGET_MS);
	expect(pollBudgetMs([{ mode: 'everyHour' }], 20_000)).toBe(20_000);
	expect(pollBudgetMs([{ mode: 'custom', cronExpression: '0 0 9 * * 1' }])).toBe(30_000);
});

test('several entries: the shortest gap shared among them; no entries: as every minute', () => {
	const four = Array.from({ length: 4 }, () => ({ mode: 'everyMinute' }));
	expect(pollBudgetMs(four)).toBe(7_500);
	expect(pollBudgetMs([{ mode: 'everyDay' }, { mode: 'everyHour' }])).toBe(N8N_POLL_BUDGET_MS);
	expect(pollBudgetMs([])).toBe(30_000);
	const many = Array.from({ length: 20 }, () => ({ mode: 'everyMinute' }));
	expect(pollBudgetMs(many)).toBe(MIN_BUDGET_MS);
	// a nonsense n8n budget is not taken
	expect(pollBudgetMs([{ mode: 'everyHour' }], NaN)).toBe(N8N_POLL_BUDGET_MS);
});

test('a retry is made only when its delay ends before the budget', () => {
	expect(retryFits(250, Infinity)).toBe(true);
	expect(retryFits(250, 251)).toBe(true);
	expect(retryFits(250, 250)).toBe(false);
	expect(retryFits(250, -1)).toBe(false);
});
