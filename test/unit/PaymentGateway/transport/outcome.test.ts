import type { INode } from 'n8n-workflow';

import {
	fromThrown,
	mayHaveActed,
	networkFailure,
	parseBody,
} from '../../../../nodes/PaymentGateway/transport/outcome';
import type { RequestSettings } from '../../../../nodes/PaymentGateway/transport/settings';

const node: INode = {
	id: '1',
	name: 'Gateway',
	type: 'n8n-nodes-payment-gateway.paymentGateway',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};
const settings = { timeoutMs: 30_000 } as RequestSettings;

describe('parseBody', () => {
	it('parses JSON text and buffers, and keeps anything else as it came', () => {
		expect(parseBody('{"a":1}')).toEqual({ a: 1 });
		expect(parseBody(Buffer.from('[1,2]'))).toEqual([1, 2]);
		expect(parseBody('<html>502</html>')).toBe('<html>502</html>');
		expect(parseBody({ a: 1 })).toEqual({ a: 1 });
	});
});

describe('fromThrown', () => {
	it("reads the answer out of n8n's request error, also when wrapped in a cause", () => {
		const thrown = {
			response: { status: 503, headers: { 'retry-after': '2' }, data: '{"code":"503"}' },
		};
		expect(fromThrown(thrown)).toEqual({
			response: { httpStatus: 503, headers: { 'retry-after': '2' }, body: { code: '503' } },
		});
		expect(fromThrown(Object.assign(new Error('wrapped'), { cause: thrown }))).toMatchObject({
			response: { httpStatus: 503 },
		});
	});

	it('tells a lost connection (retried where safe) from a failure before sending (never retried)', () => {
		const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		expect(fromThrown(reset)).toEqual({
			networkError: { code: 'ECONNRESET', message: 'socket hang up' },
		});
		const local = new Error('token request failed');
		expect(fromThrown(local)).toEqual({ localError: local });
		const cancelled = Object.assign(new Error('canceled'), { code: 'ERR_CANCELED' });
		expect(fromThrown(cancelled)).toEqual({ localError: cancelled });
	});

	// NodeApiError of n8n 1.123 to 2.20 (httpRequestWithAuthentication, the payout channel) has no `cause`.
	const n8n1Error = (fields: Record<string, unknown>) =>
		Object.assign(new Error('The connection to the server was closed unexpectedly'), {
			cause: undefined,
			context: {},
			...fields,
		});

	it('reads a lost connection and a status out of the wrapper of n8n 1.123 to 2.20, which drops the cause', () => {
		expect(fromThrown(n8n1Error({ httpCode: 'ECONNRESET', messages: ['socket hang up'] }))).toEqual(
			{
				networkError: { code: 'ECONNRESET', message: 'socket hang up' },
			},
		);
		const timedOut = n8n1Error({ httpCode: 'ECONNABORTED', messages: [] });
		expect(fromThrown(timedOut)).toEqual({
			networkError: { code: 'ECONNABORTED', message: timedOut.message },
		});
		const refused = n8n1Error({ httpCode: '401', context: { data: { code: 'E401' } } });
		expect(fromThrown(refused)).toEqual({
			response: { httpStatus: 401, headers: {}, body: { code: 'E401' } },
		});
		const local = n8n1Error({ httpCode: null });
		expect(fromThrown(local)).toEqual({ localError: local });
	});
});

describe('networkFailure', () => {
	it('says a timed-out write may have gone through and how to check, and keeps the socket code', () => {
		const spec = { retrySafe: false, howToCheck: 'look the order up with Transaction > Get' };
		const error = networkFailure(
			node,
			2,
			{ code: 'ETIMEDOUT', message: 'timeout' },
			settings,
			spec,
		);
		expect(error.message).toBe('The service did not answer within 30000 ms');
		expect(error.description).toBe(mayHaveActed(spec));
		expect(error.description).toMatch(/not retried automatically.*look the order up/);
		expect(error.context).toMatchObject({ itemIndex: 2, serviceCode: 'ETIMEDOUT' });
	});

	it('says nothing of a repeat for a read, and names an unreachable host by its code', () => {
		const error = networkFailure(
			node,
			0,
			{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
			settings,
			{ retrySafe: true },
		);
		expect(error.message).toBe('Could not reach the service (ECONNREFUSED)');
		expect(error.description ?? undefined).toBeUndefined();
	});
});
