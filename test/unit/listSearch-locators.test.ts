/**
 * The By URL modes of the pickers: the regexes n8n applies (one capture group, as n8n-core's
 * extractValue requires) to pasted Grist URLs.
 */
import {
	documentLocator,
	orgLocator,
	workspaceLocator,
} from '../../nodes/Grist/parameters/locators';
import { DOCUMENT_URL_REGEX, ORG_URL_REGEX, WORKSPACE_URL_REGEX } from '../../nodes/Grist/api/url';

function extract(regex: string, url: string): string | undefined {
	// n8n validates a By URL value with the regex wrapped in ^…$: it must match the whole URL.
	expect(new RegExp(`^${regex}$`).test(url)).toBe(new RegExp(regex).test(url));
	const m = new RegExp(regex).exec(url);
	if (!m) return undefined;
	expect(m).toHaveLength(2);
	return m[1];
}

describe('pickers', () => {
	it.each([orgLocator, workspaceLocator, documentLocator])(
		'$displayName: From list (default), By URL, By ID',
		(locator) => {
			expect(locator.default).toEqual({ mode: 'list', value: '' });
			expect((locator.modes ?? []).map((m) => m.name).sort()).toEqual(['id', 'list', 'url']);
			const url = (locator.modes ?? []).find((m) => m.name === 'url');
			const list = (locator.modes ?? []).find((m) => m.name === 'list');
			expect(list?.typeOptions?.searchable).toBe(true);
			expect(url?.extractValue?.type).toBe('regex');
		},
	);
});

describe('document URL', () => {
	it.each([
		['https://docs.getgrist.com/sRBrWDUPnUVJXc1c2Yz6wQ/My-Doc', 'sRBrWDUPnUVJXc1c2Yz6wQ'],
		['https://team.getgrist.com/sRBrWDUPnUVJXc1c2Yz6wQ/Budget/p/2', 'sRBrWDUPnUVJXc1c2Yz6wQ'],
		['https://grist.example.com/o/team/doc/sRBrWDUPnUVJXc1c2Yz6wQ', 'sRBrWDUPnUVJXc1c2Yz6wQ'],
		['http://localhost:8484/o/docs/doc/sRBrWDUPnUVJXc1c2Yz6wQ/p/1', 'sRBrWDUPnUVJXc1c2Yz6wQ'],
		['https://docs.getgrist.com/my-url-id-doc?foo=1', 'my-url-id-doc'],
	])('%s → %s', (url, id) => {
		expect(extract(DOCUMENT_URL_REGEX, url)).toBe(id);
	});
	it.each(['https://docs.getgrist.com/ws/17/', 'https://docs.getgrist.com/', 'not a url'])(
		'rejects %s',
		(url) => {
			expect(extract(DOCUMENT_URL_REGEX, url)).toBeUndefined();
		},
	);
});

describe('organization URL', () => {
	it.each([
		['https://myteam.getgrist.com', 'myteam'],
		['https://myteam.getgrist.com/ws/17/', 'myteam'],
		['https://my-team.getgrist.com/sRBrWDUPnUVJXc1c2Yz6wQ/Doc', 'my-team'],
		['https://grist.example.com/o/acme', 'acme'],
		['http://localhost:8484/o/acme/ws/3/', 'acme'],
	])('%s → %s', (url, team) => {
		expect(extract(ORG_URL_REGEX, url)).toBe(team);
	});
	it.each([
		'https://docs.getgrist.com/',
		'https://www.getgrist.com/',
		'https://grist.example.com/ws/1',
		'https://evil.getgrist.com.example/',
	])('rejects %s (no team in it)', (url) => {
		expect(extract(ORG_URL_REGEX, url)).toBeUndefined();
	});
});

describe('workspace URL', () => {
	it.each([
		['https://docs.getgrist.com/ws/17/', '17'],
		['https://team.getgrist.com/ws/4', '4'],
		['https://grist.example.com/o/acme/ws/123/?x=1', '123'],
	])('%s → %s', (url, id) => {
		expect(extract(WORKSPACE_URL_REGEX, url)).toBe(id);
	});
	it.each([
		'https://docs.getgrist.com/ws/abc/',
		'https://docs.getgrist.com/sRBrWDUPnUVJXc1c2Yz6wQ',
	])('rejects %s', (url) => {
		expect(extract(WORKSPACE_URL_REGEX, url)).toBeUndefined();
	});
});
