import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../../errors/nodeErrors';
import { InputError, attempt } from '../../errors/gristAnswers';
import { withHint } from '../../errors/hints';
import {
	checkSqlQuery,
	decodeSqlValue,
	normalizeSqlStatement,
	parseSqlArgs,
	referencedTables,
	resultColumnTypes,
} from '../../query/sqlQuery';
import { documentIdValue, documentLocator } from '../../parameters/locators';
import { fetchColumns } from '../../api/columns';
import { fetchTables } from '../../api/tables';
import { runSql } from '../../api/sql';
import { itemParameter, itemParameterValue } from '../../parameters/read';
import { operationDescription, perItem } from '../operationFrame';
import { optionsCollection } from '../../parameters/commonFields';

const properties: INodeProperties[] = [
	documentLocator,
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. SELECT Name, Amount FROM Orders WHERE Amount > ? ORDER BY Amount DESC',
		description:
			'A read-only SELECT over the tables (table and column IDs as in Grist, case-sensitive). Put a ? where each parameter goes; never paste values into the text.',
	},
	{
		displayName: 'Parameters',
		name: 'parameters',
		type: 'string',
		default: '',
		placeholder: 'e.g. [100]',
		description:
			'The values of the ? placeholders, in order: a JSON array (e.g. ["Open", 100]) or an expression returning an array. True/false are sent as 1/0 and dates as epoch seconds, as Grist stores them.',
	},
	optionsCollection([
		{
			displayName: 'Decode Values',
			name: 'decode',
			type: 'boolean',
			default: true,
			description:
				'Whether to convert values of result columns named like a column of the queried tables as Get Many does (toggles as true/false, dates as ISO text, lists as arrays); other values stay as SQLite returns them',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1000,
			description:
				'Milliseconds the statement may run; Grist caps it at its GRIST_SQL_TIMEOUT_MSEC (1000 by default)',
		},
	]),
];

export const description = operationDescription('sql', 'query', properties);

/** POST /api/docs/{doc}/sql: one output item per result row. */
export const execute = perItem(async function (client, itemIndex) {
	const docId = documentIdValue.call(this, itemIndex);
	const sql = String(itemParameter.call(this, 'query', itemIndex, '') ?? '');
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as {
		decode?: boolean;
		timeout?: number;
	};
	const rawArgs = itemParameterValue.call(this, 'parameters', itemIndex, '' as unknown);
	const checked = attempt(() => {
		const list = parseSqlArgs(rawArgs);
		checkSqlQuery(sql, list);
		return list;
	});
	if (checked.error) {
		if (!(checked.error instanceof InputError)) throw checked.error;
		throw toNodeError(this.getNode(), checked.error, { itemIndex, where: 'field' });
	}
	const args = checked.value;
	if (client.isOAuth) {
		throw new NodeOperationError(
			this.getNode(),
			`Grist does not run SQL for OAuth2 connections (item ${itemIndex})`,
			{
				itemIndex,
				description:
					'Set Authentication to API Key with a Grist Records & Documents (Community Node) API credential, or use Record → Get Many.',
			},
		);
	}
	const timeout = options.timeout ?? 1000;
	if (!Number.isInteger(timeout) || timeout < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`The Timeout of item ${itemIndex} must be a whole number of milliseconds, at least 1`,
			{ itemIndex },
		);
	}
	let rows: Array<Record<string, unknown>>;
	try {
		rows = await runSql(client, docId, normalizeSqlStatement(sql), args, timeout, itemIndex);
	} catch (error) {
		throw withHint(error, 'sql.query');
	}
	if (options.decode === false || rows.length === 0) return rows as IDataObject[];
	const referenced = referencedTables(sql);
	const tables = (await fetchTables(client, docId, { columns: true, itemIndex })).filter((t) =>
		referenced.some((r) => r.toLowerCase() === t.id.toLowerCase()),
	);
	const withColumns = await Promise.all(
		tables.map(async (t) => ({
			id: t.id,
			columns:
				t.columns ??
				(await fetchColumns(client, { docId, tableId: t.id }, { hidden: true, itemIndex })),
		})),
	);
	const types = resultColumnTypes(withColumns, referenced);
	return rows.map((row) => {
		const out: IDataObject = {};
		for (const [key, value] of Object.entries(row))
			out[key] = decodeSqlValue(value, types[key]) as IDataObject[string];
		return out;
	});
});
