import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { assignBatch, newGrouping, type WriteOptions } from '../../nodes/Grist/write/plan';
import type { TableInfo } from '../../nodes/Grist/api/schemaCache';
import { describeIndices } from '../../nodes/Grist/write/outcomeTexts';
import { runWritePipeline, type PipelineOptions } from './write-pipeline';
import { gristNode } from '../harness/builders';

const node: INode = gristNode();

function ctx(continueOnFail: boolean): IExecuteFunctions {
	return {
		continueOnFail: () => continueOnFail,
		getNode: () => node,
	} as unknown as IExecuteFunctions;
}

const items = (n: number): INodeExecutionData[] =>
	Array.from({ length: n }, (_, i) => ({ json: { i } }));

interface Sent {
	group: string;
	indices: number[];
	records: unknown[];
}

function options(
	sent: Sent[],
	over: Partial<PipelineOptions<{ n: number; pad?: string }, string>> = {},
): PipelineOptions<{ n: number; pad?: string }, string> {
	return {
		envelopeBytes: 2,
		prepare: async (i) => ({
			key: i % 2 === 0 ? 'even' : 'odd',
			group: i % 2 === 0 ? 'even' : 'odd',
			records: [{ n: i }],
		}),
		send: async (group, units, records) => {
			sent.push({ group, indices: units.map((u) => u.itemIndex), records });
			return { outputs: units.map((u) => [{ id: u.itemIndex * 10 }]) };
		},
		...over,
	};
}

describe('runWritePipeline', () => {
	it('groups, chunks by 500 and returns outputs paired, in input order', async () => {
		const sent: Sent[] = [];
		const out = await runWritePipeline(ctx(false), items(1200), options(sent));
		expect(sent.map((s) => [s.group, s.records.length])).toEqual([
			['even', 500],
			['even', 100],
			['odd', 500],
			['odd', 100],
		]);
		expect(out).toHaveLength(1200);
		expect(out[7]).toEqual({ json: { id: 70 }, pairedItem: { item: 7 } });
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual(
			items(1200).map((_, i) => i),
		);
	});

	it('splits by bytes under the 1 MB limit and rejects one item over it before any request', async () => {
		const sent: Sent[] = [];
		const pad = 'x'.repeat(300_000);
		const prepare: PipelineOptions<{ n: number; pad?: string }, string>['prepare'] = async (i) => ({
			key: 'k',
			group: 'k',
			records: [{ n: i, pad }],
		});
		await runWritePipeline(ctx(false), items(7), options(sent, { prepare }));
		expect(sent.map((s) => s.indices)).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
		for (const s of sent)
			expect(Buffer.byteLength(JSON.stringify(s.records))).toBeLessThan(1024 * 1024);

		const sent2: Sent[] = [];
		const huge: PipelineOptions<{ n: number; pad?: string }, string>['prepare'] = async (i) => ({
			key: 'k',
			group: 'k',
			records: [{ n: i, pad: i === 2 ? 'y'.repeat(1_100_000) : '' }],
		});
		await expect(
			runWritePipeline(ctx(false), items(4), options(sent2, { prepare: huge })),
		).rejects.toThrow(
			/^Item 2 is \d+ bytes of JSON \(its largest field, "pad", is 1100002 bytes\), more than Grist accepts in one request/,
		);
		expect(sent2).toHaveLength(0);
		const out = await runWritePipeline(ctx(true), items(4), options(sent2, { prepare: huge }));
		expect(out.map((o) => Object.keys(o.json))).toEqual([
			['id'],
			['id'],
			['error', 'description'],
			['id'],
		]);
		expect(sent2.map((s) => s.indices)).toEqual([[0, 1, 3]]);
	});

	it('bad input fails before any request, naming every refused item and that none was written', async () => {
		const sent: Sent[] = [];
		const prepare: PipelineOptions<{ n: number }, string>['prepare'] = async (i) => {
			if (i === 3 || i === 4)
				throw new NodeOperationError(node, `Field "Age" of item ${i}: bad`, {
					itemIndex: i,
					description: 'Fix Age.',
				});
			return { key: 'k', group: 'k', records: [{ n: i }] };
		};
		const error = await runWritePipeline(ctx(false), items(6), options(sent, { prepare })).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'Field "Age" of items 3–4: bad; no item was written',
		);
		expect((error as NodeOperationError).description).toMatch(
			/^Refused before any request: items 3–4 \(2 of 6 items\)\. Nothing was sent.* Fix Age\.$/,
		);
		expect((error as NodeOperationError).context.itemIndex).toBe(3);
		expect(sent).toHaveLength(0);
	});

	it('verify refuses items after every item is prepared, before any request', async () => {
		const sent: Sent[] = [];
		const seen: number[][] = [];
		const verify: PipelineOptions<{ n: number }, string>['verify'] = async (units) => {
			seen.push(units.map((u) => u.itemIndex));
			return new Map([
				[2, new NodeOperationError(node, 'Item 2 points nowhere', { itemIndex: 2 })],
			]);
		};
		const error = await runWritePipeline(ctx(false), items(4), options(sent, { verify })).catch(
			(e: unknown) => e,
		);
		expect((error as Error).message).toBe('Item 2 points nowhere; no item was written');
		expect(seen).toEqual([[0, 2, 1, 3]]); // by group (even, odd), all at once
		expect(sent).toHaveLength(0);
		const out = await runWritePipeline(ctx(true), items(4), options(sent, { verify }));
		expect(out.map((o) => o.json.error ?? 'ok')).toEqual([
			'ok',
			'ok',
			'Item 2 points nowhere',
			'ok',
		]);
		expect(sent.map((s) => s.indices)).toEqual([[0], [1, 3]]);
	});

	it('a failing chunk: with Continue On Fail its items carry the error, the rest go on', async () => {
		const sent: Sent[] = [];
		let calls = 0;
		const send: PipelineOptions<{ n: number }, string>['send'] = async (group, units, records) => {
			calls++;
			if (calls === 2)
				throw new NodeApiError(
					node,
					{ error: 'Invalid column "X"' },
					{ message: 'Invalid column "X"', httpCode: '400' },
				);
			sent.push({ group, indices: units.map((u) => u.itemIndex), records });
			return { outputs: units.map((u) => [{ id: u.itemIndex }]) };
		};
		const prepare: PipelineOptions<{ n: number }, string>['prepare'] = async (i) => ({
			key: 'k',
			group: 'k',
			records: [{ n: i }],
		});
		const out = await runWritePipeline(ctx(true), items(7), {
			...options(sent),
			prepare,
			send,
			maxItems: 3,
		});
		expect(out).toHaveLength(7);
		expect(out.map((o) => o.json.error ?? o.json.id)).toEqual([
			0,
			1,
			2,
			'Invalid column "X"',
			'Invalid column "X"',
			'Invalid column "X"',
			6,
		]);
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3, 4, 5, 6]);
	});

	it('a failing chunk without Continue On Fail says how many items had been written and which failed', async () => {
		let calls = 0;
		const send: PipelineOptions<{ n: number }, string>['send'] = async (_g, units) => {
			calls++;
			if (calls === 2)
				throw new NodeApiError(
					node,
					{ error: 'Invalid column "X"' },
					{ message: 'Invalid column "X"', httpCode: '400' },
				);
			return { outputs: units.map(() => [{}]) };
		};
		const prepare: PipelineOptions<{ n: number }, string>['prepare'] = async (i) => ({
			key: 'k',
			group: 'k',
			records: [{ n: i }],
		});
		const error = (await runWritePipeline(ctx(false), items(7), {
			...options([]),
			prepare,
			send,
			maxItems: 3,
		}).catch((e: unknown) => e)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Invalid column "X"');
		expect(error.description).toContain('3 items had been written before this request failed');
		expect(error.description).toContain('items 3–5');
		expect(calls).toBe(2);
	});

	it('describes index lists compactly', () => {
		expect(describeIndices([5, 0, 1, 2, 7, 8])).toBe('0–2, 5, 7–8');
		expect(describeIndices([4])).toBe('4');
	});
});

describe('assignBatch', () => {
	/** The grouping of one execution, called with one object for readability. */
	const grouper = () => {
		const grouping = newGrouping();
		return (i: {
			target: { docId: string; tableId: string };
			table: TableInfo;
			options: WriteOptions;
			batchSize?: number;
			allowDangling?: boolean;
			fieldSet?: string[];
			roundKey?: unknown;
		}) =>
			assignBatch(
				grouping,
				i.target,
				i.table.types,
				{ fieldSet: i.fieldSet, roundKey: i.roundKey },
				i.options,
				i.batchSize,
				i.allowDangling,
			);
	};
	const table: TableInfo = { columns: [], byId: new Map(), types: { A: 'Text' } };
	const t1 = { docId: 'd', tableId: 'T' };
	const t2 = { docId: 'd', tableId: 'U' };

	it('items of one table with equal options share a key and a group, whatever the objects', () => {
		const groupOf = grouper();
		const a = groupOf({ target: t1, table, options: { noparse: true, x: 'y' }, batchSize: 500 });
		const b = groupOf({
			target: { ...t1 },
			table: { ...table },
			options: { noparse: true, x: 'y' },
			batchSize: 500,
		});
		expect(b.key).toBe(a.key);
		expect(b.group).toBe(a.group);
		expect(a.group).toEqual({
			target: t1,
			options: { noparse: true, x: 'y' },
			qs: { noparse: 1, x: 'y' },
			types: { A: 'Text' },
			batchSize: 500,
			allowDangling: undefined,
		});
	});

	it('another option value, table, Batch Size or Allow Dangling References is another group; coming back finds the first', () => {
		const groupOf = grouper();
		const base = { target: t1, table, options: { noparse: false }, batchSize: 500 };
		const first = groupOf(base).key;
		const keys = [
			groupOf({ ...base, options: { noparse: true } }).key,
			groupOf({ ...base, target: t2 }).key,
			groupOf({ ...base, batchSize: 100 }).key,
			groupOf({ ...base, allowDangling: true }).key,
			groupOf({ ...base, options: { noparse: false, noadd: true } }).key,
		];
		expect(new Set([first, ...keys]).size).toBe(6);
		expect(groupOf(base).key).toBe(first);
		// An option left out and one given as undefined mean the same request.
		expect(groupOf({ ...base, options: { noparse: false, noadd: undefined } }).key).toBe(first);
	});

	it('one options object shared by the items (read once) and equal copies give the same group', () => {
		const groupOf = grouper();
		const options = { noparse: true };
		const a = groupOf({ target: t1, table, options });
		const b = groupOf({ target: t1, table, options });
		const c = groupOf({ target: t1, table, options: { noparse: true } });
		const d = groupOf({ target: t1, table, options: { noparse: false } });
		expect(b.group).toBe(a.group);
		expect(c.group).toBe(a.group);
		expect(d.group).not.toBe(a.group);
		expect(groupOf({ target: t1, table, options }).group).toBe(a.group);
	});

	it('the query string: true as 1, false, undefined and empty text left out, in the options order', () => {
		const groupOf = grouper();
		const { group } = groupOf({
			target: t1,
			table,
			options: { noparse: true, onmany: 'all', noadd: false, noupdate: undefined, x: '' },
		});
		expect(group.qs).toEqual({ noparse: 1, onmany: 'all' });
		expect(Object.keys(group.qs)).toEqual(['noparse', 'onmany']);
	});

	it('a field set groups by its names in any order', () => {
		const groupOf = grouper();
		const base = { target: t1, table, options: {} };
		const ab = groupOf({ ...base, fieldSet: ['A', 'B'] }).key;
		expect(groupOf({ ...base, fieldSet: ['B', 'A'] }).key).toBe(ab);
		expect(groupOf({ ...base, fieldSet: ['A'] }).key).not.toBe(ab);
		expect(groupOf({ ...base, fieldSet: ['A', 'B'] }).key).toBe(ab);
	});

	it('rounds: an item repeating a round key of its group goes into the next round', () => {
		const groupOf = grouper();
		const base = { target: t1, table, options: {} };
		const keys = ['a', 'b', 'a', 'a', 'c', 1, '1', 1].map(
			(roundKey) => groupOf({ ...base, roundKey }).key,
		);
		const [a0, b0, a1, a2, c0, n0, s0, n1] = keys;
		expect(new Set([a0, b0, c0, n0, s0]).size).toBe(1);
		expect(new Set([a0, a1, a2]).size).toBe(3);
		expect(n1).toBe(a1);
		// Each group counts its own keys; all rounds share the group.
		const other = groupOf({ ...base, options: { noparse: true }, roundKey: 'a' });
		expect(other.key).not.toBe(a0);
		expect(groupOf({ ...base, options: { noparse: true }, roundKey: 'a' }).key).not.toBe(other.key);
		expect(groupOf({ ...base, roundKey: 'a' }).group).toBe(groupOf({ ...base }).group);
	});
});
