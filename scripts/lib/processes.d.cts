// Types of processes.cjs (hand-written; keep both in step).

export declare const N8N_VERSION: string;
/** The repository root (the folder of package.json). */
export declare const REPO_ROOT: string;

/** An n8n line the package is tested on: n8n's version and the Node major version it runs on. */
export interface RuntimeLine {
	n8nVersion: string;
	nodeMajor: number;
}
/** `current`: n8n 2.41.1 on Node 24 (e2e level, `npm start`); `lts1`: n8n 1.123.x on Node 22 (compatibility level). */
export declare const RUNTIMES: { current: RuntimeLine; lts1: RuntimeLine };

export interface Runtime extends RuntimeLine {
	/** The cache folder of scripts/ensure-n8n.sh. */
	cache: string;
	/** The runtime Node's `bin` folder (first on PATH for n8n). */
	nodeBin: string;
	/** `<cache>/n8n-<version>` (its node_modules holds n8n). */
	n8nDir: string;
	/** The n8n CLI entry point. */
	n8nEntry: string;
}

/** `line` defaults to `RUNTIMES.current` here and below. */
export declare function runtimePaths(cache: string, line?: RuntimeLine): Runtime;
/** Runs scripts/ensure-n8n.sh (idempotent; minutes on a cold machine) and returns the runtime it reports. */
export declare function ensureRuntime(line?: RuntimeLine): Runtime;
/** `ensure-n8n.sh --check` on a cache folder (installs nothing): exit status and output. */
export declare function checkRuntime(
	cache: string,
	line?: RuntimeLine,
): {
	status: number | null;
	stdout: string;
	stderr: string;
};
/** `ensureRuntime()` once per process (the cache is checked, never trusted on its stamp alone). */
export declare function locateRuntime(line?: RuntimeLine): Runtime;
/** bcrypt hash (10 rounds) with n8n's own bcryptjs. */
export declare function bcryptHash(runtime: Runtime, password: string): string;
/** Whether the port can be bound on 127.0.0.1 right now. */
export declare function portFree(port: number): Promise<boolean>;
/** A free TCP port on 127.0.0.1 (released before returning). */
export declare function freePort(): Promise<number>;
/**
 * `npm pack` of the built package (builds when dist/ is missing) extracted into
 * `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-grist/`; `fresh` removes `<userFolder>/.n8n/nodes` first.
 * Returns the package folder.
 */
export declare function installPackage(
	userFolder: string,
	options?: { fresh?: boolean; packageDir?: string },
): string;

export interface N8nEnvOptions {
	userFolder: string;
	encryptionKey: string;
	port: number;
	brokerPort: number;
	owner: { email: string; passwordHash: string; firstName: string; lastName: string };
	/** Added last (wins). */
	extra?: Record<string, string>;
}
/** The loopback/quiet environment of a local n8n with an env-managed owner. */
export declare function n8nEnv(options: N8nEnvOptions): Record<string, string>;

/** Sends `signal` to the process group led by `pid` (no error when it is gone). */
export declare function killGroup(pid: number | undefined, signal: NodeJS.Signals): void;

/** The child-process shape `stopGroup` needs (a `ChildProcess` from `spawn(..., { detached: true })`). */
export interface GroupLeader {
	pid?: number;
	exitCode: number | null;
	signalCode: NodeJS.Signals | null;
	once(event: 'exit', listener: (...args: unknown[]) => void): unknown;
}
/** SIGTERM to the group, SIGKILL after `graceMs` if still running, then SIGKILL for stragglers. */
export declare function stopGroup(child: GroupLeader, graceMs: number): Promise<void>;

export interface SpawnGroupOptions {
	file: string;
	args?: string[];
	cwd?: string;
	/** The child's whole environment. */
	env: Record<string, string>;
	/** Echo the output to stderr as it arrives. */
	echo?: boolean;
	/** Default true: see SpawnN8nOptions.background. */
	background?: boolean;
	/** Removed by the watchdog if the caller dies without `kill()`. */
	cleanupFolder?: string;
}
/** Starts a program in its own process group (exit hook, watchdog, output collected). */
export declare function spawnGroup(options: SpawnGroupOptions): N8nProcess;

export interface SpawnN8nOptions {
	runtime: Runtime;
	userFolder: string;
	/** `start` (default), or `worker` / `webhook` for queue mode. */
	command?: 'start' | 'worker' | 'webhook';
	/** More arguments after the command, e.g. `--concurrency=2`. */
	args?: string[];
	/** Added to the caller's environment (minus N8N_*, DB_*, EXECUTIONS_*, proxies, …). */
	env: Record<string, string>;
	/** Echo n8n's output to stderr as it arrives. */
	echo?: boolean;
	/**
	 * Default true: n8n does not keep the caller alive, and a watchdog kills it and removes
	 * `userFolder` if the caller dies without `kill()`. False for a foreground n8n (`npm start`).
	 */
	background?: boolean;
}

export interface N8nProcess {
	pid: number | undefined;
	/** Everything n8n wrote to stdout and stderr so far. */
	output(): string;
	/** n8n's exit code (null when killed by a signal). */
	exited: Promise<number | null>;
	/** Stops the process group (SIGKILL after `graceMs`, default 10 s) and the watchdog. */
	kill(graceMs?: number): Promise<void>;
}
export declare function spawnN8n(options: SpawnN8nOptions): N8nProcess;

/** `VACUUM INTO outFile` of `dbFile` with Node 24 and n8n's sqlite3 (throws on failure). */
export declare function sqliteSnapshot(runtime: Runtime, dbFile: string, outFile: string): void;

export interface RunNodeScriptOptions {
	cwd?: string;
	env?: Record<string, string | undefined>;
	/** Aborting it sends `killSignal` to the script. */
	signal?: AbortSignal;
	/** Default SIGTERM. */
	killSignal?: NodeJS.Signals;
}
export interface ScriptRun {
	pid: number | undefined;
	/** The first stdout line; rejects when the script ends before printing one. */
	firstLine: Promise<string>;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	output(): { stdout: string; stderr: string };
	/** Sends `signal` (default SIGTERM) when the script is still running. */
	kill(signal?: NodeJS.Signals): void;
}
/** `node <file> ...args` with the current Node. */
export declare function runNodeScript(
	file: string,
	args?: string[],
	options?: RunNodeScriptOptions,
): ScriptRun;
