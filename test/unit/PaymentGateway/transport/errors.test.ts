import type { INode } from 'n8n-workflow';

import {
	describeFailure,
	isFailure,
	rowErrorsOf,
	serviceError,
	toServiceFailure,
} from '../../../../nodes/PaymentGateway/transport/errors';

const node: INode = {
	id: '1',
	name: 'Gateway',
	type: 'n8n-nodes-payment-gateway.paymentGateway',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};

describe('isFailure', () => {
	it.each([
		[200, { status: 'success', code: '00' }, false],
		[200, { data: [] }, false],
		[200, 'plain text', false],
		[200, { success: false }, true],
		[200, { status: 'fail' }, true],
		[200, { status: 'FAILED' }, true],
		[200, { status: 'Error' }, true],
		[200, { code: 'E0044', message: 'Invalid state' }, true],
		[200, { code: 'PAYMENT_FAILED' }, true],
		[200, { status: 'success', code: 'E0044' }, false],
		[201, {}, false],
		[302, {}, true],
		[400, { status: 'success' }, true],
		[500, undefined, true],
	])('HTTP %i with %j is a failure: %s', (status, body, expected) => {
		expect(isFailure(status, body)).toBe(expected);
	});
});

describe('toServiceFailure', () => {
	it("keeps the service's code and message", () => {
		expect(toServiceFailure(400, { code: 'E0021', message: 'Duplicate' })).toMatchObject({
			code: 'E0021',
			message: 'Duplicate',
		});
	});

	it('names a failure on HTTP 2xx without a code FAILED, not by its HTTP status', () => {
		expect(toServiceFailure(200, { success: false })).toMatchObject({
			code: 'FAILED',
			message: 'HTTP 200',
		});
	});

	it("takes an HTML error page's title, not its markup", () => {
		const page = '<html><head><title> 502 Bad Gateway </title></head><body>…</body></html>';
		expect(toServiceFailure(502, page)).toMatchObject({ code: '502', message: '502 Bad Gateway' });
	});
});

describe('describeFailure', () => {
	it("prefers the endpoint's own words for its codes and its causes of a bare 400", () => {
		const endpoint = {
			codes: { E0021: 'A bulk payout with this request_id already exists.' },
			badRequestCauses: 'for example a row of the payout file',
		};
		expect(describeFailure(toServiceFailure(400, { code: 'E0021' }), endpoint)).toBe(
			'A bulk payout with this request_id already exists.',
		);
		expect(describeFailure(toServiceFailure(400, {}), endpoint)).toBe(
			'Bad request: a parameter is missing or invalid (for example a row of the payout file).',
		);
		expect(describeFailure(toServiceFailure(503, {}))).toMatch(/internal error/);
	});
});

describe('rowErrorsOf', () => {
	it('lists the rows the service rejected, at most 20, with their values', () => {
		const errors = Array.from({ length: 22 }, (_, i) => ({
			row: i + 2,
			column: 'Amount',
			message: 'must be above 0',
			value: -i,
		}));
		const text = rowErrorsOf({ data: { errors } });
		expect(text).toMatch(/^Rows the service rejected: row 2, Amount: must be above 0 \(value 0\);/);
		expect(text).toContain('row 21, Amount');
		expect(text).not.toContain('row 22,');
		expect(text).toMatch(/; and 2 more\.$/);
		expect(rowErrorsOf({ errors: [] })).toBeUndefined();
	});
});

describe('serviceError', () => {
	it("carries the service's code and message, and only the answer, never the request", () => {
		const failure = toServiceFailure(401, { code: '401', message: 'Unauthorized' });
		const error = serviceError(node, failure, 3);
		expect(error.message).toBe('Unauthorized [code 401]');
		expect(error.description).toMatch(/Invalid key or secret/);
		expect(error.context).toMatchObject({ itemIndex: 3, serviceCode: '401', httpStatus: 401 });
		expect(JSON.stringify(error)).not.toMatch(/merchant-(key|secret)/i);
	});
});
