/**
 * What the Service Account operations send: the expiry as the ISO instant Grist stores, and the
 * body of an update, checked so that nothing the user typed is dropped (Grist ignores an empty
 * label or description in an update).
 */
import { encodeCellValue } from '../cells/cellEncoding';
import { InputError } from '../errors/gristAnswers';

/**
 * An expiry date (ISO text, a JS Date or a luxon DateTime from an expression) as an ISO instant
 * in UTC; a date or date-time without an offset is read in `timeZone` (the workflow's).
 */
export function expiryInstant(value: unknown, timeZone: string, field = 'Expires At'): string {
	let seconds: unknown;
	try {
		seconds = value === '' ? null : encodeCellValue(value, `DateTime:${timeZone}`);
	} catch {
		seconds = undefined;
	}
	if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
		throw new InputError(
			value === '' || value === null || value === undefined
				? `${field} is empty`
				: `${field} is not a date: ${JSON.stringify(value)}`,
			field,
			'Enter a date such as 2027-01-31 or 2027-01-31T18:00:00 (the workflow time zone applies), or pick one.',
		);
	}
	return new Date(seconds * 1000).toISOString();
}

/** The fields an update may change, as the user gave them (`undefined`: not given). */
export interface ServiceAccountChanges {
	label?: unknown;
	description?: unknown;
	expiresAt?: unknown;
}

/**
 * The PATCH body for `changes`; at least one field, and no empty label or description (Grist
 * would keep the old one without a word).
 */
export function serviceAccountUpdateBody(
	changes: ServiceAccountChanges,
	timeZone: string,
): { label?: string; description?: string; expiresAt?: string } {
	const body: { label?: string; description?: string; expiresAt?: string } = {};
	for (const [key, field] of [
		['label', 'Label'],
		['description', 'Description'],
	] as const) {
		const value = changes[key];
		if (value === undefined) continue;
		const text = typeof value === 'string' ? value : String(value);
		if (text.trim() === '') {
			throw new InputError(
				`${field} is empty`,
				field,
				`Grist cannot clear the ${field.toLowerCase()} of a service account: enter a new text, or remove ${field} from Update Fields.`,
			);
		}
		body[key] = text;
	}
	if (changes.expiresAt !== undefined) body.expiresAt = expiryInstant(changes.expiresAt, timeZone);
	if (Object.keys(body).length === 0) {
		throw new InputError(
			'Nothing to update',
			'Update Fields',
			'Add Label, Description or Expires At under Update Fields.',
		);
	}
	return body;
}
