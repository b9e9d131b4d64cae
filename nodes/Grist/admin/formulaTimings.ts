/**
 * Grist's formula timing turned into items a workflow can use: one item per formula column with
 * its times in milliseconds, slowest first.
 */
import type { IDataObject } from 'n8n-workflow';

/** Times of one formula, or of one step of it (Grist's TimingInfo; seconds). */
interface TimingInfo {
	sum: number;
	count: number;
	average: number;
	max: number;
}

/** One formula column's timing as Grist gives it (`colId` `#lookup#` is its lookup helper). */
export interface FormulaTiming extends TimingInfo {
	tableId: string;
	colId: string;
	marks?: Array<TimingInfo & { name: string }>;
}

/** GET …/timing: `pending` while the engine is busy (then without `timing`). */
export interface TimingStatus {
	status: 'active' | 'pending' | 'disabled';
	timing?: FormulaTiming[];
}

/** Seconds as milliseconds, to the microsecond. */
function ms(seconds: number): number {
	return Math.round((Number(seconds) || 0) * 1e6) / 1e3;
}

function times(t: TimingInfo) {
	return {
		count: t.count,
		totalMs: ms(t.sum),
		averageMs: ms(t.average),
		maxMs: ms(t.max),
	};
}

/**
 * One item per formula column, slowest (largest total time) first, each with `status` and
 * `documentId`; when there is no column, one item with just those two.
 */
export function timingItems(
	documentId: string,
	status: string,
	timing: FormulaTiming[] | undefined,
): IDataObject[] {
	const list = [...(timing ?? [])].sort(
		(a, b) =>
			(Number(b.sum) || 0) - (Number(a.sum) || 0) ||
			a.tableId.localeCompare(b.tableId) ||
			a.colId.localeCompare(b.colId),
	);
	if (list.length === 0) return [{ documentId, status }];
	return list.map((t) => ({
		documentId,
		status,
		tableId: t.tableId,
		colId: t.colId,
		...times(t),
		...(t.marks?.length ? { marks: t.marks.map((m) => ({ name: m.name, ...times(m) })) } : {}),
	}));
}
