/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: reads README, the Docker files and n8n's installed sources */
/**
 * README's n8n 3.x install (a Dockerfile and Docker Compose files in examples/docker/): README shows
 * the files' exact text, and the files use only what n8n itself reads — every n8n setting is an
 * environment variable n8n's configuration declares (`@Env('…')` in the installed n8n's
 * sources) and not one n8n marks as deprecated, every process command is one of n8n's CLI
 * commands. Docker is not run here; these are the parts that can be checked without it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import { REPO_ROOT, locateRuntime } from '../harness/e2e/runtime';

const DOCKER_DIR = join(REPO_ROOT, 'examples', 'docker');
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const file = (name: string) => readFileSync(join(DOCKER_DIR, name), 'utf8');

/** Every `.js` file under `dir`. */
function jsFiles(dir: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(dir)) {
		const path = join(dir, entry);
		if (statSync(path).isDirectory()) out.push(...jsFiles(path));
		else if (entry.endsWith('.js')) out.push(path);
	}
	return out;
}

/**
 * n8n's deprecation warnings on a variable: `envVar` with an optional `checkValue(value)` that
 * says when the value is the deprecated one (no `checkValue`: the variable itself is).
 */
type Deprecation = { envVar: string; isDeprecated: (value: string | undefined) => boolean };

/** The environment variables n8n's configuration classes declare, and n8n's deprecations. */
function n8nVariables(): { declared: Set<string>; deprecations: Deprecation[] } {
	const modules = join(locateRuntime().n8nDir, 'node_modules');
	const declared = new Set<string>();
	for (const dir of ['@n8n/config/dist', 'n8n/dist', 'n8n-core/dist']) {
		for (const path of jsFiles(join(modules, dir))) {
			for (const m of readFileSync(path, 'utf8').matchAll(/\bEnv\)?\(\s*'([A-Z0-9_]+)'/g)) {
				declared.add(m[1]);
			}
		}
	}
	const source = readFileSync(join(modules, 'n8n/dist/deprecation/deprecation.service.js'), 'utf8');
	const deprecations: Deprecation[] = [];
	for (const m of source.matchAll(
		/envVar: '([A-Z0-9_]+)',\s*message: (?:'(?:[^'\\]|\\.)*'|`[^`]*`),\s*(?:checkValue: \(value\) => ([^\n]+?),?\n)?/g,
	)) {
		const [, envVar, check] = m;
		// a check that reads n8n's own state (`this.…`) cannot be evaluated here: count it as deprecated
		const isDeprecated =
			check === undefined || check.includes('this.')
				? () => true
				: (value: string | undefined) => runInNewContext(`(${check})`, { value }) === true;
		deprecations.push({ envVar, isDeprecated });
	}
	return { declared, deprecations };
}

/** The `environment:` entries and `command:` values of the n8n services of a compose file. */
function composeN8nSettings(text: string): {
	variables: Array<[string, string]>;
	commands: string[];
} {
	const variables: Array<[string, string]> = [];
	const commands: string[] = [];
	let inN8nEnv = false;
	for (const line of text.split('\n')) {
		const indent = line.length - line.trimStart().length;
		if (/^\s*environment:/.test(line)) {
			inN8nEnv = true;
			continue;
		}
		if (inN8nEnv && indent <= 2) inN8nEnv = false;
		const entry = /^\s+([A-Z][A-Z0-9_]*):\s*["']?([^"']*)["']?$/.exec(line);
		if (inN8nEnv && entry) variables.push([entry[1], entry[2]]);
		const command = /^\s+command:\s*(\S+)/.exec(line);
		if (command) commands.push(command[1]);
	}
	return { variables, commands };
}

/** The compose text without the database and Redis services (their variables are theirs). */
function n8nPart(text: string): string {
	return text.replace(/\n {2}(postgres|redis):\n(?: {4}.*\n| *\n)*/g, '\n');
}

describe('README: n8n 3.x with Docker', () => {
	test('README shows the Dockerfile and the compose file exactly as in examples/docker/', () => {
		expect(readme).toContain('```dockerfile\n' + file('Dockerfile') + '```');
		expect(readme).toContain('```yaml\n' + file('docker-compose.yml') + '```');
		expect(readme).toContain('examples/docker/docker-compose.queue.yml');
	});

	test('the image is n8n 3.x, installs this version into ~/.n8n/nodes and allows unverified packages', () => {
		const dockerfile = file('Dockerfile');
		const version = (
			JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
		).version;
		expect(dockerfile).toMatch(/^ARG N8N_VERSION=3\.\d+\.\d+$/m);
		expect(dockerfile).toMatch(/^FROM docker\.n8n\.io\/n8nio\/n8n:\$\{N8N_VERSION\}$/m);
		expect(dockerfile).toContain(`ARG GRIST_NODES_VERSION=${version}\n`);
		expect(dockerfile).toContain('cd /home/node/.n8n/nodes');
		expect(dockerfile).toContain('npm install --omit=dev n8n-nodes-grist@${GRIST_NODES_VERSION}');
		expect(dockerfile).toMatch(/^USER node$/m);
		expect(dockerfile).toMatch(/^ENV N8N_UNVERIFIED_PACKAGES_ENABLED=true$/m);
		// the instructions are only these (no entrypoint or command of our own)
		const instructions = dockerfile
			.split('\n')
			.filter((l) => /^[A-Z]+ /.test(l))
			.map((l) => l.split(' ')[0]);
		expect(new Set(instructions)).toEqual(new Set(['ARG', 'FROM', 'USER', 'RUN', 'ENV']));
	});

	test('every n8n variable of the files is one n8n 2.41 declares, none deprecated; commands are n8n commands', () => {
		const { declared, deprecations } = n8nVariables();
		// the scans find n8n's settings (empty lists would make the checks below pass)
		expect(declared.size).toBeGreaterThan(300);
		expect(declared).toContain('N8N_UNVERIFIED_PACKAGES_ENABLED');
		expect(deprecations.length).toBeGreaterThan(10);
		const deprecatedBy = (name: string, value: string) =>
			deprecations.some((d) => d.envVar === name && d.isDeprecated(value));
		expect(deprecatedBy('WEBHOOK_URL', 'https://n8n.example.com/')).toBe(true);
		expect(deprecatedBy('N8N_UNVERIFIED_PACKAGES_ENABLED', 'true')).toBe(false);

		const cliCommands = new Set(
			readdirSync(join(locateRuntime().n8nDir, 'node_modules/n8n/dist/commands'))
				.filter((f) => f.endsWith('.js'))
				.map((f) => f.replace(/\.js$/, '')),
		);
		const seen: Array<[string, string]> = [
			...file('Dockerfile').matchAll(/^ENV ([A-Z0-9_]+)=(.*)$/gm),
		].map((m): [string, string] => [m[1], m[2]]);
		for (const name of ['docker-compose.yml', 'docker-compose.queue.yml']) {
			const { variables, commands } = composeN8nSettings(n8nPart(file(name)));
			expect(variables).toContainEqual(['N8N_UNVERIFIED_PACKAGES_ENABLED', 'true']);
			seen.push(...variables);
			expect(commands).toEqual(name.includes('queue') ? ['worker', 'webhook'] : []);
			for (const command of commands) expect(cliCommands).toContain(command);
		}
		const unknown = seen.filter(([v]) => !declared.has(v));
		const old = seen.filter(([v, value]) => deprecatedBy(v, value));
		expect({ unknown, old }).toEqual({ unknown: [], old: [] });
		const names = seen.map(([v]) => v);
		expect(names).toEqual(expect.arrayContaining(['EXECUTIONS_MODE', 'N8N_ENCRYPTION_KEY']));
	});

	test('the queue-mode file runs a worker and a webhook process from the same image and settings', () => {
		const queue = file('docker-compose.queue.yml');
		expect(queue).toMatch(/^ {2}n8n-worker:\n {4}<<: \*n8n\n {4}command: worker$/m);
		expect(queue).toMatch(/^ {2}n8n-webhook:\n {4}<<: \*n8n\n {4}command: webhook$/m);
		expect(queue).toMatch(/^ {4}EXECUTIONS_MODE: queue$/m);
	});
});
