// Memory of an n8n process on Linux (/proc): its pid, RSS and peak, a sampler of its RSS, a full
// collection inside it (../n8n-gc.cjs), and the same read's memory in a bare Node process.
import { execFile } from 'node:child_process';
import {
	existsSync,
	readFileSync,
	readdirSync,
	readlinkSync,
	rmSync,
	writeFileSync,
} from 'node:fs';

import { locateRuntime, until } from './common.mjs';

export function n8nPid(userFolder) {
	const found = [];
	for (const d of readdirSync('/proc')) {
		if (!/^\d+$/.test(d)) continue;
		try {
			if (readlinkSync(`/proc/${d}/cwd`) !== userFolder) continue;
			const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
			if (argv.some((a) => a.endsWith('/n8n/bin/n8n')) && argv.includes('start'))
				found.push(Number(d));
		} catch {
			// gone or not ours
		}
	}
	if (found.length !== 1)
		throw new Error(`expected one n8n main process in ${userFolder}, found ${found.length}`);
	return found[0];
}
export function memKb(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const get = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
	return { rss: get('VmRSS'), hwm: get('VmHWM') };
}
export function resetPeak(pid) {
	writeFileSync(`/proc/${pid}/clear_refs`, '5');
	return memKb(pid).rss;
}
/**
 * Samples a process's RSS every `everyMs` ms until `stop()`, which returns the samples as
 * [epoch ms, kB]. The peak of a window (e.g. one node's run, from its startTime in the run data)
 * is then the largest sample in it: unlike VmHWM it leaves out what n8n does after the node
 * (saving the execution, its run data and the push to the editor).
 */
export function rssSampler(pid, everyMs = 4) {
	const samples = [];
	const take = () => {
		try {
			samples.push([Date.now(), memKb(pid).rss]);
		} catch {
			// the process is gone
		}
	};
	take();
	const timer = setInterval(take, everyMs);
	return {
		stop() {
			clearInterval(timer);
			take();
			return samples;
		},
	};
}
/** The largest RSS sample (kB) from `from` to `to` (epoch ms), or the last one before `from`. */
export function peakIn(samples, from, to) {
	let peak = 0;
	for (const [t, kb] of samples) {
		if (t < from) peak = kb;
		else if (t <= to) peak = Math.max(peak, kb);
	}
	return peak;
}

/**
 * The memory floor of the read: the same GET + JSON.parse in a bare Node 24 process (n8n's
 * runtime), peak RSS after a 1-row warm-up GET minus the RSS before the full GET.
 */
export async function rawReadMemory(url, apiKey, rows) {
	const script = `
const fs = require('node:fs');
const mem = () => { const s = fs.readFileSync('/proc/self/status', 'utf8'); return { rss: +/VmRSS:\\s+(\\d+)/.exec(s)[1], hwm: +/VmHWM:\\s+(\\d+)/.exec(s)[1] }; };
(async () => {
	const headers = { Authorization: 'Bearer ' + process.env.BENCH_API_KEY };
	await (await fetch(process.env.BENCH_URL + '?limit=1', { headers })).json();
	fs.writeFileSync('/proc/self/clear_refs', '5');
	const base = mem().rss;
	const parsed = JSON.parse(await (await fetch(process.env.BENCH_URL, { headers })).text());
	process.stdout.write(JSON.stringify({ rows: parsed.records.length, bytes: (mem().hwm - base) * 1024 }));
})().catch((e) => { console.error(e); process.exit(1); });`;
	const node = `${locateRuntime().nodeBin}/node`;
	const out = await new Promise((resolve, reject) =>
		execFile(
			node,
			['-e', script],
			{ env: { PATH: process.env.PATH, BENCH_URL: url, BENCH_API_KEY: apiKey } },
			(e, stdout, stderr) =>
				e ? reject(new Error(`raw read memory: ${stderr || e.message}`)) : resolve(stdout),
		),
	);
	const r = JSON.parse(out);
	if (r.rows !== rows) throw new Error(`raw read memory: ${r.rows} rows`);
	return r.bytes;
}

// BENCH_N8N_GC=0: no full collection in n8n before each measured read (see bench/n8n-gc.cjs).
export const N8N_GC = process.env.BENCH_N8N_GC !== '0';
/** n8n's options plus the preload of bench/n8n-gc.cjs, acknowledging its collections in `ack`. */
export function withGcPreload(options, ack) {
	// NODE_OPTIONS splits on spaces outside double quotes.
	const preload = `--require ${JSON.stringify(new URL('../n8n-gc.cjs', import.meta.url).pathname)}`;
	const env = options.env ?? {};
	return {
		...options,
		env: {
			...env,
			NODE_OPTIONS: [preload, env.NODE_OPTIONS].filter(Boolean).join(' '),
			BENCH_GC_ACK: ack,
		},
	};
}
/** A full collection in n8n (pid), through bench/n8n-gc.cjs's SIGUSR2; resolves once it is done. */
export async function n8nFullGc(pid, ack) {
	rmSync(ack, { force: true });
	process.kill(pid, 'SIGUSR2');
	await until('n8n acknowledges its full collection', () => existsSync(ack), {
		timeoutMs: 10_000,
		intervalMs: 10,
	});
	rmSync(ack, { force: true });
}

/** utime + stime of a process (ms; /proc/<pid>/stat counts in clock ticks of 10 ms), or 0 when gone. */
export function cpuOf(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return 0;
	}
}

/**
 * The processes of a real Grist on this machine: its server (`…/app/server/server.js`, or
 * BENCH_GRIST_PID) and every process below it (the data engine of each open document). Empty
 * when there is none (the emulator, or a Grist elsewhere).
 */
export function gristPids() {
	const parent = new Map();
	let root = Number(process.env.BENCH_GRIST_PID) || undefined;
	for (const d of readdirSync('/proc')) {
		if (!/^\d+$/.test(d)) continue;
		try {
			const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
			parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
			if (root === undefined) {
				const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
				if (argv.some((a) => a.endsWith('app/server/server.js'))) root = Number(d);
			}
		} catch {
			// gone
		}
	}
	if (root === undefined) return [];
	const below = (pid) => {
		for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === root) return true;
		return false;
	};
	return [...parent.keys()].filter(below);
}

/**
 * CPU time (ms) Grist's processes spend from now until `stop()`: the server and its data engines
 * (a data engine started meanwhile counts from its start). Load on the machine stretches Grist's
 * wall time, not much its CPU time, so this shows what a request costs Grist.
 */
export function gristCpu() {
	const start = new Map(gristPids().map((p) => [p, cpuOf(p)]));
	return {
		stop: () => gristPids().reduce((a, p) => a + cpuOf(p) - (start.get(p) ?? 0), 0),
	};
}
