import {
	errorHint,
	gristErrorText,
	isApiLimitAnswer,
	isGristErrorBody,
	isHtmlBody,
	notFoundHint,
	notGristAnswer,
	pathObjects,
	redact,
} from '../../nodes/Grist/errors/gristAnswers';
import {
	DEFAULT_RETRY,
	RESTORE_SETTLE_MS,
	RecentRestores,
	backoffDelay,
	isDeletedAnswer,
	settleDelay,
	shouldRetry,
} from '../../nodes/Grist/api/retry';
import { fileNameFromDisposition } from '../../nodes/Grist/api/httpAnswer';
import { networkErrorCode } from '../../nodes/Grist/api/requestErrors';

describe('gristErrorText', () => {
	it("takes Grist's error field, with details.userError", () => {
		expect(gristErrorText({ error: 'Table not found "X"' }, 404)).toBe('Table not found "X"');
		expect(
			gristErrorText(
				{ error: 'Invalid payload', details: { userError: 'Error: body.records is missing' } },
				400,
			),
		).toBe('Invalid payload: Error: body.records is missing');
	});
	it('reads JSON in strings and buffers, plain text, and falls back to the status', () => {
		expect(gristErrorText('{"error":"boom"}', 500)).toBe('boom');
		expect(gristErrorText(Buffer.from('{"error":"Attachment not found: 7"}'), 404)).toBe(
			'Attachment not found: 7',
		);
		expect(gristErrorText('Not found', 404)).toBe('Not found');
		expect(gristErrorText('<html><body>proxy</body></html>', 502)).toBe('HTTP 502');
		expect(gristErrorText(undefined, 500)).toBe('HTTP 500');
	});
});

describe('errorHint', () => {
	const docPath = { method: 'PATCH', path: '/api/docs/d' };
	it.each([
		[401, 'Bad request: invalid API key', /API key/],
		[403, 'No write access', /Editor or Owner role on document "d"/],
		[403, 'No owner access', /Owner role on document "d"/],
		[403, 'No view access', /Viewer role on document "d"/],
		[404, 'document not found', /^Document "d" was not found/],
		[404, 'Domain not recognized: grist:8484', /APP_HOME_INTERNAL_URL/],
		[400, 'No organization chosen', /\/o\/TEAM/],
		[413, 'request entity too large', /1 MB/],
		[413, 'Attachments must not exceed 10MB', /attachments/],
		[429, 'Too many backlogged requests for document d - try again later?', /rate-limiting/],
		[503, 'Document in flux - try again later', /reloading/],
	])('%i %s', (status, message, hint) => {
		expect(errorHint(status, message, docPath)).toMatch(hint);
	});

	it('names the object a 403 is about from the path: the document, workspace or organization', () => {
		expect(
			errorHint(403, 'No write access', { method: 'POST', path: '/api/docs/abc/tables/T/records' }),
		).toBe(
			'The user of this API key needs the Editor or Owner role on document "abc". Ask an owner to share it with that role.',
		);
		expect(errorHint(403, 'access denied', { method: 'PATCH', path: '/api/workspaces/12' })).toBe(
			'The user of this API key is not allowed to do this on workspace 12 (usually the Owner role is needed).',
		);
		expect(
			errorHint(403, 'access denied', { method: 'PATCH', path: '/api/orgs/demo/access' }),
		).toMatch(/on organization "demo"/);
		expect(errorHint(403, 'access denied')).toMatch(/on this object/);
	});

	it('400 Invalid column / Invalid row id name the column or row and the table', () => {
		const path = { method: 'POST', path: '/api/docs/abc/tables/Items/records' };
		expect(errorHint(400, 'Invalid column "Nme"', path)).toBe(
			'Table "Items" has no column "Nme". Use column IDs (not labels) that exist in the table; the Column resource lists them.',
		);
		expect(errorHint(400, 'Invalid row id 99', { ...path, method: 'PATCH' })).toBe(
			'Row 99 does not exist in table "Items". Read the records first to get valid row IDs.',
		);
	});

	it('400 KeyError from a filter on an unknown column names the column and says to use a column ID', () => {
		const message = "Error manipulating data: [Sandbox] KeyError 'Nope'";
		expect(
			errorHint(400, message, { method: 'GET', path: '/api/docs/abc/tables/Items/records' }),
		).toBe(
			'The filter or sort names the column "Nope", which table "Items" does not have. Use a column ID (not its label): the Column resource (Get Many) lists the table\'s columns.',
		);
		// the deprecated columnar read, and Python's other spellings of the error
		expect(
			errorHint(400, 'Error manipulating data: [Sandbox] KeyError: u"My Col"', {
				method: 'GET',
				path: '/api/docs/abc/tables/Items/data',
			}),
		).toMatch(/^The filter or sort names the column "My Col", which table "Items"/);
		expect(
			errorHint(400, message, { method: 'POST', path: '/api/docs/abc/tables/Items/records' }),
		).toMatch(/^Table "Items" has no column "Nope"\. Use a column ID/);
		expect(
			errorHint(400, 'Error manipulating data: [Sandbox] ValueError', {
				method: 'GET',
				path: '/api/docs/abc/tables/Items/records',
			}),
		).toBe('Grist rejected the request; check the parameters named in the message.');
	});
});

describe('pathObjects', () => {
	it.each([
		['/api/orgs/demo/workspaces', { organization: 'demo' }],
		['/api/workspaces/12/docs', { workspace: '12' }],
		['/api/docs/abc', { document: 'abc' }],
		['/api/docs/abc/tables/Items/records', { document: 'abc', table: 'Items' }],
		['/api/docs/abc/tables/Items/records/delete', { document: 'abc', table: 'Items' }],
		[
			'/api/docs/abc/tables/Items/columns/Name',
			{ document: 'abc', table: 'Items', column: 'Name' },
		],
		['/api/docs/abc/attachments/7/download', { document: 'abc', attachment: '7' }],
		['/api/docs/abc/attachments/archive', { document: 'abc' }],
		['/api/docs/abc/webhooks/queue', { document: 'abc' }],
		['/api/docs/abc/webhooks/u-1', { document: 'abc', webhook: 'u-1' }],
		['/o/team/api/docs/a%3Fb/tables?x=1', { document: 'a?b' }],
		['/api/docs/..%2F..%2Forgs', { document: '../../orgs' }],
		['/api/docs/50%', { document: '50%' }],
		['/api/orgs', {}],
	])('%s', (path, expected) => {
		expect(pathObjects(path)).toEqual(expected);
	});
});

describe("notFoundHint: a 404 names what was missing, from Grist's message and the request path", () => {
	it.each<[string, string, string, string]>([
		[
			'organization',
			'GET /api/orgs/nope',
			'organization not found',
			'Organization "nope" was not found',
		],
		['workspace', 'GET /api/workspaces/99', 'workspace not found', 'Workspace 99 was not found'],
		[
			'document (document get)',
			'GET /api/docs/nope',
			'document not found',
			'Document "nope" was not found',
		],
		[
			'document (record read)',
			'GET /api/docs/nope/tables/Items/records',
			'document not found',
			'Document "nope" was not found,',
		],
		[
			'a deleted document',
			'GET /api/docs/old/tables/Items/records',
			'Document is deleted',
			'Document "old" was not found',
		],
		[
			'table',
			'GET /api/docs/abc/tables/Nope/records',
			'Table not found "Nope"',
			'Table "Nope" was not found in document "abc"',
		],
		[
			'table (CSV export)',
			'GET /api/docs/abc/download/csv',
			'Table Nope not found.',
			'Table "Nope" was not found in document "abc"',
		],
		[
			'column',
			'PATCH /api/docs/abc/tables/Items/columns',
			'Column not found "Nope"',
			'Column "Nope" was not found in table "Items"',
		],
		[
			'table or column',
			'DELETE /api/docs/abc/tables/Items/columns/Nope',
			'Table or column not found "Items.Nope"',
			'Table "Items" or its column "Nope" was not found in document "abc"',
		],
		[
			'attachment',
			'GET /api/docs/abc/attachments/4242',
			'Attachment not found: 4242',
			'Attachment 4242 was not found in document "abc"',
		],
		[
			'webhook',
			'DELETE /api/docs/abc/webhooks/w-1',
			'Webhook not found "w-1"',
			'Webhook "w-1" was not found in document "abc"',
		],
		[
			'attachment (plain-text access-rule denial)',
			'GET /api/docs/abc/attachments/5/download',
			'Not found',
			'Attachment 5 was not found in document "abc", or the user of this API key cannot see it (access rules can hide it)',
		],
		[
			'move destination',
			'PATCH /api/docs/abc/move',
			'workspace not found',
			'The Destination Workspace was not found',
		],
	])('%s', (_kind, request, message, start) => {
		const [method, path] = request.split(' ');
		const hint = notFoundHint(message, { method, path });
		expect(hint.startsWith(start)).toBe(true);
		expect(errorHint(404, message, { method, path })).toBe(hint);
	});

	it('never names the table when the document is missing', () => {
		const hint = notFoundHint('document not found', {
			method: 'GET',
			path: '/api/docs/nope/tables/Items/records',
		});
		expect(hint).not.toMatch(/table|Items/i);
		expect(hint).toMatch(/Check the document ID/);
	});

	it.each([
		['../../orgs', '/api/docs/..%2F..%2Forgs/tables/Items/records'],
		['abc?x=1', '/api/docs/abc%3Fx%3D1'],
		['My budget', '/api/docs/My%20budget'],
	])('says a document ID %p has characters Grist IDs never have', (id, path) => {
		const hint = notFoundHint('document not found', { method: 'GET', path });
		expect(hint).toContain(`Document "${id}" was not found`);
		expect(hint).toContain(
			`A document ID has only letters, digits, - and _: "${id}" looks like a name, a URL or a path.`,
		);
	});

	it('an unknown route says the endpoint is missing, not an object', () => {
		const hint = notFoundHint('not found: /api/docs/abc/tables/T/records/delete', {
			method: 'POST',
			path: '/api/docs/abc/tables/T/records/delete',
		});
		expect(hint).toMatch(
			/^This Grist server has no such endpoint \(POST \/api\/docs\/abc\/tables\/T\/records\/delete\)/,
		);
		expect(hint).not.toMatch(/was not found/);
	});

	it('without a path or message, says nothing was found', () => {
		expect(notFoundHint('HTTP 404')).toMatch(/^Grist found nothing at this address/);
	});
});

describe('redact', () => {
	it('removes the secret everywhere', () => {
		expect(redact('key abcdef and abcdef', 'abcdef')).toBe('key *** and ***');
		expect(redact('short', '')).toBe('short');
	});
});

describe('retry policy', () => {
	it('retries 429 and 503 for every method, other statuses never', () => {
		for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']) {
			expect(shouldRetry(method, { kind: 'status', status: 429 }, 0)).toBe(true);
			expect(shouldRetry(method, { kind: 'status', status: 503 }, 0)).toBe(true);
			expect(shouldRetry(method, { kind: 'status', status: 500 }, 0)).toBe(false);
			expect(shouldRetry(method, { kind: 'status', status: 400 }, 0)).toBe(false);
		}
	});
	it("never retries the 429 of a plan's API limit; the 429 of too many requests at once, always", () => {
		const limit = {
			kind: 'status' as const,
			status: 429,
			text: 'Exceeded daily limit for document abc',
		};
		const backlog = {
			kind: 'status' as const,
			status: 429,
			text: 'Too many backlogged requests for document abc - try again later?',
		};
		for (const method of ['GET', 'POST']) {
			expect(shouldRetry(method, limit, 0)).toBe(false);
			expect(shouldRetry(method, backlog, 0)).toBe(true);
		}
		expect(isApiLimitAnswer(429, 'Exceeded daily limit for document abc')).toBe(true);
		expect(isApiLimitAnswer(403, 'Exceeded daily limit for document abc')).toBe(false);
		expect(isApiLimitAnswer(429, 'Too many backlogged requests for document abc')).toBe(false);
	});
	it('the hint of a limit refusal says whose limit, what it is and when it resets', () => {
		const hint = errorHint(429, 'Exceeded daily limit for document abc', {
			method: 'GET',
			path: '/api/docs/abc/tables/T/records',
		});
		expect(hint).toMatch(/^The document's API limit of its Grist plan is reached/);
		expect(hint).toContain('Pro 40,000 and Business 60,000 per document per day');
		expect(hint).toContain('its daily allowance comes back at 00:00 UTC');
		expect(errorHint(429, 'Exceeded monthly limit for site xyz')).toMatch(
			/^The site's API limit of its Grist plan is reached/,
		);
		expect(
			errorHint(429, 'Too many backlogged requests for document abc - try again later?'),
		).toMatch(/too many requests at once\. The node already retried/);
	});
	it('retries a reset connection only for reads, a refused one for all', () => {
		expect(shouldRetry('GET', { kind: 'network', code: 'ECONNRESET' }, 0)).toBe(true);
		expect(shouldRetry('POST', { kind: 'network', code: 'ECONNRESET' }, 0)).toBe(false);
		expect(shouldRetry('PATCH', { kind: 'network', code: 'ECONNRESET' }, 0)).toBe(false);
		expect(shouldRetry('POST', { kind: 'network', code: 'ECONNREFUSED' }, 0)).toBe(true);
		expect(shouldRetry('GET', { kind: 'network', code: undefined }, 0)).toBe(false);
	});
	it('stops after maxRetries', () => {
		expect(shouldRetry('GET', { kind: 'status', status: 429 }, DEFAULT_RETRY.maxRetries)).toBe(
			false,
		);
	});
	it('backs off exponentially with bounded jitter', () => {
		const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
		expect(backoffDelay(0, policy, () => 0)).toBe(50);
		expect(backoffDelay(0, policy, () => 1)).toBe(100);
		expect(backoffDelay(2, policy, () => 0)).toBe(200);
		expect(backoffDelay(2, policy, () => 1)).toBe(400);
		expect(backoffDelay(10, policy, () => 1)).toBe(1000);
		expect(backoffDelay(10, policy, () => 0)).toBe(500);
	});
});

describe('after a restore from the trash: waiting out "Document is deleted"', () => {
	it("recognises Grist's answer for a document in the trash, and nothing else", () => {
		expect(isDeletedAnswer(404, 'Document is deleted')).toBe(true);
		expect(isDeletedAnswer(404, 'document not found')).toBe(false);
		expect(isDeletedAnswer(404, 'Table not found "X"')).toBe(false);
		expect(isDeletedAnswer(403, 'Document is deleted')).toBe(false);
	});

	it('pauses briefly, growing to 1 s at most', () => {
		expect([0, 1, 2, 3, 4, 10].map(settleDelay)).toEqual([200, 400, 800, 1000, 1000, 1000]);
	});

	it('waits only after a restore on the same server, and at most the settle time after it', () => {
		let now = 1_000_000;
		const restores = new RecentRestores(() => now);
		const server = 'https://grist.example.com';
		expect(restores.settleLeft(server, RESTORE_SETTLE_MS)).toBe(0);
		restores.note(server);
		expect(restores.settleLeft(server, RESTORE_SETTLE_MS)).toBe(6000);
		expect(restores.settleLeft('https://other.example.com', RESTORE_SETTLE_MS)).toBe(0);
		now += 4000;
		expect(restores.settleLeft(server, RESTORE_SETTLE_MS)).toBe(2000);
		expect(restores.settleLeft(server, 1000)).toBe(0); // a client with a shorter settle time
		now += 2000;
		expect(restores.settleLeft(server, RESTORE_SETTLE_MS)).toBe(0);
		// a later restore starts it again
		restores.note(server);
		expect(restores.settleLeft(server, RESTORE_SETTLE_MS)).toBe(6000);
	});

	it('forgets restores long past', () => {
		let now = 0;
		const restores = new RecentRestores(() => now);
		restores.note('https://a.example.com');
		now += 10 * RESTORE_SETTLE_MS + 1;
		restores.note('https://b.example.com');
		expect((restores as unknown as { restoredAt: Map<string, number> }).restoredAt.size).toBe(1);
	});
});

describe('fileNameFromDisposition', () => {
	it.each([
		['attachment; filename="Doc.xlsx"', 'Doc.xlsx'],
		['attachment; filename=Doc-T.csv', 'Doc-T.csv'],
		['attachment; filename="x.csv"; filename*=UTF-8\'\'%C3%A9t%C3%A9%20r.csv', 'été r.csv'],
		[undefined, undefined],
		['inline', undefined],
	])('%s', (header, name) => {
		expect(fileNameFromDisposition(header)).toBe(name);
	});
});

describe('networkErrorCode', () => {
	it('finds the code on the error or its causes', () => {
		expect(networkErrorCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(
			'ECONNRESET',
		);
		const inner = Object.assign(new Error('inner'), { code: 'ECONNREFUSED' });
		expect(networkErrorCode(new Error('outer', { cause: inner }))).toBe('ECONNREFUSED');
		expect(networkErrorCode(new Error('plain'))).toBeUndefined();
	});
});

describe('answers that did not come from Grist', () => {
	const origin = 'https://example.com';
	it.each<[number, unknown]>([
		[404, '<!doctype html><html><body>Not Found</body></html>'],
		[200, '<html><head></head><body>Welcome</body></html>'],
		[401, Buffer.from('<!DOCTYPE html><html>login</html>')],
		[404, ''],
		[405, 'Method Not Allowed'],
	])('%i %p: says the Server URL is not a Grist site', (status, body) => {
		expect(notGristAnswer(status, body, origin)).toEqual({
			message: `The server at ${origin} did not answer like Grist (HTTP ${status})`,
			hint: expect.stringMatching(
				/^Check the Server URL of the Grist credential: .*https:\/\/HOST\/o\/TEAM/,
			),
		});
	});
	it.each<[number, unknown]>([
		[404, { error: 'document not found' }],
		[404, '{"error":"Domain not recognized: grist"}'],
		[404, Buffer.from('{"error":"Attachment not found: 7"}')],
		[413, '<html><body>413 Request Entity Too Large</body></html>'],
		[502, '<html><body>Bad Gateway</body></html>'],
		[400, 'Bad request'],
		[200, '"sRBrWDUPnUVJXc1c2Yz6wQ"'],
	])('%i %p: a Grist answer (or a proxy error with its own hint) is left alone', (status, body) => {
		expect(notGristAnswer(status, body, origin)).toBeUndefined();
	});
	it('recognizes HTML pages only', () => {
		expect(isHtmlBody('  <!DOCTYPE html>')).toBe(true);
		expect(isHtmlBody('<?xml version="1.0"?>')).toBe(true);
		expect(isHtmlBody('a <html> in text')).toBe(false);
		expect(isHtmlBody({ html: true })).toBe(false);
		expect(isGristErrorBody({ error: 'x' })).toBe(true);
		expect(isGristErrorBody('{"error":1}')).toBe(false);
	});
});
