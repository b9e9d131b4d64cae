#!/usr/bin/env node
// `npm start` (after `npm run build`): a local Grist emulator with the demo site and a real n8n
// 2.41.1 (Node 24) with this package installed as a community package, an owner account and a
// ready credential "Grist Records & Documents API" (of the type "Grist Records & Documents
// (Community Node) API"). With GRIST_URL and GRIST_API_KEY set, the credential points
// at that Grist instead and no emulator starts. Ctrl-C stops everything.
//
// Environment: N8N_PORT (default 5678; when 5678 is taken a free port is used instead),
// GRIST_EMULATOR_PORT (default 8484, same rule), GRIST_URL + GRIST_API_KEY (use a real Grist),
// E2E_N8N_ECHO=1 (print n8n's log). A port given explicitly that is taken stops the start with a
// message naming its variable. The URLs printed at the end are the ones really in use; with the
// emulator the block also gives its API key, team and demo documents (lib/start-summary.cjs).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import {
	N8N_VERSION,
	REPO_ROOT as ROOT,
	bcryptHash,
	ensureRuntime,
	freePort,
	installPackage,
	portFree,
	killGroup,
	n8nEnv,
	spawnN8n,
	stopGroup,
} from './lib/processes.cjs';
import { startSummary } from './lib/start-summary.cjs';

const STATE = join(ROOT, '.n8n-start');
const OWNER_EMAIL = 'owner@example.com';
const OWNER_PASSWORD = 'Grist-n8n-1';
// Named after the node it serves (its type reads "Grist Records & Documents (Community Node) API");
// "Grist account" is what n8n calls the built-in Grist node's.
const CREDENTIAL_NAME = 'Grist Records & Documents API';
/** The name earlier runs gave it (renamed on the next start). */
const FORMER_CREDENTIAL_NAME = 'Grist account';

/** The emulator child (detached, its own process group) and n8n (from spawnN8n), once started. */
let emulator;
let n8n;
let stopping = false;
const log = (msg) => process.stdout.write(`[start] ${msg}\n`);

/** Stops n8n and the emulator (SIGTERM to their process groups, SIGKILL after 3 s), then exits. */
function stopAll(code = 0) {
	if (stopping) return;
	stopping = true;
	Promise.all([n8n?.kill(3000), emulator && stopGroup(emulator, 3000)]).then(
		() => process.exit(code),
		() => process.exit(code),
	);
}
process.on('SIGINT', () => {
	log('stopping…');
	stopAll(0);
});
process.on('SIGTERM', () => stopAll(0));
// n8n's group is killed by the exit hook of spawnN8n
process.on('exit', () => killGroup(emulator?.pid, 'SIGKILL'));

function fail(msg) {
	process.stderr.write(`[start] ${msg}\n`);
	stopAll(1);
}

/**
 * The port to use for `variable` (default `fallback`): the one given when it is free (else an
 * error naming the variable); the default when free; otherwise any free port, said in the log.
 */
async function choosePort(variable, fallback, what) {
	const given = process.env[variable];
	if (given) {
		const port = Number(given);
		if (!Number.isInteger(port) || port < 1 || port > 65535)
			throw new Error(`${variable}=${given} is not a port number`);
		if (!(await portFree(port))) {
			throw new Error(
				`port ${port} (${variable}) is already in use. Stop what uses it, or set ${variable} to another port.`,
			);
		}
		return port;
	}
	if (await portFree(fallback)) return fallback;
	const port = await freePort();
	log(
		`port ${fallback} is taken: ${what} uses port ${port} instead (set ${variable} to choose one)`,
	);
	return port;
}

/** Compiles test/emulator into .build/ and starts its CLI; resolves with its ready line (JSON). */
async function startEmulator(port) {
	log('compiling the Grist emulator (tsc → .build/)');
	rmSync(join(ROOT, '.build'), { recursive: true, force: true });
	try {
		execFileSync(
			process.execPath,
			[
				join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
				'-p',
				join(ROOT, 'tsconfig.emulator.json'),
			],
			{
				cwd: ROOT,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
	} catch (e) {
		throw new Error(`compiling the emulator failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
	}
	const cli = join(ROOT, '.build', 'test', 'emulator', 'cli.js');
	const child = spawn(process.execPath, [cli, '--port', String(port), '--host', '127.0.0.1'], {
		cwd: ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	emulator = child;
	return await new Promise((res, rej) => {
		const rl = createInterface({ input: child.stdout });
		rl.once('line', (line) => {
			try {
				res(JSON.parse(line));
			} catch {
				rej(new Error(`unexpected first line from the emulator: ${line}`));
			}
			rl.on('line', (l) => process.stdout.write(`[emulator] ${l}\n`));
		});
		child.once('exit', (code) =>
			rej(
				new Error(
					`the emulator exited (code ${code}) before it was ready on port ${port} (GRIST_EMULATOR_PORT)`,
				),
			),
		);
	});
}

async function main() {
	const useRealGrist = Boolean(process.env.GRIST_URL && process.env.GRIST_API_KEY);
	if (!useRealGrist && (process.env.GRIST_URL || process.env.GRIST_API_KEY)) {
		log(
			'GRIST_URL and GRIST_API_KEY must both be set to use a real Grist; starting the emulator instead',
		);
	}
	// ports first: a taken port that was asked for stops the start before anything runs
	const n8nPort = await choosePort('N8N_PORT', 5678, 'n8n');
	const emulatorPort = useRealGrist
		? undefined
		: await choosePort('GRIST_EMULATOR_PORT', 8484, 'the Grist emulator');
	const runtime = ensureRuntime();

	let grist;
	/** The emulator's ready line (undefined with a real Grist). */
	let ready;
	if (useRealGrist) {
		grist = { url: process.env.GRIST_URL, apiKey: process.env.GRIST_API_KEY };
		log(`using the Grist at ${grist.url} (GRIST_URL); no emulator`);
	} else {
		ready = await startEmulator(emulatorPort);
		// The emulator on 127.0.0.1 is a self-hosted Grist (org in the path): point at the demo team.
		grist = { url: `${ready.url}/o/${ready.orgDomain}`, apiKey: ready.apiKey };
		log(
			`Grist emulator with the demo site at ${ready.url} (team "${ready.orgDomain}", user ${ready.email})`,
		);
	}

	mkdirSync(STATE, { recursive: true });
	// fresh copy of the packed package in .n8n-start/.n8n/nodes/node_modules/n8n-nodes-grist
	installPackage(STATE, { fresh: true });

	// Stable encryption key across runs, so saved credentials stay readable.
	const keyFile = join(STATE, 'encryption-key');
	if (!existsSync(keyFile))
		writeFileSync(keyFile, randomBytes(24).toString('hex'), { mode: 0o600 });
	const encryptionKey = readFileSync(keyFile, 'utf8').trim();
	const env = n8nEnv({
		userFolder: STATE,
		encryptionKey,
		port: n8nPort,
		brokerPort: await freePort(),
		owner: {
			email: OWNER_EMAIL,
			passwordHash: bcryptHash(runtime, OWNER_PASSWORD),
			firstName: 'Grist',
			lastName: 'Developer',
		},
		extra: { N8N_EDITOR_BASE_URL: `http://127.0.0.1:${n8nPort}` },
	});
	log(`starting n8n ${N8N_VERSION} (Node 24) on http://127.0.0.1:${n8nPort}`);
	// foreground: keeps this process alive, no watchdog (.n8n-start is kept between runs)
	n8n = spawnN8n({
		runtime,
		userFolder: STATE,
		env,
		echo: process.env.E2E_N8N_ECHO === '1',
		background: false,
	});
	const lastOutput = () => n8n.output().split('\n').slice(-30).join('\n');
	void n8n.exited.then((code) => {
		if (!stopping) fail(`n8n exited (code ${code}). Its last output:\n${lastOutput()}`);
	});

	const base = `http://127.0.0.1:${n8nPort}`;
	const deadline = Date.now() + 180_000;
	for (;;) {
		if (stopping) return;
		try {
			if ((await fetch(`${base}/healthz/readiness`)).status === 200) break;
		} catch {
			// not yet
		}
		if (Date.now() > deadline) return fail(`n8n not ready after 180 s:\n${lastOutput()}`);
		await new Promise((r) => setTimeout(r, 250));
	}

	// Log in and create (or update) the credential.
	const login = await fetch(`${base}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER_EMAIL, password: OWNER_PASSWORD }),
	});
	if (!login.ok) return fail(`login failed: ${login.status} ${await login.text()}`);
	const cookie = login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	const rest = async (method, path, body) => {
		const r = await fetch(`${base}/rest${path}`, {
			method,
			headers: { cookie, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await r.text();
		if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
		return JSON.parse(text).data;
	};
	const data = { apiKey: grist.apiKey, url: grist.url };
	const existing = (await rest('GET', '/credentials')).find(
		(c) =>
			(c.name === CREDENTIAL_NAME || c.name === FORMER_CREDENTIAL_NAME) &&
			c.type === 'gristRecordsApi',
	);
	if (existing)
		await rest('PATCH', `/credentials/${existing.id}`, {
			name: CREDENTIAL_NAME,
			type: 'gristRecordsApi',
			data,
		});
	else await rest('POST', '/credentials', { name: CREDENTIAL_NAME, type: 'gristRecordsApi', data });

	process.stdout.write(
		startSummary({
			editorUrl: base,
			email: OWNER_EMAIL,
			password: OWNER_PASSWORD,
			credentialName: CREDENTIAL_NAME,
			// a real Grist's key is the user's own: never printed
			grist: ready
				? {
						kind: 'emulator',
						url: grist.url,
						apiKey: ready.apiKey,
						orgDomain: ready.orgDomain,
						orgName: ready.orgName,
						docs: ready.docs,
					}
				: { kind: 'real', url: grist.url },
			pid: process.pid,
		}) + '\n',
	);
}

main().catch((e) => fail(e instanceof Error ? e.message : String(e)));
