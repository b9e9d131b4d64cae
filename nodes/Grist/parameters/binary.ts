/**
 * The binary fields of files: "Put Output File in Field" (exports and downloads) and "Input
 * Binary Field" (Document → Import File); their fields and readers.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
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

/** The field's name of item `itemIndex`, trimmed. */
function binaryPropertyName(this: IExecuteFunctions, itemIndex: number): string {
	return String(itemParameter.call(this, 'binaryPropertyName', itemIndex, 'data') ?? '').trim();
}

/** The binary field a downloaded file goes into ("Put Output File in Field"); empty is an input error. */
export function outputBinaryProperty(this: IExecuteFunctions, itemIndex: number): string {
	const name = binaryPropertyName.call(this, itemIndex);
	if (name === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The field "Put Output File in Field" is empty (item ${itemIndex})`,
			{ description: 'Enter the name of the binary field for the file, e.g. data.', itemIndex },
		);
	}
	return name;
}

/** The binary field with the file to import ("Input Binary Field"); empty is an input error. */
export function inputBinaryProperty(this: IExecuteFunctions, itemIndex: number): string {
	const name = binaryPropertyName.call(this, itemIndex);
	if (name === '') {
		throw new NodeOperationError(
			this.getNode(),
			`The field "Input Binary Field" is empty (item ${itemIndex})`,
			{ description: 'Enter the name of the binary field with the file, e.g. data.', itemIndex },
		);
	}
	return name;
}
