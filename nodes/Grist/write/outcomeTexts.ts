/**
 * The texts of a record write's outcome, pure: an item refused before any request (too large,
 * several refused at once), an item of a request Grist refused as a whole or whose answer was
 * lost, and the note of a failed batch (which items were written, which failed, which were not
 * sent, which are uncertain). report.ts puts them on errors and error items.
 */
import type { IDataObject } from 'n8n-workflow';

import { jsonBytes } from './chunking';

/** The field with the most bytes of JSON among records' `fields`/`require` (or top-level keys): for the error of an oversized item. */
export function largestField(records: unknown[]): { name: string; bytes: number } | undefined {
	let best: { name: string; bytes: number } | undefined;
	const visit = (o: unknown) => {
		if (!o || typeof o !== 'object' || Array.isArray(o)) return;
		for (const [name, value] of Object.entries(o as IDataObject)) {
			const bytes = jsonBytes(value ?? null);
			if (!best || bytes > best.bytes) best = { name, bytes };
		}
	};
	for (const r of records) {
		const rec = r as { fields?: unknown; require?: unknown };
		if (rec && typeof rec === 'object' && ('fields' in rec || 'require' in rec)) {
			visit(rec.fields);
			visit(rec.require);
		} else visit(r);
	}
	return best;
}

/**
 * The error of an item whose records alone are more JSON than one request may carry (`bytes`
 * over `budget`), refused before any request.
 */
export function oversizedItemText(
	itemIndex: number,
	bytes: number,
	budget: number,
	records: unknown[],
): { message: string; description: string } {
	const largest = largestField(records);
	const which = largest ? ` (its largest field, "${largest.name}", is ${largest.bytes} bytes)` : '';
	return {
		message: `Item ${itemIndex} is ${bytes} bytes of JSON${which}, more than Grist accepts in one request (${budget} bytes)`,
		description:
			'Grist limits a request body to 1 MB. Make the values of this item smaller (e.g. upload large content as an attachment).',
	};
}

/**
 * For Continue On Fail: what an item of a request whose answer was lost is told (the request
 * may or may not have been applied), with the items sent with it.
 */
export function uncertainItemNote(itemIndex: number, indices: number[], verb: string): string {
	return (
		`Uncertain: item ${itemIndex} was sent in one request with item${indices.length === 1 ? '' : 's'} ${describeIndices(indices)}, ` +
		`and its answer was lost, so they may or may not have been ${verb}. Check in Grist whether they are there before sending them again.`
	);
}

/** `[0,1,2,5,7,8]` → `0–2, 5, 7–8`; after `maxParts` parts, `… (N items in all)`. */
export function describeIndices(indices: number[], maxParts = 20): string {
	const sorted = [...indices].sort((a, b) => a - b);
	const parts: string[] = [];
	let start = sorted[0];
	let prev = sorted[0];
	for (let k = 1; k <= sorted.length; k++) {
		const n = sorted[k];
		if (n === prev + 1) {
			prev = n;
			continue;
		}
		parts.push(start === prev ? String(start) : `${start}–${prev}`);
		start = n;
		prev = n;
	}
	if (parts.length > maxParts)
		return `${parts.slice(0, maxParts).join(', ')}, … (${sorted.length} items in all)`;
	return parts.join(', ');
}

/** Items of a failed request whose records name `column` (top level, `fields` or `require`). */
export function itemsWithColumn(
	units: Array<{ itemIndex: number; records: unknown[] }>,
	column: string,
): number[] {
	const has = (o: unknown) =>
		!!o &&
		typeof o === 'object' &&
		!Array.isArray(o) &&
		Object.prototype.hasOwnProperty.call(o, column);
	const found = new Set<number>();
	for (const u of units) {
		for (const r of u.records) {
			const rec = r as { fields?: unknown; require?: unknown };
			if (has(r) || has(rec?.fields) || has(rec?.require)) found.add(u.itemIndex);
		}
	}
	return [...found];
}

export interface BatchFailure {
	/** Items of the failed request. */
	failed: number[];
	/** Items written (confirmed by Grist's answers) before the failed request. */
	written: number;
	/** Items never sent because the batch stopped. */
	later: number[];
	verb: string;
	units: Array<{ itemIndex: number; records: unknown[] }>;
}

/**
 * What the error of a failed batch adds: how many items are written and which are not, or
 * which may be when the failed request's answer was lost.
 */
export function batchFailureNote(
	f: BatchFailure & {
		uncertain: boolean;
		column?: string;
		withColumn?: number[];
		/** What Grist's message names and the items holding it (`blamedItems`), e.g. a row ID. */
		blame?: { items: number[]; what: string };
	},
): string {
	const s = (n: number) => (n === 1 ? '' : 's');
	const where =
		f.column !== undefined && f.withColumn?.length
			? `The column "${f.column}" is in item${s(f.withColumn.length)} ${describeIndices(f.withColumn)}. `
			: f.blame?.items.length
				? `${f.blame.what.charAt(0).toUpperCase()}${f.blame.what.slice(1)} is in item${s(f.blame.items.length)} ${describeIndices(f.blame.items)}. `
				: '';
	const later = f.later.length
		? ` Later item${s(f.later.length)} (${describeIndices(f.later)}) ${f.later.length === 1 ? 'was' : 'were'} not sent.`
		: '';
	const them = f.failed.length === 1 ? 'it' : 'them';
	if (f.uncertain) {
		return (
			where +
			`At least ${f.written} item${s(f.written)} ${f.written === 1 ? 'was' : 'were'} ${f.verb}: the ${f.written} sent before this request. ` +
			`Uncertain: the request holding item${s(f.failed.length)} ${describeIndices(f.failed)} lost its answer, so ${f.failed.length === 1 ? 'it' : 'they'} may or may not have been ${f.verb} ` +
			`(at most ${f.written + f.failed.length} items in all); check in Grist whether ${f.failed.length === 1 ? 'it is' : 'they are'} there before sending ${them} again.${later}`
		);
	}
	return (
		where +
		`${f.written} item${s(f.written)} had been ${f.verb} before this request failed. ` +
		`The failed request held item${s(f.failed.length)} ${describeIndices(f.failed)} (none of them was ${f.verb}: Grist answered with an error, and it applies a request entirely or not at all).${later}`
	);
}

/**
 * The note of an item (Continue On Fail) whose request met the plan's API limit: refused by
 * Grist, or not sent since an earlier request of the run was (`notSent`).
 */
export function apiLimitItemNote(
	indices: number[],
	verb: string,
	request: string,
	notSent: boolean,
): string {
	const held = `${request} (holding ${itemsPhrase(indices)})`;
	return notSent
		? `Not ${verb}: ${held} was not sent, since Grist refused an earlier request at the API limit.`
		: `Not ${verb}: Grist refused ${held} at the API limit; none of its items was ${verb}.`;
}

/** `item 600`, or `items 600–610` (runs compressed by `describeIndices`). */
export function itemsPhrase(indices: number[]): string {
	return indices.length === 1 ? `item ${indices[0]}` : `items ${describeIndices(indices)}`;
}

/** An item refused before any request: its error's message and description (the fix). */
export interface Refusal {
	itemIndex: number;
	message: string;
	description?: string;
}

/** The infinitive of a batch's verb, for "to write the others". */
function act(verb: string): string {
	return verb === 'written' ? 'write' : verb === 'deleted' ? 'delete' : `send`;
}

/** `item 600` in a message (not `item 6000`), for its item. */
function itemRef(itemIndex: number): RegExp {
	return new RegExp(`\\b([Ii])tem ${itemIndex}(?![0-9])`);
}

/**
 * One text for several items refused for the same reason: the first one's message with its
 * `item 600` made `items 600–610` ("Item 600 has …" → "Items 600–610 have …").
 */
function groupText(first: Refusal, indices: number[]): string {
	if (indices.length === 1) return first.message;
	const re = itemRef(first.itemIndex);
	if (!re.test(first.message)) return `${first.message} (${itemsPhrase(indices)})`;
	return first.message
		.replace(re, (_m, i: string) => `${i}tems ${describeIndices(indices)}`)
		.replace(/^(Items [^ ]+(?: [^ ]+)*?) (has|is) /, (_m, head: string, v: string) =>
			v === 'has' ? `${head} have ` : `${head} are `,
		);
}

/**
 * The error of a batched write stopped before any request because items were refused: it says
 * that no item was written, names every refused item (runs compressed: "items
 * 600–610") grouped by reason (the message with the item index taken out), and keeps each
 * reason's fix. `total` is the number of input items, `verb` "written", "deleted"…
 */
export function refusalSummary(
	refusals: Refusal[],
	total: number,
	verb: string,
): { message: string; description: string; itemIndex: number } {
	const groups = new Map<string, { first: Refusal; indices: number[] }>();
	for (const r of refusals) {
		const key = r.message.replace(itemRef(r.itemIndex), '$1tem #');
		const g = groups.get(key);
		if (g) g.indices.push(r.itemIndex);
		else groups.set(key, { first: r, indices: [r.itemIndex] });
	}
	const all = refusals.map((r) => r.itemIndex);
	const n = all.length;
	const none = `No item was ${verb}`;
	const list = [...groups.values()];
	const which = `${itemsPhrase(all)} (${n} of ${total} item${total === 1 ? '' : 's'})`;
	const advice =
		`Nothing was sent, so none of the ${total} items was ${verb}: fix or remove the refused item${n === 1 ? '' : 's'} and run again, ` +
		`or set the node's On Error to Continue to ${act(verb)} the others (the refused ones then come out as errors).`;
	if (list.length === 1) {
		const { first, indices } = list[0];
		const fix = first.description ? ` ${first.description}` : '';
		return {
			message: `${groupText(first, indices)}; ${none.toLowerCase()}`,
			description: `Refused before any request: ${which}. ${advice}${fix}`,
			itemIndex: all[0],
		};
	}
	const shown = list.slice(0, 5).map(({ first, indices }) => {
		const text = groupText(first, indices);
		const fix = first.description ? ` ${first.description}` : '';
		return `${text.endsWith('.') ? text : `${text}.`}${fix}`;
	});
	const more = list.length > 5 ? ` … and ${list.length - 5} other reasons.` : '';
	return {
		message: `${n} items were refused (${itemsPhrase(all)}); ${none.toLowerCase()}`,
		description: `Refused before any request: ${which}. ${advice} ${shown.join(' ')}${more}`,
		itemIndex: Math.min(...all),
	};
}

/**
 * The items of a request Grist refused as a whole that its message names: those with the
 * column of `Invalid column "X"`, or the one updating or deleting the row of `Invalid row id N`
 * (grist-core's TableOperationsImpl texts). Empty when the message names none.
 */
export function blamedItems(
	message: string,
	units: Array<{ itemIndex: number; records: unknown[] }>,
): { items: number[]; what: string } {
	const column = /Invalid column "([^"]+)"/.exec(message)?.[1];
	if (column !== undefined)
		return { items: itemsWithColumn(units, column), what: `the column "${column}"` };
	const row = /Invalid row id (-?[0-9]+)\b/.exec(message)?.[1];
	if (row !== undefined) {
		const id = Number(row);
		const found = new Set<number>();
		for (const u of units)
			for (const r of u.records) {
				const rec = r as { id?: unknown; require?: { id?: unknown } } | number;
				if (
					rec === id ||
					(typeof rec === 'object' && rec !== null && (rec.id === id || rec.require?.id === id))
				)
					found.add(u.itemIndex);
			}
		return { items: [...found], what: `the row ID ${id}` };
	}
	return { items: [], what: '' };
}

/**
 * For Continue On Fail: what an item of a request that Grist refused as a whole is told (Grist
 * applies a request entirely or not at all). `blamed` are the items Grist's message names (`blamedItems`); `request` says which
 * request ("request 2 of 3"). The blamed items keep Grist's error and hear that the others were
 * not written because of them; the others are told they were not written because of the blamed
 * items and that a run without those writes them; when nothing is blamed, every item hears that
 * the request as a whole was refused and that Grist does not say which item caused it.
 */
export function refusedRequestNote(opts: {
	itemIndex: number;
	indices: number[];
	blamed: number[];
	what: string;
	gristMessage: string;
	verb: string;
	request: string;
}): { message?: string; note: string } {
	const { itemIndex, indices, blamed, what, gristMessage, verb, request } = opts;
	const held = `${request}, holding ${itemsPhrase(indices)}`;
	if (blamed.length === 0) {
		return {
			note: `Not ${verb}: Grist refused the whole request (${held}) with this error, and its answer does not say which item caused it; none of the items of that request was ${verb}.`,
		};
	}
	const blamedText = itemsPhrase(blamed);
	if (blamed.includes(itemIndex)) {
		const others = indices.filter((i) => !blamed.includes(i));
		const rest = others.length
			? ` Grist applies a request entirely or not at all, so the other ${others.length === 1 ? 'item' : 'items'} of that request (${held}) ${others.length === 1 ? 'was' : 'were'} not ${verb} either.`
			: '';
		return { note: `Item ${itemIndex} was refused because of ${what}.${rest}` };
	}
	return {
		message: `Not ${verb}: ${blamedText} ${blamed.length === 1 ? 'was' : 'were'} refused in the same request ("${gristMessage}")`,
		note:
			`Grist applies a request entirely or not at all, and it refused the whole request (${held}) because of ${blamedText} (${what}). ` +
			`Grist reported no problem with item ${itemIndex} (it stops at the first one it finds): run it again without ${blamedText} to ${act(verb)} it.`,
	};
}
