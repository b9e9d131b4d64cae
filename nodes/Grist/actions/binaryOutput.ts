import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StreamResponse } from '../api/httpAnswer';

/**
 * Stores a file streamed from Grist in n8n's binary data; a connection lost while the bytes arrive
 * is an error naming `what` broke off (the request itself had succeeded).
 */
export async function streamedBinary(
	this: IExecuteFunctions,
	body: StreamResponse['body'],
	fileName: string,
	mimeType: string | undefined,
	what: string,
	itemIndex: number,
): Promise<IBinaryData> {
	try {
		return await this.helpers.prepareBinaryData(body, fileName, mimeType);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`The download of ${what} broke off: ${(error as Error).message}`,
			{
				description:
					'The connection to Grist failed while the file was being received. Run the node again.',
				itemIndex,
			},
		);
	}
}
