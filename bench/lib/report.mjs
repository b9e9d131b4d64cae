// The report of the whole bench (`npm run bench`): one section per measurement, then the targets.
import {
	BUILTIN_ITEMS,
	BUILTIN_REPEATS,
	CHUNK,
	CREATE_ROWS,
	N8N_VERSION,
	READ_ROWS,
	REPEATS,
	fmtInt,
	median,
	medians,
	ms,
	pad,
	padL,
	target,
} from './common.mjs';
import { ownReport } from './own-time.mjs';

const runs = (xs) => xs.map(ms).join(' / ');
const medOf = (list, key) => median(list.map((x) => x[key]));
const VARIANTS = ['package', 'builtin', 'n8nHttp', 'raw'];

function createLines(r, runsWidth) {
	const c = medians(r.create);
	const label = {
		package: 'n8n-nodes-grist (record create)',
		builtin: `n8n-nodes-base.grist${BUILTIN_ITEMS < CREATE_ROWS ? ` (×${CREATE_ROWS / BUILTIN_ITEMS} of ${fmtInt(BUILTIN_ITEMS)})` : ''}`,
		n8nHttp: `n8n Code + HTTP Request, ${CHUNK} rows/POST`,
		raw: `raw HTTP, ${CHUNK} rows/POST`,
	};
	const out = [
		`1. Create ${fmtInt(CREATE_ROWS)} rows from ${fmtInt(CREATE_ROWS)} items`,
		`   ${pad('variant', 40)}${padL('median', 10)}  ${pad('runs', runsWidth)}${pad('requests', 22)}${pad('vs raw', 10)}vs n8n HTTP`,
	];
	for (const k of VARIANTS) {
		if (!r.create[k].length) {
			out.push(`   ${pad(label[k], 40)}${padL('—', 10)}`, r.failed);
			continue;
		}
		out.push(
			`   ${pad(label[k], 40)}${padL(ms(c[k]), 10)}  ${pad(runs(r.create[k]), runsWidth)}${pad(r.createReq[k].text, 22)}${pad(`${(c[k] / c.raw).toFixed(2)}×`, 10)}${(c[k] / c.n8nHttp).toFixed(2)}×`,
		);
	}
	out.push(
		"   (n8n Code + HTTP Request = the chunking Code node's + the HTTP Request node's executionTime; the Code node making the items is excluded everywhere)",
	);
	return out;
}

function readLines(r, runsWidth) {
	const rd = medians(r.read);
	const mem = medians(r.readMem);
	const label = {
		package: 'n8n-nodes-grist (getAll, all)',
		builtin: 'n8n-nodes-base.grist (getAll, all)',
		n8nHttp: 'n8n HTTP Request GET + Split Out',
		raw: 'raw GET + JSON.parse',
	};
	const out = [
		`2. Read all rows of a ${fmtInt(READ_ROWS)}-row table (payload ${(r.payloadBytes / 1e6).toFixed(1)} MB)`,
		`   ${pad('variant', 40)}${padL('median', 10)}  ${pad('runs', runsWidth)}${pad('requests', 22)}${pad('vs raw', 10)}${pad('vs n8n HTTP', 13)}peak − baseline`,
	];
	for (const k of VARIANTS) {
		if (!r.read[k].length) {
			out.push(`   ${pad(label[k], 40)}${padL('—', 10)}`, r.failed);
			continue;
		}
		const m =
			mem[k] === undefined
				? '—'
				: `${(mem[k] / 1e6).toFixed(0)} MB = ${(mem[k] / r.payloadBytes).toFixed(2)}× payload`;
		out.push(
			`   ${pad(label[k], 40)}${padL(ms(rd[k]), 10)}  ${pad(runs(r.read[k]), runsWidth)}${pad(r.readReq[k].text, 22)}${pad(`${(rd[k] / rd.raw).toFixed(2)}×`, 10)}${pad(`${(rd[k] / rd.n8nHttp).toFixed(2)}×`, 13)}${m}`,
		);
	}
	out.push(
		"   (n8n HTTP Request GET + Split Out = both nodes' executionTime; Split Out gives one { id, fields } item per row; peak: n8n's, or a bare Node 24 for raw)",
	);
	return out;
}

const WRITE_LABEL = {
	create: 'record create (Batch Size 500, default)',
	update: 'record update (Row ID ={{ $json.id }})',
	upsert: `upsert on Email (${fmtInt(Math.floor(CREATE_ROWS / 2))} match)`,
	batch100: 'record create, Batch Size 100',
	batchMax: 'record create, Batch Size 10,000',
};

function writeLine(r, k) {
	const w = r.writes[k];
	const node = medOf(w, 'node');
	const e = medOf(w, 'emu');
	return `   ${pad(WRITE_LABEL[k], 40)}${padL(ms(node), 10)}${padL(ms(e), 10)}${padL(ms(median(w.map((x) => x.node - x.emu))), 10)}  ${pad(r.writeReq[k].text, 22)}${ms(medOf(w, 'longest'))}`;
}

function writeLines(r) {
	return [
		`3. Writes of ${fmtInt(CREATE_ROWS)} items in n8n: the node's time, the emulator's (Grist's) share, the rest (package + n8n's request helper)`,
		`   ${pad('operation', 40)}${padL('node', 10)}${padL('emulator', 10)}${padL('outside', 10)}  ${pad('requests', 22)}longest request`,
		...['create', 'update', 'upsert'].map((k) => writeLine(r, k)),
		...ownReport(r.own).lines,
		'',
		`4. Batch Size (Options), create ${fmtInt(CREATE_ROWS)} rows: fewer, bigger requests load faster; each holds the document longer (longest request)`,
		`   ${pad('variant', 40)}${padL('node', 10)}${padL('emulator', 10)}${padL('outside', 10)}  ${pad('requests', 22)}longest request`,
		...['batch100', 'create', 'batchMax'].map((k) => writeLine(r, k)),
	];
}

function pollLines(r) {
	const label = {
		addedSql: 'Row Added, /sql max(id)',
		addedRecords: 'Row Added, /sql refused: records -id',
		updatedSql: 'Added or Updated, /sql newest timestamps',
		updatedRecords: 'Added or Updated, refused: records sort',
	};
	return [
		`5. Grist Trigger, idle poll on a ${fmtInt(READ_ROWS)}-row table (n8n-core in this process; emulator cost model: rows scanned per poll)`,
		`   ${pad('variant', 40)}${padL('poll', 10)}${padL('emulator', 10)}${padL('rows', 10)}  requests`,
		...Object.keys(r.polls).map(
			(k) =>
				`   ${pad(label[k], 40)}${padL(ms(medOf(r.polls[k], 'poll')), 10)}${padL(ms(medOf(r.polls[k], 'emu')), 10)}${padL(fmtInt(medOf(r.polls[k], 'scanned')), 10)}  ${r.pollReq[k]}`,
		),
		"   (the emulator keeps every table in memory: its time understates Grist's document load, which /sql avoids; see docs/PERFORMANCE.md for grist-core's figures)",
	];
}

function targetLines(r) {
	const c = medians(r.create);
	const rd = medians(r.read);
	const mem = medians(r.readMem);
	const { polls, payloadBytes } = r;
	const out = [
		'Targets (our own time):',
		...ownReport(r.own).targets,
		target(
			medOf(polls.addedSql, 'scanned') <= 2,
			`idle Row Added poll scans O(1) rows:              ${fmtInt(medOf(polls.addedSql, 'scanned'))} (records query: ${fmtInt(medOf(polls.addedRecords, 'scanned'))})`,
		),
		'',
		'Targets, against each baseline: "raw" = HTTP from the bench process (no n8n); "n8n HTTP" = the same chunked requests made by n8n\'s own Code + HTTP Request nodes',
		target(
			c.package <= 2 * c.raw,
			`create ≤ 2× raw HTTP:             ${(c.package / c.raw).toFixed(2)}×`,
		),
		target(
			c.package <= 2 * c.n8nHttp,
			`create ≤ 2× n8n HTTP Request:     ${(c.package / c.n8nHttp).toFixed(2)}×`,
		),
		c.builtin === undefined
			? '   n/a   create ≥ 50× faster than the built-in node: the built-in node did not run'
			: target(
					c.builtin >= 50 * c.package,
					`create ≥ 50× faster than the built-in node: ${(c.builtin / c.package).toFixed(1)}×`,
				),
		target(
			rd.package <= 1.5 * rd.raw,
			`read ≤ 1.5× raw GET:              ${(rd.package / rd.raw).toFixed(2)}×`,
		),
	];
	if (rd.n8nHttp !== undefined)
		out.push(
			target(
				rd.package <= 1.5 * rd.n8nHttp,
				`read ≤ 1.5× n8n HTTP GET + Split: ${(rd.package / rd.n8nHttp).toFixed(2)}×`,
			),
		);
	out.push(
		target(
			mem.package <= 3 * payloadBytes,
			`read peak memory ≤ 3× payload:    ${(mem.package / payloadBytes).toFixed(2)}×`,
		),
	);
	if (mem.n8nHttp !== undefined)
		out.push(
			`   info  n8n HTTP GET + Split Out peak memory: ${(mem.n8nHttp / payloadBytes).toFixed(2)}× payload; bare Node 24 GET + parse: ${(mem.raw / payloadBytes).toFixed(2)}×`,
		);
	return out;
}

/** Prints the whole bench's report; `r` holds every section's results. */
export function printReport(r, t0) {
	const runsWidth = Math.max(
		30,
		...[...Object.values(r.create), ...Object.values(r.read)].map((xs) => runs(xs).length + 2),
	);
	const withFailed = { ...r, failed: `   ${' '.repeat(40)}failed: ${r.builtinError ?? ''}` };
	const out = [
		'',
		`Grist benchmark — n8n ${N8N_VERSION} (Node 24) against the Grist emulator; median of ${REPEATS} runs (built-in create: ${BUILTIN_REPEATS}); times in ms`,
		'',
		...createLines(withFailed, runsWidth),
		'',
		...readLines(withFailed, runsWidth),
		'',
		...writeLines(r),
		'',
		...pollLines(r),
		'',
		...targetLines(r),
		'',
		`(n8n start-up ${(r.startupMs / 1000).toFixed(1)} s, excluded; whole bench ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
	];
	process.stdout.write(`${out.join('\n')}\n`);
}
