/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test: reads the committed record */
/**
 * The committed differential record (written by `npm run test:diff` against a real Grist) stays
 * true to the script and the accepted list: every scripted call has a verdict, none is
 * unexplained, every accepted difference still explains something, and every endpoint of
 * nodes/Grist/api/ is exercised by some call. Runs in CI without a real server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as access from '../../nodes/Grist/api/access';
import * as attachments from '../../nodes/Grist/api/attachments';
import * as columnar from '../../nodes/Grist/api/columnar';
import * as columns from '../../nodes/Grist/api/columns';
import * as documents from '../../nodes/Grist/api/documents';
import * as history from '../../nodes/Grist/api/history';
import * as orgs from '../../nodes/Grist/api/orgs';
import * as records from '../../nodes/Grist/api/records';
import * as rowLookup from '../../nodes/Grist/api/rowLookup';
import * as schemaCache from '../../nodes/Grist/api/schemaCache';
import * as serviceAccounts from '../../nodes/Grist/api/serviceAccounts';
import * as sql from '../../nodes/Grist/api/sql';
import * as tables from '../../nodes/Grist/api/tables';
import * as timing from '../../nodes/Grist/api/timing';
import * as trash from '../../nodes/Grist/api/trash';
import * as webhooks from '../../nodes/Grist/api/webhooks';
import * as workspaces from '../../nodes/Grist/api/workspaces';
import * as forks from '../../nodes/Grist/api/forks';
import * as proposals from '../../nodes/Grist/api/proposals';
import * as snapshots from '../../nodes/Grist/api/snapshots';
import { ACCEPTED } from './accepted';
import { pathMatches } from './normalise';
import type { DifferentialRecord } from './record';
import { CALLS, NOT_ENDPOINTS } from './script';

/** The endpoint files of api/ (not the client, paths, retries, URLs and OAuth scopes under them). */
const api = {
	...access,
	...attachments,
	...columnar,
	...columns,
	...documents,
	...history,
	...orgs,
	...records,
	...rowLookup,
	...schemaCache,
	...serviceAccounts,
	...sql,
	...tables,
	...timing,
	...trash,
	...webhooks,
	...workspaces,
	...forks,
	...proposals,
	...snapshots,
};

const record = JSON.parse(
	readFileSync(join(__dirname, 'record.json'), 'utf8'),
) as DifferentialRecord;

describe('differential record (test/differential/record.json)', () => {
	it('has a verdict for every scripted call, in the script order', () => {
		expect(record.calls.map((c) => c.name)).toEqual(CALLS.map((c) => c.name));
		expect(new Set(CALLS.map((c) => c.name)).size).toBe(CALLS.length);
	});

	it('has no unexplained difference under the current accepted list', () => {
		const unexplained = record.calls.flatMap((c) =>
			c.differences
				.filter(
					(d) =>
						!ACCEPTED.some(
							(a) => (a.call === c.name || a.call === '*') && pathMatches(a.path, d.path),
						),
				)
				.map((d) => `${c.name}: ${d.path}`),
		);
		expect(unexplained).toEqual([]);
		expect(record.calls.filter((c) => c.verdict === 'unexplained')).toEqual([]);
	});

	it('counts its verdicts right and names the grist-core version and date', () => {
		const count = (v: string) => record.calls.filter((c) => c.verdict === v).length;
		expect(record.summary).toEqual({
			calls: CALLS.length,
			same: count('same'),
			accepted: count('accepted'),
			unexplained: 0,
		});
		expect(record.gristVersion).toMatch(/^\d+\.\d+\.\d+/);
		expect(Number.isNaN(Date.parse(record.date))).toBe(false);
	});

	it('uses every accepted difference (none outlives what it explained)', () => {
		const unused = ACCEPTED.filter(
			(a) =>
				!record.calls.some(
					(c) =>
						(a.call === c.name || a.call === '*') &&
						c.differences.some((d) => pathMatches(a.path, d.path)),
				),
		);
		expect(unused).toEqual([]);
		for (const a of ACCEPTED)
			if (a.call !== '*') expect(CALLS.map((c) => c.name)).toContain(a.call);
	});

	it('exercises every endpoint of api/ and the credential test', () => {
		const covered = new Set(CALLS.flatMap((c) => c.covers ?? []));
		const endpoints = Object.keys(api).filter((k) => !NOT_ENDPOINTS.includes(k));
		expect(endpoints.filter((k) => !covered.has(k))).toEqual([]);
		expect(covered.has('credentialTest')).toBe(true);
		expect([...covered].filter((k) => k !== 'credentialTest' && !(k in api))).toEqual([]);
	});
});
