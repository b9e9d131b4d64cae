/**
 * Messages of failed requests and batches: what is certain, what is not,
 * and how often a request was tried.
 */
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { batchFailureNote, describeIndices } from '../../nodes/Grist/write/outcomeTexts';
import {
	isUncertainWrite,
	markUncertain,
	networkFailureText,
	neverSent,
	shouldRetry,
	triedNote,
	writeMayHaveApplied,
} from '../../nodes/Grist/api/retry';
import { networkErrorMessage } from '../../nodes/Grist/api/requestErrors';
import { gristNode } from '../harness/builders';
import { runWritePipeline } from './write-pipeline';

const origin = 'https://grist.example.com';

describe('writeMayHaveApplied', () => {
	it('only a status from Grist or a connection never made proves a write was not applied', () => {
		expect(writeMayHaveApplied('POST', { kind: 'status', status: 400 })).toBe(false);
		expect(writeMayHaveApplied('POST', { kind: 'status', status: 500 })).toBe(false);
		expect(writeMayHaveApplied('POST', { kind: 'network', code: 'ECONNREFUSED' })).toBe(false);
		expect(writeMayHaveApplied('PATCH', { kind: 'network', code: 'ENOTFOUND' })).toBe(false);
		for (const code of ['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', undefined]) {
			expect(writeMayHaveApplied('POST', { kind: 'network', code })).toBe(true);
		}
		// a proxy in front of Grist lost Grist's answer
		expect(writeMayHaveApplied('PUT', { kind: 'status', status: 502 })).toBe(true);
		expect(writeMayHaveApplied('DELETE', { kind: 'status', status: 504 })).toBe(true);
		// reads change nothing
		expect(writeMayHaveApplied('GET', { kind: 'network', code: 'ECONNRESET' })).toBe(false);
	});

	it('what is never sent is retried only where trying again can help', () => {
		expect(neverSent('ECONNREFUSED')).toBe(true);
		expect(neverSent('ENOTFOUND')).toBe(true);
		expect(neverSent('ECONNRESET')).toBe(false);
		expect(neverSent(undefined)).toBe(false);
		expect(shouldRetry('POST', { kind: 'network', code: 'ECONNREFUSED' }, 0)).toBe(true);
		expect(shouldRetry('POST', { kind: 'network', code: 'ENOTFOUND' }, 0)).toBe(false);
	});
});

describe('networkFailureText', () => {
	it('a refused connection: could not reach, tried N times, and for a write that nothing was written', () => {
		const write = networkFailureText({
			origin,
			method: 'POST',
			code: 'ECONNREFUSED',
			text: 'connect ECONNREFUSED 10.0.0.1:443',
			tries: 6,
		});
		expect(write.message).toBe(
			`Could not reach the Grist server at ${origin}: connect ECONNREFUSED 10.0.0.1:443`,
		);
		expect(write.description).toBe(
			'Check the Server URL of the credential and that the server is up. Nothing reached Grist, so nothing was written. (Tried 6 times.)',
		);
		expect(write.uncertain).toBe(false);
		const dns = networkFailureText({
			origin,
			method: 'GET',
			code: 'ENOTFOUND',
			text: 'getaddrinfo ENOTFOUND grist.example.com',
			tries: 1,
		});
		expect(dns.message).toBe(
			`Could not reach the Grist server at ${origin}: getaddrinfo ENOTFOUND grist.example.com`,
		);
		expect(dns.description).not.toContain('Tried');
	});

	it('a write broken after it was sent: may or may not have been applied, not repeated, never "could not reach"', () => {
		const f = networkFailureText({
			origin,
			method: 'POST',
			code: 'ECONNRESET',
			text: 'socket hang up',
			tries: 1,
		});
		expect(f.message).toBe(
			`The connection to the Grist server at ${origin} broke after the request was sent (ECONNRESET: socket hang up): the write may or may not have been applied`,
		);
		expect(f.description).toMatch(
			/^Whether Grist applied it is uncertain\. It was not repeated.*check in Grist whether it was applied before running again\.$/,
		);
		expect(f.uncertain).toBe(true);
		const timeout = networkFailureText({
			origin,
			method: 'PATCH',
			code: 'ECONNABORTED',
			text: 'timeout of 300000ms exceeded',
			tries: 3,
		});
		expect(timeout.message).toMatch(
			/did not answer in time after the request was sent .*may or may not have been applied$/,
		);
		expect(timeout.description).toMatch(/\(Tried 3 times\.\)$/);
	});

	it('a read broken: says the connection broke and how often it was tried', () => {
		const f = networkFailureText({
			origin,
			method: 'GET',
			code: 'ECONNRESET',
			text: 'read ECONNRESET',
			tries: 6,
		});
		expect(f.message).toBe(
			`The connection to the Grist server at ${origin} broke before its answer arrived: read ECONNRESET`,
		);
		expect(f.description).toMatch(/\(Tried 6 times\.\)$/);
		expect(f.uncertain).toBe(false);
	});

	it('triedNote only after several tries', () => {
		expect(triedNote(1)).toBe('');
		expect(triedNote(2)).toBe(' (Tried 2 times.)');
	});
});

describe('networkErrorMessage', () => {
	it("takes the network error's own text, not n8n's advice that replaced it", () => {
		const inner = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const outer = Object.assign(
			new Error('The connection to the server was closed unexpectedly, perhaps it is offline.'),
			{
				code: 'ECONNRESET',
				cause: inner,
			},
		);
		expect(networkErrorMessage(outer)).toBe('socket hang up');
		expect(networkErrorMessage(new Error('plain'))).toBe('plain');
	});
});

describe('batchFailureNote', () => {
	const base = {
		failed: [500, 501, 502],
		written: 500,
		later: [503, 504],
		verb: 'written',
		units: [],
	};
	it('an error answer: exactly N written, the failed items were not', () => {
		expect(batchFailureNote({ ...base, uncertain: false })).toBe(
			'500 items had been written before this request failed. The failed request held items 500–502 (none of them was written: ' +
				'Grist answered with an error, and it applies a request entirely or not at all). Later items (503–504) were not sent.',
		);
	});
	it('a lost answer: at least N, the failed items uncertain, how to check', () => {
		const note = batchFailureNote({ ...base, uncertain: true });
		expect(note).toBe(
			'At least 500 items were written: the 500 sent before this request. Uncertain: the request holding items 500–502 lost its answer, ' +
				'so they may or may not have been written (at most 503 items in all); check in Grist whether they are there before sending them again. ' +
				'Later items (503–504) were not sent.',
		);
		expect(note).not.toContain('none of them');
	});
	it('describes long index lists briefly', () => {
		const odd = Array.from({ length: 100 }, (_, i) => 2 * i + 1);
		expect(describeIndices(odd, 3)).toBe('1, 3, 5, … (100 items in all)');
	});
});

describe('runWritePipeline with a lost answer', () => {
	const node: INode = gristNode();
	const ctx = (continueOnFail: boolean) =>
		({ continueOnFail: () => continueOnFail, getNode: () => node }) as unknown as IExecuteFunctions;
	const items = (n: number): INodeExecutionData[] =>
		Array.from({ length: n }, (_, i) => ({ json: { i } }));
	const lost = () => {
		const e = new NodeApiError(
			node,
			{ error: 'socket hang up' },
			{ message: 'broke: the write may or may not have been applied' },
		);
		markUncertain(e);
		return e;
	};
	const options = (failOn: number) => {
		let calls = 0;
		return {
			maxItems: 2,
			prepare: async (i: number) => ({ key: 'k', group: 'k', records: [{ n: i }] }),
			send: async (_g: string, units: Array<{ itemIndex: number }>) => {
				if (++calls === failOn) throw lost();
				return { outputs: units.map((u) => [{ id: u.itemIndex }]) };
			},
		};
	};

	it('with Continue On Fail the items of that request are marked uncertain, not failed', async () => {
		const out = await runWritePipeline(ctx(true), items(5), options(2));
		expect(out.map((o) => o.json.writeUncertain ?? false)).toEqual([
			false,
			false,
			true,
			true,
			false,
		]);
		expect(out[3].json.description).toMatch(
			/^Uncertain: item 3 was sent in one request with items 2–3/,
		);
	});

	it('without it the error says at least, which items are uncertain and which were not sent', async () => {
		const error = (await runWritePipeline(ctx(false), items(5), options(2)).catch(
			(e: unknown) => e,
		)) as NodeApiError;
		expect(isUncertainWrite(error)).toBe(true);
		expect(error.description).toContain('At least 2 items were written');
		expect(error.description).toContain('items 2–3 lost its answer');
		expect(error.description).toContain('Later item (4) was not sent.');
	});
});
