/** Shared by exportWorkbook and exportTable: download a file and put it into a binary property. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { outputBinaryProperty } from '../../parameters/binaryFields';
import type { GristClient } from '../../api/client';
import { exportDocument, type ExportRequest as ApiExportRequest } from '../../api/documents';
import { itemParameterValue } from '../../parameters/read';
import { optionsCollection } from '../../parameters/commonFields';

export const exportOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Header',
		name: 'header',
		type: 'options',
		options: [
			{ name: 'Column Labels', value: 'label', description: 'The labels shown in Grist' },
			{ name: 'Column IDs', value: 'colId', description: 'The IDs used in formulas and the API' },
		],
		default: 'label',
		description: 'What the header row shows',
	},
	{
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		placeholder: 'e.g. report',
		description: 'Name of the file without extension (default: the name Grist gives it)',
	},
]);

export interface ExportRequest extends ApiExportRequest {
	itemIndex: number;
}

/** Each format's file extension and the MIME type used when Grist sends none. */
const FILE_KIND: Record<ExportRequest['format'], { ext: string; mime: string }> = {
	xlsx: { ext: '.xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
	csv: { ext: '.csv', mime: 'text/csv' },
	tsv: { ext: '.tsv', mime: 'text/tab-separated-values' },
	dsv: { ext: '.dsv', mime: 'text/x-doo-separated-values' },
	'table-schema': { ext: '.json', mime: 'application/json' },
};

/**
 * GET /api/docs/{docId}/download/{format} → one output item with the file; the Table Schema
 * (JSON, no file name from Grist) is also given parsed, as `tableSchema`.
 */
export async function exportToBinary(
	this: IExecuteFunctions,
	client: GristClient,
	req: ExportRequest,
): Promise<INodeExecutionData> {
	const itemIndex = req.itemIndex;
	const binaryPropertyName = outputBinaryProperty.call(this, itemIndex);
	const options = itemParameterValue.call(this, 'options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (req.tableId !== undefined) qs.tableId = req.tableId;
	if (options.header !== undefined) qs.header = options.header;
	let title = String(options.fileName ?? '').trim();
	const { ext, mime } = FILE_KIND[req.format];
	if (title.toLowerCase().endsWith(ext)) title = title.slice(0, -ext.length);
	if (title !== '') qs.title = title;
	const res = await exportDocument(client, req, qs, itemIndex);
	let fileName = title !== '' ? `${title}${ext}` : res.fileName;
	if (!fileName) fileName = `${req.tableId ? `${req.docId}-${req.tableId}` : req.docId}${ext}`;
	const mimeType =
		res.mimeType && res.mimeType !== 'application/octet-stream' ? res.mimeType : mime;
	const binary = await this.helpers.prepareBinaryData(res.body, fileName, mimeType);
	const json: IDataObject = {
		documentId: req.docId,
		...(req.tableId !== undefined ? { tableId: req.tableId } : {}),
		fileName,
		mimeType,
		fileSize: res.body.length,
	};
	if (req.format === 'table-schema') json.tableSchema = parseTableSchema(res.body);
	return { json, binary: { [binaryPropertyName]: binary } };
}

/** The Table Schema Grist answered, as JSON (its text when it is not JSON, which Grist never sends). */
function parseTableSchema(body: Buffer): IDataObject | string {
	const text = body.toString('utf8');
	try {
		return JSON.parse(text) as IDataObject;
	} catch {
		return text;
	}
}
