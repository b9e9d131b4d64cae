import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as exportTable from './exportTable.operation';
import * as exportWorkbook from './exportWorkbook.operation';
import * as get from './get.operation';
import * as getAccess from './getAccess.operation';
import * as getAll from './getAll.operation';
import * as move from './move.operation';
import * as update from './update.operation';
import * as updateAccess from './updateAccess.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['document'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			description: 'Create an empty document in a workspace',
			action: 'Create a document',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a document permanently',
			action: 'Delete a document',
		},
		{
			name: 'Export Table (CSV)',
			value: 'exportTable',
			description: 'Download one table as a CSV file',
			action: 'Export a table as CSV',
		},
		{
			name: 'Export Workbook (XLSX)',
			value: 'exportWorkbook',
			description: 'Download the whole document or one table as an Excel file',
			action: 'Export a document as XLSX',
		},
		{ name: 'Get', value: 'get', description: 'Get a document', action: 'Get a document' },
		{
			name: 'Get Access',
			value: 'getAccess',
			description: 'List the users with access to a document, one item per user',
			action: 'Get access of a document',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the documents of a workspace or a site',
			action: 'Get many documents',
		},
		{
			name: 'Move',
			value: 'move',
			description: 'Move a document to another workspace',
			action: 'Move a document',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Rename or pin a document',
			action: 'Update a document',
		},
		{
			name: 'Update Access',
			value: 'updateAccess',
			description:
				"Add, change or remove users' roles and the inherited-role ceiling of a document",
			action: 'Update access of a document',
		},
	],
	default: 'get',
};

export const document: ResourceModule = {
	option: {
		name: 'Document',
		value: 'document',
		description: 'A Grist document (a database of tables)',
	},
	description: [
		operation,
		...create.description,
		...del.description,
		...exportTable.description,
		...exportWorkbook.description,
		...get.description,
		...getAccess.description,
		...getAll.description,
		...move.description,
		...update.description,
		...updateAccess.description,
	],
	operations: {
		create: create.execute,
		delete: del.execute,
		exportTable: exportTable.execute,
		exportWorkbook: exportWorkbook.execute,
		get: get.execute,
		getAccess: getAccess.execute,
		getAll: getAll.execute,
		move: move.execute,
		update: update.execute,
		updateAccess: updateAccess.execute,
	},
};
