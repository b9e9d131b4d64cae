/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * README's operation table is part of the product: every operation of the Grist node must have
 * a row `| <Resource> | <Operation> | … |`, and every row must name an operation that exists.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { Store } from '../emulator/model';
import { webhooksOf } from '../emulator/webhooks';

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

describe('README: the Grist Instant Trigger while n8n is down', () => {
	const readme = readFileSync(path.join(__dirname, '../../README.md'), 'utf8');
	const section = readme.slice(
		readme.indexOf('## Grist Instant Trigger'),
		readme.indexOf('## Running n8n in queue mode'),
	);
	// the bullet on delivery while n8n is down, line breaks as spaces
	const down = section.slice(section.indexOf('**While n8n is down**')).replace(/\s+/g, ' ');

	it('promises delivery after an outage only while the document stays open, and says what Redis changes', () => {
		// self-hosted Grist without Redis drops the queue of a document it closes
		expect(readme).not.toMatch(/keeps retrying and delivers once n8n is back/);
		expect(down).toMatch(/^\*\*While n8n is down\*\*/);
		expect(down).toMatch(/\*While the document is open\*, Grist retries/);
		expect(down).toMatch(/`GRIST_ACTIVEDOC_TIMEOUT_SECONDS` \(30 s in production/);
		expect(down).toMatch(/without Redis drops the waiting deliveries\*\*/);
		expect(down).toMatch(/\*With `REDIS_URL` set\*, Grist keeps a copy of each document's queue/);
		expect(down).toMatch(/So run self-hosted Grist with \*\*Redis\*\*/);
		expect(down).toMatch(/use the polling \[Grist Trigger\]\(#grist-trigger\)/);
		expect(readme).toContain('<a id="while-n8n-is-down"></a>');
		expect(readme).toContain('can be lost ([above](#while-n8n-is-down))');
	});

	it("states the retry delays the emulator uses by default (grist-core's 1 s doubling to 64 s)", () => {
		const seconds = webhooksOf(new Store()).retryDelaysMs.map((ms) => ms / 1000);
		expect(seconds).toEqual([1, 2, 4, 8, 16, 32, 64]);
		expect(down).toContain(
			`retries the delivery after ${seconds.slice(0, 3).join(', ')} … ${seconds[seconds.length - 1]} s, then every ${seconds[seconds.length - 1]} s`,
		);
	});
});
