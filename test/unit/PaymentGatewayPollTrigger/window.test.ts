import type { IHttpRequestOptions } from 'n8n-workflow';

import type { ItemlessContext } from '../../../nodes/PaymentGateway/helpers/context';
import { MAX_REMEMBERED } from '../../../nodes/PaymentGatewayPollTrigger/snapshot';
import { walkWindow, windowTooLarge } from '../../../nodes/PaymentGatewayPollTrigger/window';

/**
 * A poll's context as n8n gives it (parameters without an item index, no input items), over a
 * transaction list whose pages never end or end after `pages` full ones.
 */
function pollOver(pages = Infinity) {
	const asked: IHttpRequestOptions[] = [];
	let id = 0;
	const ctx: ItemlessContext = {
		getNode: () => ({
			id: 'poll',
			name: 'Poll Trigger',
			type: 'paymentGatewayPollTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getCredentials: async () => ({
			baseUrl: 'http://127.0.0.1:9',
			merchantKey: 'key',
			merchantSecret: 'secret',
		}),
		// A poll's signature: (name, fallback, options); an item index here would be taken as the fallback.
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'requestOptions' ? {} : fallback,
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				asked.push(options);
				const size = asked.length <= pages ? 100 : 0;
				const data = Array.from({ length: size }, () => ({ transaction_id: String(++id) }));
				return { statusCode: 200, headers: {}, body: { status: 'success', data } };
			},
			httpRequestWithAuthentication: async () => {
				throw new Error('the key-pair channels do not use it');
			},
		},
	};
	return { ctx, asked };
}

describe('walkWindow with a poll context', () => {
	// With a proxy set, n8n's helper sends every request (not the node's own connections): the fake
	// helper above answers, and nothing leaves the process.
	const proxy = process.env.HTTPS_PROXY;
	beforeAll(() => (process.env.HTTPS_PROXY = 'http://127.0.0.1:9'));
	afterAll(() => {
		if (proxy === undefined) delete process.env.HTTPS_PROXY;
		else process.env.HTTPS_PROXY = proxy;
	});

	it('reads every page through the transport, one after the other, until a short page', async () => {
		const { ctx, asked } = pollOver(3);
		let seen = 0;
		const walk = await walkWindow(ctx, 'hosted', { from_date: '2031-01-01' }, () => seen++);
		expect(walk).toEqual({ pages: 4, complete: true });
		expect(seen).toBe(300);
		expect(asked.map((o) => o.qs?.page)).toEqual([1, 2, 3, 4]);
		expect(asked[0].qs).toMatchObject({ from_date: '2031-01-01', perpage: 100 });
	});

	it('stops a window larger than the memory and says it is incomplete', async () => {
		const { ctx } = pollOver();
		let seen = 0;
		const walk = await walkWindow(ctx, 'hosted', {}, () => seen++);
		// Stopped at the first page past what can be remembered, not at the end of a list that has none.
		expect(walk).toEqual({ pages: MAX_REMEMBERED / 100 + 1, complete: false });
		expect(seen).toBe(MAX_REMEMBERED + 100);
		expect(windowTooLarge(ctx.getNode()).message).toBe(
			'The look-back window holds more than 50,000 transactions',
		);
	});
});
