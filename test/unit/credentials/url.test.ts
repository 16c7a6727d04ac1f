import { isLoopbackHost, unsafeUrlReason } from '../../../credentials/shared/url';

describe('https-or-loopback rule', () => {
	it.each([
		'https://api.example-payments.com',
		'http://localhost:8080',
		'http://LOCALHOST',
		'http://127.0.0.1:5678/api',
		'http://127.255.10.3',
		'http://[::1]:3000',
	])('accepts %s', (url) => {
		expect(unsafeUrlReason(url)).toBeUndefined();
	});

	it.each([
		// Names under .localhost are looked up through DNS (a resolver or /etc/hosts may send them anywhere).
		'http://api.localhost',
		'http://evil.localhost:8080',
		'http://127.0.0.1.nip.io',
		'http://localhost.example.com',
		'http://128.0.0.1',
		'http://[::2]',
		'http://payments.example.com',
	])('refuses plain http to %s', (url) => {
		expect(unsafeUrlReason(url)).toMatch(
			/uses plain http:\/\/, which is only allowed for localhost, 127\.0\.0\.0\/8 and ::1/,
		);
	});

	it('reads literal loopback names and addresses only', () => {
		expect(isLoopbackHost('localhost')).toBe(true);
		expect(isLoopbackHost('127.0.0.1')).toBe(true);
		expect(isLoopbackHost('[::1]')).toBe(true);
		expect(isLoopbackHost('x.localhost')).toBe(false);
		expect(isLoopbackHost('127.0.0.999')).toBe(false);
	});
});
