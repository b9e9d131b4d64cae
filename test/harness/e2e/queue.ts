/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness: servers and n8n processes of the queue-mode level */
/**
 * n8n in queue mode, as teams scale it out: a main process (editor, REST, triggers and
 * schedules), a worker (`n8n worker`: executes the workflows it takes from the queue) and a
 * webhook process (`n8n webhook`), coordinated through a real Redis and sharing one PostgreSQL
 * database and one encryption key. Each n8n process has its own user folder with the packed
 * package installed, as separate machines would: nothing can pass through shared files.
 *
 * Redis and PostgreSQL are Debian's, installed by scripts/ensure-queue-services.sh when missing,
 * started here on free loopback ports with throw-away data folders, and stopped by `stop()` (a
 * watchdog stops them if jest dies). Binary data is left at n8n's queue-mode default (`database`
 * mode: every process reads the same store); `env` may set anything else.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startN8n, type N8n } from './n8n';
import { envOwner } from './owner';
import { waitForHttp } from './process';
import { ensureQueueServices, startPostgres, startRedis } from '../../../scripts/lib/services.cjs';
import {
	freePort,
	installPackage,
	locateRuntime,
	n8nEnv,
	removeFolder,
	spawnN8n,
	type N8nProcess,
} from './runtime';

export interface QueueCluster {
	/** The main process, driven through its REST and public APIs like any e2e instance. */
	main: N8n;
	worker: N8nProcess;
	/** The webhook process; `baseUrl` is also every process's WEBHOOK_URL (production webhook URLs). */
	webhook: N8nProcess & { baseUrl: string };
	/**
	 * Stops the main process (its user folder is removed) and starts a new one on the same database;
	 * `whileStopped` runs in between, when no main process is up.
	 */
	restartMain(whileStopped?: () => void | Promise<void>): Promise<N8n>;
	/** Everything the worker printed so far. */
	workerLogs(): string;
	stop(): Promise<void>;
}

/** What every n8n process of the cluster shares: queue mode, Redis, PostgreSQL, one key. */
function sharedEnv(
	redisPort: number,
	pgPort: number,
	webhookUrl: string,
	env: Record<string, string> = {},
): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		WEBHOOK_URL: `${webhookUrl}/`,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pgPort),
		DB_POSTGRESDB_DATABASE: 'postgres',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		// the editor's "Execute workflow" runs on a worker too (n8n's recommended setting)
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		...env,
	};
}

/** What a start made so far (stopped in reverse order), and its settings. */
interface Started {
	procs: Array<{ kill(graceMs?: number): Promise<void> }>;
	folders: string[];
	shared: Record<string, string>;
	echo: boolean;
}

/** An extra n8n process (worker or webhook) in its own user folder, package installed. */
async function spawnExtra(
	st: Started,
	command: 'worker' | 'webhook',
	port: number,
	extra: Record<string, string>,
	args: string[] = [],
): Promise<N8nProcess> {
	const runtime = locateRuntime();
	const userFolder = mkdtempSync(join(tmpdir(), `n8n-grist-queue-${command}-`));
	st.folders.push(userFolder);
	installPackage(userFolder);
	const env = n8nEnv({
		userFolder,
		encryptionKey: st.shared.N8N_ENCRYPTION_KEY,
		port,
		brokerPort: await freePort(),
		owner: envOwner(runtime),
		extra: { ...st.shared, ...extra },
	});
	const proc = spawnN8n({ runtime, userFolder, env, echo: st.echo, command, args });
	st.procs.push(proc);
	return proc;
}

/** The worker (its health check on a port of its own) and the webhook process, both ready. */
async function spawnWorkers(st: Started, webhookPort: number, webhookUrl: string) {
	const healthPort = await freePort();
	const worker = await spawnExtra(
		st,
		'worker',
		await freePort(),
		{ QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort) },
		['--concurrency=5'],
	);
	const wait = { timeoutMs: 120_000, intervalMs: 200 };
	await waitForHttp('n8n worker', worker, `http://127.0.0.1:${healthPort}/healthz/readiness`, wait);
	const webhook = await spawnExtra(st, 'webhook', webhookPort, {});
	await waitForHttp('n8n webhook', webhook, `${webhookUrl}/healthz/readiness`, wait);
	return { worker, webhook };
}

async function stopAll(st: Started, graceMs: number): Promise<void> {
	for (const p of st.procs.slice().reverse()) await p.kill(graceMs);
	for (const f of st.folders) removeFolder(f);
}

/**
 * Starts Redis, PostgreSQL, the main process, one worker and one webhook process. `env` is added
 * to every n8n process's environment.
 */
export async function startQueueCluster(
	options: { env?: Record<string, string>; echo?: boolean } = {},
): Promise<QueueCluster> {
	const echo = options.echo ?? process.env.E2E_N8N_ECHO === '1';
	const s = ensureQueueServices();
	const st: Started = { procs: [], folders: [], shared: {}, echo };
	let main: N8n | undefined;
	let ready = false;
	try {
		const redis = await startRedis(s, { echo });
		st.procs.push(redis.proc);
		const pg = await startPostgres(s, { echo });
		st.procs.push(pg.proc);
		st.folders.push(pg.dir);
		// Production webhooks are served by the webhook process: every process builds webhook URLs
		// from WEBHOOK_URL (n8n's way to name the address its webhook processes are reached at).
		const webhookPort = await freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}`;
		st.shared = sharedEnv(redis.port, pg.port, webhookUrl, options.env);
		main = await startN8n({ env: st.shared, echo });
		const { worker, webhook } = await spawnWorkers(st, webhookPort, webhookUrl);
		const cluster: QueueCluster = {
			main,
			worker,
			webhook: Object.assign(webhook, { baseUrl: webhookUrl }),
			restartMain: async (whileStopped) => {
				await cluster.main.stop();
				await whileStopped?.();
				cluster.main = await startN8n({ env: st.shared, echo });
				return cluster.main;
			},
			workerLogs: () => worker.output(),
			stop: async () => {
				await cluster.main.stop();
				// n8n processes first (they hold connections), then PostgreSQL and Redis
				await stopAll(st, 10_000);
			},
		};
		ready = true;
		return cluster;
	} finally {
		// a start that failed part way stops what it had started (the error propagates as is)
		if (!ready) {
			await main?.stop();
			await stopAll(st, 5_000);
		}
	}
}
