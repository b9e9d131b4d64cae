// Last step of `npm run lint`: n8n's own community-package scanner (@n8n/scan-community-package,
// pinned), run here so that lint fails wherever n8n's check before verifying the package would.
//
// The scanner's CLI downloads the published package and its source from npm and GitHub; this
// script calls its exported analysis (`analyzePackage`, the same ESLint set-up) on local folders
// instead, so it works offline:
//
// 1. the sources, with the scanner's own source patterns (SOURCE_FILE_PATTERNS: package.json,
//    nodes/ and credentials/), as the CLI lints the provenance-attested checkout;
// 2. the tarball as `npm pack` makes it, unpacked, with analyzePackage's default patterns (every
//    .js, .ts and .json file: stricter than the CLI's tarball leg, which takes only .js and
//    package.json). Shipped .d.ts files fail here (their file names break
//    `cred-filename-against-convention`), which is why tsconfig.json emits none.
//
// The tarball is built from the current sources in a scratch folder, never in dist/ (lint runs
// before `npm run build` in `npm test`, and dist/ may be in use): the same `tsc` that
// `n8n-node build` runs (tsconfig.json, only the output folder changed; --noCheck because the
// build type-checks anyway and emits the same files), the static files `n8n-node build` copies,
// package.json, README and licence, then `npm pack` of that folder, which applies package.json's
// `files`. tsc runs while the sources are analysed.
//
//   node scripts/scan-package.mjs                 both checks (what `npm run lint` runs)
//   node scripts/scan-package.mjs --tarball X.tgz  only the check of an existing tarball
import { spawn, spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import glob from 'fast-glob';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'grist-scan-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function log(line) {
	process.stdout.write(`[scan-package] ${line}\n`);
}

/** Runs a command to its end; resolves with its exit code and output. */
function run(command, args, options = {}) {
	return new Promise((resolvePromise) => {
		const child = spawn(command, args, { cwd: root, ...options });
		let output = '';
		child.stdout?.on('data', (chunk) => (output += chunk));
		child.stderr?.on('data', (chunk) => (output += chunk));
		child.on('error', (error) => resolvePromise({ code: 1, output: String(error) }));
		child.on('close', (code) => resolvePromise({ code, output }));
	});
}

/** Unpacks a tarball made by `npm pack` into a new scratch folder (its `package/` prefix removed). */
function unpack(tarball) {
	const dir = join(scratch, 'unpacked');
	mkdirSync(dir, { recursive: true });
	const res = spawnSync('tar', ['-xzf', resolve(tarball), '-C', dir, '--strip-components=1']);
	if (res.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${res.stderr}`);
	return dir;
}

/** Builds the package from the current sources into a scratch folder and packs it; returns the .tgz. */
async function buildAndPack(tscRun) {
	const stage = join(scratch, 'stage');
	const { code, output } = await tscRun;
	if (code !== 0) throw new Error(`tsc failed (exit ${code}):\n${output}`);
	// what n8n-node build copies after tsc (@n8n/node-cli, commands/build.js: copyStaticFiles)
	for (const file of glob.sync(['**/*.{png,svg}', '**/__schema__/**/*.json'], {
		cwd: root,
		ignore: ['dist', 'node_modules'],
	})) {
		mkdirSync(dirname(join(stage, 'dist', file)), { recursive: true });
		cpSync(join(root, file), join(stage, 'dist', file));
	}
	// npm adds package.json, README and LICENCE to every tarball; the rest comes from `files`,
	// whose entries other than the build output are copied as they are
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const always = readdirSync(root).filter((name) =>
		/^(package\.json|readme|licen[cs]e)/i.test(name),
	);
	const listed = (pkg.files ?? []).filter((entry) => !/^!|^(\.\/)?dist(\/|$)/.test(entry));
	for (const entry of [...always, ...listed]) {
		for (const file of glob.sync(entry, { cwd: root, onlyFiles: false, dot: true })) {
			cpSync(join(root, file), join(stage, file), { recursive: true });
		}
	}
	const packed = spawnSync(
		npm,
		['pack', stage, '--pack-destination', scratch, '--json', '--ignore-scripts'],
		{ cwd: scratch, encoding: 'utf8' },
	);
	if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
	return join(scratch, JSON.parse(packed.stdout)[0].filename);
}

async function main() {
	const tarballArg = process.argv.indexOf('--tarball');
	const tarball = tarballArg > 0 ? process.argv[tarballArg + 1] : undefined;
	if (tarballArg > 0 && !(tarball && existsSync(tarball))) {
		throw new Error(`--tarball needs an existing .tgz file (got ${tarball ?? 'nothing'})`);
	}

	// the build runs in a child process while this one lints the sources (two cores)
	const tscRun = tarball
		? undefined
		: run(process.execPath, [
				join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
				...['-p', 'tsconfig.json', '--noCheck', '--outDir', join(scratch, 'stage', 'dist')],
			]);

	// The scanner makes a temporary folder when it is loaded and never removes it: make it inside
	// the scratch folder, which is removed at the end.
	const savedTmp = process.env.TMPDIR;
	process.env.TMPDIR = scratch;
	const { analyzePackage, SOURCE_FILE_PATTERNS } =
		await import('@n8n/scan-community-package/scanner/scanner.mjs');
	if (savedTmp === undefined) delete process.env.TMPDIR;
	else process.env.TMPDIR = savedTmp;

	const failures = [];
	const check = async (label, dir, patterns) => {
		const started = Date.now();
		const result = await analyzePackage(dir, patterns);
		if (result.passed) log(`${label}: passed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		else {
			// file names relative to the folder checked, not to this run's scratch folder
			const details = (result.details ?? '').split(`${dir}/`).join('');
			failures.push(`${label}: ${result.message}${details ? `\n${details}` : ''}`);
		}
	};

	if (!tarball) await check('sources (scanner source patterns)', root, SOURCE_FILE_PATTERNS);
	const packStarted = Date.now();
	const tgz = tarball ?? (await buildAndPack(tscRun));
	if (!tarball) log(`built and packed (${((Date.now() - packStarted) / 1000).toFixed(1)} s more)`);
	await check(`tarball${tarball ? ` ${tarball}` : ' (npm pack of a fresh build)'}`, unpack(tgz));

	if (failures.length > 0) {
		for (const failure of failures) process.stderr.write(`[scan-package] ${failure}\n`);
		process.stderr.write(
			'[scan-package] n8n would reject this package (@n8n/scan-community-package); fix the files above\n',
		);
		process.exitCode = 1;
	}
}

try {
	await main();
} catch (error) {
	process.stderr.write(`[scan-package] ${error.message}\n`);
	process.exitCode = 1;
} finally {
	rmSync(scratch, { recursive: true, force: true });
}
