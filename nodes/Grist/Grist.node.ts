import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentialOptions } from './parameters/authentication';
import { resourceModules } from './actions/resources';
import { router } from './actions/router';
import { listSearch, loadOptions, resourceMapping } from './methods';
import { toolNotices } from './parameters/toolFields';
import { GRIST_RETIRED, retiredProperties } from './parameters/retiredParameters';
import { checkSavedParameters } from './parameters/savedParameters';

export class Grist implements INodeType {
	description: INodeTypeDescription = {
		// Not just 'Grist': n8n's built-in Grist node has that name, and both show up side by side.
		displayName: 'Grist Records & Documents',
		name: 'grist',
		icon: { light: 'file:../../icons/grist.svg', dark: 'file:../../icons/grist.dark.svg' },
		group: ['input'],
		// A saved node keeps its meaning: a change of what a saved node does is a new version
		// (docs/RELEASING.md), pinned by test/unit/node-snapshot.test.ts.
		version: 1,
		// The operation's action text ("Get many records"), by resource.operation: generated from the
		// Operation options by `npm run subtitle` (n8n's lint wants a literal here).
		subtitle:
			'={{ (/^=/.test(String($rawParameter["table"] || "")) ? "" : String($rawParameter["table"] || "")) || ({"record.create":"Create records","record.upsert":"Create or update records","record.delete":"Delete records","record.get":"Get a record","record.getAll":"Get many records","record.update":"Update records","sql.query":"Run an SQL query","attachment.download":"Download an attachment","attachment.downloadAll":"Download all attachments as an archive","attachment.get":"Get an attachment","attachment.getAll":"Get many attachments","attachment.getStore":"Get the attachment store of a document","attachment.getStores":"Get the attachment stores of the server","attachment.getTransferStatus":"Get the attachment transfer status","attachment.removeUnused":"Remove unused attachments","attachment.restoreFromArchive":"Restore attachments from an archive","attachment.setStore":"Set the attachment store of a document","attachment.transferAll":"Transfer all attachments to the store","attachment.upload":"Upload attachments","table.create":"Create a table","table.delete":"Delete a table","table.getAll":"Get many tables","table.update":"Update a table","column.create":"Create columns","column.upsert":"Create or update columns","column.delete":"Delete a column","column.getAll":"Get many columns","column.update":"Update columns","document.applyProposal":"Apply a proposal to a document","document.compare":"Compare a document","document.copy":"Copy a document","document.create":"Create a document","document.delete":"Delete a document","document.deleteSnapshots":"Delete snapshots of a document","document.downloadBackup":"Download a backup of a document","document.exportTable":"Export a table","document.exportWorkbook":"Export a document as XLSX","document.fork":"Fork a document","document.get":"Get a document","document.getAccess":"Get access of a document","document.getAll":"Get many documents","document.getProposals":"Get proposals of a document","document.getSnapshots":"Get snapshots of a document","document.getTiming":"Get the formula timing of a document","document.importFile":"Import a file as a new document","document.move":"Move a document","document.moveToTrash":"Move a document to the trash","document.replaceContent":"Replace the content of a document","document.restore":"Restore a document from the trash","document.startTiming":"Start formula timing of a document","document.stopTiming":"Stop formula timing of a document","document.update":"Update a document","document.updateAccess":"Update access of a document","document.applyActions":"Apply user actions to a document","webhook.clearQueue":"Clear the webhook queue of a document","webhook.create":"Create a webhook","webhook.delete":"Delete a webhook","webhook.getAll":"Get many webhooks","webhook.update":"Update a webhook","workspace.create":"Create a workspace","workspace.delete":"Delete a workspace","workspace.get":"Get a workspace","workspace.getAccess":"Get access of a workspace","workspace.moveToTrash":"Move a workspace to the trash","workspace.restore":"Restore a workspace from the trash","workspace.update":"Update a workspace","workspace.updateAccess":"Update access of a workspace","org.get":"Get an organization","org.getAccess":"Get access of an organization","org.getAll":"Get many organizations","org.getUsage":"Get usage of an organization","org.getWorkspaces":"Get workspaces of an organization","org.update":"Update an organization","org.updateAccess":"Update access of an organization","serviceAccount.create":"Create a service account","serviceAccount.createKey":"Create a new key for a service account","serviceAccount.delete":"Delete a service account","serviceAccount.get":"Get a service account","serviceAccount.getAll":"Get many service accounts","serviceAccount.revokeKey":"Revoke the key of a service account","serviceAccount.update":"Update a service account","columnar.create":"Create records from columns","columnar.delete":"Delete columnar records","columnar.getAll":"Get many records as columns","columnar.update":"Update records from columns"})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}',
		// Short, as n8n's own Grist node's: what this node adds to it.
		description: 'Records with upsert, conditions and SQL; tables, files, documents',
		documentationUrl: 'https://github.com/n8n-nodes-grist/n8n-nodes-grist#operations',
		defaults: { name: 'Grist' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialOptions,
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceModules.map((m) => m.option),
				// what a node saved without a Resource runs (n8n stores only non-default values)
				default: 'record',
			},
			...resourceModules.flatMap((m) => m.description),
			...toolNotices,
			...retiredProperties(GRIST_RETIRED),
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		checkSavedParameters(this, new Grist().description, GRIST_RETIRED);
		return await router.call(this);
	}
}
