/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness (an HTTP proxy on loopback), not node code */
/**
 * A fault-injecting HTTP proxy between the node and a server (the Grist emulator), for the
 * failures the emulator cannot make itself: a connection that breaks *after* the server has
 * applied a request, a refused connection, a slow answer.
 *
 * ```ts
 * const proxy = await startFaultProxy(emu.url);      // credential Server URL: proxy.url
 * proxy.rule({ method: 'POST', path: /\/records$/, skip: 1, action: 'reset-after-answer' });
 * proxy.refuse(); … proxy.accept();                   // ECONNREFUSED while refusing
 * proxy.stall(); … proxy.resume();                    // connections accepted, no answer
 * ```
 *
 * Every request is read in full and forwarded (method, path, headers, body) to the upstream;
 * the upstream's answer is sent back with `Connection: close`, so each request uses a new
 * connection and refusing takes effect at once. Rules are matched in order on method and path;
 * `skip` lets that many matching requests through first, `times` (default 1) is how often the
 * rule applies. Actions:
 * - `reset-after-answer`: forward, wait for the upstream's whole answer (the write is applied),
 *   then destroy the client's connection without a byte of the answer (the client sees ECONNRESET
 *   / "socket hang up").
 * - `reset-before-forward`: destroy the client's connection without forwarding.
 * - `refuse-after-answer`: forward and answer, then stop listening: later connections are
 *   refused (ECONNREFUSED) until `accept()`, or for `refuseForMs`.
 * - `delay`: wait `delayMs` before forwarding.
 *
 * `stall()` holds every request that arrives (connection accepted, request read, no answer: a
 * server that hangs) until `resume()`; then the held requests whose client is still waiting are
 * forwarded, the others dropped unforwarded (their log entry says `stalled`).
 */
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultAction =
	| 'reset-after-answer'
	| 'reset-before-forward'
	| 'refuse-after-answer'
	| 'delay';

export interface FaultRule {
	method?: string;
	path?: string | RegExp;
	action: FaultAction;
	/** Matching requests to let through before the rule applies (default 0). */
	skip?: number;
	/** How many matching requests the rule applies to (default 1). */
	times?: number;
	delayMs?: number;
	/** With `refuse-after-answer`: accept again after this many ms (default: until `accept()`). */
	refuseForMs?: number;
}

export interface ProxyLogEntry {
	method: string;
	path: string;
	/** The upstream's status, or undefined when it was not asked. */
	status?: number;
	/** The rule applied to this request, if any. */
	action?: FaultAction;
	/** Held by `stall()`; `dropped` when its client had given up before `resume()`. */
	stalled?: 'forwarded' | 'dropped';
}

export interface FaultProxy {
	/** `http://127.0.0.1:<port>` plus the upstream's path prefix, if any. */
	url: string;
	port: number;
	/** Every request that reached the proxy. */
	log: ProxyLogEntry[];
	rule(rule: FaultRule): void;
	clearRules(): void;
	/** Stop listening: connections are refused (ECONNREFUSED). */
	refuse(): Promise<void>;
	/** Listen again on the same port. */
	accept(): Promise<void>;
	/** Hold every request from now on, unanswered, until `resume()`. */
	stall(): void;
	/** Forward the held requests whose client still waits, and every later one. */
	resume(): void;
	close(): Promise<void>;
}

interface ActiveRule extends FaultRule {
	skip: number;
	times: number;
}

function matches(rule: FaultRule, method: string, path: string): boolean {
	if (rule.method && rule.method.toUpperCase() !== method) return false;
	if (rule.path === undefined) return true;
	return typeof rule.path === 'string'
		? path.split('?')[0] === rule.path
		: rule.path.test(path.split('?')[0]);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

type Answer = { status: number; headers: IncomingMessage['headers']; body: Buffer };

/** The proxy's rules, log and server between requests. */
interface ProxyState {
	upstream: URL;
	rules: ActiveRule[];
	log: ProxyLogEntry[];
	sockets: Set<Socket>;
	closing: Array<Promise<void>>;
	port: number;
	listening: boolean;
	server?: Server;
	/** While stalled: resolves on `resume()`. */
	stalled?: { released: Promise<void>; release: () => void };
}

/** The first rule that applies to this request (counting down its `skip` and `times`). */
function takeRule(st: ProxyState, method: string, path: string): ActiveRule | undefined {
	for (const rule of st.rules) {
		if (!matches(rule, method, path)) continue;
		if (rule.skip > 0) {
			rule.skip--;
			continue;
		}
		rule.times--;
		st.rules = st.rules.filter((r) => r.times > 0);
		return rule;
	}
	return undefined;
}

/** The request sent on to the upstream (`Connection: close`), its whole answer read. */
async function forward(upstream: URL, req: IncomingMessage, body: Buffer): Promise<Answer> {
	return await new Promise<Answer>((resolve, reject) => {
		const headers = { ...req.headers, host: upstream.host, connection: 'close' };
		const up = httpRequest(
			{
				hostname: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path: req.url,
				headers,
			},
			(res) => {
				readBody(res).then(
					(b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }),
					reject,
				);
			},
		);
		up.on('error', reject);
		up.end(body);
	});
}

async function handle(
	st: ProxyState,
	proxy: FaultProxy,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const method = (req.method ?? 'GET').toUpperCase();
	const path = req.url ?? '/';
	const body = await readBody(req);
	const rule = takeRule(st, method, path);
	const entry: ProxyLogEntry = { method, path, action: rule?.action };
	st.log.push(entry);
	if (st.stalled) {
		await st.stalled.released;
		if (req.socket.destroyed) {
			entry.stalled = 'dropped';
			return;
		}
		entry.stalled = 'forwarded';
	}
	if (rule?.action === 'reset-before-forward') {
		req.socket.destroy();
		return;
	}
	if (rule?.action === 'delay') await new Promise((r) => setTimeout(r, rule.delayMs ?? 0));
	let answer: Answer;
	try {
		answer = await forward(st.upstream, req, body);
	} catch {
		entry.status = 502;
		res.writeHead(502, { 'Content-Type': 'text/plain', Connection: 'close' });
		res.end('fault proxy: upstream failed');
		return;
	}
	entry.status = answer.status;
	if (rule?.action === 'reset-after-answer') {
		req.socket.destroy();
		return;
	}
	if (rule?.action === 'refuse-after-answer') {
		// Before the answer goes out, so that the client's next connection is already refused.
		await proxy.refuse();
		if (rule.refuseForMs !== undefined) setTimeout(() => void proxy.accept(), rule.refuseForMs);
	}
	const headers = { ...answer.headers, connection: 'close' };
	delete headers['transfer-encoding'];
	headers['content-length'] = String(answer.body.length);
	res.writeHead(answer.status, headers);
	res.end(answer.body);
}

/** Listens on the proxy's port (a random one the first time). */
async function listen(st: ProxyState, proxy: FaultProxy): Promise<void> {
	const server = createServer((req, res) => {
		handle(st, proxy, req, res).catch(() => req.socket.destroy());
	});
	st.server = server;
	server.on('connection', (s: Socket) => {
		st.sockets.add(s);
		s.on('close', () => st.sockets.delete(s));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(st.port, '127.0.0.1', () => resolve());
	});
	st.listening = true;
	st.port = (server.address() as AddressInfo).port;
}

/** Starts a proxy on a random loopback port in front of `upstreamUrl` (e.g. the emulator's url). */
export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
	const upstream = new URL(upstreamUrl);
	const st: ProxyState = {
		upstream,
		rules: [],
		log: [],
		sockets: new Set(),
		closing: [],
		port: 0,
		listening: false,
	};
	const proxy: FaultProxy = {
		url: '',
		port: 0,
		log: st.log,
		rule(rule) {
			st.rules.push({ ...rule, skip: rule.skip ?? 0, times: rule.times ?? 1 });
		},
		clearRules() {
			st.rules = [];
		},
		async refuse() {
			if (!st.listening) return;
			st.listening = false;
			// Stops accepting at once; connections open now end after their answer (Connection: close).
			const server = st.server!;
			st.closing.push(new Promise<void>((resolve) => server.close(() => resolve())));
		},
		async accept() {
			if (st.listening) return;
			await listen(st, proxy);
		},
		stall() {
			if (st.stalled) return;
			let release = () => {};
			const released = new Promise<void>((resolve) => (release = resolve));
			st.stalled = { released, release };
		},
		resume() {
			const stalled = st.stalled;
			st.stalled = undefined;
			stalled?.release();
		},
		async close() {
			proxy.resume();
			await proxy.refuse();
			for (const s of st.sockets) s.destroy();
			await Promise.all(st.closing);
		},
	};
	await listen(st, proxy);
	proxy.port = st.port;
	proxy.url = `http://127.0.0.1:${st.port}${upstream.pathname === '/' ? '' : upstream.pathname.replace(/\/$/, '')}`;
	return proxy;
}
