import type { IDataObject } from 'n8n-workflow';

import type { AttachmentTransferStatus } from '../../api/attachments';

/**
 * The output of Transfer All and Get Transfer Status: Grist's status flattened into one item
 * (`pendingTransferCount`, `isRunning`, `successes`, `failures`) with `locationSummary` (where
 * the files are: none, internal, external or mixed).
 */
export function transferOutput(docId: string, answer: AttachmentTransferStatus): IDataObject {
	return { documentId: docId, ...(answer?.status ?? {}), locationSummary: answer?.locationSummary };
}
