// BENCH_BASELINE=<git rev>: that revision of the package, built in a temporary git worktree whose
// node_modules is a hard-link copy (`cp -al`) of this checkout's, so nothing is downloaded.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { log, require } from './common.mjs';

const { REPO_ROOT } = require('../../scripts/lib/processes.cjs');

const git = (...args) =>
	execFileSync('git', args, {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}).trim();

/** Checks out and builds `rev`; returns its folder, its commit and `remove()`. */
export function buildBaseline(rev) {
	const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
	const parent = mkdtempSync(join(tmpdir(), 'n8n-grist-baseline-'));
	const dir = join(parent, 'package');
	const remove = () => {
		try {
			git('worktree', 'remove', '--force', dir);
		} catch {
			git('worktree', 'prune');
		}
		rmSync(parent, { recursive: true, force: true });
	};
	try {
		log(`baseline ${rev} (${commit.slice(0, 12)}): worktree in ${dir}`);
		git('worktree', 'add', '--quiet', '--detach', dir, commit);
		execFileSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules')]);
		log('building the baseline…');
		execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
		return { dir, commit, remove };
	} catch (e) {
		remove();
		throw e;
	}
}

/** This checkout's commit, and whether its working tree has changes (they are benched too). */
export function currentRevision() {
	const commit = git('rev-parse', 'HEAD');
	const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
	return `${commit.slice(0, 12)}${dirty ? ' + uncommitted changes' : ''}`;
}
