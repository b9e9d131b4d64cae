/**
 * The node as an AI agent's tool. n8n makes the tool variant of a `usableAsTool` node by copying
 * its description under the name `<name>Tool` (here `n8n-nodes-grist.gristTool`); an agent or an
 * MCP client then runs the same `execute` with the model's arguments as the only input item. What
 * a tool returns is the JSON of its items: binary data never reaches the model, and a tool has no
 * previous node to take a file from.
 */

/** Whether `nodeType` (a node's `type`, e.g. `n8n-nodes-grist.gristTool`) is a tool variant. */
export function isToolNodeType(nodeType: string): boolean {
	return nodeType.endsWith('Tool');
}

/**
 * The operations (`resource.operation`) a tool cannot perform usefully, and what to use instead:
 * each reads or writes a file (binary data).
 */
export const TOOL_UNSUPPORTED: Readonly<Record<string, string>> = {
	'attachment.download':
		"Attachment → Get gives an attachment's name, type and size; its content is a file, which a tool cannot return",
	'attachment.downloadAll':
		'the archive is a file, which a tool cannot return; Attachment → Get Many lists the attachments',
	'attachment.restoreFromArchive':
		'it reads an archive from the previous node, and a tool has none; restore in a regular workflow',
	'attachment.upload':
		'it uploads a file from the previous node, and a tool has none; upload in a regular workflow',
	'document.downloadBackup':
		"the backup is a file, which a tool cannot return; use Table → Get Many and Record → Get Many to read the document's data",
	'document.exportTable':
		"the export is a file, which a tool cannot return; use Record → Get Many or SQL → Run an SQL Query to read the table's rows, and Column → Get Many for its columns",
	'document.exportWorkbook':
		"the XLSX is a file, which a tool cannot return; use Record → Get Many or SQL → Run an SQL Query to read the tables' rows",
	'document.importFile':
		'it imports a file from the previous node, and a tool has none; use Document → Create and Record → Create instead',
};

/**
 * The operations a tool must not perform because their output is a secret (an API key), which
 * would be handed to the model and its provider; and what to do instead.
 */
export const TOOL_SECRET_OUTPUT: Readonly<Record<string, string>> = {
	'serviceAccount.create':
		'create service accounts in a regular workflow, where the key goes straight into a credential',
	'serviceAccount.createKey':
		'create new keys in a regular workflow, where the key goes straight into a credential',
};

/** The message for an operation a tool cannot perform (undefined when it can). */
export function toolUnsupportedMessage(
	resource: string,
	operation: string,
): { message: string; description: string } | undefined {
	const secret = TOOL_SECRET_OUTPUT[`${resource}.${operation}`];
	if (secret !== undefined)
		return {
			message: `This Grist tool (${resource} → ${operation}) returns an API key, which must not be handed to an AI agent`,
			description: `Set this tool to another operation: ${secret}.`,
		};
	const instead = TOOL_UNSUPPORTED[`${resource}.${operation}`];
	if (instead === undefined) return undefined;
	return {
		message: `This Grist tool (${resource} → ${operation}) works with files, which an AI agent cannot use`,
		description: `Set this tool to another operation: ${instead}.`,
	};
}
