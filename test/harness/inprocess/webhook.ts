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
 *   returns `workflowData` or `webhookResponse` (responseMode `onReceived`). What `webhook()`
 *   wrote into static data is saved only when it started no execution (no `workflowData`), as
 *   n8n 2.41 does.
 *
 * Depends on n8n-core's `HookContext` / `WebhookContext` constructors and on the IWebhookData
 * fields they read (`isTest`, `webhookDescription`), pinned with n8n-core 2.41.1.
 */
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { UnexpectedError, Workflow, deepCopy } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { buildAdditionalData } from './additional-data';
import { HarnessNodeTypes, latestVersionOf, typeNameOf } from './node-types';
import { ensureRuntime } from './runtime';
import { createSession, type CredentialsByType, type Session } from './session';

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
	 * Deliveries as n8n 2.41 runs them (a single n8n and the webhook process of queue mode alike):
	 * every delivery gets a workflow built afresh from the saved static data. Without it, the
	 * active workflow's static data is kept in memory between deliveries.
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

const WEBHOOK_ID = 'b6c1f2de-0000-4000-8000-00000000abcd';

/** The active workflow (and the test one while listening) and what n8n saved of it. */
interface HookState {
	opts: WebhookTriggerOptions;
	typeName: string;
	nodeName: string;
	nodeTypes: HarnessNodeTypes;
	session: Session;
	workflowId: string;
	parameters: IDataObject;
	saved: IDataObject;
	active: Workflow;
	testWorkflow?: Workflow;
	base: string;
	description: IWebhookDescription;
}

function makeWorkflow(w: HookState, staticData: IDataObject): Workflow {
	const node: INode = {
		id: 'node-1',
		name: w.nodeName,
		type: w.typeName,
		typeVersion: latestVersionOf(w.opts.node),
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters: deepCopy(w.parameters) as INode['parameters'],
		credentials: deepCopy(w.session.nodeCredentials),
	};
	return new Workflow({
		id: w.workflowId,
		name: 'Harness webhook workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: w.nodeTypes,
		staticData: deepCopy(staticData),
		settings: { executionOrder: 'v1' },
	});
}

function additionalData(w: HookState) {
	const data = buildAdditionalData({
		credentialsHelper: w.session.credentialsHelper,
		workflowId: w.workflowId,
	});
	data.webhookBaseUrl = `${w.base}webhook`;
	data.webhookTestBaseUrl = `${w.base}webhook-test`;
	return data;
}

function webhookData(w: HookState, isTest: boolean): IWebhookData {
	return {
		httpMethod: 'POST',
		node: w.nodeName,
		path: w.description.path as string,
		webhookDescription: w.description,
		workflowId: w.workflowId,
		workflowExecuteAdditionalData: additionalData(w),
		isTest,
	} as IWebhookData;
}

/** One of the node's webhookMethods in n8n-core's HookContext. */
async function hook(
	w: HookState,
	workflow: Workflow,
	method: 'checkExists' | 'create' | 'delete',
	mode: WorkflowActivateMode,
	isTest: boolean,
): Promise<boolean | undefined> {
	await ensureRuntime();
	const node = workflow.getNode(w.nodeName);
	if (!node) throw new UnexpectedError(`Node "${w.nodeName}" is missing`);
	const ctx = new HookContext(
		workflow,
		node,
		additionalData(w),
		isTest ? 'manual' : 'trigger',
		mode,
		webhookData(w, isTest),
	);
	const fn = w.opts.node.webhookMethods!.default![method];
	return await fn.call(ctx);
}

function save(w: HookState, workflow: Workflow): void {
	w.saved = deepCopy(workflow.staticData as IDataObject);
	workflow.staticData.__dataChanged = false;
}

/** n8n's createWebhookIfNotExists: `checkExists`, then `create` when it answered false. */
async function createIfNotExists(
	w: HookState,
	workflow: Workflow,
	mode: WorkflowActivateMode,
	isTest: boolean,
): Promise<'existed' | 'created'> {
	if (await hook(w, workflow, 'checkExists', mode, isTest)) return 'existed';
	await hook(w, workflow, 'create', mode, isTest);
	return 'created';
}

/** A response object that records what the node answers itself. */
function recordingResponse(answer: { status: number; body?: unknown }) {
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
	return res;
}

/** `webhook()` in n8n-core's WebhookContext, with the delivery as its request. */
async function receive(w: HookState, delivery: Delivery, test: boolean): Promise<DeliveryResult> {
	await ensureRuntime();
	const webhookProcess = w.opts.webhookProcess;
	const workflow = test ? w.testWorkflow : webhookProcess ? makeWorkflow(w, w.saved) : w.active;
	if (!workflow) throw new UnexpectedError('Not listening for a test event');
	const node = workflow.getNode(w.nodeName)!;
	const data = additionalData(w);
	const answer: { status: number; body?: unknown } = { status: 200 };
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	for (const [k, v] of Object.entries(delivery.headers ?? {})) headers[k.toLowerCase()] = v;
	data.httpRequest = {
		headers,
		body: delivery.body,
		params: {},
		query: {},
	} as unknown as typeof data.httpRequest;
	data.httpResponse = recordingResponse(answer) as unknown as typeof data.httpResponse;
	const mode = test ? 'manual' : 'webhook';
	const ctx = new WebhookContext(workflow, node, data, mode, webhookData(w, test), [], null);
	const result = await w.opts.node.webhook!.call(ctx);
	// n8n 2.41 saves what webhook() wrote into static data only after a call that starts no
	// execution: starting one builds the workflow again, which clears the "changed" mark first
	// (measured in a single n8n and in queue mode, see docs/TRIGGERS.md).
	if (!test && !result.workflowData && workflow.staticData.__dataChanged) save(w, workflow);
	if (result.noWebhookResponse) return { result, ...answer };
	return { result, status: 200, body: result.webhookResponse };
}

function hookState(opts: WebhookTriggerOptions): HookState {
	const typeName = typeNameOf(opts.node);
	const w = {
		opts,
		typeName,
		nodeName: String(opts.node.description.defaults.name),
		nodeTypes: new HarnessNodeTypes({ [typeName]: opts.node }),
		session: createSession(opts.credentials as CredentialsByType),
		workflowId: `harness-wf-${randomUUID()}`,
		parameters: deepCopy(opts.parameters),
		saved: deepCopy(opts.staticData ?? {}),
		base: opts.baseUrl ?? 'http://127.0.0.1:5678/',
		description: opts.node.description.webhooks![0],
	} as Omit<HookState, 'active'> as HookState;
	w.active = makeWorkflow(w, w.saved);
	return w;
}

export function createWebhookTrigger(opts: WebhookTriggerOptions): WebhookTrigger {
	const w = hookState(opts);
	return {
		async activate(mode = 'activate') {
			const out = await createIfNotExists(w, w.active, mode, false);
			save(w, w.active);
			return out;
		},
		async deactivate() {
			await hook(w, w.active, 'delete', 'activate', false);
			save(w, w.active);
		},
		async restart() {
			w.active = makeWorkflow(w, w.saved);
			const out = await createIfNotExists(w, w.active, 'init', false);
			save(w, w.active);
			return out;
		},
		async listen() {
			w.testWorkflow = makeWorkflow(w, {}); // TestWebhooks builds the workflow with empty static data
			return await createIfNotExists(w, w.testWorkflow, 'manual', true);
		},
		async stopListening() {
			if (!w.testWorkflow) return;
			await hook(w, w.testWorkflow, 'delete', 'manual', true);
			w.testWorkflow = undefined;
		},
		receive: async (delivery, test = false) => await receive(w, delivery, test),
		setParameters(p) {
			w.parameters = deepCopy(p);
			w.active = makeWorkflow(w, w.saved);
		},
		url(test = false) {
			return `${w.base}${test ? 'webhook-test' : 'webhook'}/${WEBHOOK_ID}/${w.description.path}`;
		},
		get savedStaticData() {
			return deepCopy(w.saved);
		},
		get nodeStaticData() {
			return w.active.getStaticData('node', w.active.getNode(w.nodeName)!);
		},
		nodeName: w.nodeName,
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
