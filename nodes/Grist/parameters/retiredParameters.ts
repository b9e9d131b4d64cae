/**
 * The parameters earlier shapes of the nodes had, by node: declared as hidden fields so that a
 * node saved with them fails, naming them, instead of running as if they were not there (see
 * savedParameters.ts). A parameter removed from a released node version does not come here: the
 * old version keeps it, and the change goes into a new node version (docs/RELEASING.md).
 */
import type { INodeProperties } from 'n8n-workflow';

import { retiredProperty, type RetiredParameter } from './savedParameters';

const WEBHOOK_WRITES = { resource: ['webhook'], operation: ['create', 'update'] };

/** Get Many's and Webhook → Create / Update's filters before the one Filter. */
export const GRIST_RETIRED: RetiredParameter[] = [
	{
		name: 'filters',
		show: { resource: ['record'], operation: ['getAll'] },
		instead: 'Record → Get Many reads Filter → Conditions: set the conditions again there.',
	},
	{
		name: 'conditionType',
		show: WEBHOOK_WRITES,
		instead: 'Webhook → Create and Update read Filter (None, Conditions, Formula): set it again.',
	},
	{
		name: 'conditionFilters',
		show: WEBHOOK_WRITES,
		instead: 'Set the column conditions again in Filter → Conditions.',
	},
	{
		name: 'conditionFormula',
		show: WEBHOOK_WRITES,
		instead: 'Set the formula again in Filter → Formula.',
	},
];

/** The Grist Trigger's Filter (JSON) option before the one Filter. */
export const GRIST_TRIGGER_RETIRED: RetiredParameter[] = [
	{
		name: 'filter',
		in: 'options',
		instead: 'The trigger reads Filter → JSON, which takes the same object: set it there.',
	},
];

/** The Grist Instant Trigger's condition before the one Filter. */
export const GRIST_INSTANT_TRIGGER_RETIRED: RetiredParameter[] = [
	{
		name: 'conditionType',
		instead: 'The trigger reads Filter (None, Conditions, Formula): set it again.',
	},
	{ name: 'conditionFilters', instead: 'Set the column conditions again in Filter → Conditions.' },
	{ name: 'conditionFormula', instead: 'Set the formula again in Filter → Formula.' },
];

/** The hidden fields of a node's top-level retired parameters. */
export const retiredProperties = (retired: RetiredParameter[]): INodeProperties[] =>
	retired.filter((r) => !r.in).map(retiredProperty);

/** The hidden options of a collection's retired parameters (e.g. `options`). */
export const retiredOptions = (
	retired: RetiredParameter[],
	collection: string,
): INodeProperties[] => retired.filter((r) => r.in === collection).map(retiredProperty);
