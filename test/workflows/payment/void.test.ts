import { requestsTo } from '../support';
import { expectE0044, MANAGE, paymentSandbox } from './support';

const { box, fresh, manage, statusViaList } = paymentSandbox(7);

describe('payment.void', () => {
	it('voids an authorisation that is not captured', async () => {
		const record = fresh('AUTHORISED');
		const result = await manage(
			'void',
			record,
			record.amount,
			{
				authentication: 's2s',
				additionalFields: { reason: 'Out of stock' },
			},
			{ credentialType: 'paymentGatewayS2sApi' },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json).toMatchObject({
			status: 'VOID',
			message: 'Transaction successfully void',
			amount: record.amount,
		});
		expect(requestsTo(box.sandbox, MANAGE)[0].headers['merchant-key']).toBe(
			box.sandbox.keys.s2s.merchantKey,
		);
		expect(await statusViaList(record.transaction_id)).toEqual(['VOID']);
	});

	it('void after capture is E0044 with the human description, and nothing changes', async () => {
		const record = fresh('CAPTURED');
		const result = await manage('void', record, record.amount);
		expectE0044(result.error, /not in a voidable state \(status CAPTURED\)/);
		expect(record.status).toBe('CAPTURED');
		// It moves money: sent once, never retried.
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(1);
	});
});
