import { operationSelector, resourceModule } from '../operationFrame';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as upload from './upload.operation';

const operation = operationSelector(
	'attachment',
	[
		{
			name: 'Download',
			value: 'download',
			description: 'Download a file into a binary field, with its file name and MIME type',
			action: 'Download an attachment',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get the file name, size and upload time of an attachment',
			action: 'Get an attachment',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the attachments of a document',
			action: 'Get many attachments',
		},
		{
			name: 'Upload',
			value: 'upload',
			description:
				'Upload files from binary fields, optionally into an Attachments cell of a record',
			action: 'Upload attachments',
		},
	],
	'upload',
);

export const attachment = resourceModule(
	{
		name: 'Attachment',
		value: 'attachment',
		description: 'Files stored in a document, shown in Attachments columns',
	},
	operation,
	{ upload, get, download, getAll },
);
