/**
 * Jest fixtures of the e2e tests: one emulator and one n8n per test file, seeded with the demo
 * site (`useN8nDemoSite`) or one team document (`useN8nTeamDoc`), with a credential at it.
 */
import { startN8n, type N8n } from './n8n';
import type { StartN8nOptions } from './process';
import type { CredentialRef } from './workflows';
import {
	startEmulator,
	type DemoSite,
	type EmulatorOptions,
	type GristEmulator,
} from '../../emulator';
import { seedTeamDoc } from '../builders';

/** jest timeout for the `beforeAll` that calls `startN8n` (covers a cold ensure-n8n.sh run). */
export const START_TIMEOUT = 15 * 60_000;

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
