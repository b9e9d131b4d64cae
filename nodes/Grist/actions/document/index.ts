import { operationSelector, resourceModule } from '../operationFrame';
import * as applyActions from './applyActions.operation';
import * as applyProposal from './applyProposal.operation';
import * as compare from './compare.operation';
import * as copy from './copy.operation';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as deleteSnapshots from './deleteSnapshots.operation';
import * as downloadBackup from './downloadBackup.operation';
import * as exportTable from './exportTable.operation';
import * as exportWorkbook from './exportWorkbook.operation';
import * as fork from './fork.operation';
import * as get from './get.operation';
import * as getAccess from './getAccess.operation';
import * as getAll from './getAll.operation';
import * as getProposals from './getProposals.operation';
import * as getSnapshots from './getSnapshots.operation';
import * as getTiming from './getTiming.operation';
import * as importFile from './importFile.operation';
import * as move from './move.operation';
import * as moveToTrash from './moveToTrash.operation';
import * as replaceContent from './replaceContent.operation';
import * as restore from './restore.operation';
import * as startTiming from './startTiming.operation';
import * as stopTiming from './stopTiming.operation';
import * as update from './update.operation';
import * as updateAccess from './updateAccess.operation';

const operation = operationSelector(
	'document',
	[
		{
			name: 'Apply Proposal',
			value: 'applyProposal',
			description: "Apply a fork's suggested row changes (a proposal) to the document",
			action: 'Apply a proposal to a document',
		},
		{
			name: 'Compare',
			value: 'compare',
			description: 'Compare a document with a fork or copy of it, or with an earlier state',
			action: 'Compare a document',
		},
		{
			name: 'Copy',
			value: 'copy',
			description: 'Copy a document into a workspace, with its data or as a template',
			action: 'Copy a document',
		},
		{
			name: 'Create',
			value: 'create',
			description: 'Create an empty document in a workspace',
			action: 'Create a document',
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete a document permanently (no trash, no undo)',
			action: 'Delete a document',
		},
		{
			name: 'Delete Snapshots',
			value: 'deleteSnapshots',
			description: 'Delete saved versions of a document',
			action: 'Delete snapshots of a document',
		},
		{
			name: 'Download Backup',
			value: 'downloadBackup',
			description: 'Download the whole document as a .grist file',
			action: 'Download a backup of a document',
		},
		{
			name: 'Export Table',
			value: 'exportTable',
			description: 'Download one table as a CSV, TSV or DSV file, or its Table Schema',
			action: 'Export a table',
		},
		{
			name: 'Export Workbook (XLSX)',
			value: 'exportWorkbook',
			description: 'Download the whole document or one table as an Excel file',
			action: 'Export a document as XLSX',
		},
		{
			name: 'Fork',
			value: 'fork',
			description: 'Make a private copy of a document to try changes on',
			action: 'Fork a document',
		},
		{ name: 'Get', value: 'get', description: 'Get a document', action: 'Get a document' },
		{
			name: 'Get Access',
			value: 'getAccess',
			description: 'List the users with access to a document, one item per user',
			action: 'Get access of a document',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the documents of a workspace or a site',
			action: 'Get many documents',
		},
		{
			name: 'Get Proposals',
			value: 'getProposals',
			description: 'List the change proposals made to a document or from a fork',
			action: 'Get proposals of a document',
		},
		{
			name: 'Get Snapshots',
			value: 'getSnapshots',
			description: 'List the saved versions of a document, one item per snapshot',
			action: 'Get snapshots of a document',
		},
		{
			name: 'Get Timing',
			value: 'getTiming',
			description:
				'Read the formula times measured so far, one item per formula column, slowest first',
			action: 'Get the formula timing of a document',
		},
		{
			name: 'Import File',
			value: 'importFile',
			description: 'Create a document from a CSV, XLSX or other file Grist imports',
			action: 'Import a file as a new document',
		},
		{
			name: 'Move',
			value: 'move',
			description: 'Move a document to another workspace',
			action: 'Move a document',
		},
		{
			name: 'Move to Trash',
			value: 'moveToTrash',
			description: "Move a document to Grist's trash (Restore brings it back)",
			action: 'Move a document to the trash',
		},
		{
			name: 'Replace Content',
			value: 'replaceContent',
			description: "Overwrite a document's content with a fork's or a snapshot's",
			action: 'Replace the content of a document',
		},
		{
			name: 'Restore',
			value: 'restore',
			description: "Bring a document back from Grist's trash",
			action: 'Restore a document from the trash',
		},
		{
			name: 'Start Timing',
			value: 'startTiming',
			description: 'Start measuring how long each formula column takes to calculate',
			action: 'Start formula timing of a document',
		},
		{
			name: 'Stop Timing',
			value: 'stopTiming',
			description: 'Stop measuring and get the times, one item per formula column, slowest first',
			action: 'Stop formula timing of a document',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Rename or pin a document',
			action: 'Update a document',
		},
		{
			name: 'Update Access',
			value: 'updateAccess',
			description:
				"Add, change or remove users' roles and the inherited-role ceiling of a document",
			action: 'Update access of a document',
		},
		// last: the raw form, for what no operation above covers
		{
			name: 'Apply Actions (Advanced)',
			value: 'applyActions',
			description: 'Send Grist user actions as JSON, for what no other operation covers',
			action: 'Apply user actions to a document',
		},
	],
	'get',
);

export const document = resourceModule(
	{
		name: 'Document',
		value: 'document',
		description: 'A Grist document (a database of tables)',
	},
	operation,
	{
		applyActions,
		copy,
		create,
		delete: del,
		downloadBackup,
		exportTable,
		exportWorkbook,
		get,
		getAccess,
		getAll,
		getTiming,
		importFile,
		move,
		moveToTrash,
		restore,
		startTiming,
		stopTiming,
		update,
		updateAccess,
		applyProposal,
		compare,
		deleteSnapshots,
		fork,
		getProposals,
		getSnapshots,
		replaceContent,
	},
);
