/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * In-process harness for webhook triggers: the node's `webhookMethods` run in n8n-core's real
 * `HookContext` and `webhook()` in its real `WebhookContext`, the way n8n 2.41 calls them.
 *
 * - `activate()` is n8n's `createWebhookIfNotExists` for the production URL (`checkExists`, then
 *   `create` when it answered false); after a successful activation the static data is "saved"
 *   (active-workflow-manager). `deactivate()` runs `delete` and saves. `restart()` is an n8n
 *   restart with the workflow active: the in-memory workflow is rebuilt from the saved static data
 *   and activated again in mode `init`.
 * - `listen()` / `stopListening()`: "Listen for test event" (test URL, `isTest`) on a workflow with
 *   empty static data, kept for the test registration's deliveries and its removal, as n8n's
 *   TestWebhooks does.
 * - `receive()` calls `webhook()` with a request (headers, parsed body) and a response object that
 *   records what the node answered itself (`status`, `body`); n8n answers 200 when the node
 *   returns `workflowData` or `webhookResponse` (responseMode `onReceived`).
 *
 * Depends on n8n-core's `HookContext` / `WebhookContext` constructors and on the IWebhookData
 * fields they read (`isTest`, `webhookDescription`), pinned with n8n-core 2.41.1.
 */
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { UnexpectedError, Workflow, deepCopy } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { GristRecordsApi } from '../../../credentials/GristRecordsApi.credentials';
import { GristRecordsOAuth2Api } from '../../../credentials/GristRecordsOAuth2Api.credentials';
import { buildAdditionalData } from './additional-data';
import { HarnessCredentialTypes, HarnessCredentialsHelper } from './credentials';
import { HarnessNodeTypes, latestVersionOf, typeNameOf } from './node-types';
import { OAuth2Api } from './oauth2';
import { ensureRuntime } from './runtime';

export interface WebhookTriggerOptions {
	node: INodeType;
	parameters: IDataObject;
	/** Credential data by type name (`gristRecordsApi`: `{ apiKey, url }`). */
	credentials: Record<string, IDataObject>;
	/** Saved workflow static data to start from. */
	staticData?: IDataObject;
	/** n8n's base URL for webhook URLs (default the harness's `http://127.0.0.1:5678/`). */
	baseUrl?: string;
	/**
	 * Deliveries as n8n's webhook process in queue mode runs them: every delivery gets a workflow
	 * built afresh from the saved static data, and what `webhook()` writes there is not saved
	 * (measured with n8n 2.41.1 in queue mode; a single n8n saves it).
	 */
	webhookProcess?: boolean;
}

export interface Delivery {
	headers?: Record<string, string>;
	body: unknown;
}

export interface DeliveryResult {
	/** What the node returned. */
	result: IWebhookResponseData;
	/** Status and body the node sent itself (`noWebhookResponse`), else n8n's 200. */
	status: number;
	body?: unknown;
}

export interface WebhookTrigger {
	activate(mode?: WorkflowActivateMode): Promise<'existed' | 'created'>;
	deactivate(): Promise<void>;
	restart(): Promise<'existed' | 'created'>;
	listen(): Promise<'existed' | 'created'>;
	stopListening(): Promise<void>;
	/** A delivery to the production URL (or the test URL while listening, with `test`). */
	receive(delivery: Delivery, test?: boolean): Promise<DeliveryResult>;
	/** Changes node parameters (as saving an edited workflow does). */
	setParameters(parameters: IDataObject): void;
	url(test?: boolean): string;
	readonly savedStaticData: IDataObject;
	readonly nodeStaticData: IDataObject;
	readonly nodeName: string;
}

export function createWebhookTrigger(opts: WebhookTriggerOptions): WebhookTrigger {
	const typeName = typeNameOf(opts.node);
	const nodeName = String(opts.node.description.defaults.name);
	const nodeTypes = new HarnessNodeTypes({ [typeName]: opts.node });
	const credentialTypes = new HarnessCredentialTypes([
		new GristRecordsApi(),
		new GristRecordsOAuth2Api(),
		new OAuth2Api(),
	]);
	const credentialsHelper = new HarnessCredentialsHelper(credentialTypes);
	const nodeCredentials: INode['credentials'] = {};
	for (const [type, data] of Object.entries(opts.credentials))
		nodeCredentials[type] = credentialsHelper.addCredential({
			id: `harness-${type}`,
			name: `${type} account`,
			type,
			data: { ...data } as ICredentialDataDecryptedObject,
		});
	const workflowId = `harness-wf-${randomUUID()}`;
	let parameters = deepCopy(opts.parameters);
	const nodeJson = (): INode => ({
		id: 'node-1',
		name: nodeName,
		type: typeName,
		typeVersion: latestVersionOf(opts.node),
		position: [0, 0],
		webhookId: 'b6c1f2de-0000-4000-8000-00000000abcd',
		parameters: deepCopy(parameters) as INode['parameters'],
		credentials: deepCopy(nodeCredentials),
	});
	const makeWorkflow = (staticData: IDataObject): Workflow =>
		new Workflow({
			id: workflowId,
			name: 'Harness webhook workflow',
			nodes: [nodeJson()],
			connections: {},
			active: true,
			nodeTypes,
			staticData: deepCopy(staticData),
			settings: { executionOrder: 'v1' },
		});
	let saved: IDataObject = deepCopy(opts.staticData ?? {});
	let active = makeWorkflow(saved);
	let testWorkflow: Workflow | undefined;
	const base = opts.baseUrl ?? 'http://127.0.0.1:5678/';
	const additionalData = () => {
		const data = buildAdditionalData({ credentialsHelper, workflowId });
		data.webhookBaseUrl = `${base}webhook`;
		data.webhookTestBaseUrl = `${base}webhook-test`;
		return data;
	};
	const description = opts.node.description.webhooks![0];
	const webhookData = (isTest: boolean): IWebhookData =>
		({
			httpMethod: 'POST',
			node: nodeName,
			path: description.path as string,
			webhookDescription: description,
			workflowId,
			workflowExecuteAdditionalData: additionalData(),
			isTest,
		}) as IWebhookData;

	const hook = async (
		workflow: Workflow,
		method: 'checkExists' | 'create' | 'delete',
		mode: WorkflowActivateMode,
		isTest: boolean,
	): Promise<boolean | undefined> => {
		await ensureRuntime();
		const node = workflow.getNode(nodeName);
		if (!node) throw new UnexpectedError(`Node "${nodeName}" is missing`);
		const ctx = new HookContext(
			workflow,
			node,
			additionalData(),
			isTest ? 'manual' : 'trigger',
			mode,
			webhookData(isTest),
		);
		const fn = opts.node.webhookMethods!.default![method];
		return await fn.call(ctx);
	};
	const save = (workflow: Workflow) => {
		saved = deepCopy(workflow.staticData as IDataObject);
		workflow.staticData.__dataChanged = false;
	};
	const createIfNotExists = async (
		workflow: Workflow,
		mode: WorkflowActivateMode,
		isTest: boolean,
	): Promise<'existed' | 'created'> => {
		if (await hook(workflow, 'checkExists', mode, isTest)) return 'existed';
		await hook(workflow, 'create', mode, isTest);
		return 'created';
	};

	return {
		async activate(mode = 'activate') {
			const out = await createIfNotExists(active, mode, false);
			save(active);
			return out;
		},
		async deactivate() {
			await hook(active, 'delete', 'activate', false);
			save(active);
		},
		async restart() {
			active = makeWorkflow(saved);
			const out = await createIfNotExists(active, 'init', false);
			save(active);
			return out;
		},
		async listen() {
			testWorkflow = makeWorkflow({}); // TestWebhooks builds the workflow with empty static data
			return await createIfNotExists(testWorkflow, 'manual', true);
		},
		async stopListening() {
			if (!testWorkflow) return;
			await hook(testWorkflow, 'delete', 'manual', true);
			testWorkflow = undefined;
		},
		async receive(delivery, test = false) {
			await ensureRuntime();
			const workflow = test ? testWorkflow : opts.webhookProcess ? makeWorkflow(saved) : active;
			if (!workflow) throw new UnexpectedError('Not listening for a test event');
			const node = workflow.getNode(nodeName)!;
			const data = additionalData();
			const answer: { status: number; body?: unknown } = { status: 200 };
			const headers: Record<string, string> = { 'content-type': 'application/json' };
			for (const [k, v] of Object.entries(delivery.headers ?? {})) headers[k.toLowerCase()] = v;
			data.httpRequest = {
				headers,
				body: delivery.body,
				params: {},
				query: {},
			} as unknown as typeof data.httpRequest;
			const res = {
				status(code: number) {
					answer.status = code;
					return res;
				},
				json(body: unknown) {
					answer.body = body;
					return res;
				},
				send(body: unknown) {
					answer.body = body;
					return res;
				},
				end() {
					return res;
				},
			};
			data.httpResponse = res as unknown as typeof data.httpResponse;
			const ctx = new WebhookContext(
				workflow,
				node,
				data,
				test ? 'manual' : 'webhook',
				webhookData(test),
				[],
				null,
			);
			const result = await opts.node.webhook!.call(ctx);
			if (!test && !opts.webhookProcess && workflow.staticData.__dataChanged) save(workflow);
			if (result.noWebhookResponse) return { result, ...answer };
			return { result, status: 200, body: result.webhookResponse };
		},
		setParameters(p) {
			parameters = deepCopy(p);
			active = makeWorkflow(saved);
		},
		url(test = false) {
			return `${base}${test ? 'webhook-test' : 'webhook'}/b6c1f2de-0000-4000-8000-00000000abcd/${description.path}`;
		},
		get savedStaticData() {
			return deepCopy(saved);
		},
		get nodeStaticData() {
			return active.getStaticData('node', active.getNode(nodeName)!);
		},
		nodeName,
	};
}

/**
 * A stand-in for n8n's HTTP webhook endpoint: POST /webhook/… and /webhook-test/… go to
 * `receive()` (JSON bodies parsed like n8n's body parser) and are answered with its status and
 * body; every node result is kept in `results`.
 */
export async function serveWebhooks(
	getTrigger: () => WebhookTrigger,
): Promise<{ baseUrl: string; results: DeliveryResult[]; close: () => Promise<void> }> {
	const results: DeliveryResult[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			void (async () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let body: unknown = {};
				try {
					body = text ? JSON.parse(text) : {};
				} catch {
					res.writeHead(400).end('{"message":"Invalid JSON"}');
					return;
				}
				const headers: Record<string, string> = {};
				for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
				try {
					const out = await getTrigger().receive(
						{ headers, body },
						(req.url ?? '').startsWith('/webhook-test/'),
					);
					results.push(out);
					res
						.writeHead(out.status, { 'Content-Type': 'application/json' })
						.end(JSON.stringify(out.body ?? { message: 'Workflow was started' }));
				} catch (error) {
					res.writeHead(500).end(JSON.stringify({ message: (error as Error).message }));
				}
			})();
		});
	});
	await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
	const port = (server.address() as AddressInfo).port;
	return {
		baseUrl: `http://localhost:${port}/`,
		results,
		close: () => new Promise((ok) => server.close(() => ok())),
	};
}
