/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test fixture (an HTTP server emulating Grist), not node code */
/**
 * CLI: starts the emulator with the demo site and prints ONE line of JSON when ready:
 * `{"url","apiKey","email","orgDomain","orgName","orgId","workspaceId","docId","docs",...}` (`docs`:
 * every demo document with its table ids). Runs until SIGINT/SIGTERM.
 *
 * Usage: node cli.js [--port N] [--host H] [--single-org X] [--max-parallel N]
 *   [--allowed-webhook-domains D] (Grist's ALLOWED_WEBHOOK_DOMAINS; default the environment
 *   variable of that name, else `*` so that the demo's webhooks reach a local n8n)
 * Environment: GRIST_ACTIVEDOC_TIMEOUT_SECONDS (as in Grist): documents idle this long close and
 * drop their waiting webhook deliveries (unset: they never close).
 */
import { DEMO_SITE } from './demo-seed';
import { startEmulatorOn } from './index';

function arg(name: string): string | undefined {
	const argv = process.argv.slice(2);
	const i = argv.indexOf(name);
	if (i >= 0) return argv[i + 1];
	const eq = argv.find((a) => a.startsWith(`${name}=`));
	return eq ? eq.slice(name.length + 1) : undefined;
}

async function main(): Promise<void> {
	const port = Number(arg('--port') ?? 0);
	const host = arg('--host') ?? '127.0.0.1';
	const maxParallel = arg('--max-parallel');
	const emu = await startEmulatorOn(host, port, {
		singleOrg: arg('--single-org'),
		maxParallelPerDoc: maxParallel !== undefined ? Number(maxParallel) : undefined,
		logBodies: false,
		allowedWebhookDomains:
			arg('--allowed-webhook-domains') ?? process.env.ALLOWED_WEBHOOK_DOMAINS ?? '*',
		activeDocTimeoutMs:
			Number(process.env.GRIST_ACTIVEDOC_TIMEOUT_SECONDS ?? 0) * 1000 || undefined,
	});
	const demo = emu.seedDemo();
	const url = host === '127.0.0.1' || host === '0.0.0.0' ? emu.url : `http://${host}:${emu.port}`;
	process.stdout.write(
		`${JSON.stringify({ ...demo, orgName: DEMO_SITE.org.name, url, port: emu.port })}\n`,
	);
	// keep the request log from growing without bound in a long-running demo
	const trim = setInterval(() => emu.clearLog(), 60_000);
	const stop = () => {
		clearInterval(trim);
		void emu.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((e) => {
	process.stderr.write(`${e?.stack ?? e}\n`);
	process.exit(1);
});
