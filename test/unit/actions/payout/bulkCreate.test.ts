import CryptoJS from 'crypto-js';

import {
	generateRequestId,
	payoutChecksum,
} from '../../../../nodes/PaymentGateway/actions/payout/bulkCreate.operation';

describe('payout batch', () => {
	it('computes the checksum crypto-js computes for request_id|callback_url|remark', () => {
		const expected = CryptoJS.SHA256('BATCH-7|https://hooks.example.com/p|Nov run').toString(
			CryptoJS.enc.Hex,
		);
		expect(payoutChecksum('BATCH-7', 'https://hooks.example.com/p', 'Nov run')).toBe(expected);
		expect(payoutChecksum('BATCH-7', '', '')).toBe(
			CryptoJS.SHA256('BATCH-7||').toString(CryptoJS.enc.Hex),
		);
	});

	it('generates request IDs of at most 30 characters that differ', () => {
		const a = generateRequestId(new Date('2026-11-21T10:11:12Z'));
		expect(a).toMatch(/^n8n-20261121101112-[0-9a-f]{6}$/);
		expect(a.length).toBeLessThanOrEqual(30);
		expect(generateRequestId()).not.toBe(generateRequestId());
	});
});
