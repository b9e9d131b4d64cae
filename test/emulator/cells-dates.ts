/**
 * Dates and times of cell values (§9): epoch seconds from date text, and a time zone's offset.
 * Used by the ValueParser (cells-parse.ts), the data engine's conversion (cells-convert.ts) and
 * display formatting (cells-format.ts).
 */

/** The data engine's ISO date (`YYYY-MM-DD`, any time part ignored). */
export function parseIsoDate(s: string): number | undefined {
	const m = s.trim().match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/);
	return m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) / 1000 : undefined;
}

/**
 * A Date column's ValueParser (parseDate.ts `parseDateStrict`): the column's dateFormat
 * (`YYYY-MM-DD` when it has none) with any separators, so an ISO date always, `M/D/YYYY` only
 * for a format in month-day-year order and `D/M/YYYY` for day-month-year (measured on grist-core
 * 1.7.17: "3/2/2024" stays text in a Date column without a format). Month names are not parsed.
 */
export function parseDateOnly(s: string, dateFormat?: string): number | undefined {
	const iso = parseIsoDate(s);
	if (iso !== undefined) return iso;
	const m = s.trim().match(/^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{4})$/);
	const order = (dateFormat ?? '').replace(/[^DMY]/g, '').replace(/(.)\1+/g, '$1');
	if (!m || (order !== 'MDY' && order !== 'DMY')) return undefined;
	const [month, day] = order === 'MDY' ? [+m[1], +m[2]] : [+m[2], +m[1]];
	return Date.UTC(+m[3], month - 1, day) / 1000;
}

/** Offset (ms) of `tz` from UTC at the given UTC instant. */
export function tzOffsetMs(tz: string, utcMs: number): number {
	try {
		const fmt = new Intl.DateTimeFormat('en-US', {
			timeZone: tz,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		const parts: Record<string, number> = {};
		for (const p of fmt.formatToParts(new Date(utcMs)))
			if (p.type !== 'literal') parts[p.type] = Number(p.value);
		const asUtc = Date.UTC(
			parts.year,
			parts.month - 1,
			parts.day,
			parts.hour,
			parts.minute,
			parts.second,
		);
		return asUtc - Math.floor(utcMs / 1000) * 1000;
	} catch {
		return 0;
	}
}

/** A DateTime: ISO date and time, with an offset or `Z`, else wall-clock time in `tz` (UTC by default). */
export function parseDateTime(s: string, tz: string): number | undefined {
	const t = s.trim();
	const m = t.match(
		/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i,
	);
	if (!m) return undefined;
	const local = Date.UTC(
		+m[1],
		+m[2] - 1,
		+m[3],
		+(m[4] ?? 0),
		+(m[5] ?? 0),
		+(m[6] ?? 0),
		m[7] ? Math.round(Number(m[7]) * 1000) : 0,
	);
	if (m[8]) {
		if (m[8].toUpperCase() === 'Z') return local / 1000;
		const sign = m[8][0] === '-' ? -1 : 1;
		const digits = m[8].slice(1).replace(':', '');
		const off = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
		return (local - off) / 1000;
	}
	const zone = tz || 'UTC';
	let guess = local - tzOffsetMs(zone, local);
	guess = local - tzOffsetMs(zone, guess);
	return guess / 1000;
}
