// What every part of the bench shares: its settings from the environment, the harness modules
// (TypeScript sources loaded through ../ts-register.cjs), this process's garbage collection and
// CPU clocks, the bench table's columns and rows, and the formatting of figures.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export const require = createRequire(import.meta.url);
// A full GC of this process (the emulator's heap) before each measured run, for steadier figures.
v8.setFlagsFromString('--expose-gc');
export const gc = runInNewContext('gc');
require('../ts-register.cjs');
export const { startEmulator } = require('../../test/emulator/index.ts');
export const {
	startN8n,
	manualWorkflow,
	MANUAL_TRIGGER_NAME,
	N8N_VERSION,
} = require('../../test/harness/e2e.ts');
export const { locateRuntime } = require('../../test/harness/e2e/runtime.ts');
export const { runNode, createPoller } = require('../../test/harness/inprocess.ts');
export const { until } = require('../../test/harness/until.ts');

const int = (name, dflt) => {
	const v = Number(process.env[name] ?? dflt);
	if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
	return v;
};
export const REPEATS = int('BENCH_REPEATS', 5);
export const BUILTIN_REPEATS = Math.min(int('BENCH_BUILTIN_REPEATS', 3), REPEATS);
export const CREATE_ROWS = int('BENCH_CREATE_ROWS', 10_000);
export const BUILTIN_ITEMS = Math.min(int('BENCH_BUILTIN_CREATE_ITEMS', CREATE_ROWS), CREATE_ROWS);
export const READ_ROWS = int('BENCH_READ_ROWS', 100_000);
export const OWN_REPEATS = int('BENCH_OWN_REPEATS', 11);
// Each n8n read starts an n8n of its own (~20-60 s here): BENCH_READ_VARIANTS=package,builtin
// leaves out the HTTP Request variant.
export const READ_VARIANTS = (
	process.env.BENCH_READ_VARIANTS ?? 'package,packageRaw,builtin,n8nHttp'
).split(',');
/**
 * BENCH_READ_PACKAGES=<name>=<dir>,…: more builds of this package read beside it in the read
 * section (each `<dir>` a checkout with its dist/ built, packed and installed like this one), e.g.
 * variants of the read path compared in one interleaved run.
 */
export const READ_PACKAGES = (process.env.BENCH_READ_PACKAGES ?? '')
	.split(',')
	.filter((x) => x.trim() !== '')
	.map((x) => {
		const [name, dir] = x.split('=');
		if (!name || !dir || ['package', 'builtin', 'n8nHttp', 'raw'].includes(name))
			throw new Error(`BENCH_READ_PACKAGES: "${x}" is not <name>=<dir> with a name of its own`);
		return { name, dir };
	});
export const OWN_WARMUP = int('BENCH_OWN_WARMUP', 2);
export const CHUNK = 500;
/** n8n's options: BENCH_N8N_NODE_OPTIONS is n8n's NODE_OPTIONS (e.g. to profile it). */
export const n8nOptions = () =>
	process.env.BENCH_N8N_NODE_OPTIONS
		? { env: { NODE_OPTIONS: process.env.BENCH_N8N_NODE_OPTIONS } }
		: {};

export const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
export const fmtInt = (n) => n.toLocaleString('en-US');
export const median = (xs) => {
	if (!xs.length) return undefined;
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** The median of each list of an object of lists. */
export const medians = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, median(v)]));
export const ms = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
export const pad = (s, n) => String(s).padEnd(n);
export const padL = (s, n) => String(s).padStart(n);
/** A target's line: PASS/MISS, printed, never asserted. */
export const target = (ok, text) => `   ${ok ? 'PASS' : 'MISS'}  ${text}`;
export const sleep = (t) => new Promise((r) => setTimeout(r, t));
/** process.cpuUsage() (or a difference of it) in ms: user + system CPU of all of this process's threads. */
export const cpuMs = (u) => (u.user + u.system) / 1000;
/**
 * CPU time of this process's main thread alone, in ms (Linux: the kernel's schedstat, in ns), or
 * undefined elsewhere. Unlike process.cpuUsage it leaves out V8's background threads: measured
 * here, its concurrent compiler recompiles the node's hot functions in every run after the
 * bench's gc(), and where that work falls (inside or outside an HTTP request) moved the CPU
 * figure by 15-30 ms per 10,000 items between two builds of the same code paths.
 */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
export const mainCpuMs = () => {
	try {
		return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
	} catch {
		return undefined;
	}
};
export const mainDiff = (start) => {
	const now = mainCpuMs();
	return start === undefined || now === undefined ? 0 : now - start;
};

/**
 * BENCH_TABLE: the shape of every bench table. `realistic` (default): the column types users have,
 * Text, Int, Numeric, Toggle, Date, DateTime, Choice, Choice List and a Reference to a table of
 * PEOPLE rows (made beside it); `narrow`: the first five alone, no dates to decode.
 */
export const TABLE_SHAPE = process.env.BENCH_TABLE ?? 'realistic';
if (!['realistic', 'narrow'].includes(TABLE_SHAPE))
	throw new Error('BENCH_TABLE must be realistic or narrow');
const NARROW = [
	{ id: 'Name', type: 'Text' },
	{ id: 'Email', type: 'Text' },
	{ id: 'Score', type: 'Int' },
	{ id: 'Amount', type: 'Numeric' },
	{ id: 'Active', type: 'Bool' },
];
export const PEOPLE = { tableId: 'People', columns: [{ id: 'Name', type: 'Text' }], rows: 100 };
export const COLUMNS =
	TABLE_SHAPE === 'narrow'
		? NARROW
		: [
				...NARROW,
				{ id: 'Due', type: 'Date' },
				{ id: 'Updated', type: 'DateTime:UTC' },
				{ id: 'Status', type: 'Choice' },
				{ id: 'Tags', type: 'ChoiceList' },
				{ id: 'Owner', type: `Ref:${PEOPLE.tableId}` },
			];
/** The table's shape in words, for the report. */
export const TABLE_TEXT = `${TABLE_SHAPE} table: ${COLUMNS.map((c) => `${c.id} (${c.type})`).join(', ')}`;
export const peopleRows = () =>
	Array.from({ length: PEOPLE.rows }, (_, i) => ({ Name: `Owner ${i}` }));
// The row `i` as a user's item gives it (source text for the Code node, and a function here):
// dates as ISO text, a Choice List as an array of choices, a Reference as a row ID; and as Grist
// stores it (`makeWireRow`: what the bench seeds, what plain HTTP sends and what a write must
// leave in the table): dates as epoch seconds, a Choice List as ["L", …].
const NARROW_JS =
	"Name: 'Person ' + i, Email: 'person' + i + '@example.com', Score: i, Amount: i * 1.25, Active: i % 2 === 0";
const DUE = 'Date.UTC(2024, 0, 1) / 1000 + (i % 1000) * 86400';
const UPDATED = '1704067200 + i * 37';
const STATUS = "['New', 'Open', 'Done', 'Blocked'][i % 4]";
const TAGS = "[['red'], ['blue', 'green'], ['red', 'blue'], ['green']][i % 4]";
const OWNER = `1 + (i % ${PEOPLE.rows})`;
export const ROW_JS =
	TABLE_SHAPE === 'narrow'
		? `({ ${NARROW_JS} })`
		: `({ ${NARROW_JS}, Due: new Date((${DUE}) * 1000).toISOString().slice(0, 10), Updated: new Date((${UPDATED}) * 1000).toISOString(), Status: ${STATUS}, Tags: ${TAGS}, Owner: ${OWNER} })`;
const WIRE_JS =
	TABLE_SHAPE === 'narrow'
		? ROW_JS
		: `({ ${NARROW_JS}, Due: ${DUE}, Updated: ${UPDATED}, Status: ${STATUS}, Tags: ['L', ...${TAGS}], Owner: ${OWNER} })`;
export const makeRow = new Function('i', `return ${ROW_JS};`);
export const makeWireRow = new Function('i', `return ${WIRE_JS};`);
/** `count` rows from row `from` on, as Grist stores them. */
export const makeRows = (count, from = 0) =>
	Array.from({ length: count }, (_, j) => makeWireRow(from + j));
