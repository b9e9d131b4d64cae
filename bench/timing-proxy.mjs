// A loopback HTTP proxy in front of a real Grist that logs each request as the emulator's log
// does: `{ method, apiPath, ms }`, `ms` from the request's arrival to the last byte of its answer
// (Grist's handling plus its sending, which a slow reader also stretches). Each entry also has
// its times on one clock (performance.now(): `arrived`, `firstByte` when Grist's answer starts,
// `lastByte` when the proxy has passed on its last byte), the path with its query string (`url`)
// and the request headers that can change Grist's answer or its cost (`headers`). The bench
// points n8n's credential and its own raw GET at it, so every variant's requests are timed alike.
import http from 'node:http';
import https from 'node:https';

/** Request headers kept in the log (lower case): what each client asks for and how. */
const LOGGED_HEADERS = ['accept', 'accept-encoding', 'connection', 'user-agent', 'content-type'];

/** Starts the proxy for `target` (`http(s)://host:port`); `url` is the proxy's own origin. */
export async function startTimingProxy(target) {
	const upstream = new URL(target);
	const client = upstream.protocol === 'https:' ? https : http;
	const log = [];
	const server = http.createServer((req, res) => {
		const arrived = performance.now();
		const forward = client.request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: upstream.host },
			},
			(answer) => {
				const firstByte = performance.now();
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				res.on('finish', () => {
					const lastByte = performance.now();
					const url = (req.url ?? '').replace(/^\/o\/[^/]+/, '');
					log.push({
						method: req.method,
						apiPath: url.split('?')[0],
						url,
						status: answer.statusCode,
						ms: lastByte - arrived,
						arrived,
						firstByte,
						lastByte,
						headers: Object.fromEntries(
							LOGGED_HEADERS.filter((h) => req.headers[h] !== undefined).map((h) => [
								h,
								req.headers[h],
							]),
						),
					});
				});
			},
		);
		forward.on('error', (e) => {
			res.writeHead(502);
			res.end(String(e.message));
		});
		req.pipe(forward);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		log,
		clearLog: () => void (log.length = 0),
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}
