/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness: files of the n8n user folder and template database */
/**
 * Low-level pieces of the real-n8n harness. The process work (Node 24 + n8n from the cache of
 * scripts/ensure-n8n.sh, build + pack + install into a user folder, the n8n environment, the n8n
 * process group and its watchdog, the SQLite snapshot) lives in scripts/lib/processes.cjs, shared
 * with `npm start`; this file keeps the test-only files: encryption key and template database.
 */
import { randomBytes } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { sqliteSnapshot, type Runtime } from '../../../scripts/lib/processes.cjs';

export {
	N8N_VERSION,
	REPO_ROOT,
	RUNTIMES,
	bcryptHash,
	freePort,
	installPackage,
	locateRuntime,
	n8nEnv,
	spawnN8n,
} from '../../../scripts/lib/processes.cjs';
export type {
	N8nProcess,
	Runtime,
	RuntimeLine,
	SpawnN8nOptions as SpawnOptions,
} from '../../../scripts/lib/processes.cjs';

export function removeFolder(path: string): void {
	rmSync(path, { recursive: true, force: true });
}

/**
 * A migrated, empty n8n database (owner row only), made once per cache by `VACUUM INTO` from the
 * first instance; later instances start from a copy and skip the ~4 s of migrations. The database
 * holds keys encrypted with the instance key, so every test instance uses `e2eEncryptionKey(runtime)`.
 */
export function e2eEncryptionKey(runtime: Runtime): string {
	// random, made once per cache and kept beside the template database (a new key only costs one fresh start)
	const file = join(runtime.cache, `e2e-encryption-key-${runtime.n8nVersion}`);
	if (!existsSync(file)) {
		try {
			writeFileSync(file, randomBytes(24).toString('hex'), { flag: 'wx', mode: 0o600 });
		} catch {
			// another test process wrote it first; read theirs below (any other problem fails the read)
		}
	}
	return readFileSync(file, 'utf8').trim();
}

export function templateDbPath(runtime: Runtime): string {
	return join(runtime.cache, `e2e-template-db-${runtime.n8nVersion}.sqlite`);
}

/** Copies the template database into a fresh user folder; false when there is none yet. */
export function seedFromTemplate(runtime: Runtime, userFolder: string): boolean {
	const tpl = templateDbPath(runtime);
	if (!existsSync(tpl)) return false;
	if (!readFileSync(tpl).subarray(0, 16).equals(Buffer.from('SQLite format 3\0', 'latin1'))) {
		rmSync(tpl, { force: true });
		return false;
	}
	mkdirSync(join(userFolder, '.n8n'), { recursive: true });
	copyFileSync(tpl, join(userFolder, '.n8n', 'database.sqlite'));
	return true;
}

export function dropTemplate(runtime: Runtime): void {
	rmSync(templateDbPath(runtime), { force: true });
}

/** Snapshot of a running instance's database (consistent, via SQLite's VACUUM INTO) as the template. */
export function saveTemplate(runtime: Runtime, userFolder: string): void {
	const tpl = templateDbPath(runtime);
	const tmp = `${tpl}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
	try {
		sqliteSnapshot(runtime, join(userFolder, '.n8n', 'database.sqlite'), tmp);
		renameSync(tmp, tpl);
	} finally {
		rmSync(tmp, { force: true });
	}
}
