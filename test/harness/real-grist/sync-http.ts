/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test harness (synchronous HTTP to a real Grist for the seeding helpers), not node code */
/**
 * Synchronous HTTP for the real-Grist facade's seeding helpers (`addDoc`, `addRecords`, … are
 * synchronous in the emulator, and ~80 test files call them so). One worker thread does the
 * request with `fetch`; the calling thread sleeps in `Atomics.wait` on a shared flag until the
 * worker has posted the answer, then takes it with `receiveMessageOnPort` (what the `synckit`
 * library does, in 40 lines and without a dependency). The worker is unref'd: it never keeps a
 * jest worker alive.
 */
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';

export interface SyncRequest {
	method: string;
	url: string;
	headers?: Record<string, string>;
	/** A JSON value (sent with Content-Type application/json) or raw bytes. */
	json?: unknown;
	body?: Buffer;
}

export interface SyncResponse {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
	text: string;
	/** The parsed body, or undefined when it is not JSON. */
	json: unknown;
}

// Runs in the worker (plain JS: ts-jest does not transform a worker's source).
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag } = workerData;
const signal = new Int32Array(flag);
port.on('message', async (req) => {
	let out;
	try {
		const res = await fetch(req.url, {
			method: req.method,
			headers: req.headers,
			body: req.body ? Buffer.from(req.body, 'base64') : undefined,
			signal: AbortSignal.timeout(req.timeoutMs),
		});
		const body = Buffer.from(await res.arrayBuffer());
		out = { status: res.status, headers: Object.fromEntries(res.headers), body: body.toString('base64') };
	} catch (e) {
		out = { error: String((e && e.cause && e.cause.message) || (e && e.message) || e) };
	}
	port.postMessage(out);
	Atomics.store(signal, 0, 1);
	Atomics.notify(signal, 0);
});
`;

interface Channel {
	worker: Worker;
	port: MessagePort;
	signal: Int32Array;
}

let channel: Channel | undefined;

function open(): Channel {
	if (channel) return channel;
	const flag = new SharedArrayBuffer(4);
	const { port1, port2 } = new MessageChannel();
	const worker = new Worker(WORKER_SOURCE, {
		eval: true,
		workerData: { port: port2, flag },
		transferList: [port2],
	});
	worker.unref();
	port1.unref();
	channel = { worker, port: port1, signal: new Int32Array(flag) };
	return channel;
}

/** Ends the worker (the facade's `close` of the last instance; a new call opens a new one). */
export async function closeSyncHttp(): Promise<void> {
	const c = channel;
	channel = undefined;
	if (c) {
		c.port.close();
		await c.worker.terminate();
	}
}

/** One HTTP request, answered synchronously. Throws on a network error or after `timeoutMs`. */
export function syncRequest(req: SyncRequest, timeoutMs = 60_000): SyncResponse {
	const c = open();
	const headers: Record<string, string> = { ...(req.headers ?? {}) };
	let body: Buffer | undefined = req.body;
	if (req.json !== undefined) {
		headers['Content-Type'] = 'application/json';
		body = Buffer.from(JSON.stringify(req.json));
	}
	Atomics.store(c.signal, 0, 0);
	c.port.postMessage({
		method: req.method,
		url: req.url,
		headers,
		body: body?.toString('base64'),
		timeoutMs,
	});
	if (Atomics.wait(c.signal, 0, 0, timeoutMs + 5_000) === 'timed-out')
		throw new Error(`real Grist: no answer to ${req.method} ${req.url} in ${timeoutMs} ms`);
	const msg = receiveMessageOnPort(c.port)?.message as
		| { error: string }
		| { status: number; headers: Record<string, string>; body: string }
		| undefined;
	if (!msg) throw new Error(`real Grist: lost the answer to ${req.method} ${req.url}`);
	if ('error' in msg) throw new Error(`real Grist: ${req.method} ${req.url}: ${msg.error}`);
	const buf = Buffer.from(msg.body, 'base64');
	const text = buf.toString('utf8');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: msg.status, headers: msg.headers, body: buf, text, json };
}
