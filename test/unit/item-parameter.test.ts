import type { IExecuteFunctions, INode, INodeParameters } from 'n8n-workflow';

import { itemParameter, readTarget } from '../../nodes/Grist/parameters';
import { byId } from '../harness/builders';

/** A context whose getNodeParameter resolves `={{ $json.x }}`-style values per item and counts calls. */
function ctx(parameters: INodeParameters, perItem: Array<Record<string, unknown>>) {
	const node: INode = {
		id: '1',
		name: 'Grist',
		type: 'n8n-nodes-grist.grist',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const calls: Array<[string, number]> = [];
	const getNode = jest.fn(() => node);
	const resolve = (v: unknown, i: number): unknown => {
		if (typeof v === 'string' && v.startsWith('={{ $json.'))
			return perItem[i][v.slice('={{ $json.'.length, -' }}'.length)];
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
