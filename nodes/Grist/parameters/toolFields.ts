/**
 * What the tool variant (`Grist Records & Documents Tool`) shows besides the node's fields: a
 * notice on each operation a tool cannot perform (`'@tool'` is true only in n8n's tool variant).
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	TOOL_SECRET_OUTPUT,
	TOOL_UNSUPPORTED,
	toolUnsupportedMessage,
} from '../errors/toolUnsupported';

export const toolNotices: INodeProperties[] = [
	...Object.keys(TOOL_UNSUPPORTED),
	...Object.keys(TOOL_SECRET_OUTPUT),
].map((key) => {
	const [resource, operation] = key.split('.');
	const text = toolUnsupportedMessage(resource, operation);
	return {
		displayName: `${text?.message}. ${text?.description}`,
		name: `toolNotice_${resource}_${operation}`,
		type: 'notice',
		default: '',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
});
