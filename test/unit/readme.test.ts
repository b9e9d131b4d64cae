/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Facts the README and docs/ must get right, not their sentences: every operation of the Grist
 * node has a row in README's operations table (and every row names one), the Quick start's two
 * commands are there and are scripts of package.json, every link between README.md and docs/
 * (and every documentation link of the nodes and credentials) reaches a file and a heading that
 * exist, and the webhook retry delays docs/TRIGGERS.md states are the ones the emulator uses.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { Store } from '../emulator/model';
import { shownForResource } from '../harness/builders';
import { webhooksOf } from '../emulator/webhooks';

const root = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The documents that link to each other: README.md and every Markdown file of docs/. */
const documents = [
	'README.md',
	...readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

function operationsOfNode(): Array<{ resource: string; operation: string }> {
	const properties = new Grist().description.properties;
	const resourceParam = properties.find((p) => p.name === 'resource') as INodeProperties;
	const out: Array<{ resource: string; operation: string }> = [];
	for (const resource of resourceParam.options as INodePropertyOptions[]) {
		const operationParam = properties.find(
			(p) => p.name === 'operation' && shownForResource(p, resource.value as string),
		);
		expect(operationParam).toBeDefined();
		for (const op of operationParam!.options as INodePropertyOptions[]) {
			out.push({ resource: resource.name, operation: op.name });
		}
	}
	return out;
}

function rowsOfTable(readme: string): Array<{ resource: string; operation: string }> {
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

/** The text outside fenced code blocks. */
function prose(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The anchors a Markdown file offers on GitHub: headings (GitHub's slugs) and `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
		const slug = heading
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const n = seen.get(slug) ?? 0;
		seen.set(slug, n + 1);
		anchors.add(n === 0 ? slug : `${slug}-${n}`);
	}
	for (const [, id] of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(id);
	return anchors;
}

/** The links of a Markdown file to itself or to another file of this repository. */
function localLinks(markdown: string): Array<{ target: string; anchor?: string }> {
	const out: Array<{ target: string; anchor?: string }> = [];
	for (const [, href] of prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^[a-z]+:/i.test(href)) continue; // https:, mailto:
		const [target, anchor] = href.split('#');
		out.push({ target, anchor });
	}
	return out;
}

describe('README operation table', () => {
	it('lists every operation of the node, and nothing else', () => {
		const key = (o: { resource: string; operation: string }) => `${o.resource} → ${o.operation}`;
		const node = operationsOfNode().map(key).sort();
		const readme = rowsOfTable(read('README.md')).map(key).sort();
		expect(node.length).toBeGreaterThan(0);
		expect(readme).toEqual(node);
	});
});

describe('README Quick start', () => {
	it('has its two commands, npm start and npm test, and both are scripts of package.json', () => {
		const readme = read('README.md');
		const start = readme.indexOf('## Quick start (two commands)');
		expect(start).toBeGreaterThan(-1);
		const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(start));
		expect(block).not.toBeNull();
		const commands = block![1]
			.split('\n')
			.map((line) => line.replace(/#.*/, '').trim())
			.filter(Boolean);
		expect(commands).toEqual(['npm start', 'npm test']);
		const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
		expect(scripts.start).toBeDefined();
		expect(scripts.test).toBeDefined();
	});
});

describe('links between README.md and docs/', () => {
	it('README links to every file of docs/', () => {
		const linked = new Set(localLinks(read('README.md')).map((l) => l.target));
		for (const doc of documents.filter((d) => d !== 'README.md')) {
			expect(linked).toContain(doc);
		}
	});

	it.each(documents)('every link of %s reaches a file and a heading that exist', (doc) => {
		const broken: string[] = [];
		for (const { target, anchor } of localLinks(read(doc))) {
			const file =
				target === ''
					? doc
					: path.posix.normalize(path.posix.join(path.posix.dirname(doc), target));
			if (!existsSync(path.join(root, file))) {
				broken.push(`${target}: no such file`);
				continue;
			}
			if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) {
				broken.push(`${target}#${anchor}: no such heading in ${file}`);
			}
		}
		expect(broken).toEqual([]);
	});

	it('every documentation link of the nodes and credentials reaches a heading of README', () => {
		const anchors = anchorsOf(read('README.md'));
		const sources = ['nodes', 'credentials'].flatMap((dir) =>
			(readdirSync(path.join(root, dir), { recursive: true }) as string[])
				.filter((name) => /\.(ts|json)$/.test(name))
				.map((name) => `${dir}/${name}`),
		);
		const found: string[] = [];
		for (const source of sources) {
			for (const [, anchor] of read(source).matchAll(
				/https:\/\/github\.com\/n8n-nodes-grist\/n8n-nodes-grist#([\w-]+)/g,
			)) {
				found.push(anchor);
				expect({ source, anchor, exists: anchors.has(anchor) }).toEqual({
					source,
					anchor,
					exists: true,
				});
			}
		}
		expect(found.length).toBeGreaterThan(0);
	});
});

describe('the Grist Instant Trigger while n8n is down (docs/TRIGGERS.md)', () => {
	const triggers = read('docs/TRIGGERS.md');
	const down = prose(triggers)
		.slice(triggers.indexOf('### While n8n is down'))
		.replace(/\s+/g, ' ');

	it('never promises delivery after an outage without conditions', () => {
		// self-hosted Grist without Redis drops the queue of a document it closes
		for (const doc of documents) {
			expect(read(doc)).not.toMatch(/keeps retrying and delivers once n8n is back/);
		}
	});

	it("states the retry delays the emulator uses by default (grist-core's 1 s doubling to 64 s)", () => {
		const seconds = webhooksOf(new Store()).retryDelaysMs.map((ms) => ms / 1000);
		expect(seconds).toEqual([1, 2, 4, 8, 16, 32, 64]);
		expect(down).toContain(
			`retries the delivery after ${seconds.slice(0, 3).join(', ')} … ${seconds[seconds.length - 1]} s, then every ${seconds[seconds.length - 1]} s`,
		);
	});
});

describe('the names README gives the nodes are the editor\'s (README "Finding the nodes")', () => {
	const node = new Grist().description;
	const polling = new GristTrigger().description;
	const instant = new GristWebhookTrigger().description;
	// What n8n's node panel shows (test/e2e/editor.test.ts looks at it in the real editor): a
	// trigger's display name without its last word "Trigger"; a trigger whose type is a node's
	// type plus "Trigger" inside that node's entry.
	const panelName = (displayName: string) => displayName.replace(/\s*Trigger$/, '');

	test("the nodes' names, canvas names and panel entries", () => {
		expect([node.displayName, node.defaults.name]).toEqual(['Grist Records & Documents', 'Grist']);
		expect([polling.name, polling.displayName, polling.defaults.name]).toEqual([
			`${node.name}Trigger`,
			'Grist Trigger',
			'Grist Trigger',
		]);
		expect([instant.displayName, instant.defaults.name, panelName(instant.displayName)]).toEqual([
			'Grist Instant Trigger',
			'Grist Instant Trigger',
			'Grist Instant',
		]);
		expect(instant.name.startsWith(`${node.name}Trigger`)).toBe(false);
	});

	test("README's table says where each one is in the panel and what the canvas calls it", () => {
		const readme = read('README.md');
		const section = readme.slice(readme.indexOf('### Finding the nodes'));
		const rows = section
			.slice(0, section.indexOf('\n## '))
			.split('\n')
			.filter((l) => l.startsWith('| **'))
			.map((l) => l.split('|').map((c) => c.trim()));
		expect(rows.map((r) => [r[1], r[3]])).toEqual([
			[`**${node.displayName}**`, 'the action, e.g. *Get many records*'],
			[`**${node.displayName}**`, `*${polling.defaults.name}*`],
			[`**${panelName(instant.displayName)}**`, `*${instant.defaults.name}*`],
		]);
		expect(rows[1][2]).toContain(`**${polling.displayName}**`);
		expect(rows[2][2]).toContain(`**${instant.displayName}**`);
		expect(readme).toContain(`(in the node panel: *${panelName(instant.displayName)}*)`);
	});
});
