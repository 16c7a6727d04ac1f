import { randomBytes } from 'node:crypto';

import { encodeMultipart, formParts } from '../../../../nodes/PaymentGateway/transport/multipart';
import { parseMultipart } from '../../../sandbox/core/multipart';

// Read back by the sandbox's own parser: an independent reading of RFC 7578.
const readBack = (parts: Parameters<typeof encodeMultipart>[0]) => {
	const { body, contentType } = encodeMultipart(parts);
	return parseMultipart(body, contentType);
};

describe('encodeMultipart', () => {
	it('encodes text fields and a binary file so a multipart parser reads them back exactly', () => {
		const data = randomBytes(4096);
		// Bytes that look like a part boundary inside the file must not end it.
		data.write('\r\n--', 100, 'latin1');
		const parts = readBack([
			{ name: 'request_id', value: 'RUN-1' },
			{ name: 'remark', value: 'Salaries – November ✓' },
			{ name: 'file', fileName: 'payouts.xlsx', contentType: 'application/octet-stream', data },
		]);
		expect(parts?.map((p) => p.name)).toEqual(['request_id', 'remark', 'file']);
		expect(parts?.[0].data.toString('utf8')).toBe('RUN-1');
		expect(parts?.[1].data.toString('utf8')).toBe('Salaries – November ✓');
		expect(parts?.[2].filename).toBe('payouts.xlsx');
		expect(parts?.[2].contentType).toBe('application/octet-stream');
		expect(parts?.[2].data.equals(data)).toBe(true);
	});

	it('keeps quotes and line breaks in names from breaking the part header', () => {
		const parts = readBack([
			{ name: 'a"b', value: 'x' },
			{
				name: 'file',
				fileName: 'in"voice\r\n.pdf',
				contentType: 'application/pdf',
				data: Buffer.from('%PDF'),
			},
		]);
		expect(parts).toHaveLength(2);
		expect(parts?.[0].data.toString()).toBe('x');
		expect(parts?.[1].filename).not.toMatch(/["\r\n]/);
		expect(parts?.[1].data.toString()).toBe('%PDF');
	});

	it('uses a new boundary for every body', () => {
		const one = encodeMultipart([{ name: 'a', value: '1' }]).contentType;
		const two = encodeMultipart([{ name: 'a', value: '1' }]).contentType;
		expect(one).toMatch(/^multipart\/form-data; boundary=\S+$/);
		expect(one).not.toBe(two);
	});
});

describe('formParts', () => {
	it('turns a flat wire body into text parts in its order, empty values as empty text', () => {
		expect(formParts({ currency: 'INR', remark: null, callback_url: undefined, count: 3 })).toEqual(
			[
				{ name: 'currency', value: 'INR' },
				{ name: 'remark', value: '' },
				{ name: 'callback_url', value: '' },
				{ name: 'count', value: '3' },
			],
		);
	});
});
