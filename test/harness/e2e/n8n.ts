/**
 * `startN8n`: one real n8n with the packed package installed, logged in as the owner, driven
 * through its REST and public APIs (see ../e2e.ts for the whole harness).
 */
import { n8nClient, type N8nClient } from './client';
import { executionsApi, type Workflows } from './executions';
import { logIn, logInWithApiKey, setUpLegacyOwner } from './owner';
import { prepareInstance, startInstance, type N8nInstance, type StartN8nOptions } from './process';
import { removeFolder, type N8nProcess } from './runtime';
import type { CredentialRef } from './workflows';

type Json = Record<string, unknown>;

export interface N8n extends Workflows {
	baseUrl: string;
	userFolder: string;
	/** Milliseconds from spawn to a logged-in session. */
	startupMs: number;
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	createCredential(c: { name: string; type: string; data: Json }): Promise<CredentialRef>;
	testCredential(id: string): Promise<{ status: string; message: string }>;
	activate(workflowId: string): Promise<void>;
	deactivate(workflowId: string): Promise<void>;
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

type CredentialsApi = Pick<N8n, 'createCredential' | 'testCredential'>;

/**
 * Credentials through the public API; n8n 1.x's wants the Allowed Domains fields it adds to
 * every credential and has no credential test: there the editor's REST routes do both.
 */
function credentialsApi(client: N8nClient, legacy: boolean): CredentialsApi {
	/** What the editor sends to n8n 1.x's credential test: the credential as created. */
	const legacyCredentials = new Map<string, Json>();
	return {
		createCredential: async ({ name, type, data }) => {
			const c = await (legacy ? client.rest : client.api)<{ id: string; name: string }>(
				'POST',
				'/credentials',
				{ name, type, data },
			);
			if (legacy) legacyCredentials.set(c.id, { id: c.id, name, type, data });
			return { id: c.id, name: c.name };
		},
		testCredential: async (id) =>
			legacy
				? await client.rest<{ status: string; message: string }>('POST', '/credentials/test', {
						credentials: legacyCredentials.get(id),
					})
				: await client.api<{ status: string; message: string }>('POST', `/credentials/${id}/test`),
	};
}

/** The running process and the output of the ones it replaced (`restart`). */
interface Lifecycle {
	logs(): string;
	restart(): Promise<void>;
	stop(): Promise<void>;
}

function lifecycleOf(inst: N8nInstance, client: N8nClient, first: N8nProcess): Lifecycle {
	let p = first;
	let earlierOutput = '';
	return {
		logs: () => earlierOutput + p.output(),
		restart: async () => {
			earlierOutput += p.output();
			await p.kill();
			p = await inst.launch();
			await logIn(client);
		},
		stop: async () => {
			await p.kill();
			removeFolder(inst.userFolder);
		},
	};
}

export async function startN8n(options: StartN8nOptions = {}): Promise<N8n> {
	const t0 = Date.now();
	const inst = await prepareInstance(options);
	// a start that fails (the error propagates as is) kills the process and removes the folder
	let ready = false;
	try {
		const proc = await startInstance(inst);
		const client = n8nClient(inst.baseUrl);
		if (inst.legacy) await setUpLegacyOwner(client, inst.readyTimeout);
		await logInWithApiKey(client);
		const typeNames = async (kind: 'nodes' | 'credentials') =>
			(await client.typeList(kind)).map((t) => String(t.name));
		const n8n: N8n = {
			baseUrl: inst.baseUrl,
			userFolder: inst.userFolder,
			startupMs: Date.now() - t0,
			rest: client.rest,
			api: client.api,
			...credentialsApi(client, inst.legacy),
			...executionsApi(client, inst.legacy),
			activate: async (workflowId) => {
				await client.api('POST', `/workflows/${workflowId}/activate`);
			},
			deactivate: async (workflowId) => {
				await client.api('POST', `/workflows/${workflowId}/deactivate`);
			},
			nodeTypes: async () => await typeNames('nodes'),
			credentialTypes: async () => await typeNames('credentials'),
			credentialTypeDescriptions: async () => await client.typeList('credentials'),
			sessionCookie: () => client.cookie(),
			...lifecycleOf(inst, client, proc),
		};
		ready = true;
		return n8n;
	} finally {
		if (!ready) {
			await inst.proc?.kill();
			removeFolder(inst.userFolder);
		}
	}
}
