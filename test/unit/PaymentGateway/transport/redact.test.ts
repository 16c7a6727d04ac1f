import { NodeApiError } from 'n8n-workflow';

import {
	redactError,
	redactText,
	redactValue,
	secretsOf,
} from '../../../../nodes/PaymentGateway/transport/redact';

const credentials = {
	baseUrl: 'https://api.example.com',
	merchantKey: 'key_123456',
	merchantSecret: 'secret_abcdef',
};
const secrets = secretsOf(credentials);

describe('redaction of credential values', () => {
	it('replaces key, secret, their Basic auth form and any bearer token', () => {
		const basic = Buffer.from('key_123456:secret_abcdef').toString('base64');
		const text = `key=key_123456 secret=secret_abcdef auth=Basic ${basic} Authorization: Bearer eyJhbGciOi.x-y_z`;
		expect(redactText(text, secrets)).toBe(
			'key=[redacted] secret=[redacted] auth=Basic [redacted] Authorization: Bearer [redacted]',
		);
	});

	it('leaves the address and short values alone', () => {
		expect(secrets).not.toContain('https://api.example.com');
		expect(secretsOf({ merchantKey: 'abc' })).toEqual([]);
	});

	it('finds the token inside a cached payout token bound to its address', () => {
		const found = secretsOf({ sessionToken: 'v1:0123abcd:TOKEN-9876543' });
		expect(redactText('sent TOKEN-9876543', found)).toBe('sent [redacted]');
	});

	it('copies bodies deeply, keys included, without touching the original', () => {
		const body = { message: 'echo secret_abcdef', headers: { key_123456: ['secret_abcdef'] } };
		expect(redactValue(body, secrets)).toEqual({
			message: 'echo [redacted]',
			headers: { '[redacted]': ['[redacted]'] },
		});
		expect(body.message).toBe('echo secret_abcdef');
	});

	it('scrubs an error in place: message, description and context', () => {
		const node = {
			id: '1',
			name: 'Gateway',
			type: 'x',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		};
		const error = new NodeApiError(
			node,
			{ message: 'key_123456' },
			{ message: 'bad key_123456', description: 'secret_abcdef' },
		);
		error.context.serviceMessage = 'secret_abcdef';
		redactError(error, secrets);
		expect(JSON.stringify([error.message, error.description, error.context])).not.toMatch(
			/key_123456|secret_abcdef/,
		);
	});
});
