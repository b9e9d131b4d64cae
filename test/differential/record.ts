/**
 * The differential record: per call, the verdict of comparing the emulator's normalised answer
 * with the real Grist's (same / accepted difference / unexplained), written to record.json and
 * summarised in record.md. record.test.ts reads it in CI.
 */
import type { AcceptedDifference } from './accepted';
import type { Answer } from './run';
import type { Vars } from './script';
import { CALLS } from './script';
import { differences, pathMatches, type Difference } from './normalise';

export type Verdict = 'same' | 'accepted' | 'unexplained';

export interface CallRecord {
	name: string;
	request: string;
	status: { emulator: number; real: number };
	verdict: Verdict;
	differences: Array<Difference & { reason?: string }>;
}

export interface DifferentialRecord {
	gristVersion: string;
	date: string;
	summary: { calls: number; same: number; accepted: number; unexplained: number };
	calls: CallRecord[];
}

/** The request of a call as the record shows it, with `{doc}`, `{ws}`… for the ids. */
export function requestLine(i: number): string {
	const call = CALLS[i];
	const v: Vars = {
		org: '{org}',
		orgId: '{org}' as unknown as number,
		wsId: '{ws}' as unknown as number,
		ws2Id: '{ws2}' as unknown as number,
		docId: '{doc}',
		copyId: '{copy}',
		importId: '{import}',
		webhookId: '{webhook}',
		attachmentId: '{attachment}' as unknown as number,
		hookUrl: '{hook}',
	};
	if (call.delivery) return 'webhook delivery (POST to the receiver)';
	const qs = new URLSearchParams(call.query?.(v) ?? {}).toString();
	return `${call.method} ${call.path(v)}${qs ? `?${qs}` : ''}`;
}

export function compare(
	emulator: Answer[],
	real: Answer[],
	accepted: AcceptedDifference[],
	gristVersion: string,
	date: string,
): DifferentialRecord {
	const calls = CALLS.map((call, i): CallRecord => {
		const diffs = differences(emulator[i], real[i]).map((d): Difference & { reason?: string } => {
			const reason = accepted.find(
				(a) => (a.call === call.name || a.call === '*') && pathMatches(a.path, d.path),
			)?.reason;
			return reason ? { ...d, reason } : d;
		});
		const verdict: Verdict =
			diffs.length === 0 ? 'same' : diffs.every((d) => d.reason) ? 'accepted' : 'unexplained';
		return {
			name: call.name,
			request: requestLine(i),
			status: { emulator: emulator[i]?.status, real: real[i]?.status },
			verdict,
			differences: diffs,
		};
	});
	const count = (v: Verdict) => calls.filter((c) => c.verdict === v).length;
	return {
		gristVersion,
		date,
		summary: {
			calls: calls.length,
			same: count('same'),
			accepted: count('accepted'),
			unexplained: count('unexplained'),
		},
		calls,
	};
}

const show = (x: unknown) =>
	x === undefined ? '(absent)' : JSON.stringify(x).replace(/\|/g, '\\|').slice(0, 160);

export function markdown(r: DifferentialRecord, accepted: AcceptedDifference[]): string {
	const s = r.summary;
	const lines = [
		'# Differential check: the emulator against a real Grist',
		'',
		`grist-core ${r.gristVersion}, ${r.date.slice(0, 10)}: ${s.calls} calls, ${s.same} same, ` +
			`${s.accepted} with accepted differences, ${s.unexplained} unexplained. ` +
			'Written by `npm run test:diff` (test/differential/); every value is in record.json.',
		'',
		'## Accepted differences',
		'',
		'| Call | Path | Reason |',
		'|---|---|---|',
		...accepted.map((a) => `| ${a.call} | \`${a.path}\` | ${a.reason} |`),
		'',
	];
	const unexplained = r.calls.filter((c) => c.verdict === 'unexplained');
	if (unexplained.length) {
		lines.push(
			'## Unexplained differences',
			'',
			'| Call | Path | Emulator | Real |',
			'|---|---|---|---|',
		);
		for (const c of unexplained)
			for (const d of c.differences.filter((x) => !x.reason))
				lines.push(`| ${c.name} | \`${d.path}\` | ${show(d.emulator)} | ${show(d.real)} |`);
		lines.push('');
	}
	lines.push('## Calls', '', '| # | Call | Request | Status | Verdict |', '|---|---|---|---|---|');
	r.calls.forEach((c, i) => {
		const status =
			c.status.emulator === c.status.real
				? String(c.status.real)
				: `${c.status.emulator} / ${c.status.real}`;
		lines.push(`| ${i + 1} | ${c.name} | \`${c.request}\` | ${status} | ${c.verdict} |`);
	});
	return lines.join('\n') + '\n';
}
