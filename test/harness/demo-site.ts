/**
 * Jest fixture of the level (b) tests: one emulator per test file, seeded with the demo site, its
 * request log cleared before each test, and a runner of the Grist node for one resource
 * (locators and mapper values: ./builders).
 *
 * ```ts
 * const fx = useDemoSite();
 * const run = resourceRunner(fx, 'document');
 * const { items, error } = await run({ operation: 'get', document: rl('id', fx.demo.docId) });
 * // every run in the demo document, the Tasks table, through a proxy:
 * const write = resourceRunner(fx, 'record', {
 * 	defaults: () => docTable(fx.demo.docId, 'Tasks'),
 * 	serverUrl: () => proxy.url,
 * });
 * await write({ operation: 'create', columns: autoMap() }, { input, continueOnFail: true });
 * ```
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import {
	startEmulator,
	type DemoSite,
	type EmulatorOptions,
	type GristEmulator,
} from '../emulator';
import { runNode, type AnyNodeType, type CredentialsByType, type RunNodeResult } from './inprocess';

export interface DemoSiteFixture {
	/** Set in `beforeAll`. */
	emu: GristEmulator;
	demo: DemoSite;
	/** The demo team's Server URL: `<emulator>/o/<team>`. */
	site: string;
}

/**
 * Registers the hooks (call it at the top level of a test file, before other hooks that use it);
 * `options` start the emulator (e.g. `docAuthCacheMs`).
 */
export function useDemoSite(options?: EmulatorOptions): DemoSiteFixture {
	const fx = {} as DemoSiteFixture;
	beforeAll(async () => {
		fx.emu = await startEmulator(options);
		fx.demo = fx.emu.seedDemo();
		fx.site = `${fx.emu.url}/o/${fx.demo.orgDomain}`;
	});
	afterAll(async () => {
		await fx.emu?.close();
	});
	beforeEach(() => fx.emu.clearLog());
	return fx;
}

/** What one run changes: the credential, the input items, "On Error → Continue". */
export interface RunOpts {
	apiKey?: string;
	serverUrl?: string;
	/** Instead of the API key credential: credentials by type, e.g. `oauth2Credential(…)`. */
	otherCredentials?: CredentialsByType;
	input?: INodeExecutionData[];
	continueOnFail?: boolean;
}

/** What every run of one runner shares; functions, as the fixture is set only in `beforeAll`. */
export interface RunnerOptions {
	/** Parameters each run starts from (after `resource`, before its own), e.g. the document. */
	defaults?: () => Record<string, unknown>;
	/** The node to run (default `new Grist()`). */
	node?: () => AnyNodeType;
	/** The Server URL when a run gives none (default the team site), e.g. a proxy's. */
	serverUrl?: () => string;
}

export type Runner = (
	parameters: Record<string, unknown>,
	opts?: RunOpts,
) => Promise<RunNodeResult>;

/** Runs the Grist node on `resource` (overridable in `parameters`) with the demo owner's key at the team site. */
export function resourceRunner(
	fx: DemoSiteFixture,
	resource: string,
	options: RunnerOptions = {},
): Runner {
	return async (parameters, opts = {}) =>
		await runNode({
			node: options.node?.() ?? new Grist(),
			parameters: { resource, ...options.defaults?.(), ...parameters } as never,
			credentials: opts.otherCredentials
				? undefined
				: {
						apiKey: opts.apiKey ?? fx.demo.apiKey,
						url: opts.serverUrl ?? options.serverUrl?.() ?? fx.site,
					},
			otherCredentials: opts.otherCredentials,
			input: opts.input,
			continueOnFail: opts.continueOnFail,
		});
}
