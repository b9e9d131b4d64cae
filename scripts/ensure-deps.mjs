// Runs `npm install` when the dev dependencies are missing (a fresh clone), so that `npm start`
// and `npm test` work as the first commands. Does nothing once they are installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const needed = ['@n8n/node-cli', 'jest', 'n8n-core', 'typescript'];
if (!needed.every((name) => existsSync(join(root, 'node_modules', name, 'package.json')))) {
	console.error('[ensure-deps] installing the dev dependencies (npm install, once)');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const res = spawnSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
	process.exit(res.status ?? 1);
}
