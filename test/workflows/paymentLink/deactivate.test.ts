import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { requestsTo, runGateway } from '../support';

const DEACTIVATE = '/payment-links/v1/deactivate';
const HEADERS_ROW = {
	Currency: 'AED',
	Amount: 120,
	'Shipping Fee': 0,
	'Convenience Fee': 0,
	'Qty Per Transaction': 1,
	'No Of Transactions': 1,
	'Total Collection': 'till_expiry',
	'Overall Qty Allowed': 10,
	'Qty Frequency': 'till_expiry',
	'Is Expiry': 0,
};

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
beforeEach(() => sandbox.clearRequests());

const deactivate = (dataId: unknown, items: object[] = [{}]) =>
	runGateway(sandbox, {
		items,
		credentialType: 'paymentGatewayPaymentLinkApi',
		continueOnFail: items.length > 1,
		parameters: { resource: 'paymentLink', operation: 'deactivate', dataId: dataId as string },
	});

async function createdLink(): Promise<string> {
	const created = await runGateway(sandbox, {
		items: [HEADERS_ROW],
		credentialType: 'paymentGatewayPaymentLinkApi',
		parameters: { resource: 'paymentLink', operation: 'bulkCreate' },
	});
	expect(created.error).toBeUndefined();
	return [...sandbox.state.paymentLinks.values()].at(-1)!.data_id;
}

describe('paymentLink.deactivate', () => {
	it('deactivates a link (data_id trimmed), then explains E0021 the second time', async () => {
		const dataId = await createdLink();
		const first = await deactivate(` ${dataId} `);
		expect(first.outputs.Gateway[0].json).toMatchObject({ data_id: dataId, deactivated: true });
		expect(JSON.parse(requestsTo(sandbox, DEACTIVATE)[0].body.toString())).toEqual({
			data_id: dataId,
		});
		const second = await deactivate(dataId);
		expect(second.error?.message).toContain('E0021');
		expect((second.error as { description?: string }).description).toMatch(/already deactivated/);
	});

	it('refuses an empty, object, list or multi-line Data ID from an expression; nothing is sent', async () => {
		const items = [{ v: '' }, { v: { id: 7 } }, { v: ['a', 'b'] }, { v: 'a\nb' }];
		const result = await deactivate('={{ $json.v }}', items);
		expect(sandbox.requests).toHaveLength(0);
		const fields = result.outputs.Gateway.map(
			(out) => (out.json.violations as Array<{ field: string; rule: string }>)[0],
		);
		expect(fields.map((v) => v.field)).toEqual(['data_id', 'data_id', 'data_id', 'data_id']);
		expect(fields.map((v) => v.rule)).toEqual([
			'is required',
			'must be text, not a object',
			'must be text, not a list',
			'must be one line without control characters',
		]);
	});
});
