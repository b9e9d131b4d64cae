/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test reads the node sources */
/**
 * Texts users read in the editor. n8n renders descriptions, hints, notices and validation messages
 * as HTML: a placeholder written `<team>` is an unknown tag and vanishes ("https://.getgrist.com").
 * Every text of the nodes and the credential must read as it is written. And the canvas subtitle
 * of every operation (an n8n expression) must read as words, not as raw parameter values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeParameters, INodePropertyOptions, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import * as ts from 'typescript';

import { GristRecordsApi } from '../../credentials/GristRecordsApi.credentials';
import { Grist } from '../../nodes/Grist/Grist.node';
import { subtitleExpression } from '../../nodes/Grist/actions/resources';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { rl, shownForResource } from '../harness/builders';

/** Tags n8n's HTML sanitizer keeps and that our texts may use on purpose (links, code). */
const HTML_TAGS = new Set(['a', 'b', 'br', 'code', 'em', 'i', 'li', 'ol', 'p', 'strong', 'ul']);

/** `<word>`-like pieces of `text` that an HTML renderer would swallow. */
function swallowedTags(text: string): string[] {
	const found: string[] = [];
	for (const m of text.matchAll(/<\/?([A-Za-z][\w-]*)[^<>]*>/g)) {
		if (!HTML_TAGS.has(m[1].toLowerCase())) found.push(m[0]);
	}
	return found;
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory()
			? sourceFiles(path.join(dir, e.name))
			: e.name.endsWith('.ts')
				? [path.join(dir, e.name)]
				: [],
	);
}

/** Every string reachable from `value`, with its path (properties, options, modes, validation…). */
function strings(value: unknown, path: string, out: Array<{ path: string; text: string }> = []) {
	if (typeof value === 'string') out.push({ path, text: value });
	else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${path}[${i}]`, out));
	else if (value && typeof value === 'object') {
		for (const [k, v] of Object.entries(value)) {
			// technical values, never shown: regexes, parameter names, option values, defaults
			if (['regex', 'value', 'default', 'routing'].includes(k)) continue;
			strings(v, `${path}.${k}`, out);
		}
	}
	return out;
}

describe('texts shown in the editor', () => {
	it('the check catches a swallowed placeholder and lets links and code through', () => {
		expect(swallowedTags('e.g. https://<team>.getgrist.com or https://<host>/o/<team>')).toEqual([
			'<team>',
			'<host>',
			'<team>',
		]);
		expect(
			swallowedTags(
				'Choose, or use an <a href="https://docs.n8n.io/">expression</a>; <code>NOW()</code>',
			),
		).toEqual([]);
		expect(swallowedTags('a < b and c > d, 2 <= 3')).toEqual([]);
	});

	const credential = new GristRecordsApi();
	const sources: Array<[string, unknown]> = [
		['Grist node', new Grist().description],
		['Grist Trigger', new GristTrigger().description],
		['Grist Instant Trigger', new GristWebhookTrigger().description],
		// not the credential test's messages: n8n shows them as text in the credential's banner
		[
			'Grist API credential',
			{ displayName: credential.displayName, properties: credential.properties },
		],
	];

	it.each(sources)(
		'%s: no text has a <word> that n8n would render as an HTML tag',
		(_name, description) => {
			const all = strings(description, '');
			expect(all.length).toBeGreaterThan(3);
			const bad = all
				.filter((s) => swallowedTags(s.text).length > 0)
				.map((s) => `${s.path}: ${s.text}`);
			expect(bad).toEqual([]);
		},
	);

	// Errors thrown at run time: n8n's error view renders a description (and a NodeApiError's hint)
	// as HTML, so every string of the node code is held to the same rule.
	it('no string in the node code (run-time errors, hints, list search) has a <word>', () => {
		const bad: string[] = [];
		for (const file of sourceFiles(path.join(__dirname, '../../nodes'))) {
			const source = ts.createSourceFile(
				file,
				readFileSync(file, 'utf8'),
				ts.ScriptTarget.ES2022,
				true,
			);
			const visit = (node: ts.Node): void => {
				if (
					ts.isStringLiteral(node) ||
					ts.isNoSubstitutionTemplateLiteral(node) ||
					ts.isTemplateLiteralToken(node)
				) {
					if (swallowedTags(node.text).length > 0) {
						const { line } = source.getLineAndCharacterOfPosition(node.getStart());
						bad.push(
							`${path.relative(path.join(__dirname, '../..'), file)}:${line + 1}: ${node.text}`,
						);
					}
				}
				ts.forEachChild(node, visit);
			};
			visit(source);
		}
		expect(bad).toEqual([]);
	});

	it('the walk reaches resource locator modes and their validation messages', () => {
		const all = strings(new Grist().description, '').map((s) => s.path);
		expect(
			all.some((p) => /\.modes\[\d+\]\.validation\[\d+\]\.properties\.errorMessage$/.test(p)),
		).toBe(true);
		expect(all.some((p) => /\.modes\[\d+\]\.placeholder$/.test(p))).toBe(true);
		expect(all.some((p) => /\.options\[\d+\]\.description$/.test(p))).toBe(true);
	});
});

/** The subtitle as n8n's editor computes it (its expression engine, the node's parameters). */
function subtitleOf(
	nodeType: INodeType,
	type: string,
	parameters: Record<string, unknown>,
): unknown {
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node = {
		id: '1',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: parameters as INodeParameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		node,
		nodeType.description.subtitle,
		'internal',
		{},
	);
}

describe('canvas subtitles', () => {
	const grist = new Grist();
	const properties = grist.description.properties;
	const resources = (properties.find((p) => p.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	const cases = resources.flatMap((r) => {
		const operation = properties.find(
			(p) => p.name === 'operation' && shownForResource(p, String(r.value)),
		);
		return ((operation?.options ?? []) as INodePropertyOptions[]).map((o) => ({
			resource: String(r.value),
			operation: String(o.value),
			action: o.action,
		}));
	});

	it('is the one generated from the Operation options (else run `npm run subtitle`)', () => {
		expect(grist.description.subtitle).toBe(subtitleExpression());
	});

	it('every resource has operations', () => {
		expect(resources.length).toBeGreaterThanOrEqual(9);
		for (const r of resources) expect(cases.some((c) => c.resource === String(r.value))).toBe(true);
		expect(cases.length).toBeGreaterThan(30);
	});

	it.each(cases)(
		'$resource / $operation reads as its action',
		({ resource, operation, action }) => {
			const subtitle = subtitleOf(grist, 'n8n-nodes-grist.grist', { resource, operation });
			expect(action).toBeDefined();
			expect(subtitle).toBe(action);
			expect(subtitle).toMatch(/^[A-Z][a-z]+( [A-Za-z()]+)+$/);
			expect(subtitle).not.toContain(':');
		},
	);

	it('the words people read: records, not raw values', () => {
		expect(
			subtitleOf(grist, 'n8n-nodes-grist.grist', { resource: 'record', operation: 'getAll' }),
		).toBe('Get many records');
		expect(
			subtitleOf(grist, 'n8n-nodes-grist.grist', { resource: 'record', operation: 'create' }),
		).toBe('Create records');
		expect(
			subtitleOf(grist, 'n8n-nodes-grist.grist', { resource: 'record', operation: 'upsert' }),
		).toBe('Create or update records');
	});

	// a node added from the panel is named after its action: the subtitle says what it works on
	it('once a table is picked: its name (a table ID is a name); else the action', () => {
		const sub = (parameters: Record<string, unknown>) =>
			subtitleOf(grist, 'n8n-nodes-grist.grist', {
				resource: 'record',
				operation: 'create',
				document: rl('id', 'aBc123xYz'),
				...parameters,
			});
		expect(sub({ table: { ...rl('list', 'Orders'), cachedResultName: 'Orders' } })).toBe('Orders');
		expect(sub({ table: rl('id', 'Order_Lines') })).toBe('Order_Lines');
		expect(sub({ table: rl('list', '') })).toBe('Create records');
		expect(sub({ table: rl('id', '={{ $json.table }}') })).toBe('Create records');
		expect(sub({})).toBe('Create records');
	});

	it("record operations say records, never rows (row ID is the name of Grist's id)", () => {
		for (const resource of ['record', 'columnar']) {
			const operation = properties.find(
				(p) => p.name === 'operation' && shownForResource(p, resource),
			);
			for (const o of (operation?.options ?? []) as INodePropertyOptions[]) {
				for (const text of [o.name, o.action ?? '', o.description ?? '']) {
					expect(text.replace(/row IDs?/g, '')).not.toMatch(/\brows?\b/i);
				}
				expect(`${o.action ?? ''} ${o.description ?? ''}`).toMatch(/\brecords?\b/);
			}
		}
	});

	it('the trigger reads "Row added" / "Row added or updated"', () => {
		const trigger = new GristTrigger();
		expect(
			subtitleOf(trigger, 'n8n-nodes-grist.gristTrigger', {
				event: 'rowAdded',
				table: rl('id', 'Orders'),
			}),
		).toBe('Orders');
		expect(
			subtitleOf(trigger, 'n8n-nodes-grist.gristTrigger', {
				event: 'rowAdded',
				table: rl('id', '={{ $json.t }}'),
			}),
		).toBe('Row added');
		expect(subtitleOf(trigger, 'n8n-nodes-grist.gristTrigger', { event: 'rowAdded' })).toBe(
			'Row added',
		);
		expect(
			subtitleOf(trigger, 'n8n-nodes-grist.gristTrigger', { event: 'rowAddedOrUpdated' }),
		).toBe('Row added or updated');
	});

	it('the instant trigger reads "Row added" / "Row updated" / "Row added or updated" and says how it differs', () => {
		const trigger = new GristWebhookTrigger();
		const type = 'n8n-nodes-grist.gristWebhookTrigger';
		expect(subtitleOf(trigger, type, { event: 'add' })).toBe('Row added');
		expect(subtitleOf(trigger, type, { event: 'update' })).toBe('Row updated');
		expect(subtitleOf(trigger, type, { event: 'addOrUpdate' })).toBe('Row added or updated');
		expect(subtitleOf(trigger, type, { event: 'add', table: rl('list', 'Orders') })).toBe('Orders');
		expect(trigger.description.description).toMatch(/Grist must be able to reach this n8n/);
		// the way out, and the admin settings, in the notice (a short line and a README link)
		const notice = trigger.description.properties.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/use the Grist Trigger \(polling\)/);
		expect(notice?.displayName).toContain('#grist-instant-trigger');
		expect(notice?.displayName).not.toMatch(/WEBHOOK_URL|ALLOWED_WEBHOOK_DOMAINS/);
	});

	// The editor's own texts for a webhook trigger read "Pull in events from Grist Instant".
	it('the instant trigger panel says what to do in Grist', () => {
		const { description } = new GristWebhookTrigger();
		expect(description.eventTriggerDescription).toBe(
			'Waiting for you to add a row to the table in Grist, or to edit one of its cells',
		);
		expect(description.triggerPanel).toMatchObject({
			header: 'In Grist, add a row to the table or edit one of its cells',
		});
		// while listening, n8n adds its own line built from the display name ("Go to Grist Instant
		// and create an event"); the help under it says what to do in Grist
		const help = (description.triggerPanel as { executionsHelp: { inactive: string } })
			.executionsHelp.inactive;
		expect(help).toMatch(/^Click "Listen for test event", then open the document in Grist/);
		expect(help).toMatch(/deleted row is noticed only with the next added or edited row/);
		expect(description.activationMessage).toMatch(/^Grist now calls this workflow/);
	});

	// n8n's own Grist node reads "Consume Grist API" in the node panel: ours are as short, and
	// say what they add.
	it.each([
		['Grist', new Grist().description.description],
		['Grist Trigger', new GristTrigger().description.description],
		['Grist Instant Trigger', new GristWebhookTrigger().description.description],
	])('%s: the node panel description is short (16 words at most)', (_name, text) => {
		expect(text.split(/\s+/).length).toBeLessThanOrEqual(16);
	});

	// n8n's node panel lists a trigger's events as "On <name>" (or the option's `action`), and the
	// polling trigger merged into the Grist node's entry: without these words both lists read alike.
	it('the node panel can tell the two triggers apart: polling (on a schedule) vs instant (Grist calls n8n)', () => {
		const events = (node: INodeType) =>
			(node.description.properties.find((p) => p.name === 'event')?.options ??
				[]) as INodePropertyOptions[];
		const polling = events(new GristTrigger());
		const instant = events(new GristWebhookTrigger());
		expect(polling.length).toBe(5);
		expect(instant.length).toBe(4);
		for (const o of polling) {
			expect(o.action).toMatch(/^On row .*\(polling\)$/);
			expect(o.description).toMatch(/on a schedule$/);
			// the dropdown cuts longer descriptions
			expect(o.description?.length).toBeLessThanOrEqual(60);
		}
		for (const o of instant) {
			expect(o.action).toMatch(/^On row .*\(instant\)$/);
			expect(o.description).toMatch(/^Grist calls n8n at once/);
		}
		expect(new GristTrigger().description.description).toMatch(
			/polling trigger \(works anywhere\)/,
		);
	});
});

describe('where users find their Grist API key', () => {
	// Grist's own words (grist-core 1.7.17, app/client/ui/AccountWidget.ts: the avatar menu's
	// "Account settings"; AccountLeftPanel.ts: the page "Developer"; AccountPage.ts: its section
	// "API Key", whose button is "Create"), the same on getgrist.com.
	const PLACE = 'Account settings → Developer → API Key';
	const repo = path.join(__dirname, '..', '..');
	const texts = [
		...sourceFiles(path.join(repo, 'credentials')),
		...sourceFiles(path.join(repo, 'nodes')),
		path.join(repo, 'README.md'),
		...readdirSync(path.join(repo, 'docs')).map((f) => path.join(repo, 'docs', f)),
	].map((file) => ({ file: path.relative(repo, file), text: readFileSync(file, 'utf8') }));

	test('no text names the old place (Profile Settings → API)', () => {
		const old = texts.filter(({ text }) => /profile settings/i.test(text)).map((t) => t.file);
		expect(old).toEqual([]);
	});

	test('the credential field, the credential test and the errors about the key name the place', () => {
		expect(new GristRecordsApi().properties.find((p) => p.name === 'apiKey')?.description).toBe(
			`Your Grist API key, from ${PLACE} in Grist`,
		);
		const naming = texts.filter(({ text }) => text.includes(PLACE)).map((t) => t.file);
		expect(naming).toEqual(
			expect.arrayContaining([
				'credentials/GristRecordsApi.credentials.ts',
				'nodes/Grist/api/client.ts',
				'nodes/Grist/errors/gristAnswers.ts',
				'nodes/Grist/errors/hints.ts',
				'README.md',
				'docs/DEVELOPMENT.md',
			]),
		);
	});
});
