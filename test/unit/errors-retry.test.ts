import { errorHint, gristErrorText, isGristErrorBody, isHtmlBody, notGristAnswer, redact } from '../../nodes/Grist/helpers/errors';
import { DEFAULT_RETRY, backoffDelay, shouldRetry } from '../../nodes/Grist/helpers/retry';
import { fileNameFromDisposition, networkErrorCode } from '../../nodes/Grist/transport';

describe('gristErrorText', () => {
	it('takes Grist\'s error field, with details.userError', () => {
		expect(gristErrorText({ error: 'Table not found "X"' }, 404)).toBe('Table not found "X"');
		expect(
			gristErrorText({ error: 'Invalid payload', details: { userError: 'Error: body.records is missing' } }, 400),
		).toBe('Invalid payload: Error: body.records is missing');
	});
	it('reads JSON in strings and buffers, plain text, and falls back to the status', () => {
		expect(gristErrorText('{"error":"boom"}', 500)).toBe('boom');
		expect(gristErrorText(Buffer.from('{"error":"Attachment not found: 7"}'), 404)).toBe('Attachment not found: 7');
		expect(gristErrorText('Not found', 404)).toBe('Not found');
		expect(gristErrorText('<html><body>proxy</body></html>', 502)).toBe('HTTP 502');
		expect(gristErrorText(undefined, 500)).toBe('HTTP 500');
	});
});

describe('errorHint', () => {
	it.each([
		[401, 'Bad request: invalid API key', /API key/],
		[403, 'No write access', /Editor or Owner role on document "d"/],
		[403, 'No owner access', /Owner role/],
		[403, 'No view access', /Viewer role/],
		[404, 'document not found', /Document "d" was not found/],
		[404, 'Domain not recognized: grist:8484', /APP_HOME_INTERNAL_URL/],
		[400, 'No organization chosen', /\/o\/<team>/],
		[413, 'request entity too large', /1 MB/],
		[413, 'Attachments must not exceed 10MB', /attachments/],
		[429, 'Too many backlogged requests for document d - try again later?', /rate-limiting/],
		[503, 'Document in flux - try again later', /reloading/],
		[400, 'Invalid column "Nme"', /column IDs/],
	])('%i %s', (status, message, hint) => {
		expect(errorHint(status, message, { what: 'document "d"' })).toMatch(hint);
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
	it('retries a reset connection only for reads, a refused one for all', () => {
		expect(shouldRetry('GET', { kind: 'network', code: 'ECONNRESET' }, 0)).toBe(true);
		expect(shouldRetry('POST', { kind: 'network', code: 'ECONNRESET' }, 0)).toBe(false);
		expect(shouldRetry('PATCH', { kind: 'network', code: 'ECONNRESET' }, 0)).toBe(false);
		expect(shouldRetry('POST', { kind: 'network', code: 'ECONNREFUSED' }, 0)).toBe(true);
		expect(shouldRetry('GET', { kind: 'network', code: undefined }, 0)).toBe(false);
	});
	it('stops after maxRetries', () => {
		expect(shouldRetry('GET', { kind: 'status', status: 429 }, DEFAULT_RETRY.maxRetries)).toBe(false);
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

describe('fileNameFromDisposition', () => {
	it.each([
		['attachment; filename="Doc.xlsx"', 'Doc.xlsx'],
		['attachment; filename=Doc-T.csv', 'Doc-T.csv'],
		["attachment; filename=\"x.csv\"; filename*=UTF-8''%C3%A9t%C3%A9%20r.csv", 'été r.csv'],
		[undefined, undefined],
		['inline', undefined],
	])('%s', (header, name) => {
		expect(fileNameFromDisposition(header)).toBe(name);
	});
});

describe('networkErrorCode', () => {
	it('finds the code on the error or its causes', () => {
		expect(networkErrorCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
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
			hint: expect.stringMatching(/^Check the Server URL of the Grist credential: .*https:\/\/<host>\/o\/<team>/),
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
