import { operationSelector, resourceModule } from '../operationFrame';
import * as download from './download.operation';
import * as downloadAll from './downloadAll.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getStore from './getStore.operation';
import * as getStores from './getStores.operation';
import * as getTransferStatus from './getTransferStatus.operation';
import * as removeUnused from './removeUnused.operation';
import * as restoreFromArchive from './restoreFromArchive.operation';
import * as setStore from './setStore.operation';
import * as transferAll from './transferAll.operation';
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
			name: 'Download All',
			value: 'downloadAll',
			description: 'Download every file of a document as one TAR or ZIP archive',
			action: 'Download all attachments as an archive',
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
			name: 'Get Store',
			value: 'getStore',
			description: 'Get where a document keeps the files of new attachments: internal or external',
			action: 'Get the attachment store of a document',
		},
		{
			name: 'Get Stores',
			value: 'getStores',
			description: 'List the external attachment stores the Grist server is set up with',
			action: 'Get the attachment stores of the server',
		},
		{
			name: 'Get Transfer Status',
			value: 'getTransferStatus',
			description: 'Get the progress of moving files between stores, and where they are',
			action: 'Get the attachment transfer status',
		},
		{
			name: 'Remove Unused',
			value: 'removeUnused',
			description: 'Delete the attachments that no cell refers to',
			action: 'Remove unused attachments',
		},
		{
			name: 'Restore From Archive',
			value: 'restoreFromArchive',
			description: "Put back the files a document's attachments lack, from a TAR archive",
			action: 'Restore attachments from an archive',
		},
		{
			name: 'Set Store',
			value: 'setStore',
			description: 'Choose where a document keeps the files of new attachments',
			action: 'Set the attachment store of a document',
		},
		{
			name: 'Transfer All',
			value: 'transferAll',
			description: "Start moving every file to the document's store",
			action: 'Transfer all attachments to the store',
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
	{
		upload,
		get,
		download,
		getAll,
		downloadAll,
		restoreFromArchive,
		removeUnused,
		getStore,
		setStore,
		getStores,
		transferAll,
		getTransferStatus,
	},
);
