/**
 * Grist's column-oriented answer of GET …/data (`{ id: [1, 2], A: ["x", "y"] }`) as the records
 * GET …/records gives for the same rows.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	decodeCellValue,
	epochToIsoDate,
	epochToIsoDateTime,
	isFiniteNumber,
	type GristRecord,
} from './cellValues';
import { isHiddenColumnId } from './tableColumns';

/** The ids of the columns of `data` that a read returns: hidden ones only with `includeHidden`. */
function shownKeys(data: Record<string, unknown[]>, includeHidden: boolean): string[] {
	return Object.keys(data).filter(
		(key) => key !== 'id' && (includeHidden || !isHiddenColumnId(key)),
	);
}

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
	const keys = shownKeys(data, includeHidden);
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

/**
 * What `simplifyRecord` gives for each of `columnarToRecords(data, includeHidden)`'s records, built
 * from the columns in one pass, without the records in between: `{ id, ...fields }` in the
 * answer's order, a formula error as a null cell plus `errors` (last, only when it names one),
 * lists and typed codes decoded, the numbers of Date and DateTime columns (`columnTypes`) as text.
 * A Date column's text is made once per distinct date, as dates repeat from row to row.
 */
export function columnarToSimplified(
	data: Record<string, unknown[]>,
	includeHidden: boolean,
	columnTypes: Record<string, string>,
): IDataObject[] {
	const ids = data.id ?? [];
	const keys = shownKeys(data, includeHidden);
	const columns = keys.map((key) => data[key]);
	const types = keys.map((key) => columnTypes[key]);
	const dateTexts = keys.map((key, k) =>
		types[k] === 'Date' ? new Map<number, string>() : undefined,
	);
	const dateTimes = keys.map((key, k) => types[k]?.startsWith('DateTime') === true);
	const out = new Array<IDataObject>(ids.length);
	for (let row = 0; row < ids.length; row++) {
		const json: IDataObject = { id: ids[row] as number };
		let errors: IDataObject | undefined;
		for (let k = 0; k < keys.length; k++) {
			let value = columns[k][row];
			if (typeof value === 'object') {
				if (Array.isArray(value) && value[0] === 'E') {
					if (value[1] !== undefined) (errors ??= {})[keys[k]] = value[1] as string;
					value = null;
				} else if (value !== null) value = decodeCellValue(value, types[k]);
			} else if (isFiniteNumber(value)) {
				const texts = dateTexts[k];
				if (texts) {
					let text = texts.get(value);
					if (text === undefined) texts.set(value, (text = epochToIsoDate(value)));
					value = text;
				} else if (dateTimes[k]) value = epochToIsoDateTime(value);
			}
			json[keys[k]] = value as IDataObject[string];
		}
		if (errors) json.errors = errors;
		out[row] = json;
	}
	return out;
}
