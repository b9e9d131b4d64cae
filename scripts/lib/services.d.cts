import type { N8nProcess } from './processes.cjs';

export interface QueueServices {
	redisServer: string;
	initdb: string;
	postgres: string;
}
/** Runs scripts/ensure-queue-services.sh (installs redis-server / postgresql when missing). */
export declare function ensureQueueServices(): QueueServices;
/** redis-server on a free 127.0.0.1 port, nothing saved to disk. */
export declare function startRedis(
	services: QueueServices,
	options?: { echo?: boolean },
): Promise<{ port: number; proc: N8nProcess }>;
/** A throw-away PostgreSQL cluster on a free 127.0.0.1 port (database and user `postgres`, trust auth). */
export declare function startPostgres(
	services: QueueServices,
	options?: { echo?: boolean },
): Promise<{ port: number; proc: N8nProcess; dir: string }>;
