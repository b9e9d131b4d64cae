/**
 * Update Access of an organization, a workspace or a document: the Users rows (email + role) and,
 * below an organization, Max Inherited Role; their fields and reader.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	MAX_INHERITED_ROLE_OPTIONS,
	roleOptions,
	type AccessRow,
	type AccessTarget,
	buildAccessDelta,
	type AccessDelta,
} from '../documents/roles';
import { itemParameterValue } from './read';
import { optionsCollection } from './commonFields';
import { toNodeError } from '../errors/nodeErrors';

/** "Users" rows (email + role) and, for workspaces and documents, "Max Inherited Role". */
export function accessUpdateFields(target: AccessTarget): INodeProperties[] {
	const fields: INodeProperties[] = [
		{
			displayName: 'Users',
			name: 'users',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add User',
			default: {},
			description:
				'Users whose access to add, change or remove. Unknown emails are invited by Grist as new users.',
			options: [
				{
					displayName: 'User',
					name: 'user',
					values: [
						{
							displayName: 'Email',
							name: 'email',
							type: 'string',
							placeholder: 'e.g. name@example.com',
							default: '',
							required: true,
						},
						{
							displayName: 'Role',
							name: 'role',
							type: 'options',
							options: roleOptions(target),
							default: 'editors',
							description: 'The role to give, or Remove Access',
						},
					],
				},
			],
		},
	];
	if (target !== 'org') {
		fields.push(
			optionsCollection([
				{
					displayName: 'Max Inherited Role',
					name: 'maxInheritedRole',
					type: 'options',
					options: MAX_INHERITED_ROLE_OPTIONS,
					default: 'owners',
					description:
						'The highest role users get from the parent (site or workspace). None means only users listed directly have access; lowering it makes you a direct owner.',
				},
			]),
		);
	}
	return fields;
}

/** Reads the rows and the Max Inherited Role of accessUpdateFields. */
export function accessUpdateInput(
	this: IExecuteFunctions,
	target: AccessTarget,
	itemIndex: number,
): { rows: AccessRow[]; maxInheritedRole?: unknown } {
	const none: AccessRow[] = [];
	const rows = itemParameterValue.call(this, 'users.user', itemIndex, none) as AccessRow[];
	if (target === 'org') return { rows };
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	return { rows, maxInheritedRole: options.maxInheritedRole };
}

/**
 * The access change of item `itemIndex` as Grist's `{ delta }` body (buildAccessDelta); a wrong
 * input is an error naming its field and the item.
 */
export function readAccessDelta(
	this: IExecuteFunctions,
	target: AccessTarget,
	itemIndex: number,
): { delta: AccessDelta } {
	try {
		const input = accessUpdateInput.call(this, target, itemIndex);
		return buildAccessDelta(target, input.rows, input.maxInheritedRole);
	} catch (error) {
		throw toNodeError(this.getNode(), error, { itemIndex });
	}
}
