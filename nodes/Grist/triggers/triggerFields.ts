/**
 * The fields both triggers (the polling Grist Trigger and the Grist Instant Trigger) show alike:
 * Authentication, Document and Table first, Trigger On, Simplify and the Options collection,
 * each with the trigger's own choices and wording.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { authenticationProperty } from '../parameters/authentication';
import { documentLocator, tableLocator } from '../parameters/locators';

/** Authentication, Document and Table: what the trigger watches. */
export const triggerSourceFields: INodeProperties[] = [
	authenticationProperty,
	documentLocator,
	tableLocator,
];

/** Trigger On: the events of the trigger (`event`). */
export function triggerOnField(
	options: INodePropertyOptions[],
	defaultEvent: string,
): INodeProperties {
	return {
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options,
		default: defaultEvent,
	};
}

/** Simplify (on by default): flat records instead of Grist's own form. */
export function triggerSimplifyField(description: string): INodeProperties {
	return { displayName: 'Simplify', name: 'simplify', type: 'boolean', default: true, description };
}

/** The Options collection (`options`). */
export function triggerOptionsField(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}
