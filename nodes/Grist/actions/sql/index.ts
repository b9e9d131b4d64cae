import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import * as query from './query.operation';

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['sql'] } },
	options: [
		{
			name: 'Run Query',
			value: 'query',
			description:
				'Run a read-only SQL SELECT over the document with ? parameters; one item per result row',
			action: 'Run an SQL query',
		},
	],
	default: 'query',
};

export const sql: ResourceModule = {
	option: {
		name: 'SQL Query',
		value: 'sql',
		description: 'Read-only SQL over a document (needs an API key with read access to all of it)',
	},
	description: [operation, ...query.description],
	operations: { query: query.execute },
};
