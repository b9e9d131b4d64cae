import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	INodeParameters,
	IPollFunctions,
} from 'n8n-workflow';

import { applyLimit, readLimit } from '../../nodes/Grist/parameters/limit';
import {
	documentIdValue,
	locatorValue,
	pickedLocator,
	pickedTarget,
	readTarget,
	tableIdValue,
} from '../../nodes/Grist/parameters/locators';
import { itemParameter } from '../../nodes/Grist/parameters/read';
import { readConditions, readSortRules } from '../../nodes/Grist/parameters/readQuery';
import { byId, gristNode } from '../harness/builders';

/** A context whose getNodeParameter resolves `={{ $json.x }}`-style values per item and counts calls. */
function ctx(parameters: INodeParameters, perItem: Array<Record<string, unknown>>) {
	const node: INode = gristNode(parameters);
	const calls: Array<[string, number]> = [];
	const getNode = jest.fn(() => node);
	const resolve = (v: unknown, i: number): unknown => {
		if (typeof v === 'string' && v.startsWith('={{ $json.'))
			return perItem[i][v.slice('={{ $json.'.length, -' }}'.length)];
		if (Array.isArray(v)) return v.map((x) => resolve(x, i));
		if (v && typeof v === 'object')
			return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, i)]));
		return v;
	};
	const context = {
		getNode,
		getNodeParameter: (
			name: string,
			i: number,
			fallback: unknown,
			options?: { extractValue?: boolean },
		) => {
			calls.push([name, i]);
			let v: unknown = parameters;
			for (const part of name.split('.')) v = (v as Record<string, unknown> | undefined)?.[part];
			v = resolve(v, i);
			if (v === undefined) return fallback;
			if (options?.extractValue && v && typeof v === 'object')
				return (v as { value: unknown }).value;
			return v;
		},
	} as unknown as IExecuteFunctions;
	return { context, calls, getNode };
}

describe('itemParameter (item-invariant parameters read once per execution)', () => {
	test('a parameter without an expression is read once for all items', () => {
		const { context, calls, getNode } = ctx(
			{ document: byId('doc1'), table: byId('People'), options: { noparse: true } },
			[{}, {}, {}],
		);
		for (let i = 0; i < 3; i++) {
			expect(readTarget.call(context, i)).toEqual({ docId: 'doc1', tableId: 'People' });
			expect(itemParameter.call(context, 'options.noparse', i, false)).toBe(true);
		}
		expect(calls).toEqual([
			['document', 0],
			['table', 0],
			['options.noparse', 0],
		]);
		// n8n's getNode() deep-copies the node: once per execution, not per item.
		expect(getNode).toHaveBeenCalledTimes(1);
	});

	test('a parameter with an expression (even nested in a resource locator) is read per item', () => {
		const { context, calls } = ctx({ document: byId('doc1'), table: byId('={{ $json.t }}') }, [
			{ t: 'A' },
			{ t: 'B' },
			{ t: 'A' },
		]);
		expect([0, 1, 2].map((i) => readTarget.call(context, i).tableId)).toEqual(['A', 'B', 'A']);
		expect(calls.filter(([n]) => n === 'table')).toEqual([
			['table', 0],
			['table', 1],
			['table', 2],
		]);
		expect(calls.filter(([n]) => n === 'document')).toEqual([['document', 0]]);
	});

	test('the cache belongs to one execution context, and an empty value still fails per item', () => {
		const params = { document: byId(''), table: byId('People') };
		const a = ctx(params, [{}, {}]);
		expect(() => readTarget.call(a.context, 0)).toThrow('The Document field is empty');
		let error: unknown;
		try {
			readTarget.call(a.context, 1);
		} catch (e) {
			error = e;
		}
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		const b = ctx(params, [{}]);
		expect(() => readTarget.call(b.context, 0)).toThrow('The Document field is empty');
		expect(a.calls).toEqual([['document', 0]]);
		expect(b.calls).toEqual([['document', 0]]);
	});
});

/** A context without items (a poll, a webhook trigger, the editor): the node's values only. */
function nodeCtx(parameters: INodeParameters, edited: INodeParameters = parameters) {
	const value = (from: INodeParameters, name: string, options?: { extractValue?: boolean }) => {
		const v = from[name];
		if (v === undefined) throw new Error(`Could not get parameter "${name}"`);
		return options?.extractValue && v && typeof v === 'object'
			? (v as { value: unknown }).value
			: v;
	};
	return {
		getNode: () => ({ name: 'Grist' }),
		getNodeParameter: (name: string, _fallback: unknown, options?: { extractValue?: boolean }) =>
			value(parameters, name, options),
		getCurrentNodeParameter: (name: string, options?: { extractValue?: boolean }) =>
			value(edited, name, options),
	} as unknown as IPollFunctions & ILoadOptionsFunctions;
}

describe('one locator reader for executions, triggers and pickers', () => {
	test('locatorValue: the trimmed text of item i in an execution, of the node elsewhere', () => {
		const { context } = ctx({ document: byId(' doc1 '), table: byId('={{ $json.t }}') }, [
			{ t: 'A' },
			{ t: 'B' },
		]);
		expect(locatorValue(context, 'document', 1)).toBe('doc1');
		expect(locatorValue(context, 'table', 1)).toBe('B');
		const poll = nodeCtx({ document: byId(' doc2 '), table: { __rl: true, mode: 'id', value: 7 } });
		expect(locatorValue(poll, 'document')).toBe('doc2');
		expect(locatorValue(poll, 'table')).toBe('7');
		// a trigger's failing read fails; a picker's is an empty pick
		expect(() => locatorValue(poll, 'workspace')).toThrow('Could not get parameter');
		expect(pickedLocator(poll, 'workspace')).toBe('');
	});

	test('pickers read the saved value, or the one being edited (`current`), as a target', () => {
		const editor = nodeCtx(
			{ document: byId('doc1'), table: byId('') },
			{ document: byId('doc1'), table: byId('People') },
		);
		expect(pickedTarget(editor)).toBeUndefined();
		expect(pickedTarget(editor, true)).toEqual({ docId: 'doc1', tableId: 'People' });
		expect(pickedLocator(editor, 'table', true)).toBe('People');
	});

	test('an empty Document or Table is the same error for readTarget and the single-id readers', () => {
		const { context } = ctx({ document: byId(''), table: byId('') }, [{}, {}]);
		expect(() => readTarget.call(context, 1)).toThrow('The Document field is empty (item 1)');
		expect(() => documentIdValue.call(context, 1)).toThrow('The Document field is empty (item 1)');
		const table = ctx({ document: byId('doc1'), table: byId(' ') }, [{}]).context;
		expect(() => readTarget.call(table, 0)).toThrow('The Table field is empty (item 0)');
		expect(() => tableIdValue.call(table, 0)).toThrow('The Table field is empty (item 0)');
	});
});

describe('Return All / Limit', () => {
	const list = [1, 2, 3];
	const run = (limit: number | string, returnAll = false) =>
		ctx({ returnAll, limit }, [{}]).context;

	test('Return All: everything; a Limit: the first ones, sent to Grist as a whole number', () => {
		expect(readLimit.call(run(2, true), 0)).toBe(0);
		expect(applyLimit(run(2, true), list, 0)).toEqual(list);
		expect(readLimit.call(run(2), 0)).toBe(2);
		expect(readLimit.call(run('2'), 0)).toBe(2);
		expect(applyLimit(run(2), list, 0)).toEqual([1, 2]);
	});

	test('a Limit below 1 fails where it is sent to Grist, and gives no entries where a list is cut', () => {
		for (const bad of [0, -1, 1.5])
			expect(() => readLimit.call(run(bad), 0)).toThrow(
				`The Limit of item 0 must be a whole number of at least 1, not ${bad}`,
			);
		// as these operations (organizations, documents, webhooks) always did
		expect(applyLimit(run(0), list, 0)).toEqual([]);
		expect(applyLimit(run(-1), list, 0)).toEqual([]);
		expect(applyLimit(run(1.5), list, 0)).toEqual([1]);
	});
});

describe('Record Get Many: conditions and sort, read by name', () => {
	const condition = { column: 'Status', match: 'anyOf', values: 'Open' };
	const rule = { column: 'Name', direction: 'desc' };

	test('conditions only with Filter → Build; Combine and the sort rules as given', () => {
		const build = ctx(
			{
				filterType: 'conditions',
				conditions: { conditions: [condition] },
				combine: 'or',
				sort: { rules: [rule] },
			},
			[{}],
		).context;
		expect(readConditions.call(build, 0)).toEqual({ conditions: [condition], combine: 'or' });
		expect(readSortRules.call(build, 0)).toEqual([rule]);
		const json = ctx({ filterType: 'json', conditions: { conditions: [condition] } }, [{}]).context;
		expect(readConditions.call(json, 0)).toEqual({ conditions: [], combine: 'and' });
		expect(readSortRules.call(json, 0)).toEqual([]);
	});
});
