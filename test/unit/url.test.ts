import {
	DOCUMENT_URL_REGEX,
	apiPath,
	encodeSegment,
	normalizeServerUrl,
	saasTeamFromHost,
	siteOrgKey,
} from '../../nodes/Grist/api/url';

describe('normalizeServerUrl', () => {
	const cases: Array<[string, string, string | undefined]> = [
		['https://docs.getgrist.com', 'https://docs.getgrist.com', undefined],
		['https://docs.getgrist.com/', 'https://docs.getgrist.com', undefined],
		['https://docs.getgrist.com/api', 'https://docs.getgrist.com', undefined],
		['https://docs.getgrist.com/api/', 'https://docs.getgrist.com', undefined],
		[
			'  https://Docs.GetGrist.com/sRBrWDUPnUVJXc1c2Yz6wQ/My-Doc/p/2  ',
			'https://docs.getgrist.com',
			undefined,
		],
		['https://team.getgrist.com/abcdefghijkl/Sales?x=1#a', 'https://team.getgrist.com', undefined],
		['https://grist.example.com/o/team', 'https://grist.example.com/o/team', 'team'],
		['https://grist.example.com/o/team/', 'https://grist.example.com/o/team', 'team'],
		['https://grist.example.com/o/team/api', 'https://grist.example.com/o/team', 'team'],
		[
			'https://grist.example.com/o/team/doc/abcdefghijklmn',
			'https://grist.example.com/o/team',
			'team',
		],
		[
			'https://grist.example.com/o/team/abcdefghijklmn/Slug/p/1',
			'https://grist.example.com/o/team',
			'team',
		],
		['http://127.0.0.1:8484/o/docs', 'http://127.0.0.1:8484/o/docs', 'docs'],
		['grist.example.com:8484', 'https://grist.example.com:8484', undefined],
	];
	it.each(cases)('%s → %s', (input, base, org) => {
		const server = normalizeServerUrl(input);
		expect(server.base).toBe(base);
		expect(server.orgInPath).toBe(org);
	});

	it.each([
		['', /empty/],
		['   ', /empty/],
		['https://', /not a valid URL/],
		['ftp://grist.example.com', /must start with https/],
		['https://user:secret@grist.example.com', /must not contain a user name/],
	])('rejects %j with a clear message', (input, message) => {
		expect(() => normalizeServerUrl(input)).toThrow(message);
	});

	it('rejects a value that is not a string', () => {
		expect(() => normalizeServerUrl(undefined)).toThrow(/empty/);
	});
});

describe('siteOrgKey', () => {
	it('uses the /o/ team, current on getgrist.com hosts, nothing on other hosts', () => {
		expect(siteOrgKey(normalizeServerUrl('https://h.example.com/o/acme'))).toBe('acme');
		expect(siteOrgKey(normalizeServerUrl('https://docs.getgrist.com'))).toBe('current');
		expect(siteOrgKey(normalizeServerUrl('https://acme.getgrist.com'))).toBe('current');
		expect(siteOrgKey(normalizeServerUrl('https://grist.example.com'))).toBeUndefined();
		expect(siteOrgKey(normalizeServerUrl('https://getgrist.com.evil.example'))).toBeUndefined();
	});
	it('names the team of a team host', () => {
		expect(saasTeamFromHost('acme.getgrist.com')).toBe('acme');
		expect(saasTeamFromHost('docs.getgrist.com')).toBeUndefined();
		expect(saasTeamFromHost('grist.example.com')).toBeUndefined();
	});
});

describe('apiPath / encodeSegment', () => {
	it('encodes characters that would change the endpoint', () => {
		expect(apiPath('docs', 'a/b', 'tables', 'T?x=1#y', 'records')).toBe(
			'/api/docs/a%2Fb/tables/T%3Fx%3D1%23y/records',
		);
		expect(apiPath('docs', '50%', 'tables')).toBe('/api/docs/50%25/tables');
		expect(apiPath('workspaces', 12)).toBe('/api/workspaces/12');
	});
	it.each(['.', '..', '%2e', '.%2E', '', '   '])('rejects the segment %j', (value) => {
		expect(() => encodeSegment(value, 'document ID')).toThrow(/document ID/);
	});
	it('keeps dots inside names', () => {
		expect(encodeSegment('..a')).toBe('..a');
	});
	it('cannot be steered to another endpoint by URL resolution', () => {
		const path = apiPath('docs', '../orgs', 'tables');
		expect(new URL(path, 'http://h').pathname).toBe('/api/docs/..%2Forgs/tables');
	});
});

describe('DOCUMENT_URL_REGEX (the Document picker, By URL)', () => {
	const documentIdFromUrl = (url: string) => new RegExp(DOCUMENT_URL_REGEX).exec(url)?.[1];
	it.each([
		['https://docs.getgrist.com/sRBrWDUPnUVJXc1c2Yz6wQ/My-Doc', 'sRBrWDUPnUVJXc1c2Yz6wQ'],
		['https://team.getgrist.com/abcdefghijkl/Sales/p/3', 'abcdefghijkl'],
		['https://grist.example.com/o/team/doc/abcdefghijklmn', 'abcdefghijklmn'],
		['https://grist.example.com/doc/abcdefghijklmn/p/2', 'abcdefghijklmn'],
		['https://grist.example.com/o/team/abcdefghijklmn/Slug', 'abcdefghijklmn'],
		// a fork: {trunk}~{fork}~{user}
		[
			'https://grist.example.com/o/docs/xx8CYJaW3kbd~nRrCMv1XXBqhy8wDboTuCL~5/Trunk',
			'xx8CYJaW3kbd~nRrCMv1XXBqhy8wDboTuCL~5',
		],
		['https://docs.getgrist.com/abcdefghijkl~forkIdForkId', 'abcdefghijkl~forkIdForkId'],
	])('%s → %s', (url, id) => {
		expect(documentIdFromUrl(url)).toBe(id);
	});
	it.each([
		'https://docs.getgrist.com/',
		'https://docs.getgrist.com/o/team',
		'https://docs.getgrist.com/ws/12',
		'nope',
		'https://docs.getgrist.com/short/x',
	])('finds no document in %s', (url) => {
		expect(documentIdFromUrl(url)).toBeUndefined();
	});
});
