/**
 * The home server's doc-auth cache (grist-core HomeDBManager `_docAuthCache`), off unless the
 * emulator is started with `docAuthCacheMs` (grist-core: GRIST_TEST_DOC_AUTH_CACHE_TTL, 5000 ms).
 * It is one grist-core server (home and doc worker in one process):
 * - a doc-worker request (Authorizer → `getDocAuthCached`) reads a user's access to a document
 *   and whether it is in the trash from the cache while the entry is younger than the TTL, else
 *   from the home database, and caches that;
 * - GET /api/docs/{docId} (`getDoc`) reads the home database and caches the fresh answer, also
 *   when it then answers 404 (`showRemoved` filters after caching);
 * - a document's remove (soft or permanent) and DELETE flush its entries
 *   (`flushSingleDocAuthCache`); /unremove and the workspace routes do not.
 * So a document read on a doc-worker route while in the trash still answers 404 `Document is
 * deleted` after its restore, until the entry expires or GET /api/docs/{docId} refreshes it, and
 * the documents of a restored workspace likewise.
 *
 * Approximations: entries are keyed by document id (grist-core: the id or alias in the URL, with
 * the org and user), and only found documents are cached (grist-core also caches errors).
 */
import type { Ctx } from './context';
import type { Doc, Grant } from './model';

interface Entry {
	role: Grant;
	removed: boolean;
	/** Date.now() when it expires. */
	expires: number;
}

const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(c: Ctx): Map<string, Entry> {
	let cache = caches.get(c.store);
	if (!cache) {
		cache = new Map();
		caches.set(c.store, cache);
	}
	return cache;
}

function keyOf(c: Ctx, doc: Doc): string {
	const org = c.scope.kind === 'org' ? c.scope.key : c.scope.kind;
	return `${doc.id}:${org} ${c.user.id}`;
}

function fresh(c: Ctx, doc: Doc): Omit<Entry, 'expires'> {
	return { role: c.store.docRole(c.user.id, doc), removed: c.store.isRemoved(doc) };
}

/** `getDoc`: reads the home database; with the cache on, the answer replaces the cached one. */
export function refreshDocAuth(c: Ctx, doc: Doc): void {
	if (c.opts.docAuthCacheMs <= 0) return;
	cacheOf(c).set(keyOf(c, doc), { ...fresh(c, doc), expires: Date.now() + c.opts.docAuthCacheMs });
}

/** `getDocAuthCached`: the caller's access to `doc` and whether it is in the trash. */
export function docAuth(c: Ctx, doc: Doc): { role: Grant; removed: boolean } {
	if (c.opts.docAuthCacheMs <= 0) return fresh(c, doc);
	const cache = cacheOf(c);
	const key = keyOf(c, doc);
	const hit = cache.get(key);
	if (hit && hit.expires > Date.now()) return hit;
	const entry = { ...fresh(c, doc), expires: Date.now() + c.opts.docAuthCacheMs };
	cache.set(key, entry);
	return entry;
}

/** `flushSingleDocAuthCache`: forgets every user's entry for `doc`. */
export function flushDocAuth(c: Ctx, doc: Doc): void {
	const cache = caches.get(c.store);
	if (!cache) return;
	for (const key of cache.keys()) if (key.startsWith(`${doc.id}:`)) cache.delete(key);
}
