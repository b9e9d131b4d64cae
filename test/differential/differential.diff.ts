/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test tool: reads the real server from the environment, writes the record (formatted by Prettier's CLI), prints its figures */
/**
 * `npm run test:diff`: the differential check. Sends the calls of script.ts, in order, to the
 * emulator (started here, its users seeded like the real server's, everything else made through
 * the HTTP API by the script) and to a real Grist (GRIST_URL, GRIST_API_KEY, GRIST_ORG, optional
 * GRIST_VIEWER_API_KEY, GRIST_VERSION for the record), each side in a fresh workspace that the
 * script deletes at the end. Writes record.json and record.md; fails on an unexplained difference.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulatorOn } from '../emulator';
import { ACCEPTED } from './accepted';
import { compare, markdown } from './record';
import { HookReceiver, runSide, type Side } from './run';

const env = process.env;
const url = (env.GRIST_URL ?? '').replace(/\/+$/, '');
const org = env.GRIST_ORG ?? 'docs';
// Only `npm run test:diff` runs this file (testMatch *.diff.ts): without a server it fails
// rather than passing with nothing compared.
if (!url || !env.GRIST_API_KEY)
	throw new Error('npm run test:diff needs GRIST_URL and GRIST_API_KEY (a real Grist server)');

async function profile(base: string, key: string): Promise<{ email: string; name: string }> {
	const res = await fetch(`${base}/api/profile/user`, {
		headers: { Authorization: `Bearer ${key}` },
	});
	if (res.status !== 200) throw new Error(`GET /api/profile/user answered ${res.status}`);
	return (await res.json()) as { email: string; name: string };
}

describe('differential check: the emulator against a real Grist', () => {
	it('answers every scripted call like the real server, or with an accepted difference', async () => {
		const realBase = `${url}/o/${org}`;
		const owner = await profile(url, env.GRIST_API_KEY!);
		const viewerKey = env.GRIST_VIEWER_API_KEY;
		const viewer = viewerKey ? await profile(url, viewerKey) : undefined;

		// the in-process emulator (never the real-mode facade), its users the real server's (same emails
		// and names); the rest is made by the script
		const emu = await startEmulatorOn('127.0.0.1', 0, {
			allowedWebhookDomains: '*',
			serviceAccounts: true,
		});
		const receiver = new HookReceiver();
		await receiver.start();
		try {
			const emuOwner = emu.addUser({ email: owner.email, name: owner.name });
			const emuViewer = viewer
				? emu.addUser({ email: viewer.email, name: viewer.name })
				: undefined;
			const emuOrg = /^docs(-\d+)?$/.test(org)
				? `docs-${emuOwner.id}`
				: emu.addOrg({ name: org, domain: org, owner: owner.email }).domain;
			// the viewer's role in the site, as the real server has it
			const access = (await (
				await fetch(`${realBase}/api/orgs/${org}/access`, {
					headers: { Authorization: `Bearer ${env.GRIST_API_KEY}` },
				})
			).json()) as { users?: Array<{ email: string; access: string | null }> };
			const viewerRole = access.users?.find((u) => u.email === viewer?.email)?.access;
			if (viewer && viewerRole) emu.setAccess('org', emuOrg, viewer.email, viewerRole as 'viewers');
			const sides: Record<'emulator' | 'real', Side> = {
				emulator: {
					base: `${emu.url}/o/${org}`,
					keys: { owner: emuOwner.apiKey, viewer: emuViewer?.apiKey },
					vars: { org, ownerEmail: owner.email, viewerEmail: viewer?.email, hookUrl: '' },
				},
				real: {
					base: realBase,
					keys: { owner: env.GRIST_API_KEY, viewer: viewerKey },
					vars: { org, ownerEmail: owner.email, viewerEmail: viewer?.email, hookUrl: '' },
				},
			};
			const emuRun = await runSide(sides.emulator, receiver, '/emulator');
			const realRun = await runSide(sides.real, receiver, '/real');
			const record = compare(
				emuRun.answers,
				realRun.answers,
				ACCEPTED,
				env.GRIST_VERSION ?? 'unknown',
				new Date().toISOString(),
			);
			// Written, then formatted as `npm run lint`'s Prettier check wants it (it folds short arrays); by
			// Prettier's CLI, as its API loads ES modules, which Jest's module system refuses.
			const recordPath = join(__dirname, 'record.json');
			writeFileSync(recordPath, JSON.stringify(record, null, '\t') + '\n');
			execFileSync(process.execPath, [
				require.resolve('prettier/bin/prettier.cjs'),
				'--write',
				recordPath,
			]);
			writeFileSync(join(__dirname, 'record.md'), markdown(record, ACCEPTED));
			const s = record.summary;
			console.log(
				`differential check: ${s.calls} calls, ${s.same} same, ${s.accepted} accepted, ${s.unexplained} unexplained (grist-core ${record.gristVersion})`,
			);
			expect(
				record.calls
					.filter((c) => c.verdict === 'unexplained')
					.map((c) => ({ call: c.name, differences: c.differences.filter((d) => !d.reason) })),
			).toEqual([]);
		} finally {
			await receiver.close();
			await emu.close();
		}
	}, 300_000);
});
