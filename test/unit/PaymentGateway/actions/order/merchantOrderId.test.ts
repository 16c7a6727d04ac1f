import {
	GENERATED_ID_MAX_LENGTH,
	generateMerchantOrderId,
} from '../../../../../nodes/PaymentGateway/actions/order/common';

describe('a generated Merchant Order ID', () => {
	it('names the execution and item, with a random part', () => {
		expect(generateMerchantOrderId('4821', 3, 'a1b2c3d4')).toBe('n8n-4821-3-a1b2c3d4');
	});

	it('differs between calls of one execution and item (an agent calling its tool twice)', () => {
		const ids = new Set(Array.from({ length: 200 }, () => generateMerchantOrderId('7', 0)));
		expect(ids.size).toBe(200);
	});

	it.each([
		['a long execution ID', 'x'.repeat(80), 12345],
		['an execution ID with other characters', 'exec_1:2/3', 0],
		['no execution ID', undefined, 99999],
		['an empty execution ID', '', 1],
	])('%s: at most 30 letters, digits and hyphens', (_label, executionId, item) => {
		const id = generateMerchantOrderId(executionId, item);
		expect(id.length).toBeLessThanOrEqual(GENERATED_ID_MAX_LENGTH);
		expect(id).toMatch(/^n8n-[A-Za-z0-9]+-\d+-[0-9a-f]{8}$/);
	});

	it('keeps the end of a long execution ID, where successive IDs differ', () => {
		expect(generateMerchantOrderId('1234567890123456789', 0, 'ffffffff')).toBe(
			'n8n-567890123456789-0-ffffffff',
		);
	});
});
