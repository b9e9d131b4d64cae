/** documents/lifecycle.ts: document URL, backup file name, user actions from JSON, import file name. */
import {
	backupFileName,
	documentUrl,
	importFileName,
	importedDocumentName,
	isUnopenableDocument,
	parseUserActions,
} from '../../nodes/Grist/documents/lifecycle';

describe('documentUrl', () => {
	it('is <server>/doc/<id> with the /o/<team> prefix kept', () => {
		expect(documentUrl('https://grist.example.com/o/team', 'abc123')).toBe(
			'https://grist.example.com/o/team/doc/abc123',
		);
		expect(documentUrl('https://docs.getgrist.com/', 'x y')).toBe(
			'https://docs.getgrist.com/doc/x%20y',
		);
	});
});

describe('backupFileName', () => {
	it("prefers the given name (adding .grist), then Grist's, then the doc id", () => {
		expect(backupFileName(' nightly ', 'CRM.grist', 'd1')).toBe('nightly.grist');
		expect(backupFileName('x.GRIST', 'CRM.grist', 'd1')).toBe('x.GRIST');
		expect(backupFileName('', 'CRM.grist', 'd1')).toBe('CRM.grist');
		expect(backupFileName('', undefined, 'd1')).toBe('d1.grist');
	});
});

describe('parseUserActions', () => {
	it('reads a list of actions from JSON text or a value; one action alone is a list of one', () => {
		expect(parseUserActions('[["RemoveTable", "T"]]')).toEqual([['RemoveTable', 'T']]);
		expect(parseUserActions(['RemoveTable', 'T'])).toEqual([['RemoveTable', 'T']]);
		expect(parseUserActions([['A'], ['B', 1]])).toEqual([['A'], ['B', 1]]);
	});

	it('says what is wrong, naming the action', () => {
		expect(() => parseUserActions('')).toThrow(/^it is empty/);
		expect(() => parseUserActions('{')).toThrow(/^it is not valid JSON/);
		expect(() => parseUserActions('{"a":1}')).toThrow(/^it is not a list of actions/);
		expect(() => parseUserActions('[]')).toThrow(/^the list is empty/);
		expect(() => parseUserActions('[["A"], [1, 2]]')).toThrow(
			/^action 2 \(\[1,2\]\) is not a list that starts with the action's name/,
		);
		expect(() => parseUserActions([['A'], 'B'])).toThrow(/^action 2 \("B"\)/);
	});
});

describe('importFileName', () => {
	it('keeps a name with an extension, else adds one from the MIME type', () => {
		expect(importFileName('a.csv', 'text/plain')).toBe('a.csv');
		expect(importFileName('export', 'text/csv; charset=utf-8')).toBe('export.csv');
		expect(
			importFileName(
				undefined,
				'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			),
		).toBe('upload.xlsx');
		expect(importFileName('data', 'application/octet-stream')).toBe('data');
	});
});

describe('importedDocumentName (how Grist names the document of an import)', () => {
	it('is the Document Name, else the file name without its last extension, else "Untitled upload"', () => {
		expect(importedDocumentName('book.xlsx', 'Clients')).toBe('Clients');
		expect(importedDocumentName('book.xlsx', '')).toBe('book');
		expect(importedDocumentName(' b .csv')).toBe('b');
		expect(importedDocumentName('x.tar.gz')).toBe('x.tar');
		expect(importedDocumentName('noext')).toBe('noext');
		expect(importedDocumentName('.grist')).toBe('Untitled upload');
	});
});

describe("isUnopenableDocument: Grist's answer for a document whose file holds no Grist document", () => {
	it('is 500 NO_METADATA_ERROR naming the document', () => {
		expect(
			isUnopenableDocument('500', 'NO_METADATA_ERROR: 6qrCBgAmMrAtnJPzgVDYaN has no metadata'),
		).toBe(true);
	});
	it('is nothing else: other statuses, other 500s, a missing status', () => {
		expect(isUnopenableDocument('400', 'NO_METADATA_ERROR: x has no metadata')).toBe(false);
		expect(isUnopenableDocument('500', 'Database is locked')).toBe(false);
		expect(isUnopenableDocument('500', 'NO_METADATA_ERROR')).toBe(false);
		expect(isUnopenableDocument(undefined, 'NO_METADATA_ERROR: x has no metadata')).toBe(false);
		expect(isUnopenableDocument('404', 'Document is deleted')).toBe(false);
	});
});
