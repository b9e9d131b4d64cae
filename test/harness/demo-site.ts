/**
 * Jest fixture of the level (b) tests of the home resources (org, workspace, document, pickers):
 * one emulator per test file, seeded with the demo site, its request log cleared before each test,
 * and a runner of the Grist node for one resource.
 *
 * ```ts
 * const fx = useDemoSite();
 * const run = resourceRunner(fx, 'document');
 * const { items, error } = await run({ operation: 'get', document: rl('id', fx.demo.docId) });
 * ```
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { Grist } from '../../nodes/Grist/Grist.node';
import { startEmulator, type DemoSite, type GristEmulator } from '../emulator';
import { runNode, type RunNodeResult } from './inprocess';

export interface DemoSiteFixture {
	/** Set in `beforeAll`. */
	emu: GristEmulator;
	demo: DemoSite;
	/** The demo team's Server URL: `<emulator>/o/<team>`. */
	site: string;
}

/** Registers the hooks (call it at the top level of a test file, before other hooks that use it). */
export function useDemoSite(): DemoSiteFixture {
	const fx = {} as DemoSiteFixture;
	beforeAll(async () => {
		fx.emu = await startEmulator();
		fx.demo = fx.emu.seedDemo();
		fx.site = `${fx.emu.url}/o/${fx.demo.orgDomain}`;
	});
	afterAll(async () => {
		await fx.emu?.close();
	});
	beforeEach(() => fx.emu.clearLog());
	return fx;
}

/** A resource locator value, as the editor stores it. */
export const rl = (mode: string, value: string | number) => ({ __rl: true, mode, value });

export interface RunOpts {
	apiKey?: string;
	serverUrl?: string;
	input?: INodeExecutionData[];
	continueOnFail?: boolean;
}

/** Runs the Grist node on `resource` (overridable in `parameters`) with the demo owner's key at the team site. */
export function resourceRunner(
	fx: DemoSiteFixture,
	resource: string,
): (parameters: Record<string, unknown>, opts?: RunOpts) => Promise<RunNodeResult> {
	return async (parameters, opts = {}) =>
		await runNode({
			node: new Grist(),
			parameters: { resource, ...parameters } as never,
			credentials: { apiKey: opts.apiKey ?? fx.demo.apiKey, url: opts.serverUrl ?? fx.site },
			input: opts.input,
			continueOnFail: opts.continueOnFail,
		});
}
