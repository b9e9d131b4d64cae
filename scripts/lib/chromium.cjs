// Debian's chromium for the editor UI test (test/e2e/editor.test.ts): scripts/ensure-chromium.sh
// installs it with apt-get when it is missing (once, about a minute) and prints its path.
// Types: chromium.d.cts (keep both in step).
'use strict';
const { execFileSync } = require('node:child_process');
const { join, resolve } = require('node:path');

const REPO_ROOT = resolve(__dirname, '..', '..');

/** Runs scripts/ensure-chromium.sh (idempotent) and returns the browser's path. */
function ensureChromium() {
	const out = execFileSync('bash', [join(REPO_ROOT, 'scripts', 'ensure-chromium.sh')], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	return out.trim().split('\n').pop();
}

/** Flags for a quiet headless Chromium that contacts nothing on its own. */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-dev-shm-usage',
];

module.exports = { ensureChromium, CHROMIUM_ARGS };
