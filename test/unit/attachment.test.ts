import {
	attachmentIdsOfCell,
	flattenAttachmentRecord,
	mergeAttachmentIds,
	parseAttachmentId,
	parseBinaryPropertyNames,
} from '../../nodes/Grist/actions/attachment/attachmentFields';
import { fileNameFromDisposition } from '../../nodes/Grist/api/httpAnswer';

describe('parseAttachmentId', () => {
	it.each([
		[12, 12],
		['12', 12],
		[' 7 ', 7],
		[1, 1],
	])('accepts %p', (value, id) => {
		expect(parseAttachmentId(value)).toEqual({ ok: true, id });
	});

	it.each([
		['', 'is empty'],
		['   ', 'is empty'],
		[undefined, 'is empty'],
		[null, 'is empty'],
		['abc', '"abc" is not a whole number'],
		['1.5', '"1.5" is not a whole number'],
		[1.5, '"1.5" is not a whole number'],
		[-3, '"-3" is not a whole number'],
		[0, '"0" is not a valid ID (IDs start at 1)'],
		['0', '"0" is not a valid ID (IDs start at 1)'],
		['99999999999999999999', '"99999999999999999999" is too large'],
		[['L', 1], 'is a list (["L",1]), not a whole number'],
		[{ id: 1 }, 'is an object, not a whole number'],
		[true, 'is a boolean, not a whole number'],
	])('refuses %p: %s', (value, reason) => {
		expect(parseAttachmentId(value)).toEqual({ ok: false, reason });
	});
});

describe('parseBinaryPropertyNames', () => {
	it('splits on commas, trims, drops empties and repeats', () => {
		expect(parseBinaryPropertyNames(' data, invoice ,,data ,photo ')).toEqual([
			'data',
			'invoice',
			'photo',
		]);
	});
	it('gives nothing for empty or non-string input', () => {
		expect(parseBinaryPropertyNames('')).toEqual([]);
		expect(parseBinaryPropertyNames(' , ')).toEqual([]);
		expect(parseBinaryPropertyNames(undefined)).toEqual([]);
	});
});

describe('attachmentIdsOfCell', () => {
	it('reads ["L", …ids] and empty cells', () => {
		expect(attachmentIdsOfCell(['L', 3, 5])).toEqual([3, 5]);
		expect(attachmentIdsOfCell(['L'])).toEqual([]);
		expect(attachmentIdsOfCell(null)).toEqual([]);
		expect(attachmentIdsOfCell('')).toEqual([]);
	});
	it('refuses anything else', () => {
		expect(attachmentIdsOfCell('some text')).toBeUndefined();
		expect(attachmentIdsOfCell([3, 5])).toBeUndefined();
		expect(attachmentIdsOfCell(['L', 'a'])).toBeUndefined();
		expect(attachmentIdsOfCell(['r', '_grist_Attachments', [1]])).toBeUndefined();
	});
});

describe('mergeAttachmentIds', () => {
	it('appends after the existing ids without repeats', () => {
		expect(mergeAttachmentIds([1, 2], [3, 2, 4], 'append')).toEqual([1, 2, 3, 4]);
	});
	it('replaces', () => {
		expect(mergeAttachmentIds([1, 2], [3], 'replace')).toEqual([3]);
	});
});

describe('flattenAttachmentRecord', () => {
	it('puts the id next to the fields', () => {
		expect(
			flattenAttachmentRecord({
				id: 4,
				fields: { fileName: 'a.pdf', fileSize: 10, timeUploaded: '2026-01-01T00:00:00.000Z' },
			}),
		).toEqual({ id: 4, fileName: 'a.pdf', fileSize: 10, timeUploaded: '2026-01-01T00:00:00.000Z' });
		expect(flattenAttachmentRecord({ id: 5 })).toEqual({ id: 5 });
	});
});

describe('fileNameFromDisposition (download file names)', () => {
	it('reads quoted, plain and RFC 5987 names', () => {
		expect(fileNameFromDisposition('attachment; filename="a b.pdf"')).toBe('a b.pdf');
		expect(fileNameFromDisposition('attachment; filename=plain.txt')).toBe('plain.txt');
		expect(
			fileNameFromDisposition(`attachment; filename="x.txt"; filename*=UTF-8''%C3%A9t%C3%A9.txt`),
		).toBe('été.txt');
		expect(fileNameFromDisposition(undefined)).toBeUndefined();
	});
});
