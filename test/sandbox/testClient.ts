// Plain-fetch helpers for sandbox tests (no jest globals, so it also builds with the sandbox).
import type { MerchantKeyPair, Sandbox } from './index';

export interface Answer {
	status: number;
	headers: Headers;
	text: string;
	body: any;
}

export type CallInit = RequestInit & { keys?: MerchantKeyPair; base?: string };

export const KEYED_EMPTY = () => [
	{ alpha: '' },
	{ beta: '' },
	{ gamma: '' },
	{ delta: '' },
	{ epsilon: '' },
];

/** Every field of the spec's Webhook payload table, sorted. */
export const WEBHOOK_FIELDS = [
	'action',
	'status',
	'order_status',
	'm_order_id',
	'p_order_id',
	'p_request_id',
	'psp_ref_id',
	'transaction_id',
	'is_live',
	'terminal_label',
	'remark',
	'reason',
	'currency',
	'amount',
	'shipping_fee',
	'convenience_fee',
	'channel',
	'channel_id',
	'customer_details',
	'billing_address',
	'shipping_address',
	'ip_country',
	'psp',
	'payment_method',
	'm_payment_token',
	'transaction_time',
	'payment_method_data',
	'apm_name',
	'apm_identifier',
	'sub_merchant_identifier',
	'parameters',
	'custom_data',
].sort();

let sequence = 0;

/** A complete create request `data` (ECOM SALE, AED 100) with every key; m_order_id is unique. */
export function orderData(extra: Record<string, unknown> = {}): Record<string, any> {
	sequence += 1;
	return {
		class: 'ECOM',
		action: 'SALE',
		customer_details: {
			m_customer_id: 'CUST-T1',
			name: 'Test Buyer',
			email: 'buyer@example.com',
			mobile: '501234567',
			code: '971',
		},
		order_details: {
			m_order_id: `T-${sequence}`,
			amount: 100,
			convenience_fee: 2,
			quantity: 1,
			currency: 'AED',
			description: 'Test order',
		},
		billing_details: {
			address_line1: '1 Test Street',
			address_line2: 'Unit 2',
			city: 'Dubai',
			province: 'Dubai',
			country: 'AE',
			pin: '00001',
		},
		shipping_details: {
			shipping_name: 'Test Buyer',
			shipping_email: 'ship@example.com',
			shipping_code: '971',
			shipping_mobile: '501234567',
			address_line1: '3 Ship Road',
			address_line2: '',
			city: 'Abu Dhabi',
			province: 'Abu Dhabi',
			country: 'AE',
			pin: '00002',
			location_pin: '',
			shipping_currency: 'AED',
			shipping_amount: 5,
		},
		items: [
			{
				title: 'Shirt',
				reference_id: 'SKU-1',
				quantity: 1,
				unit_price: '95.00',
				gender: 'Male',
				is_refundable: true,
			},
		],
		urls: {
			success: 'https://merchant.example/ok',
			cancel: 'https://merchant.example/cancel',
			failure: 'https://merchant.example/fail',
			webhook_url: 'https://merchant.example/hook',
		},
		parameters: [{ alpha: 'ref-1' }, { beta: '' }, { gamma: '' }, { delta: '' }, { epsilon: '' }],
		custom_data: KEYED_EMPTY(),
		...extra,
	};
}

export interface MultipartField {
	name: string;
	value?: string;
	/** Makes it a file part (even when ''). */
	filename?: string;
	data?: Buffer;
	type?: string;
}

/** A hand-built multipart body, so tests control file names exactly (even empty ones). */
export function multipart(fields: MultipartField[]): { body: Buffer; contentType: string } {
	const boundary = '----sandbox-test-boundary-7d1f';
	const chunks: Buffer[] = [];
	for (const field of fields) {
		const file = field.filename !== undefined ? `; filename="${field.filename}"` : '';
		const type =
			field.filename !== undefined
				? `\r\nContent-Type: ${field.type ?? 'application/octet-stream'}`
				: '';
		const disposition = `Content-Disposition: form-data; name="${field.name}"${file}`;
		chunks.push(
			Buffer.from(`--${boundary}\r\n${disposition}${type}\r\n\r\n`),
			field.data ?? Buffer.from(field.value ?? ''),
			Buffer.from('\r\n'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function sandboxClient(sandbox: Sandbox) {
	const keyHeaders = (pair: MerchantKeyPair) => ({
		'merchant-key': pair.merchantKey,
		'merchant-secret': pair.merchantSecret,
	});

	async function call(path: string, init: CallInit = {}): Promise<Answer> {
		const { keys, base, ...rest } = init;
		const headers = { ...(keys && keyHeaders(keys)), ...(rest.headers as Record<string, string>) };
		const response = await fetch(`${base ?? sandbox.baseUrl}${path}`, { ...rest, headers });
		const text = await response.text();
		let body: unknown;
		try {
			body = JSON.parse(text);
		} catch {
			body = undefined;
		}
		return { status: response.status, headers: response.headers, text, body };
	}

	const send = (method: string, path: string, data: unknown, keys?: MerchantKeyPair) =>
		call(path, {
			method,
			keys,
			headers: { 'content-type': 'application/json' },
			body: typeof data === 'string' ? data : JSON.stringify(data),
		});
	const postJson = (path: string, data: unknown, keys?: MerchantKeyPair) =>
		send('POST', path, data, keys);

	return {
		call,
		postJson,
		send,
		/** POST /orders/v1/create with { data }. */
		create: (data: unknown, keys: MerchantKeyPair = sandbox.keys.hosted) =>
			postJson('/orders/v1/create', { data }, keys),
		/** POST /orders/v1/transaction. */
		manage: (body: unknown, keys: MerchantKeyPair = sandbox.keys.hosted) =>
			postJson('/orders/v1/transaction', body, keys),
		/** The test-only completion endpoint. */
		complete: (pOrderId: string | number, body: unknown) =>
			postJson(`/__sandbox/orders/${pOrderId}/complete`, body),
		/** POST a form to the hosted page without following the redirect. */
		submitForm: (path: string, fields: Record<string, string>) =>
			call(path, {
				method: 'POST',
				redirect: 'manual',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams(fields).toString(),
			}),
		upload: (fields: MultipartField[], keys: MerchantKeyPair = sandbox.keys.hosted) => {
			const { body, contentType } = multipart(fields);
			return call('/orders/v1/transaction/documents', {
				method: 'POST',
				keys,
				headers: { 'content-type': contentType },
				body,
			});
		},
		pos: (pOrderId: string | number) =>
			call(`/pos/v1/orders/${pOrderId}`, {
				keys: { merchantKey: sandbox.keys.pos.apiKey, merchantSecret: sandbox.keys.pos.apiSecret },
			}),
	};
}
