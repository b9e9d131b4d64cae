/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * README's operation table is part of the product: every operation of the Grist node must have
 * a row `| <Resource> | <Operation> | … |`, and every row must name an operation that exists.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';

function operationsOfNode(): Array<{ resource: string; operation: string }> {
	const properties = new Grist().description.properties;
	const resourceParam = properties.find((p) => p.name === 'resource') as INodeProperties;
	const out: Array<{ resource: string; operation: string }> = [];
	for (const resource of resourceParam.options as INodePropertyOptions[]) {
		const operationParam = properties.find(
			(p) =>
				p.name === 'operation' &&
				(p.displayOptions?.show?.resource as string[] | undefined)?.includes(
					resource.value as string,
				),
		);
		expect(operationParam).toBeDefined();
		for (const op of operationParam!.options as INodePropertyOptions[]) {
			out.push({ resource: resource.name, operation: op.name });
		}
	}
	return out;
}

function rowsOfReadme(): Array<{ resource: string; operation: string }> {
	const readme = readFileSync(path.join(__dirname, '../../README.md'), 'utf8');
	const start = readme.indexOf('<!-- operations-table -->');
	const end = readme.indexOf('<!-- /operations-table -->');
	expect(start).toBeGreaterThan(-1);
	expect(end).toBeGreaterThan(start);
	return readme
		.slice(start, end)
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|\s*(Resource|---)/.test(line))
		.map((line) => {
			const cells = line.split('|').map((c) => c.trim());
			return { resource: cells[1], operation: cells[2] };
		});
}

describe('README operation table', () => {
	it('lists every operation of the node, and nothing else', () => {
		const key = (o: { resource: string; operation: string }) => `${o.resource} → ${o.operation}`;
		const node = operationsOfNode().map(key).sort();
		const readme = rowsOfReadme().map(key).sort();
		expect(node.length).toBeGreaterThan(0);
		expect(readme).toEqual(node);
	});
});
