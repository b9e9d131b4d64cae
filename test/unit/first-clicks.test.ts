/**
 * What the editor shows on a new user's first clicks: column types in words (the column mapper,
 * the conditions' column list), no column mapper before a table is picked, and error headlines
 * in one style.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { headline } from '../../nodes/Grist/errors/nodeErrors';
import {
	columnTypeText,
	mapperLabel,
	type GristColumn,
} from '../../nodes/Grist/cells/tableColumns';
import { rl } from '../harness/builders';

const column = (c: Partial<GristColumn> & { id: string; type: string }): GristColumn => ({
	label: c.id,
	isFormula: false,
	formula: '',
	widgetOptions: {},
	hidden: false,
	fields: {},
	...c,
});

describe('column types in words', () => {
	it.each([
		['Ref:Clients', 'Reference to Clients: row ID'],
		['RefList:Tags', 'Reference List to Tags: row IDs, separated by commas (or a JSON array)'],
		['Attachments', 'Attachments: IDs'],
		['Date', 'Date'],
		['DateTime:Europe/Paris', 'DateTime (Europe/Paris)'],
		['Int', 'Integer'],
		['Bool', 'Toggle'],
		['ChoiceList', 'Choice List'],
		['Numeric', 'Numeric'],
		['SomethingNew', 'SomethingNew'],
	])('%s reads "%s"', (type, text) => {
		expect(columnTypeText(type)).toBe(text);
	});

	// n8n cuts a mapper label after about 30 characters and shows no hover text: the column's
	// label first, then what the field takes in a few words
	it.each([
		[{ id: 'Client', type: 'Ref:Clients' }, 'Client (row ID)'],
		[{ id: 'Buyers', type: 'RefList:Customers' }, 'Buyers (row IDs)'],
		[{ id: 'Files', label: 'Invoice', type: 'Attachments' }, 'Invoice (attachment IDs)'],
		[{ id: 'Tags', type: 'ChoiceList' }, 'Tags (a, b or JSON array)'],
		[{ id: 'Due', type: 'Date' }, 'Due (date)'],
		[{ id: 'Sent', type: 'DateTime:Europe/Paris' }, 'Sent (date & time)'],
		[{ id: 'Paid', type: 'Bool' }, 'Paid (toggle)'],
		[
			{ id: 'Total', type: 'Numeric', isFormula: true, formula: '$A * 2' },
			'Total (formula, read-only)',
		],
		[{ id: 'New', type: 'SomethingNew' }, 'New (SomethingNew)'],
	] as Array<[Partial<GristColumn> & { id: string; type: string }, string]>)(
		'the mapper labels %o "%s"',
		(spec, label) => {
			expect(mapperLabel(column(spec))).toBe(label);
			expect(label.length).toBeLessThanOrEqual(30);
		},
	);

	it('a Reference that shows another column takes its values too', () => {
		expect(mapperLabel(column({ id: 'Client', type: 'Ref:Clients' }), 'Name')).toBe(
			'Client (row ID or Name)',
		);
		expect(mapperLabel(column({ id: 'Buyers', type: 'RefList:Customers' }), 'Name')).toBe(
			'Buyers (row IDs or Name)',
		);
	});
});

describe('Record → Create before a table is picked', () => {
	const { description } = new Grist();
	const mapperShown = (parameters: INodeParameters) =>
		description.properties
			.filter((p) => p.type === 'resourceMapper')
			.some((p) =>
				NodeHelpers.displayParameter(
					{ resource: 'record', operation: 'create', dataMode: 'mapper', ...parameters },
					p,
					{ typeVersion: 1 },
					description,
				),
			);

	it('shows no column mapper (n8n would show "No columns found" in red) until a document and table are picked', () => {
		expect(mapperShown({ document: rl('list', ''), table: rl('list', '') })).toBe(false);
		expect(mapperShown({ document: rl('list', 'doc1'), table: rl('list', '') })).toBe(false);
		expect(mapperShown({ document: rl('list', 'doc1'), table: rl('list', 'Tasks') })).toBe(true);
		expect(
			mapperShown({ document: rl('url', 'https://docs.getgrist.com/doc1'), table: rl('id', 'T') }),
		).toBe(true);
		expect(mapperShown({ document: rl('id', 'doc1'), table: rl('id', '={{ $json.t }}') })).toBe(
			true,
		);
	});
});

describe('error headlines', () => {
	it("capitalise Grist's first letter and keep the rest of its text", () => {
		expect(headline('document not found')).toBe('Document not found');
		expect(headline('Table not found "Taskz"')).toBe('Table not found "Taskz"');
		expect(headline('')).toBe('');
	});
});
