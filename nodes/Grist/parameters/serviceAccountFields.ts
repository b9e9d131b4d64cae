/**
 * The fields of the Service Account operations and their readers: the Service Account (a
 * resource locator), the Label, Description and Expires At of Create, the Update Fields of Update.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { expiryInstant, serviceAccountUpdateBody } from '../admin/serviceAccountBodies';
import type { ServiceAccountBody } from '../api/serviceAccounts';
import { toNodeError } from '../errors/nodeErrors';
import { additionalFieldsCollection, updateFieldsCollection } from './commonFields';
import { locatorValue } from './locators';
import { itemParameter, itemParameterValue } from './read';

export const serviceAccountLocator: INodeProperties = {
	displayName: 'Service Account',
	name: 'serviceAccount',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'A service account of the user of the API key',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchServiceAccounts', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 12',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\s*\\d+\\s*$',
						errorMessage: 'A service account ID is a whole number',
					},
				},
			],
		},
	],
};

/** The Service Account of item `itemIndex` as a number; empty or not a number is an input error. */
export function serviceAccountIdValue(this: IExecuteFunctions, itemIndex: number): number {
	const text = locatorValue(this, 'serviceAccount', itemIndex);
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		throw new NodeOperationError(
			this.getNode(),
			text === ''
				? `The Service Account field is empty (item ${itemIndex})`
				: `The Service Account ID "${text}" is not a whole number (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Pick a service account from the list, or enter its ID (Service Account → Get Many lists them).',
			},
		);
	}
	return Number(text);
}

const expiresAtField: INodeProperties = {
	displayName: 'Expires At',
	name: 'expiresAt',
	type: 'dateTime',
	default: '',
	description:
		'When the service account stops working (its key is refused from then on); a date without a time zone is in the workflow time zone',
};

const labelField: INodeProperties = {
	displayName: 'Label',
	name: 'label',
	type: 'string',
	default: '',
	placeholder: 'e.g. n8n invoices workflow',
	description: 'A short name to recognise the service account by',
};

const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	description: 'What the service account is for',
};

/** Update's version of a field, without example: Grist keeps the old value when given an empty one. */
function notClearable(field: INodeProperties): INodeProperties {
	const updated: INodeProperties = {
		...field,
		description: `${field.description} (Grist cannot clear it)`,
	};
	delete updated.placeholder;
	return updated;
}

/** The fields of Create. */
export const serviceAccountCreateFields: INodeProperties[] = [
	{ ...expiresAtField, required: true },
	labelField,
	additionalFieldsCollection([descriptionField]),
];

/** The fields of Update. */
export const serviceAccountUpdateFields: INodeProperties[] = [
	updateFieldsCollection([
		notClearable(descriptionField),
		expiresAtField,
		notClearable(labelField),
	]),
];

/** An input error of the service account fields as n8n's error, naming the field and the item. */
function fieldError(this: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	return toNodeError(this.getNode(), error, { itemIndex, where: 'item' });
}

/** The body of Create for item `itemIndex`. */
export function readServiceAccountCreate(
	this: IExecuteFunctions,
	itemIndex: number,
): ServiceAccountBody {
	const label = itemParameter.call(this, 'label', itemIndex, '') as string;
	const extra = itemParameterValue.call(this, 'additionalFields', itemIndex, {}) as IDataObject;
	const body: ServiceAccountBody = {};
	try {
		body.expiresAt = expiryInstant(
			itemParameterValue.call(this, 'expiresAt', itemIndex, '' as unknown),
			this.getTimezone(),
		);
	} catch (error) {
		throw fieldError.call(this, error, itemIndex);
	}
	if (String(label ?? '') !== '') body.label = String(label);
	if (extra.description !== undefined && extra.description !== '')
		body.description = String(extra.description);
	return body;
}

/** The body of Update for item `itemIndex` (at least one field, none of them empty). */
export function readServiceAccountUpdate(
	this: IExecuteFunctions,
	itemIndex: number,
): ServiceAccountBody {
	const fields = itemParameterValue.call(this, 'updateFields', itemIndex, {}) as IDataObject;
	try {
		return serviceAccountUpdateBody(fields, this.getTimezone());
	} catch (error) {
		throw fieldError.call(this, error, itemIndex);
	}
}
