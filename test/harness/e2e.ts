/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness (runs outside n8n) */
/**
 * Real-n8n harness (test level c): the built package, packed with `npm pack` and installed as a
 * community package into a fresh n8n 2.41.1 (Node 24, from the cache of scripts/ensure-n8n.sh),
 * driven through n8n's REST and public APIs. Node types are `n8n-nodes-grist.grist` and
 * `n8n-nodes-grist.gristTrigger`, exactly as after a real install.
 *
 * Usage (one n8n server per test file; start ≈ 6–10 s, each workflow run ≈ 0.2–0.5 s):
 * ```ts
 * import { startN8n, manualWorkflow, gristNode, START_TIMEOUT, type N8n } from '../harness/e2e';
 * import { startEmulator } from '../emulator';
 *
 * let n8n: N8n;
 * beforeAll(async () => { n8n = await startN8n(); }, START_TIMEOUT);
 * afterAll(async () => { await n8n?.stop(); });
 *
 * test('lists orgs', async () => {
 *   const cred = await n8n.createCredential({ name: 'Grist', type: 'gristRecordsApi',
 *     data: { apiKey: 'k', url: emulator.url } });          // → { id, name }
 *   const run = await n8n.runWorkflow(manualWorkflow([
 *     gristNode({ resource: 'org', operation: 'getAll', returnAll: true }, cred),
 *   ]));
 *   expect(run.status).toBe('success');
 *   expect(run.output('Grist')).toEqual([...]);          // json of each item of output 0
 * });
 * ```
 * - `startN8n({ line?, env?, echo? })`: `line` picks the n8n line, `RUNTIMES.current` (default,
 *   2.41.1 on Node 24) or `RUNTIMES.lts1` (1.123.x on Node 22: its owner is set up through
 *   `/rest/owner/setup`, credentials are created and tested through the editor's REST routes,
 *   the rest is the same). `env` is added to n8n's environment (e.g.
 *   `{ HTTP_PROXY: emulator.url, NO_PROXY: '127.0.0.1,localhost' }` to route
 *   `http://<team>.getgrist.com` to the emulator). n8n never inherits proxy, `N8N_*`, `DB_*`,
 *   `NODE_ENV` or npm variables from the test process; by default `NO_PROXY=127.0.0.1,localhost`.
 *   `echo: true` (or env `E2E_N8N_ECHO=1`) copies n8n's log to stderr. The first instance saves
 *   its freshly migrated database as a template in the cache; later instances start from a copy
 *   (≈ 6 s instead of ≈ 10 s; all use one random test key per cache, `e2eEncryptionKey()`; an unusable template
 *   is dropped and the start retried from scratch). Everything listens on
 *   127.0.0.1 on random free ports; telemetry, version checks, templates and the MCP registry are
 *   off; the user folder is a fresh temp dir, removed by `stop()`. The process group is killed by
 *   `stop()`, on jest's exit, and by a watchdog if jest dies.
 * - `runWorkflow(workflowJsonOrId, { triggerNode?, timeoutMs? })` saves the workflow (if JSON),
 *   runs it like the editor's "Execute workflow" (`POST /rest/workflows/<id>/run`, from the Manual
 *   Trigger, or from `triggerNode` e.g. `'Grist Trigger'` for one manual poll), waits for the
 *   saved execution and returns a `RunResult`:
 *   `status` ('success' | 'error' | …), `error` (the workflow's error: `{ message, description,
 *   httpCode, node, name }`), `output(node, outputIndex = 0, run = 0)` → json items,
 *   `items(node, …)` → full items (json, binary, pairedItem), `nodeError(node)`,
 *   `binary(node, itemIndex, property = 'data')` → Promise<Buffer>, `raw` (the parsed run data).
 * - Polling for real: `activate(id)` / `deactivate(id)` (public API), then `executions(id)`
 *   (newest first, each a `RunResult`) and `workflowStaticData(id)`; `waitForExecutions(id, n)`.
 * - `restart()`: n8n stops and starts again on the same database (active workflows come back).
 * - `createCredential`, `testCredential(id)` → `{ status: 'OK' | 'Error', message }`,
 *   `createWorkflow(json)` → id, `nodeTypes()`, `credentialTypes()`, `logs()` (n8n's output so
 *   far), `rest(method, path, body)` and `api(method, path, body)` for anything else.
 */
import { parse as parseFlatted } from 'flatted';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	e2eEncryptionKey,
	bcryptHash,
	dropTemplate,
	freePort,
	installPackage,
	locateRuntime,
	n8nEnv,
	RUNTIMES,
	removeFolder,
	saveTemplate,
	seedFromTemplate,
	spawnN8n,
	type N8nProcess,
	type RuntimeLine,
} from './e2e/runtime';
import {
	startEmulator,
	type DemoSite,
	type EmulatorOptions,
	type GristEmulator,
} from '../emulator';
import { seedTeamDoc } from './builders';
import { MANUAL_TRIGGER_NAME, type CredentialRef, type WorkflowJson } from './e2e/workflows';

export * from './e2e/workflows';
export { N8N_VERSION, RUNTIMES } from './e2e/runtime';
export type { RuntimeLine } from './e2e/runtime';

/** jest timeout for the `beforeAll` that calls `startN8n` (covers a cold ensure-n8n.sh run). */
export const START_TIMEOUT = 15 * 60_000;

export const OWNER_EMAIL = 'owner@e2e.example.com';
/** Throwaway owner password, new for every test process (n8n gets only its bcrypt hash, through the env). */
export const OWNER_PASSWORD = `E2e-${randomBytes(12).toString('hex')}-0`;

type Json = Record<string, unknown>;

export interface NodeErrorInfo {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	/** Name of the node that failed. */
	node?: string;
	/** Error class, e.g. NodeApiError, NodeOperationError. */
	name?: string;
	raw: Json;
}

export interface RunItem {
	json: Json;
	binary?: Record<string, BinaryRef>;
	pairedItem?: unknown;
	error?: unknown;
}

export interface BinaryRef {
	data?: string;
	id?: string;
	mimeType?: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
}

export interface RunResult {
	executionId: string;
	status: string;
	/** The error that stopped the workflow, if any. */
	error?: NodeErrorInfo;
	/** Names of the nodes that ran, in order. */
	nodesRun: string[];
	output(node: string, outputIndex?: number, run?: number): Json[];
	items(node: string, outputIndex?: number, run?: number): RunItem[];
	nodeError(node: string, run?: number): NodeErrorInfo | undefined;
	binary(node: string, itemIndex: number, property?: string, outputIndex?: number): Promise<Buffer>;
	/** The parsed execution data (`{ resultData: { runData, error }, … }`). */
	raw: Json;
}

export interface N8n {
	baseUrl: string;
	userFolder: string;
	/** Milliseconds from spawn to a logged-in session. */
	startupMs: number;
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	createCredential(c: { name: string; type: string; data: Json }): Promise<CredentialRef>;
	testCredential(id: string): Promise<{ status: string; message: string }>;
	createWorkflow(wf: WorkflowJson): Promise<string>;
	runWorkflow(
		wf: WorkflowJson | string,
		opts?: { triggerNode?: string; timeoutMs?: number },
	): Promise<RunResult>;
	activate(workflowId: string): Promise<void>;
	deactivate(workflowId: string): Promise<void>;
	executions(workflowId: string): Promise<RunResult[]>;
	waitForExecutions(workflowId: string, count: number, timeoutMs?: number): Promise<RunResult[]>;
	workflowStaticData(workflowId: string): Promise<Json | null>;
	nodeTypes(): Promise<string[]>;
	credentialTypes(): Promise<string[]>;
	/** The owner's browser session cookie (for flows a browser drives, e.g. OAuth2 connect). */
	sessionCookie(): string;
	/** The credential types as n8n serves them to the editor (`/types/credentials.json`). */
	credentialTypeDescriptions(): Promise<Json[]>;
	logs(): string;
	/**
	 * Stops n8n and starts it again on the same user folder, database, port and settings (n8n
	 * activates the active workflows again, mode `init`), then logs in again.
	 */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

export interface StartN8nOptions {
	/**
	 * The n8n line: `RUNTIMES.current` (default; n8n 2.41.1 on Node 24) or `RUNTIMES.lts1` (n8n
	 * 1.123.x on Node 22, the compatibility level), each from its own folder of the runtime cache.
	 */
	line?: RuntimeLine;
	env?: Record<string, string>;
	echo?: boolean;
	/** ms to wait for `/healthz/readiness` (default 120 s). */
	readyTimeoutMs?: number;
}

class HttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: string,
	) {
		super(message);
	}
}

const sleep = async (ms: number) => await new Promise((r) => setTimeout(r, ms));

function errorInfo(e: unknown): NodeErrorInfo | undefined {
	if (!e || typeof e !== 'object') return undefined;
	const err = e as Json;
	const node = err.node as Json | undefined;
	return {
		message: String(err.message ?? ''),
		description: (err.description as string | null | undefined) ?? undefined,
		httpCode: (err.httpCode as string | null | undefined) ?? undefined,
		node: typeof node?.name === 'string' ? node.name : undefined,
		name: typeof err.name === 'string' ? err.name : undefined,
		raw: err,
	};
}

export async function startN8n(options: StartN8nOptions = {}): Promise<N8n> {
	const t0 = Date.now();
	const line = options.line ?? RUNTIMES.current;
	const runtime = locateRuntime(line);
	// n8n 1.x has no env-managed owner (the owner is set up through its REST API below) and
	// refuses to start on a module name it does not know (mcp-registry is 2.x's).
	const legacy = line.n8nVersion.startsWith('1.');
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-grist-e2e-'));
	let proc: N8nProcess | undefined;
	// a start that fails (the error propagates as is) kills the process and removes the folder
	let ready = false;
	try {
		installPackage(userFolder);
		const [port, brokerPort] = [await freePort(), await freePort()];
		const baseUrl = `http://127.0.0.1:${port}`;
		const testKey = e2eEncryptionKey(runtime);
		const env = n8nEnv({
			userFolder,
			encryptionKey: testKey,
			port,
			brokerPort,
			owner: {
				email: OWNER_EMAIL,
				passwordHash: bcryptHash(runtime, OWNER_PASSWORD),
				firstName: 'E2E',
				lastName: 'Owner',
			},
			extra: {
				N8N_LOG_LEVEL: 'info',
				N8N_LOG_OUTPUT: 'console',
				EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
				EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
				EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
				...(legacy ? { N8N_DISABLED_MODULES: '' } : {}),
				...options.env,
			},
		});
		const echo = options.echo ?? process.env.E2E_N8N_ECHO === '1';
		const readyTimeout = options.readyTimeoutMs ?? 120_000;

		/** Spawns n8n and waits for `/healthz/readiness`; rejects with n8n's output if it exits. */
		const launch = async (): Promise<N8nProcess> => {
			const child = spawnN8n({ runtime, userFolder, echo, env });
			proc = child;
			let exitedEarly = false;
			void child.exited.then(() => (exitedEarly = true));
			const deadline = Date.now() + readyTimeout;
			for (;;) {
				if (exitedEarly) throw new Error(`n8n exited during start-up:\n${tail(child.output())}`);
				if (Date.now() > deadline)
					throw new Error(`n8n not ready after ${readyTimeout} ms:\n${tail(child.output())}`);
				try {
					const r = await fetch(`${baseUrl}/healthz/readiness`);
					if (r.status === 200) return child;
				} catch {
					// not listening yet
				}
				await sleep(150);
			}
		};

		let started: N8nProcess | undefined;
		const ownKey = env.N8N_ENCRYPTION_KEY === testKey;
		if (ownKey && seedFromTemplate(runtime, userFolder)) {
			try {
				started = await launch();
			} catch (e) {
				// A template that this n8n cannot use (other key, damaged file): start from scratch.
				await proc?.kill();
				dropTemplate(runtime);
				for (const f of readdirSync(join(userFolder, '.n8n'))) {
					if (f.startsWith('database.sqlite') || f === 'config')
						removeFolder(join(userFolder, '.n8n', f));
				}
				if (echo)
					process.stderr.write(
						`[e2e] template database refused, starting fresh: ${(e as Error).message.split('\n')[0]}\n`,
					);
			}
		}
		if (!started) {
			started = await launch();
			if (ownKey) {
				try {
					saveTemplate(runtime, userFolder);
				} catch (e) {
					if (echo)
						process.stderr.write(
							`[e2e] could not save the template database: ${(e as Error).message}\n`,
						);
				}
			}
		}
		let p = started;
		let earlierOutput = '';

		let cookie = '';
		let apiKey = '';
		function call<T>(
			kind: 'rest' | 'api',
			method: string,
			path: string,
			body?: unknown,
		): Promise<T>;
		function call<T>(
			kind: 'rest' | 'api',
			method: string,
			path: string,
			body: unknown,
			opts: { missingOk: true },
		): Promise<T | undefined>;
		async function call<T>(
			kind: 'rest' | 'api',
			method: string,
			path: string,
			body?: unknown,
			opts?: { missingOk: true },
		): Promise<T | undefined> {
			const headers: Record<string, string> = {};
			if (body !== undefined) headers['content-type'] = 'application/json';
			if (kind === 'rest' && cookie) headers.cookie = cookie;
			if (kind === 'api') headers['x-n8n-api-key'] = apiKey;
			const url = `${baseUrl}${kind === 'rest' ? '/rest' : '/api/v1'}${path}`;
			const res = await fetch(url, {
				method,
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			if (res.status === 404 && opts?.missingOk) return undefined;
			if (!res.ok)
				throw new HttpError(
					`${method} ${url} → ${res.status}: ${text.slice(0, 500)}`,
					res.status,
					text,
				);
			if (kind === 'rest' && path === '/login') {
				cookie = res.headers
					.getSetCookie()
					.map((c) => c.split(';')[0])
					.join('; ');
			}
			const parsed = text ? (JSON.parse(text) as Json) : {};
			return (kind === 'rest' && parsed && 'data' in parsed ? parsed.data : parsed) as T;
		}
		const rest = async <T = unknown>(m: string, path: string, b?: unknown) =>
			await call<T>('rest', m, path, b);
		const api = async <T = unknown>(m: string, path: string, b?: unknown) =>
			await call<T>('api', m, path, b);

		if (legacy) {
			// n8n 1.x reports ready before it mounts its REST routes
			for (
				let waited = 0;
				(await fetch(`${baseUrl}/rest/settings`)).status !== 200;
				waited += 150
			) {
				if (waited > readyTimeout)
					throw new Error(`n8n's REST API not up after ${readyTimeout} ms`);
				await sleep(150);
			}
			await rest('POST', '/owner/setup', {
				email: OWNER_EMAIL,
				firstName: 'E2E',
				lastName: 'Owner',
				password: OWNER_PASSWORD,
			});
		}
		await rest('POST', '/login', { emailOrLdapLoginId: OWNER_EMAIL, password: OWNER_PASSWORD });
		const scopes = await rest<string[]>('GET', '/api-keys/scopes');
		apiKey = (
			await rest<{ rawApiKey: string }>('POST', '/api-keys', {
				label: `e2e ${randomBytes(4).toString('hex')}`,
				expiresAt: null,
				scopes,
			})
		).rawApiKey;

		const fetchBinary = async (ref: BinaryRef): Promise<Buffer> => {
			if (ref.id) {
				const res = await fetch(
					`${baseUrl}/rest/binary-data?id=${encodeURIComponent(ref.id)}&action=download`,
					{
						headers: { cookie },
					},
				);
				if (!res.ok) throw new Error(`binary ${ref.id}: HTTP ${res.status}`);
				return Buffer.from(await res.arrayBuffer());
			}
			return Buffer.from(ref.data ?? '', 'base64');
		};

		const toResult = (executionId: string, status: string, data: Json): RunResult => {
			const resultData = (data.resultData ?? {}) as Json;
			const runData = (resultData.runData ?? {}) as Record<string, Json[]>;
			const taskOf = (node: string, run = 0): Json => {
				const runs = runData[node];
				if (!runs)
					throw new Error(`node "${node}" did not run; ran: ${Object.keys(runData).join(', ')}`);
				if (!runs[run]) throw new Error(`node "${node}" has no run ${run} (${runs.length} runs)`);
				return runs[run];
			};
			const items = (node: string, outputIndex = 0, run = 0): RunItem[] => {
				const task = taskOf(node, run);
				const main = ((task.data as Json | undefined)?.main ?? []) as Array<RunItem[] | null>;
				return main[outputIndex] ?? [];
			};
			return {
				executionId,
				status,
				error: errorInfo(resultData.error),
				nodesRun: Object.keys(runData),
				items,
				output: (node, outputIndex = 0, run = 0) =>
					items(node, outputIndex, run).map((i) => i.json),
				nodeError: (node, run = 0) => errorInfo(taskOf(node, run).error),
				binary: async (node, itemIndex, property = 'data', outputIndex = 0) => {
					const item = items(node, outputIndex)[itemIndex];
					const ref = item?.binary?.[property];
					if (!ref)
						throw new Error(
							`node "${node}" item ${itemIndex} has no binary property "${property}"`,
						);
					return await fetchBinary(ref);
				},
				raw: data,
			};
		};

		const createWorkflow = async (wf: WorkflowJson): Promise<string> => {
			// n8n 1.x stores `active` as sent and has no default for it
			const saved = await rest<{ id: string }>(
				'POST',
				'/workflows',
				legacy ? { active: false, ...wf } : wf,
			);
			return saved.id;
		};

		const isDone = (e: Json) =>
			e.finished === true ||
			['success', 'error', 'crashed', 'canceled', 'cancelled'].includes(String(e.status));

		/** A workflow's executions with their data (n8n 1.x has no ignoreDataSizeLimit). */
		const executionsQuery = (workflowId: string) =>
			`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true${legacy ? '' : '&ignoreDataSizeLimit=true'}&limit=250`;
		/** What the editor sends to n8n 1.x's credential test: the credential as created. */
		const legacyCredentials = new Map<string, Json>();
		const n8n: N8n = {
			baseUrl,
			userFolder,
			startupMs: Date.now() - t0,
			rest,
			api,
			createCredential: async ({ name, type, data }) => {
				// n8n 1.x's public API wants the Allowed Domains fields it adds to every credential,
				// and has no credential test: there the editor's REST routes do both
				const c = await (legacy ? rest : api)<{ id: string; name: string }>(
					'POST',
					'/credentials',
					{ name, type, data },
				);
				if (legacy) legacyCredentials.set(c.id, { id: c.id, name, type, data });
				return { id: c.id, name: c.name };
			},
			testCredential: async (id) =>
				legacy
					? await rest<{ status: string; message: string }>('POST', '/credentials/test', {
							credentials: legacyCredentials.get(id),
						})
					: await api<{ status: string; message: string }>('POST', `/credentials/${id}/test`),
			createWorkflow,
			runWorkflow: async (wf, opts = {}) => {
				const id = typeof wf === 'string' ? wf : await createWorkflow(wf);
				const workflowData = await rest<Json>('GET', `/workflows/${id}`);
				const started = await rest<{ executionId?: string; waitingForWebhook?: boolean }>(
					'POST',
					`/workflows/${id}/run`,
					{
						workflowData,
						triggerToStartFrom: { name: opts.triggerNode ?? MANUAL_TRIGGER_NAME },
					},
				);
				if (!started.executionId)
					throw new Error(`n8n did not start an execution: ${JSON.stringify(started)}`);
				const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
				for (;;) {
					// 404 until n8n has saved the execution
					const exec = await call<Json>(
						'rest',
						'GET',
						`/executions/${started.executionId}`,
						undefined,
						{ missingOk: true },
					);
					if (exec && isDone(exec) && typeof exec.data === 'string') {
						// n8n 1.x on SQLite without a pool saves an execution's status, then its data, in
						// two updates (updateExistingExecution): between them it is finished with no
						// result data yet, so poll again
						const data = parseFlatted(exec.data) as Json | undefined;
						if (data && typeof data === 'object' && data.resultData) {
							return toResult(String(exec.id), String(exec.status), data);
						}
					}
					if (Date.now() > deadline) {
						throw new Error(
							`execution ${started.executionId} not finished after ${opts.timeoutMs ?? 60_000} ms (status ${String(exec?.status)})`,
						);
					}
					await sleep(50);
				}
			},
			activate: async (workflowId) => {
				await api('POST', `/workflows/${workflowId}/activate`);
			},
			deactivate: async (workflowId) => {
				await api('POST', `/workflows/${workflowId}/deactivate`);
			},
			executions: async (workflowId) => {
				const list = await api<{ data: Json[] }>('GET', executionsQuery(workflowId));
				return list.data.map((e) =>
					toResult(String(e.id), String(e.status), (e.data ?? {}) as Json),
				);
			},
			waitForExecutions: async (workflowId, count, timeoutMs = 30_000) => {
				const deadline = Date.now() + timeoutMs;
				for (;;) {
					const list = await api<{ data: Json[] }>('GET', executionsQuery(workflowId));
					// with its data: see runWorkflow (n8n 1.x saves the status first)
					const done = list.data.filter(
						(e) => isDone(e) && Boolean((e.data as Json | undefined)?.resultData),
					);
					if (done.length >= count)
						return done.map((e) =>
							toResult(String(e.id), String(e.status), (e.data ?? {}) as Json),
						);
					if (Date.now() > deadline)
						throw new Error(
							`only ${done.length} of ${count} executions of ${workflowId} after ${timeoutMs} ms`,
						);
					await sleep(200);
				}
			},
			workflowStaticData: async (workflowId) => {
				const wf = await api<{ staticData?: unknown }>('GET', `/workflows/${workflowId}`);
				const sd = wf.staticData;
				if (sd === null || sd === undefined) return null;
				return (typeof sd === 'string' ? JSON.parse(sd) : sd) as Json;
			},
			nodeTypes: async () => await typeNames(baseUrl, cookie, 'nodes'),
			credentialTypes: async () => await typeNames(baseUrl, cookie, 'credentials'),
			credentialTypeDescriptions: async () => await typeList(baseUrl, cookie, 'credentials'),
			sessionCookie: () => cookie,
			logs: () => earlierOutput + p.output(),
			restart: async () => {
				earlierOutput += p.output();
				await p.kill();
				p = await launch();
				await rest('POST', '/login', {
					emailOrLdapLoginId: OWNER_EMAIL,
					password: OWNER_PASSWORD,
				});
			},
			stop: async () => {
				await p.kill();
				removeFolder(userFolder);
			},
		};
		ready = true;
		return n8n;
	} finally {
		if (!ready) {
			await proc?.kill();
			removeFolder(userFolder);
		}
	}
}

async function typeList(
	baseUrl: string,
	cookie: string,
	kind: 'nodes' | 'credentials',
): Promise<Json[]> {
	const res = await fetch(`${baseUrl}/types/${kind}.json`, { headers: { cookie } });
	if (!res.ok) throw new Error(`/types/${kind}.json → HTTP ${res.status}`);
	return (await res.json()) as Json[];
}

async function typeNames(
	baseUrl: string,
	cookie: string,
	kind: 'nodes' | 'credentials',
): Promise<string[]> {
	return (await typeList(baseUrl, cookie, kind)).map((t) => String(t.name));
}

function tail(text: string, lines = 40): string {
	return text.split('\n').slice(-lines).join('\n');
}

export interface N8nFixtureOptions {
	/** Name of the `gristRecordsApi` credential to create (none when not given). */
	credential?: string;
	emulator?: EmulatorOptions;
	n8n?: StartN8nOptions;
}

/** Set in `beforeAll` by `useN8nDemoSite` / `useN8nTeamDoc`. */
export interface N8nFixture {
	emu: GristEmulator;
	n8n: N8n;
	/** The credential named by the `credential` option (unset without it). */
	cred: CredentialRef;
}

/**
 * The hooks of a test file with one emulator and one n8n: `seed` fills the emulator before n8n
 * starts and says which key and Server URL the credential gets; both are stopped after the file.
 */
function useN8nFixture<T extends N8nFixture>(
	options: N8nFixtureOptions,
	seed: (fx: T) => { apiKey: string; url: string },
): T {
	const fx = {} as T;
	beforeAll(async () => {
		fx.emu = await startEmulator(options.emulator);
		const account = seed(fx);
		fx.n8n = await startN8n(options.n8n);
		if (options.credential) {
			fx.cred = await fx.n8n.createCredential({
				name: options.credential,
				type: 'gristRecordsApi',
				data: account,
			});
		}
	}, START_TIMEOUT);
	afterAll(async () => {
		await fx.n8n?.stop();
		await fx.emu?.close();
	});
	return fx;
}

export interface N8nDemoSiteFixture extends N8nFixture {
	demo: DemoSite;
}

/**
 * Hooks of a test file against the demo site (call it at the top level, before other hooks); the
 * credential is the demo owner's key at the team site (`<emulator>/o/<team>`). `seed` adds to the
 * demo site (tables, records).
 */
export function useN8nDemoSite(
	options: N8nFixtureOptions & { seed?: (emu: GristEmulator, demo: DemoSite) => void } = {},
): N8nDemoSiteFixture {
	return useN8nFixture<N8nDemoSiteFixture>(options, (fx) => {
		fx.demo = fx.emu.seedDemo();
		options.seed?.(fx.emu, fx.demo);
		return { apiKey: fx.demo.apiKey, url: `${fx.emu.url}/o/${fx.demo.orgDomain}` };
	});
}

export interface N8nTeamDocFixture extends N8nFixture {
	docId: string;
}

/**
 * Hooks of a test file against one document of a team site (`seedTeamDoc`: its owner has
 * `apiKey`); the credential is that key at the emulator's URL. `seed` adds to the document.
 */
export function useN8nTeamDoc(
	options: N8nFixtureOptions & {
		apiKey: string;
		docName: string;
		seed?: (emu: GristEmulator, docId: string) => void;
	},
): N8nTeamDocFixture {
	return useN8nFixture<N8nTeamDocFixture>(options, (fx) => {
		fx.docId = seedTeamDoc(fx.emu, options.apiKey, options.docName).docId;
		options.seed?.(fx.emu, fx.docId);
		return { apiKey: options.apiKey, url: fx.emu.url };
	});
}
