/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Process-wide n8n-core services for the in-process harness (see ../inprocess.ts).
 *
 * n8n-core reaches its services through the `@n8n/di` container (`Container.get(X)`), so before
 * anything runs we register the ones it needs, configured the way an n8n 2.41 instance is by
 * default but confined to a temporary folder:
 * - `InstanceSettingsConfig` → n8n's user folder in a temp dir (n8n writes its `config` file
 *   there) with a random encryption key, so nothing touches `~/.n8n`;
 * - `Logger` → a recording, silent logger (also installed as n8n-workflow's `LoggerProxy`);
 * - `BinaryDataConfig` / `BinaryDataService` → `filesystem` mode (n8n 2.x's default) in the temp
 *   dir, or `default` (in-memory base64) when `N8N_HARNESS_BINARY_MODE=default`;
 * - everything else (`ErrorReporter`, `OutboundHttp`, `SsrfProtectionConfig`, `Tracing`, …) is
 *   built by the container from its real class and the environment, as in n8n.
 */
import 'reflect-metadata';

import { BinaryDataConfig, BinaryDataService } from 'n8n-core';

import { Container, InstanceSettingsConfig, Logger } from './core-deps';
import { LoggerProxy } from 'n8n-workflow';
import type { LogMetadata } from 'n8n-workflow';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LogEntry {
	level: LogLevel;
	message: string;
	metadata?: LogMetadata;
}

/** Stands in for `@n8n/backend-common`'s Logger: keeps what n8n logs, prints nothing. */
export class HarnessLogger {
	readonly entries: LogEntry[] = [];

	error(message: string, metadata?: LogMetadata): void {
		this.record('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata): void {
		this.record('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata): void {
		this.record('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata): void {
		this.record('debug', message, metadata);
	}

	scoped(): this {
		return this;
	}

	private record(level: LogLevel, message: string, metadata?: LogMetadata): void {
		this.entries.push({ level, message, metadata });
		if (this.entries.length > 2000) this.entries.splice(0, this.entries.length - 2000);
	}
}

export type BinaryMode = 'filesystem' | 'default';

export interface HarnessRuntime {
	/** Temporary n8n user folder for this process (removed when the process exits). */
	dir: string;
	logger: HarnessLogger;
	binaryDataService: BinaryDataService;
	binaryMode: BinaryMode;
}

let runtime: Promise<HarnessRuntime> | undefined;

async function setUp(): Promise<HarnessRuntime> {
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-grist-inprocess-'));
	process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

	const logger = new HarnessLogger();
	Container.set(Logger, logger as unknown as InstanceType<typeof Logger>);
	LoggerProxy.init(logger);

	// Read-only fields of n8n's config class; set before InstanceSettings is first built.
	Object.assign(Container.get(InstanceSettingsConfig), {
		n8nFolder: path.join(dir, '.n8n'),
		userHome: dir,
		encryptionKey: randomBytes(24).toString('base64'),
		enforceSettingsFilePermissions: false,
	});

	const binaryMode: BinaryMode =
		process.env.N8N_HARNESS_BINARY_MODE === 'default' ? 'default' : 'filesystem';
	const binaryDataConfig = Container.get(BinaryDataConfig);
	binaryDataConfig.mode = binaryMode;
	binaryDataConfig.localStoragePath = path.join(dir, 'binaryData');
	mkdirSync(binaryDataConfig.localStoragePath, { recursive: true });
	const binaryDataService = Container.get(BinaryDataService);
	await binaryDataService.init();

	return { dir, logger, binaryDataService, binaryMode };
}

/** Registers n8n-core's services once per process (per jest test file) and returns them. */
export async function ensureRuntime(): Promise<HarnessRuntime> {
	runtime ??= setUp();
	return await runtime;
}
