/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness (runs outside n8n) */
/**
 * One n8n process of the e2e harness: its user folder with the packed package installed, its
 * environment, its start (from the template database when there is a usable one) until
 * `/healthz/readiness` answers, and its restart on the same folder.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { envOwner } from './owner';
import {
	dropTemplate,
	e2eEncryptionKey,
	freePort,
	installPackage,
	locateRuntime,
	n8nEnv,
	removeFolder,
	RUNTIMES,
	saveTemplate,
	seedFromTemplate,
	spawnN8n,
	type N8nProcess,
	type Runtime,
	type RuntimeLine,
} from './runtime';
import { until } from '../until';

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
	/** Another checkout of the package to pack and install (default this one; bench A/B mode). */
	packageDir?: string;
}

export function tail(text: string, lines = 40): string {
	return text.split('\n').slice(-lines).join('\n');
}

/** Waits until `url` answers 200; fails with the process's output when it exits or times out. */
export async function waitForHttp(
	what: string,
	proc: N8nProcess,
	url: string,
	{ timeoutMs, intervalMs }: { timeoutMs: number; intervalMs: number },
): Promise<void> {
	let exited = false;
	void proc.exited.then(() => (exited = true));
	await until(
		`${what} is ready (${url})`,
		async () => {
			if (exited) throw new Error(`${what} exited during start-up:\n${tail(proc.output())}`);
			try {
				return (await fetch(url)).status === 200;
			} catch {
				return false; // not listening yet
			}
		},
		{ timeoutMs, intervalMs, detail: () => tail(proc.output()) },
	);
}

/** An n8n instance's folder, ports and settings; `launch()` spawns it and waits until it is ready. */
export interface N8nInstance {
	runtime: Runtime;
	/** n8n 1.x: no env-managed owner, no ignoreDataSizeLimit, `active` needed on new workflows. */
	legacy: boolean;
	userFolder: string;
	baseUrl: string;
	echo: boolean;
	readyTimeout: number;
	/** Whether it uses the test key of the template database (not an `env` key of the test's). */
	usesTestKey: boolean;
	/** The process `launch()` spawned last (the one to kill). */
	proc?: N8nProcess;
	launch(): Promise<N8nProcess>;
}

/** Makes the user folder, installs the package, chooses the ports and the environment. */
export async function prepareInstance(options: StartN8nOptions): Promise<N8nInstance> {
	const line = options.line ?? RUNTIMES.current;
	const runtime = locateRuntime(line);
	// n8n 1.x has no env-managed owner (it is set up through its REST API) and refuses to start
	// on a module name it does not know (mcp-registry is 2.x's).
	const legacy = line.n8nVersion.startsWith('1.');
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-grist-e2e-'));
	let ready = false;
	try {
		installPackage(userFolder, { packageDir: options.packageDir });
		const [port, brokerPort] = [await freePort(), await freePort()];
		const testKey = e2eEncryptionKey(runtime);
		const env = n8nEnv({
			userFolder,
			encryptionKey: testKey,
			port,
			brokerPort,
			owner: envOwner(runtime),
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
		const inst: N8nInstance = {
			runtime,
			legacy,
			userFolder,
			baseUrl: `http://127.0.0.1:${port}`,
			echo: options.echo ?? process.env.E2E_N8N_ECHO === '1',
			readyTimeout: options.readyTimeoutMs ?? 120_000,
			usesTestKey: env.N8N_ENCRYPTION_KEY === testKey,
			launch: async () => {
				const child = spawnN8n({ runtime, userFolder, echo: inst.echo, env });
				inst.proc = child;
				await waitForHttp('n8n', child, `${inst.baseUrl}/healthz/readiness`, {
					timeoutMs: inst.readyTimeout,
					intervalMs: 150,
				});
				return child;
			},
		};
		ready = true;
		return inst;
	} finally {
		if (!ready) removeFolder(userFolder);
	}
}

function note(inst: N8nInstance, text: string): void {
	if (inst.echo) process.stderr.write(`[e2e] ${text}\n`);
}

/**
 * The first start: from a copy of the template database when there is one (an unusable template
 * is dropped and the start retried from scratch); a fresh start saves its database as the template.
 */
export async function startInstance(inst: N8nInstance): Promise<N8nProcess> {
	// the template database holds keys encrypted with the test key: only for instances using it
	const ownKey = inst.usesTestKey;
	if (ownKey && seedFromTemplate(inst.runtime, inst.userFolder)) {
		try {
			return await inst.launch();
		} catch (e) {
			// A template that this n8n cannot use (other key, damaged file): start from scratch.
			await inst.proc?.kill();
			dropTemplate(inst.runtime);
			const dataDir = join(inst.userFolder, '.n8n');
			for (const f of readdirSync(dataDir)) {
				if (f.startsWith('database.sqlite') || f === 'config') removeFolder(join(dataDir, f));
			}
			note(
				inst,
				`template database refused, starting fresh: ${(e as Error).message.split('\n')[0]}`,
			);
		}
	}
	const started = await inst.launch();
	if (ownKey) {
		try {
			saveTemplate(inst.runtime, inst.userFolder);
		} catch (e) {
			note(inst, `could not save the template database: ${(e as Error).message}`);
		}
	}
	return started;
}
