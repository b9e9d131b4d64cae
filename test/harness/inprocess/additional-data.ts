/**
 * `IWorkflowExecuteAdditionalData` for the in-process harness: what n8n's
 * `WorkflowExecuteAdditionalData.getBase()` provides, minus the database-backed parts. Anything a
 * Grist node has no business calling (sub-workflows, task runners for the Code node) throws a
 * clear error instead of silently doing nothing.
 */
import { ExternalSecretsProxy } from 'n8n-core';
import type { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialsHelper,
	INodeParameters,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

export const HARNESS_BASE_URL = 'http://127.0.0.1:5678/';

export interface AdditionalDataOptions {
	credentialsHelper: ICredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	workflowId?: string;
	currentNodeParameters?: INodeParameters;
	workflowSettings?: IWorkflowSettings;
}

const unsupported = (what: string) => async (): Promise<never> => {
	throw new UnexpectedError(`${what} is not supported by the in-process n8n harness`);
};

export function buildAdditionalData(
	options: AdditionalDataOptions,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		userId: 'harness-user',
		currentNodeParameters: options.currentNodeParameters,
		workflowSettings: options.workflowSettings,
		currentNodeExecutionIndex: 0,
		variables: {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		restApiUrl: `${HARNESS_BASE_URL}rest`,
		instanceBaseUrl: HARNESS_BASE_URL,
		formBaseUrl: `${HARNESS_BASE_URL}form`,
		formWaitingBaseUrl: `${HARNESS_BASE_URL}form-waiting`,
		formTestBaseUrl: `${HARNESS_BASE_URL}form-test`,
		webhookBaseUrl: `${HARNESS_BASE_URL}webhook`,
		webhookWaitingBaseUrl: `${HARNESS_BASE_URL}webhook-waiting`,
		webhookTestBaseUrl: `${HARNESS_BASE_URL}webhook-test`,
		mcpBaseUrl: `${HARNESS_BASE_URL}mcp`,
		mcpTestBaseUrl: `${HARNESS_BASE_URL}mcp-test`,
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: unsupported('Executing sub-workflows'),
		startRunnerTask: unsupported('Task runners (Code node)'),
	};
}
