/**
 * The binary fields of files: "Put Output File in Field" (exports and downloads) and "Input
 * Binary Field" (Document → Import File, Attachment → Restore From Archive); their fields and
 * readers.
 */
import type { IBinaryData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemParameter } from './read';

/** The "Put Output File in Field" parameter of exports. */
export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

/** The "Input Binary Field" of an import: the binary field with the file. */
export const inputBinaryField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	placeholder: 'e.g. data',
	hint: 'The binary field with the file: CSV, TSV, XLSX, JSON or a .grist backup',
};

/** The binary field named in `binaryPropertyName` of item `itemIndex`; empty is an input error naming `label`. */
function binaryProperty(
	this: IExecuteFunctions,
	itemIndex: number,
	label: string,
	description: string,
): string {
	const name = String(
		itemParameter.call(this, 'binaryPropertyName', itemIndex, 'data') ?? '',
	).trim();
	if (name === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The field "${label}" is empty (item ${itemIndex})`,
			{
				description,
				itemIndex,
			},
		);
	}
	return name;
}

/** The binary field a downloaded file goes into ("Put Output File in Field"); empty is an input error. */
export function outputBinaryProperty(this: IExecuteFunctions, itemIndex: number): string {
	return binaryProperty.call(
		this,
		itemIndex,
		'Put Output File in Field',
		'Enter the name of the binary field for the file, e.g. data.',
	);
}

/** The binary field with the file to import ("Input Binary Field"); empty is an input error. */
export function inputBinaryProperty(this: IExecuteFunctions, itemIndex: number): string {
	return binaryProperty.call(
		this,
		itemIndex,
		'Input Binary Field',
		'Enter the name of the binary field with the file, e.g. data.',
	);
}

/**
 * The file of item `itemIndex` in its Input Binary Field: the field's name, what n8n knows of the
 * file and its bytes. A missing field is an input error; `example` says what the field should
 * hold, e.g. "that holds the .tar archive, e.g. the output of Attachment → Download All".
 */
export async function inputFile(
	this: IExecuteFunctions,
	itemIndex: number,
	example: string,
): Promise<{ property: string; meta: IBinaryData; buffer: Buffer }> {
	const property = inputBinaryProperty.call(this, itemIndex);
	let meta: IBinaryData;
	try {
		meta = this.helpers.assertBinaryData(itemIndex, property);
	} catch {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex} has no binary field "${property}" (Input Binary Field)`,
			{
				description: `Check the Input Binary Field: it must name a binary field of the item ${example}.`,
				itemIndex,
			},
		);
	}
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	return { property, meta, buffer };
}
