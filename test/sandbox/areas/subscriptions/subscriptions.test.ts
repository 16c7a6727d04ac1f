import { crc32 as zlibCrc32 } from 'node:zlib';

import { startSandbox, type Sandbox } from '../..';
import { crc32, decodePng, PNG_SIGNATURE } from '../../core/png';
import { sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1 });
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());

const add = (body: unknown) =>
	api.postJson('/subscriptions/v1/add', body, sandbox.keys.subscription);

const day = (offsetDays: number) =>
	new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

let planCount = 0;
/** A valid plan with every optional field; names are unique per call. */
function plan(): Record<string, any> {
	planCount += 1;
	return {
		plan_name: `Plan ${planCount}`,
		plan_description: 'Monthly box, fresh-picked. 12 items',
		billing_frequency: { frequency: 'monthly', interval: 1 },
		installment_amount: { currency: 'AED', value: 100 },
		terms: { unlimited: 'no', value: 12, discount_term: 1, discount_amount: 50 },
		initial_payment_amount: 80,
		final_payment_amount: 90,
		shipping_fee: 5,
		convenience_fee: 0,
		start_date: `${day(1)} 09:00`,
		expiry_date: `${day(400)} 09:00`,
		note: 'internal',
		customer_emails: 'a@example.com, b@example.com',
		customer_email_cc: 'cc@example.com',
		subject: 'Your subscription',
		product_details: 'Fruit box',
	};
}

/** Sets (or with undefined deletes) a dotted path of a fresh plan. */
function planWith(changes: Record<string, unknown>): Record<string, any> {
	const body = plan();
	for (const [path, value] of Object.entries(changes)) {
		const keys = path.split('.');
		const parent = keys.slice(0, -1).reduce((o, k) => o[k], body);
		if (value === undefined) delete parent[keys.at(-1)!];
		else parent[keys.at(-1)!] = value;
	}
	return body;
}

const emails = (n: number) => Array.from({ length: n }, (_, i) => `u${i}@example.com`).join(',');

describe('subscription plan create: success', () => {
	test('answers data_id, plan_id, a base64 PNG qr_code and the link at the top level', async () => {
		const body = plan();
		const answer = await add(body);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			data_id: expect.stringMatching(/^[\w-]{16,}$/),
			plan_id: expect.stringMatching(/^\d+$/),
			qr_code: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
			link: `${sandbox.checkoutUrl}/subscribe/${answer.body.data_id}`,
			message: 'Subscription plan created successfully',
			status: 'success',
			code: '00',
		});
		const stored = sandbox.state.subscriptionPlans.get(answer.body.data_id)!;
		expect(stored).toMatchObject({ plan_id: answer.body.plan_id, request: body });
		const page = await api.call(new URL(answer.body.link).pathname);
		expect(page.status).toBe(200);
		expect(page.text).toContain(body.plan_name);
		const listed = await api.call('/__sandbox/subscription-plans');
		expect(listed.body.data.map((p: any) => p.data_id)).toContain(answer.body.data_id);
	});

	test('the QR code decodes as a PNG: signature, IHDR, CRCs, pixel rows', async () => {
		const first = await add(plan());
		const png = Buffer.from(first.body.qr_code, 'base64');
		expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
		const image = decodePng(png);
		expect(image).toMatchObject({ width: 148, height: 148, bitDepth: 1, colorType: 0 });
		expect(image.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
		// 1-bit rows: a filter byte and 19 bytes each.
		expect(image.raw.length).toBe(148 * (1 + 19));
		// Our CRC agrees with zlib's; another link gives another picture.
		const sample = Buffer.from('IEND');
		expect(crc32(sample)).toBe(zlibCrc32(sample));
		const second = await add(plan());
		expect(second.body.qr_code).not.toBe(first.body.qr_code);
		expect(Number(second.body.plan_id)).toBe(Number(first.body.plan_id) + 1);
	});

	const valid: [string, Record<string, unknown>][] = [
		[
			'no optional fields',
			{
				plan_description: undefined,
				'terms.discount_term': undefined,
				'terms.discount_amount': undefined,
				expiry_date: undefined,
				note: undefined,
			},
		],
		[
			'no email: the four keys empty',
			{
				customer_emails: '',
				customer_email_cc: '',
				subject: '',
				product_details: '',
			},
		],
		['unlimited terms without value', { terms: { unlimited: 'yes' } }],
		[
			'unlimited terms with a discount term',
			{
				terms: { unlimited: 'yes', discount_term: 30, discount_amount: 10 },
			},
		],
		['terms.value 1', { 'terms.value': 1, 'terms.discount_term': 1 }],
		['terms.value 1999', { 'terms.value': 1999 }],
		['discount_term equal to terms.value', { 'terms.discount_term': 12 }],
		['discount_amount equal to the installment', { 'terms.discount_amount': 100 }],
		[
			'initial and final equal to the installment',
			{
				initial_payment_amount: 100,
				final_payment_amount: 100,
			},
		],
		['initial and final 1', { initial_payment_amount: 1, final_payment_amount: 1 }],
		[
			'installment 1',
			{
				'installment_amount.value': 1,
				initial_payment_amount: 1,
				final_payment_amount: 1,
				'terms.discount_amount': 1,
			},
		],
		['decimal amounts', { 'installment_amount.value': 99.99, initial_payment_amount: 10.5 }],
		['fees 0', { shipping_fee: 0, convenience_fee: 0 }],
		['start today (UTC)', { start_date: `${day(0)} 00:00`, expiry_date: `${day(0)} 00:01` }],
		['empty expiry_date', { expiry_date: '' }],
		['every frequency: daily', { 'billing_frequency.frequency': 'daily' }],
		['weekly', { 'billing_frequency.frequency': 'weekly' }],
		[
			'yearly, interval 2',
			{ 'billing_frequency.frequency': 'yearly', 'billing_frequency.interval': 2 },
		],
		['KWD', { 'installment_amount.currency': 'KWD' }],
		['plan_name 50', { plan_name: 'P'.repeat(50) }],
		['description 250 of allowed characters', { plan_description: 'Ab1 .,-'.repeat(35) + 'abcde' }],
		['description with accented letters', { plan_description: 'Café crème, été' }],
		[
			'note 250, subject 200, product_details 200',
			{
				note: 'n'.repeat(250),
				subject: 's'.repeat(200),
				product_details: 'p'.repeat(200),
			},
		],
		['40 recipients, 5 CC', { customer_emails: emails(40), customer_email_cc: emails(5) }],
		['recipients without CC', { customer_email_cc: '' }],
	];
	test.each(valid)('valid: %s', async (_name, changes) => {
		const answer = await add(planWith(changes));
		expect([answer.status, answer.body.message]).toEqual([
			200,
			'Subscription plan created successfully',
		]);
	});
});

describe('subscription plan create: every rule', () => {
	const invalid: [string, Record<string, unknown>, string | RegExp][] = [
		['plan_name missing', { plan_name: undefined }, 'plan_name is required'],
		['plan_name empty', { plan_name: '' }, 'plan_name is required'],
		[
			'plan_name 51',
			{ plan_name: 'p'.repeat(51) },
			'plan_name must be at most 50 characters, got 51',
		],
		['plan_name not text', { plan_name: 7 }, 'plan_name must be a string, got "7"'],
		[
			'plan_description 251',
			{ plan_description: 'd'.repeat(251) },
			'plan_description must be at most 250 characters, got 251',
		],
		...['!', '&', '_', '/', "'", '\n', '(x)'].map(
			(c): [string, Record<string, unknown>, RegExp] => [
				`plan_description with ${JSON.stringify(c)}`,
				{ plan_description: `Box ${c}` },
				/^plan_description may contain only letters, digits, spaces, .* and commas, got /,
			],
		),
		[
			'billing_frequency missing',
			{ billing_frequency: undefined },
			'billing_frequency is required',
		],
		[
			'billing_frequency not an object',
			{ billing_frequency: 'monthly' },
			'billing_frequency.frequency is required',
		],
		[
			'frequency unknown',
			{ 'billing_frequency.frequency': 'hourly' },
			'billing_frequency.frequency must be one of daily, weekly, monthly, yearly, got "hourly"',
		],
		[
			'frequency in capitals',
			{ 'billing_frequency.frequency': 'Monthly' },
			/^billing_frequency.frequency must be one of .*got "Monthly"$/,
		],
		[
			'interval missing',
			{ 'billing_frequency.interval': undefined },
			'billing_frequency.interval is required',
		],
		[
			'interval 0',
			{ 'billing_frequency.interval': 0 },
			'billing_frequency.interval must be at least 1, got 0',
		],
		[
			'interval 1.5',
			{ 'billing_frequency.interval': 1.5 },
			'billing_frequency.interval must be a whole number, got 1.5',
		],
		[
			'interval quoted',
			{ 'billing_frequency.interval': '1' },
			'billing_frequency.interval must be a JSON number, not a quoted string, got "1"',
		],
		[
			'currency missing',
			{ 'installment_amount.currency': undefined },
			'installment_amount.currency is required',
		],
		[
			'currency lower case',
			{ 'installment_amount.currency': 'aed' },
			'installment_amount.currency must be a 3-letter ISO code, got "aed"',
		],
		[
			'currency 4 letters',
			{ 'installment_amount.currency': 'AEDX' },
			'installment_amount.currency must be a 3-letter ISO code, got "AEDX"',
		],
		[
			'currency not enabled',
			{ 'installment_amount.currency': 'JPY' },
			/^installment_amount.currency "JPY" is not enabled on the merchant account; enabled: AED, /,
		],
		[
			'installment missing',
			{ 'installment_amount.value': undefined },
			'installment_amount.value is required',
		],
		[
			'installment 0.5',
			{ 'installment_amount.value': 0.5 },
			'installment_amount.value must be at least 1, got 0.5',
		],
		[
			'installment quoted',
			{ 'installment_amount.value': '100' },
			'installment_amount.value must be a JSON number, not a quoted string, got "100"',
		],
		[
			'installment boolean',
			{ 'installment_amount.value': true },
			'installment_amount.value must be a number, got "true"',
		],
		['terms missing', { terms: undefined }, 'terms is required'],
		['unlimited missing', { 'terms.unlimited': undefined }, 'terms.unlimited is required'],
		[
			'unlimited other',
			{ 'terms.unlimited': 'maybe' },
			'terms.unlimited must be yes or no, got "maybe"',
		],
		[
			'unlimited boolean',
			{ 'terms.unlimited': true },
			'terms.unlimited must be yes or no, got "true"',
		],
		['terms.value missing when no', { 'terms.value': undefined }, 'terms.value is required'],
		['terms.value 0', { 'terms.value': 0 }, 'terms.value must be at least 1, got 0'],
		['terms.value 2000', { 'terms.value': 2000 }, 'terms.value must be at most 1999, got 2000'],
		['terms.value 2.5', { 'terms.value': 2.5 }, 'terms.value must be a whole number, got 2.5'],
		[
			'terms.value quoted',
			{ 'terms.value': '12' },
			/^terms.value must be a JSON number, not a quoted/,
		],
		[
			'terms.value sent with unlimited yes',
			{ terms: { unlimited: 'yes', value: 12 } },
			'terms.value must be omitted when terms.unlimited is yes, got "12"',
		],
		[
			'discount_term 0',
			{ 'terms.discount_term': 0 },
			'terms.discount_term must be at least 1, got 0',
		],
		[
			'discount_term above terms.value',
			{ 'terms.discount_term': 13 },
			'terms.discount_term must not be above terms.value (12), got 13',
		],
		[
			'discount_term without discount_amount',
			{ 'terms.discount_amount': undefined },
			'terms.discount_amount is required when terms.discount_term is above 0',
		],
		[
			'discount_amount above installment',
			{ 'terms.discount_amount': 101 },
			'terms.discount_amount must not be above installment_amount.value (100), got 101',
		],
		[
			'discount_amount quoted',
			{ 'terms.discount_amount': '50' },
			/^terms.discount_amount must be a JSON number, not a quoted string/,
		],
		[
			'discount_amount negative',
			{ 'terms.discount_amount': -1 },
			'terms.discount_amount must be at least 0, got -1',
		],
		[
			'initial missing',
			{ initial_payment_amount: undefined },
			'initial_payment_amount is required',
		],
		[
			'initial 0',
			{ initial_payment_amount: 0 },
			'initial_payment_amount must be at least 1, got 0',
		],
		[
			'initial above installment',
			{ initial_payment_amount: 100.01 },
			'initial_payment_amount must not be above installment_amount.value (100), got 100.01',
		],
		[
			'initial quoted',
			{ initial_payment_amount: '80' },
			'initial_payment_amount must be a JSON number, not a quoted string, got "80"',
		],
		['final missing', { final_payment_amount: undefined }, 'final_payment_amount is required'],
		['final 0', { final_payment_amount: 0 }, 'final_payment_amount must be at least 1, got 0'],
		[
			'final above installment',
			{ final_payment_amount: 101 },
			'final_payment_amount must not be above installment_amount.value (100), got 101',
		],
		['final quoted', { final_payment_amount: '90' }, /^final_payment_amount must be a JSON number/],
		['shipping_fee missing', { shipping_fee: undefined }, 'shipping_fee is required'],
		[
			'shipping_fee negative',
			{ shipping_fee: -0.01 },
			'shipping_fee must be at least 0, got -0.01',
		],
		['shipping_fee quoted', { shipping_fee: '5' }, /^shipping_fee must be a JSON number/],
		['convenience_fee missing', { convenience_fee: undefined }, 'convenience_fee is required'],
		[
			'convenience_fee negative',
			{ convenience_fee: -1 },
			'convenience_fee must be at least 0, got -1',
		],
		['convenience_fee quoted', { convenience_fee: '0' }, /^convenience_fee must be a JSON number/],
		['start_date missing', { start_date: undefined }, 'start_date is required'],
		...[
			'2030-01-01',
			'2030-01-01T10:00',
			'01-01-2030 10:00',
			'2030-02-30 10:00',
			'2030-01-01 24:00',
			'2030-01-01 10:60',
		].map((value): [string, Record<string, unknown>, string] => [
			`start_date ${value}`,
			{ start_date: value },
			`start_date must be a date and time YYYY-MM-DD HH:mm, got ${JSON.stringify(value)}`,
		]),
		[
			'start_date yesterday',
			{ start_date: `${day(-1)} 23:59` },
			/^start_date must be today \(\d{4}-\d{2}-\d{2}, UTC\) or later/,
		],
		[
			'expiry_date format',
			{ expiry_date: '2031-01-01' },
			'expiry_date must be a date and time YYYY-MM-DD HH:mm, got "2031-01-01"',
		],
		[
			'expiry_date equal to start',
			{ start_date: `${day(1)} 09:00`, expiry_date: `${day(1)} 09:00` },
			/^expiry_date must be after start_date/,
		],
		[
			'expiry_date before start',
			{ expiry_date: `${day(1)} 08:59` },
			/^expiry_date must be after start_date \(\d{4}-\d{2}-\d{2} 09:00\), got /,
		],
		['note 251', { note: 'n'.repeat(251) }, 'note must be at most 250 characters, got 251'],
		['customer_emails key missing', { customer_emails: undefined }, 'customer_emails is required'],
		[
			'customer_email_cc key missing',
			{ customer_email_cc: undefined },
			'customer_email_cc is required',
		],
		['subject key missing', { subject: undefined }, 'subject is required'],
		['product_details key missing', { product_details: undefined }, 'product_details is required'],
		['customer_emails null', { customer_emails: null }, 'customer_emails is required'],
		[
			'an invalid recipient',
			{ customer_emails: 'a@example.com,not-an-email' },
			'customer_emails has an invalid email address "not-an-email"',
		],
		[
			'an empty recipient',
			{ customer_emails: 'a@example.com,,b@example.com' },
			'customer_emails has an invalid email address ""',
		],
		[
			'41 recipients',
			{ customer_emails: emails(41) },
			'customer_emails may list at most 40 addresses, got 41',
		],
		[
			'6 CC',
			{ customer_email_cc: emails(6) },
			'customer_email_cc may list at most 5 addresses, got 6',
		],
		[
			'an invalid CC',
			{ customer_email_cc: 'cc@' },
			'customer_email_cc has an invalid email address "cc@"',
		],
		[
			'CC without recipients',
			{ customer_emails: '', subject: '' },
			/^customer_email_cc needs customer_emails/,
		],
		[
			'subject without recipients',
			{ customer_emails: '', customer_email_cc: '' },
			/^subject needs customer_emails/,
		],
		[
			'recipients without subject',
			{ subject: '' },
			'subject is required when customer_emails is set',
		],
		[
			'recipients with a blank subject',
			{ subject: '  ' },
			'subject is required when customer_emails is set',
		],
		[
			'subject 201',
			{ subject: 's'.repeat(201) },
			'subject must be at most 200 characters, got 201',
		],
		[
			'product_details 201',
			{ product_details: 'p'.repeat(201) },
			'product_details must be at most 200 characters, got 201',
		],
		['subject not text', { subject: 5 }, 'subject must be a string, got "5"'],
	];
	test.each(invalid)('invalid: %s → 400', async (_name, changes, message) => {
		const before = sandbox.state.subscriptionPlans.size;
		const answer = await add(planWith(changes));
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ status: 'error', code: '400', message: expect.any(String) });
		if (typeof message === 'string') expect(answer.body.message).toBe(message);
		else expect(answer.body.message).toMatch(message);
		expect(sandbox.state.subscriptionPlans.size).toBe(before);
	});

	test('non-object bodies', async () => {
		for (const body of [[1], '"plan"', 'null']) {
			const answer = await add(body);
			expect([answer.status, answer.body.status]).toEqual([400, 'error']);
		}
	});
});

describe('subscription plan create: name unique per frequency, currency and amount', () => {
	test('same name, frequency, currency and amount → 400; any change → created', async () => {
		const base = planWith({ plan_name: 'Gold Box' });
		expect((await add(base)).status).toBe(200);
		for (const name of ['Gold Box', 'gold box', ' GOLD BOX ']) {
			// Other fields (interval, terms, dates) do not make it a different plan.
			const again: Record<string, any> = { ...structuredClone(base), plan_name: name };
			again.shipping_fee = 9;
			again.billing_frequency.interval = 3;
			const answer = await add(again);
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual({
				status: 'error',
				code: '400',
				message: expect.stringMatching(
					/^A plan named ".*" already exists for monthly billing at AED 100$/,
				),
			});
		}
		const variants: Record<string, unknown>[] = [
			{ 'billing_frequency.frequency': 'weekly' },
			{ 'installment_amount.currency': 'USD' },
			{ 'installment_amount.value': 120 },
			{ plan_name: 'Gold Box 2' },
		];
		for (const change of variants) {
			const body = planWith(change);
			if (!('plan_name' in change)) body.plan_name = 'Gold Box';
			expect([change, (await add(body)).status]).toEqual([change, 200]);
		}
	});
});
