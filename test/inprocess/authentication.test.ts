/**
 * The node's Authentication as the client reads it (`authenticationOf`, parameters/
 * authentication.ts), in each kind of n8n-core context that creates a client: an execution, a
 * poll, a trigger's webhook methods (create / check / delete), a webhook call, and the editor's
 * pickers. Their `getNodeParameter` differ: an execution's takes an item index before the
 * fallback, the others do not. Read with the wrong signature, a missing parameter fails ("Could
 * not get parameter") or reads a wrong fallback. n8n fills in a saved node's missing parameters
 * with their defaults when it builds the workflow; the parameter is also deleted after that here,
 * so the fallback itself is what is checked.
 */
import {
	ExecuteContext,
	HookContext,
	LoadOptionsContext,
	PollContext,
	WebhookContext,
} from 'n8n-core';
import type {
	IExecuteData,
	INode,
	INodeParameters,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { GristTrigger } from '../../nodes/GristTrigger/GristTrigger.node';
import { GristWebhookTrigger } from '../../nodes/GristWebhookTrigger/GristWebhookTrigger.node';
import { authenticationOf } from '../../nodes/Grist/parameters/authentication';
import { ensureRuntime, typeNameOf, type AnyNodeType } from '../harness/inprocess';
import { buildAdditionalData } from '../harness/inprocess/additional-data';
import { HarnessCredentialTypes, HarnessCredentialsHelper } from '../harness/inprocess/credentials';
import { HarnessNodeTypes, latestVersionOf } from '../harness/inprocess/node-types';

type Kind = 'execute' | 'poll' | 'hook' | 'webhook' | 'loadOptions';

beforeAll(async () => {
	await ensureRuntime();
});

/** A workflow with `nodeType` saved with `parameters`; `drop` deletes `authentication` after n8n's defaults. */
function workflowOf(
	nodeType: AnyNodeType,
	parameters: INodeParameters,
	drop: boolean,
): { workflow: Workflow; node: INode } {
	const type = typeNameOf(nodeType);
	const workflow = new Workflow({
		nodes: [
			{
				id: 'n1',
				name: 'Node',
				type,
				typeVersion: latestVersionOf(nodeType),
				position: [0, 0],
				parameters,
			},
		],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes({ [type]: nodeType }),
	});
	const node = workflow.getNode('Node')!;
	if (drop) delete node.parameters.authentication;
	return { workflow, node };
}

function additionalData(): IWorkflowExecuteAdditionalData {
	return buildAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(new HarnessCredentialTypes([])),
	});
}

const webhookData = (node: INode): IWebhookData => ({
	httpMethod: 'POST',
	node: node.name,
	path: 'p',
	webhookDescription: { name: 'default', httpMethod: 'POST', path: 'p' },
	workflowId: 'wf',
	workflowExecuteAdditionalData: additionalData(),
	isTest: false,
	webhookId: 'hook',
});

function contextOf(kind: Kind, workflow: Workflow, node: INode) {
	switch (kind) {
		case 'execute': {
			const executeData: IExecuteData = { node, data: {}, source: null };
			return new ExecuteContext(
				workflow,
				node,
				additionalData(),
				'manual',
				createRunExecutionData({ resultData: { runData: {} } }),
				0,
				[{ json: {} }],
				{ main: [[{ json: {} }]] },
				executeData,
				[],
			);
		}
		case 'poll':
			return new PollContext(workflow, node, additionalData(), 'trigger', 'activate');
		case 'hook':
			return new HookContext(
				workflow,
				node,
				additionalData(),
				'trigger',
				'activate',
				webhookData(node),
			);
		case 'webhook':
			return new WebhookContext(
				workflow,
				node,
				additionalData(),
				'webhook',
				webhookData(node),
				[],
				null,
			);
		case 'loadOptions':
			return new LoadOptionsContext(workflow, node, additionalData(), 'parameters.document');
	}
}

const cases: Array<[Kind, string, AnyNodeType]> = [
	['execute', 'Grist', new Grist()],
	['loadOptions', 'Grist', new Grist()],
	['poll', 'Grist Trigger', new GristTrigger()],
	['loadOptions', 'Grist Trigger', new GristTrigger()],
	['hook', 'Grist Instant Trigger', new GristWebhookTrigger()],
	['webhook', 'Grist Instant Trigger', new GristWebhookTrigger()],
];

describe.each(cases)('Authentication read in a %s context of %s', (kind, _name, nodeType) => {
	it('OAuth2 when set', () => {
		const { workflow, node } = workflowOf(nodeType, { authentication: 'oAuth2' }, false);
		expect(authenticationOf(contextOf(kind, workflow, node))).toBe('oAuth2');
	});

	it("saved without the parameter: n8n's default, API key", () => {
		const { workflow, node } = workflowOf(nodeType, {}, false);
		expect(node.parameters.authentication).toBe('apiKey');
		expect(authenticationOf(contextOf(kind, workflow, node))).toBe('apiKey');
	});

	it("the parameter missing even after n8n's defaults: API key, no error", () => {
		const { workflow, node } = workflowOf(nodeType, {}, true);
		expect(node.parameters).not.toHaveProperty('authentication');
		expect(authenticationOf(contextOf(kind, workflow, node))).toBe('apiKey');
	});
});
