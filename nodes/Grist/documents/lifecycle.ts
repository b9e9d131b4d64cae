/**
 * Pure helpers of the document lifecycle operations: a document's URL, the backup's file name,
 * the checks on user actions given as JSON (Apply Actions), the file name an import sends and
 * Grist's answer for the document a failed import leaves.
 */
import { InputError } from '../errors/gristAnswers';

/** The address of a document in Grist's web app (`<server>/doc/<id>`, which Grist redirects). */
export function documentUrl(serverBase: string, docId: string): string {
	return `${serverBase.replace(/\/+$/, '')}/doc/${encodeURIComponent(docId)}`;
}

/** The `.grist` file name: the one given (extension added), else Grist's, else `<docId>.grist`. */
export function backupFileName(
	given: string,
	fromServer: string | undefined,
	docId: string,
): string {
	const name = given.trim();
	if (name !== '') return name.toLowerCase().endsWith('.grist') ? name : `${name}.grist`;
	if (fromServer && fromServer.trim() !== '') return fromServer;
	return `${docId}.grist`;
}

const FIELD = 'User Actions (JSON)';
const EXAMPLE = '[["AddRecord", "Table1", null, {"A": 1}]]';

/**
 * Grist user actions from a JSON text or value: a non-empty list of lists, each starting with the
 * action's name (e.g. `["RemoveTable", "Old"]`). A single action (a list starting with a name)
 * is taken as a list of one. Throws an InputError saying which action is wrong.
 */
export function parseUserActions(raw: unknown): unknown[][] {
	let value = raw;
	if (typeof raw === 'string') {
		const text = raw.trim();
		if (text === '')
			throw new InputError(`it is empty. Enter a list of actions, e.g. ${EXAMPLE}`, FIELD);
		let problem: string | undefined;
		try {
			value = JSON.parse(text);
		} catch (error) {
			problem = (error as Error).message;
		}
		if (problem !== undefined)
			throw new InputError(
				`it is not valid JSON (${problem}). Enter a list of actions, e.g. ${EXAMPLE}`,
				FIELD,
			);
	}
	if (!Array.isArray(value))
		throw new InputError(`it is not a list of actions. Enter e.g. ${EXAMPLE}`, FIELD);
	if (value.length > 0 && typeof value[0] === 'string') value = [value];
	const list = value as unknown[];
	if (list.length === 0) throw new InputError(`the list is empty. Enter e.g. ${EXAMPLE}`, FIELD);
	list.forEach((action, i) => {
		if (!Array.isArray(action) || typeof action[0] !== 'string' || action[0].trim() === '') {
			throw new InputError(
				`action ${i + 1} (${JSON.stringify(action)?.slice(0, 80)}) is not a list that starts with the action's name, e.g. ["UpdateRecord", "Table1", 1, {"A": 2}]`,
				FIELD,
			);
		}
	});
	return list as unknown[][];
}

/**
 * Whether an error answer to reading a document's tables is Grist's for a document that cannot
 * be opened because its file holds no Grist document: 500 `NO_METADATA_ERROR: <docId> has no
 * metadata` (DocStorage `_updateMetadata`; the error has no status of its own). A failed `.grist`
 * import leaves such a document: DocManager `_doImportDoc` registers it and creates its empty
 * file, and the upload is copied over that file only once it passes its check.
 */
export function isUnopenableDocument(
	httpCode: string | null | undefined,
	message: string,
): boolean {
	return httpCode === '500' && /^NO_METADATA_ERROR: .* has no metadata$/i.test(message.trim());
}

/**
 * The name Grist gives the document of an import (DocManager `_doImportDoc` / `register`): the
 * Document Name when given, else the file name without its last extension, trimmed, or
 * "Untitled upload" when nothing is left (as `path.basename(name, extname("X" + name))`).
 */
export function importedDocumentName(fileName: string, documentName?: string): string {
	if (documentName !== undefined && documentName !== '') return documentName;
	const base = fileName.slice(fileName.lastIndexOf('/') + 1);
	const dot = base.lastIndexOf('.');
	const stem = dot >= 0 ? base.slice(0, dot) : base;
	return stem.trim() || 'Untitled upload';
}

/** A file name the import can read: the binary's name, else one made from its MIME type. */
export function importFileName(fileName: string | undefined, mimeType: string | undefined): string {
	if (fileName && /\.[A-Za-z0-9]+$/.test(fileName)) return fileName;
	const ext: Record<string, string> = {
		'text/csv': '.csv',
		'text/tab-separated-values': '.tsv',
		'text/plain': '.txt',
		'application/json': '.json',
		'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
		'application/x-sqlite3': '.grist',
	};
	const base = fileName && fileName.trim() !== '' ? fileName : 'upload';
	return `${base}${ext[(mimeType ?? '').split(';')[0].trim().toLowerCase()] ?? ''}`;
}
