/**
 * Grist's column-oriented answer of GET …/data (`{ id: [1, 2], A: ["x", "y"] }`) as the records
 * GET …/records gives for the same rows.
 */
import type { GristRecord } from './cellValues';
import { isHiddenColumnId } from './tableColumns';

/**
 * The records of `data` as grist-core's /records builds them from the same columns: `{ id,
 * fields }` with the fields in the answer's order, `manualSort` and `gristHelper_*` only with
 * `includeHidden`, and a formula error `["E", name, …]` as a null cell plus `errors[col] = name`
 * (an `errors` key after `fields`, only on rows that have one).
 */
export function columnarToRecords(
	data: Record<string, unknown[]>,
	includeHidden: boolean,
): GristRecord[] {
	const ids = data.id ?? [];
	const keys = Object.keys(data).filter(
		(key) => key !== 'id' && (includeHidden || !isHiddenColumnId(key)),
	);
	const columns = keys.map((key) => data[key]);
	const records = new Array<GristRecord>(ids.length);
	for (let row = 0; row < ids.length; row++) {
		const fields: Record<string, unknown> = {};
		const record: GristRecord = { id: ids[row] as number, fields };
		for (let k = 0; k < keys.length; k++) {
			let value = columns[k][row];
			if (Array.isArray(value) && value[0] === 'E') {
				const errors = (record.errors ??= {});
				if (value[1] !== undefined) errors[keys[k]] = value[1];
				value = null;
			}
			fields[keys[k]] = value;
		}
		records[row] = record;
	}
	return records;
}
