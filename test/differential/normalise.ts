/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test helper: deep equality from node:util */
/**
 * Normalising the answers of one side before they are compared: identities become placeholders
 * (the same identity the same placeholder all along a side's run), timestamps become `<time>`;
 * then `differences` lists the JSON paths where the two sides still differ.
 */
import { isDeepStrictEqual } from 'node:util';

/** Parent keys whose object's numeric `id` is an identity of that kind (home-DB answers). */
const KIND_OF_PARENT: Record<string, string> = {
	org: 'org',
	orgs: 'org',
	workspace: 'ws',
	workspaces: 'ws',
	owner: 'user',
	users: 'user',
	user: 'user',
	billingAccount: 'billing',
	product: 'product',
	docs: 'doc',
	forks: 'doc',
};
/** Keys holding an identity themselves. */
const ID_KEYS: Record<string, string> = {
	orgId: 'org',
	workspaceId: 'ws',
	userId: 'user',
	parentWorkspaceId: 'ws',
};
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Keys of numeric timestamps (ms or s since the epoch): webhook usage, attachments. */
const TIME_KEYS = /(Time|At|Uploaded)$/;

/** One side's identities: value → placeholder. Strings are replaced wherever they occur. */
export class Identities {
	private readonly strings = new Map<string, string>();
	private readonly exact = new Map<string, string>();
	private readonly numbers = new Map<string, string>();
	private counters = new Map<string, number>();

	/** Names a string identity: random ids anywhere in a string; names and domains (`exact`) only as a whole value. */
	string(value: unknown, name: string, exact = false): void {
		if (typeof value !== 'string' || value === '') return;
		const map = exact ? this.exact : this.strings;
		if (!map.has(value)) map.set(value, `<${name}>`);
	}

	/** The name a string identity was given (without the brackets). */
	nameOf(value: string): string | undefined {
		return this.strings.get(value)?.slice(1, -1);
	}

	/** Names a numeric identity of a kind (`ws`, `org`, `user`…). */
	number(kind: string, value: unknown, name: string): void {
		if (typeof value !== 'number') return;
		const key = `${kind}:${value}`;
		if (!this.numbers.has(key)) this.numbers.set(key, `<${kind}:${name}>`);
	}

	numberFor(kind: string, value: number): string {
		const key = `${kind}:${value}`;
		let name = this.numbers.get(key);
		if (!name) {
			const n = (this.counters.get(kind) ?? 0) + 1;
			this.counters.set(kind, n);
			name = `<${kind}#${n}>`;
			this.numbers.set(key, name);
		}
		return name;
	}

	replaceStrings(s: string): string {
		if (ISO_TIME.test(s)) return '<time>';
		const whole = this.exact.get(s);
		if (whole) return whole;
		let out = s;
		// longest first, so that an id inside a longer one (urlId, alias) is not cut
		const known = [...this.strings.keys()].sort((a, b) => b.length - a.length);
		for (const value of known)
			if (out.includes(value)) out = out.split(value).join(this.strings.get(value)!);
		return out;
	}
}

/**
 * The answer with identities and timestamps replaced. `root` (home-DB answers) is the kind of
 * the top-level object(s); without it, numbers are data (row ids, colRefs) and stay.
 */
export function normalise(value: unknown, ids: Identities, root?: string): unknown {
	// `kind`: the kind of identity an object's `id` is (from the key holding the object)
	const walk = (v: unknown, kind: string | undefined, key: string | undefined): unknown => {
		if (typeof v === 'string') return ids.replaceStrings(v);
		if (typeof v === 'number') {
			if (key && TIME_KEYS.test(key) && v > 1e9) return '<time>';
			if (!root || !key) return v;
			if (key === 'id' && kind) return ids.numberFor(kind, v);
			if (ID_KEYS[key]) return ids.numberFor(ID_KEYS[key], v);
			return v;
		}
		if (Array.isArray(v)) return v.map((x) => walk(x, kind, undefined));
		if (v && typeof v === 'object') {
			const out: Record<string, unknown> = {};
			for (const [k, x] of Object.entries(v)) {
				const inner = x && typeof x === 'object' ? KIND_OF_PARENT[k] : kind;
				out[ids.replaceStrings(k)] = walk(x, inner, k);
			}
			return out;
		}
		return v;
	};
	// a bare id (POST /orgs/{org}/workspaces answers the new workspace's id)
	if (root && typeof value === 'number') return ids.numberFor(root, value);
	return walk(value, root, undefined);
}

export interface Difference {
	/** JSON path, e.g. `$.body.tables[0].fields.primaryViewId`. */
	path: string;
	emulator?: unknown;
	real?: unknown;
}

/** The leaf paths where two normalised answers differ (a missing key is `undefined` on its side). */
export function differences(emulator: unknown, real: unknown, path = '$'): Difference[] {
	if (isDeepStrictEqual(emulator, real)) return [];
	const bothObjects =
		emulator &&
		real &&
		typeof emulator === 'object' &&
		typeof real === 'object' &&
		Array.isArray(emulator) === Array.isArray(real);
	if (!bothObjects) return [{ path, emulator, real }];
	const out: Difference[] = [];
	if (Array.isArray(emulator) && Array.isArray(real)) {
		for (let i = 0; i < Math.max(emulator.length, real.length); i++)
			out.push(...differences(emulator[i], real[i], `${path}[${i}]`));
		return out;
	}
	const e = emulator as Record<string, unknown>;
	const r = real as Record<string, unknown>;
	for (const k of new Set([...Object.keys(e), ...Object.keys(r)]))
		out.push(...differences(e[k], r[k], `${path}.${k}`));
	return out;
}

/** Whether an accepted difference's path pattern (`*` for one segment, `**` for any tail) covers a path. */
export function pathMatches(pattern: string, path: string): boolean {
	const re = new RegExp(
		'^' +
			pattern
				.split('**')
				.map((part) =>
					part
						.split('*')
						.map((s) => s.replace(/[.[\]$^()+?{}|\\]/g, '\\$&'))
						.join('[^.[\\]]+'),
				)
				.join('.*') +
			'$',
	);
	return re.test(path);
}
