/**
 * The error catalogue: the one input error (errors/gristAnswers.ts), the one table of hints for
 * Grist's answers (errors/hints.ts) and the one adapter to n8n's errors (errors/nodeErrors.ts).
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../../nodes/Grist/errors/nodeErrors';
import { CellValueError } from '../../nodes/Grist/cells/cellValues';
import { InputError, attempt } from '../../nodes/Grist/errors/gristAnswers';
import {
	GRIST_HINTS,
	findHint,
	gristHint,
	withHint,
	type HintScope,
} from '../../nodes/Grist/errors/hints';
import { gristNode } from '../harness/builders';

const node: INode = gristNode();

/** An API error as GristClient makes it: Grist's text, the status, the general hint. */
function apiError(message: string, status: number, description = 'General hint.'): NodeApiError {
	const error = new NodeApiError(
		node,
		{ error: message, status },
		{ message, description, httpCode: String(status), itemIndex: 0 },
	);
	error.message = message;
	error.description = description;
	return error;
}

describe('InputError', () => {
	it('carries the message, the field and the hint', () => {
		const error = new InputError('The Query is empty', 'Query', 'Enter a SELECT statement.');
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toBe('The Query is empty');
		expect(error.field).toBe('Query');
		expect(error.hint).toBe('Enter a SELECT statement.');
	});

	it('CellValueError is an InputError that keeps the value, the type and what was expected', () => {
		const error = new CellValueError('x', 'Int', 'expected a number');
		expect(error).toBeInstanceOf(InputError);
		expect(error.message).toBe('The value "x" does not fit a Int column: expected a number');
		expect(error.expected).toBe('expected a number');
		expect(error.field).toBeUndefined();
	});
});

describe('attempt', () => {
	it('returns the value, or the error thrown', () => {
		expect(attempt(() => 2)).toEqual({ value: 2 });
		const failed = attempt(() => JSON.parse('{'));
		expect(failed.error).toBeInstanceOf(SyntaxError);
	});
});

describe('the hint table', () => {
	it('gives every scope its own texts for the same Grist message', () => {
		const sql = gristHint('sql.query', 'SQLITE_ERROR: insufficient document access');
		const conditions = gristHint('record.conditions', 'insufficient document access');
		expect(sql).toMatch(/^SQL needs read access to the whole document/);
		expect(conditions).toMatch(/^These conditions run as an SQL query/);
	});

	it("Get Many's conditions get no hint for SQLite's own rejections (the node wrote the SQL)", () => {
		expect(gristHint('sql.query', 'SQLITE_ERROR: no such column: Nme')).toMatch(
			/^SQLite rejected the statement/,
		);
		expect(gristHint('record.conditions', 'SQLITE_ERROR: no such column: Nme')).toBeUndefined();
	});

	it('keeps the order of the checks: the first entry of the scope that matches wins', () => {
		// "insufficient document access" precedes the SQLITE_ entry, as in the table it came from.
		expect(gristHint('sql.query', 'SQLITE_ERROR: insufficient document access')).toMatch(
			/^SQL needs read access/,
		);
		expect(gristHint('attachment.upload', 'Exceeded attachments limit', 413)).toMatch(
			/total size of attachments its plan allows/,
		);
		expect(
			gristHint('attachment.upload', 'request entity too large', 413, { size: '3.0 MB' }),
		).toBe(
			"The files of this item (3.0 MB) are larger than the Grist server accepts for attachments. Self-hosted Grist sets the limit with GRIST_MAX_UPLOAD_ATTACHMENT_MB (a proxy in front of it, e.g. nginx client_max_body_size, may set a lower one); on getgrist.com it depends on the plan. Upload smaller files or ask the server's admin to raise the limit.",
		);
	});

	it('matches the status where an entry names one', () => {
		expect(
			gristHint('trigger.poll', 'Table not found "Gone"', 404, { docId: 'd', tableId: 'T' }),
		).toBe(
			'The table "T" of document "d" does not exist any more (deleted or renamed after the workflow was activated). Pick the table again in the trigger and save the workflow. Nothing was emitted and the position of the trigger is kept.',
		);
		expect(gristHint('trigger.poll', 'document not found', 404, { docId: 'd' })).toMatch(
			/^The document "d" was not found/,
		);
		expect(gristHint('trigger.poll', 'Table not found "Gone"', 400)).toBeUndefined();
		expect(gristHint('trigger.poll', 'anything', 401)).toMatch(/^Grist rejected the API key/);
	});

	it('fills in the values of the item', () => {
		expect(
			gristHint('webhook.id', 'Webhook not found "w1"', 404, { webhookId: 'w1', itemIndex: 2 }),
		).toBe(
			'The Webhook "w1" of item 2 does not exist in this document (deleted, or the ID of another document). Pick one from the list.',
		);
		expect(
			gristHint('document.move', 'Document is already in destination workspace', 400, {
				workspace: 7,
			}),
		).toBe(
			'The Destination Workspace (7) is the workspace the document is already in. Pick another workspace.',
		);
	});

	it('says what to do with an archive Grist cannot restore', () => {
		const values = { fileName: 'x.zip', binaryProperty: 'data' };
		expect(gristHint('attachment.restore', 'No .tar file found in request', 400, values)).toBe(
			'Grist restores attachments only from a .tar archive, and "x.zip" (binary field "data") is not one. Use the file Attachment → Download All makes with Format: TAR; a ZIP archive cannot be restored.',
		);
		for (const message of [
			'File is not a valid .tar',
			'Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?',
		])
			expect(gristHint('attachment.restore', message, 500, values)).toMatch(
				/^"x\.zip" \(binary field "data"\) is named \.tar but is not a complete tar archive/,
			);
		expect(gristHint('attachment.restore', 'No owner access', 403, values)).toBe(
			'Restoring attachments needs the Owner role on the document.',
		);
		expect(
			gristHint(
				'attachment.upload',
				"Store 'abc-snapshots' is not a valid and available store",
				500,
			),
		).toMatch(/^The document keeps new attachments in an external store/);
	});

	it('keeps OAuth2-only entries for OAuth2 connections', () => {
		expect(gristHint('trigger.webhook', 'access denied', 403, { oauth: false })).toBeUndefined();
		expect(gristHint('trigger.webhook', 'access denied', 403, { oauth: true })).toMatch(
			/doc:webhooks/,
		);
		expect(findHint('trigger.webhook', 'No owner access', 403, { oauth: true })?.hint).toMatch(
			/only owners of a document manage its webhooks/,
		);
	});

	it('an entry has a scope, a pattern and a hint; texts are sentences', () => {
		const scopes = new Set<HintScope>();
		for (const entry of GRIST_HINTS) {
			scopes.add(entry.scope);
			const text =
				typeof entry.hint === 'string'
					? entry.hint
					: entry.hint({ url: 'https://x.example/h', gristHost: 'grist.example.com' });
			expect(text).toMatch(/[.)]$/);
		}
		expect(scopes.size).toBe(20);
	});

	it('says what to do about service accounts, usage and formula timing', () => {
		expect(
			gristHint('serviceAccount', 'This Service Account does not exist', 404, { itemIndex: 2 }),
		).toBe(
			'The Service Account of item 2 does not exist (deleted, or a wrong ID). Pick one from the list.',
		);
		expect(gristHint('serviceAccount', 'Cannot access non-owned service account', 403)).toMatch(
			/Only the user who created a service account/,
		);
		expect(
			gristHint(
				'serviceAccount',
				'Only regular users (of type "login") are allowed to create service accounts',
				403,
			),
		).toMatch(/belongs to a service account/);
		expect(gristHint('org.usage', 'access denied', 403)).toMatch(/only to its owners/);
		expect(gristHint('org.usage', 'organization not found', 404)).toBeUndefined();
		expect(gristHint('document.timing', 'Timing already started for abc', 400)).toMatch(
			/Stop Timing/,
		);
		expect(gristHint('document.timing', 'Timing not started for abc', 400)).toMatch(/Start Timing/);
		expect(gristHint('document.timing', 'No owner access', 403)).toBe(
			'Formula timing needs the Owner role on the document.',
		);
	});
});

describe('withHint', () => {
	it("sets the description of a matching error and keeps Grist's message", () => {
		const error = apiError('Invalid email: x', 400);
		expect(withHint(error, 'access.update')).toBe(error);
		expect(error.message).toBe('Invalid email: x');
		expect(error.description).toBe('Check the Email of every user row.');
	});

	it("leaves the client's hint when nothing matches", () => {
		const error = apiError('Something else', 400);
		withHint(error, 'access.update');
		expect(error.description).toBe('General hint.');
	});

	it("appends to the client's hint where the entry says so", () => {
		const error = apiError('No write access', 403, 'The user needs the Editor role.');
		withHint(error, 'attachment.upload');
		expect(error.description).toBe(
			'The user needs the Editor role. Uploading attachments needs the Editor or Owner role; a Viewer can only read and download them.',
		);
	});

	it('ignores what is not an object', () => {
		expect(withHint(undefined, 'sql.query')).toBeUndefined();
		expect(withHint('text', 'sql.query')).toBe('text');
	});
});

describe('toNodeError', () => {
	it('an InputError becomes a NodeOperationError: the hint as description, the item index kept', () => {
		const input = new InputError('The Query is empty', 'Query', 'Enter a SELECT statement.');
		const error = toNodeError(node, input, { itemIndex: 3 });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('The Query is empty');
		expect(error.description).toBe('Enter a SELECT statement.');
		expect(error.context.itemIndex).toBe(3);
	});

	it('names the field and the item in the message when asked', () => {
		const input = new InputError('Parameter 1 is an invalid date', 'Parameters');
		const byField = toNodeError(node, input, { itemIndex: 1, where: 'field' });
		expect(byField.message).toBe('Parameter 1 is an invalid date (Parameters, item 1)');
		expect(byField.description).toBeUndefined();
		const byItem = toNodeError(node, input, { itemIndex: 1, where: 'item' });
		expect(byItem.message).toBe('Parameter 1 is an invalid date (item 1)');
		const fieldless = toNodeError(node, new InputError('The value is empty'), {
			itemIndex: 4,
			where: 'field',
		});
		expect(fieldless.message).toBe('The value is empty (item 4)');
	});

	it("uses the caller's hint only for an InputError without one", () => {
		const own = new InputError('bad', 'Filters', 'Own hint.');
		expect(toNodeError(node, own, { hint: 'Fallback.' }).description).toBe('Own hint.');
		const none = new InputError('bad', 'Filters');
		expect(toNodeError(node, none, { hint: 'Fallback.' }).description).toBe('Fallback.');
	});

	it('keeps a NodeApiError as it is, with the item index', () => {
		const api = apiError('Table not found "X"', 404);
		const error = toNodeError(node, api, { itemIndex: 5 });
		expect(error).toBe(api);
		expect(error.message).toBe('Table not found "X"');
		expect(error.description).toBe('General hint.');
		expect(error.context.itemIndex).toBe(5);
	});

	it('keeps a NodeOperationError as it is, and without an item index leaves its own', () => {
		const op = new NodeOperationError(node, 'Nope', { itemIndex: 2, description: 'Why.' });
		const error = toNodeError(node, op);
		expect(error).toBe(op);
		expect(error.context.itemIndex).toBe(2);
	});

	it('wraps any other error in a NodeOperationError with the item index', () => {
		const error = toNodeError(node, new TypeError('x is undefined'), { itemIndex: 1 });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('x is undefined');
		expect(error.context.itemIndex).toBe(1);
	});

	it('applies the hint table of a scope', () => {
		const error = toNodeError(node, apiError('Webhook not found "w9"', 404), {
			itemIndex: 0,
			scope: 'webhook.id',
			values: { webhookId: 'w9' },
		});
		expect(error.description).toBe(
			'The Webhook "w9" of item 0 does not exist in this document (deleted, or the ID of another document). Pick one from the list.',
		);
	});
});
