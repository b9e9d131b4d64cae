import type {
	IBinaryData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../items';
import type { GristClient } from '../../transport';
import { getDocument, importDocument } from '../../transport/api';
import { workspaceIdValue } from '../../parameters';
import { withHint } from '../../helpers/errors';
import { documentUrl, importFileName } from '../../helpers/lifecycle';
import { workspaceLocator } from '../common.descriptions';

const properties: INodeProperties[] = [
	{ ...workspaceLocator, description: 'The workspace the new document goes to' },
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The binary field with the file: CSV, TSV, XLSX, JSON or a .grist backup',
	},
	{
		displayName: 'Document Name',
		name: 'documentName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Clients 2024',
		description: 'The name of the new document (default: the file name without extension)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['importFile'] } },
	properties,
);

/**
 * POST /api/workspaces/{wid}/import: Grist reads the file (column types guessed as in its
 * import dialog) into a new document; returns that document with its ID and URL.
 */
export async function execute(
	this: IExecuteFunctions,
	client: GristClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const wid = workspaceIdValue.call(this, 'workspace', itemIndex);
		const property = String(
			this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '',
		).trim();
		if (property === '') {
			throw new NodeOperationError(
				this.getNode(),
				`The field "Input Binary Field" is empty (item ${itemIndex})`,
				{ description: 'Enter the name of the binary field with the file, e.g. data.', itemIndex },
			);
		}
		let meta: IBinaryData;
		try {
			meta = this.helpers.assertBinaryData(itemIndex, property);
		} catch {
			throw new NodeOperationError(
				this.getNode(),
				`Item ${itemIndex} has no binary field "${property}" (Input Binary Field)`,
				{
					description:
						'Check the Input Binary Field: it must name a binary field of the item, e.g. the output of Read/Write Files from Disk or an HTTP Request.',
					itemIndex,
				},
			);
		}
		const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		const fileName = importFileName(meta.fileName, meta.mimeType);
		const documentName = String(this.getNodeParameter('documentName', itemIndex, '') ?? '').trim();
		const form = new FormData();
		form.append(
			'upload',
			new Blob([new Uint8Array(buffer)], { type: meta.mimeType || 'application/octet-stream' }),
			fileName,
		);
		if (documentName !== '') form.append('documentName', documentName);
		let created: { id: string; title?: string };
		try {
			created = await importDocument(client, wid, form, itemIndex);
		} catch (error) {
			throw withHint(error, [
				[
					/Failed to parse|not supported|could not be/i,
					`Grist could not read the file "${fileName}" of the binary field "${property}". It reads CSV, TSV, XLSX, JSON and .grist files; check the file and its extension.`,
				],
				[
					/access denied|workspace not found/i,
					`Check the Workspace (${wid}): it must exist and you need the Editor or Owner role there.`,
				],
			]);
		}
		const doc = await getDocument(client, created.id, itemIndex);
		return { ...doc, url: documentUrl(client.server.base, created.id), fileName };
	});
}
