import { requestsTo } from '../support';
import { expectE0044, MANAGE, paymentSandbox } from './support';

const { box, fresh, manage } = paymentSandbox(6);

describe('payment.capture', () => {
	it('captures an authorisation in full and says so', async () => {
		const record = fresh('AUTHORISED');
		const result = await manage('capture', record, record.amount);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json).toMatchObject({
			status: 'CAPTURED',
			message: 'Captured Successfully.',
		});
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(1);
	});

	it('refuses to capture a voided authorisation with E0044, sent once', async () => {
		const record = fresh('VOID');
		const result = await manage('capture', record, record.amount);
		expectE0044(result.error, /not in a capturable state|cannot be captured/);
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(1);
	});
});
