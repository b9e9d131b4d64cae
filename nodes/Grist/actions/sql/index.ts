import { operationSelector, resourceModule } from '../operationFrame';
import * as query from './query.operation';

const operation = operationSelector(
	'sql',
	[
		{
			name: 'Run Query',
			value: 'query',
			description:
				'Run a read-only SQL SELECT over the document with ? parameters; one item per result row',
			action: 'Run an SQL query',
		},
	],
	'query',
);

export const sql = resourceModule(
	{
		name: 'SQL Query',
		value: 'sql',
		description: 'Read-only SQL over a document (needs an API key with read access to all of it)',
	},
	operation,
	{ query },
);
