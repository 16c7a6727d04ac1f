import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../../harness';
import type { HarnessCredential } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { decodePng, PNG_SIGNATURE } from '../../sandbox/core/png';
import { GATEWAY, refusal, requestsTo, runGateway, sandboxCredentials } from '../support';

const ADD = '/subscriptions/v1/add';
const CREDENTIAL = 'paymentGatewaySubscriptionApi';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 12 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

/** YYYY-MM-DD, `offset` days from today (UTC, the harness's workflow time zone). */
const day = (offset: number) =>
	new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let planNumber = 0;
/** Plan names are unique per frequency, currency and amount in the sandbox: each run gets its own. */
const uniqueName = () => `Plan ${++planNumber}`;

const base = (): IDataObject => ({
	planName: uniqueName(),
	frequency: 'monthly',
	interval: 1,
	currency: 'AED',
	installmentAmount: 100,
	unlimitedTerms: false,
	terms: 12,
	initialPaymentAmount: 100,
	finalPaymentAmount: 100,
	startDate: `${day(1)}T09:00:00`,
});

const runPlan = (
	parameters: IDataObject,
	extra: { items?: object[]; continueOnFail?: boolean; credentials?: HarnessCredential[] } = {},
) =>
	runGateway(sandbox, {
		...extra,
		credentialType: CREDENTIAL,
		parameters: {
			resource: 'subscriptionPlan',
			operation: 'create',
			...(parameters as INodeParameters),
		},
	});

const sentBody = (n = 0) =>
	JSON.parse(requestsTo(sandbox, ADD)[n].body.toString('utf8')) as IDataObject;

const NO_EMAIL = { customer_emails: '', customer_email_cc: '', subject: '', product_details: '' };
const addresses = (n: number, host = 'example.com') =>
	Array.from({ length: n }, (_, i) => `user${i}@${host}`).join(',');

describe('subscriptionPlan.create: what is sent and what comes back', () => {
	it('sends the minimal plan with amounts as JSON numbers and the four email keys empty', async () => {
		const parameters = base();
		const result = await runPlan(parameters);
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual({
			plan_name: parameters.planName,
			billing_frequency: { frequency: 'monthly', interval: 1 },
			installment_amount: { currency: 'AED', value: 100 },
			terms: { unlimited: 'no', value: 12 },
			initial_payment_amount: 100,
			final_payment_amount: 100,
			shipping_fee: 0,
			convenience_fee: 0,
			start_date: `${day(1)} 09:00`,
			...NO_EMAIL,
		});
		const [request] = requestsTo(sandbox, ADD);
		expect(request.headers['content-type']).toMatch(/^application\/json/);
		expect(request.headers['merchant-key']).toBe(sandbox.keys.subscription.merchantKey);

		const [item] = result.outputs.Gateway;
		const stored = [...sandbox.state.subscriptionPlans.values()].at(-1)!;
		expect(item.json).toEqual({
			data_id: stored.data_id,
			plan_id: stored.plan_id,
			link: stored.link,
			message: 'Subscription plan created successfully',
			qr_code: stored.qr_code,
		});
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('gives the QR code as a PNG binary named after the plan, next to the raw base64', async () => {
		const result = await runPlan(base());
		const [item] = result.outputs.Gateway;
		const png = await result.binary('Gateway', 0, 'qrCode');
		expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
		expect(decodePng(png).chunks[0]).toBe('IHDR');
		expect(png.equals(Buffer.from(item.json.qr_code as string, 'base64'))).toBe(true);
		expect(item.binary?.qrCode).toMatchObject({
			mimeType: 'image/png',
			fileName: `plan-${item.json.plan_id as string}.png`,
			fileExtension: 'png',
		});
	});

	it('puts the QR code in the binary field the user names', async () => {
		const result = await runPlan({ ...base(), options: { binaryPropertyName: 'planQr' } });
		expect(Object.keys(result.outputs.Gateway[0].binary ?? {})).toEqual(['planQr']);
		const png = await result.binary('Gateway', 0, 'planQr');
		expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
	});

	it('sends every optional field under the service names, in the seed order', async () => {
		const parameters: IDataObject = {
			...base(),
			frequency: 'weekly',
			interval: 2,
			currency: 'USD',
			installmentAmount: 49.99,
			terms: 24,
			initialPaymentAmount: 10,
			finalPaymentAmount: 20.5,
			startDate: `${day(2)}T08:30:00`,
			additionalFields: {
				planDescription: 'Coffee beans, two bags - weekly.',
				discountTerm: 3,
				discountAmount: 25,
				shippingFee: 5,
				convenienceFee: 1.25,
				expiryDate: `${day(400)}T08:30:00`,
				note: 'Launch campaign',
			},
			email: {
				customerEmails: ' a@example.com, b@example.com ,',
				customerEmailCc: 'boss@example.com',
				subject: 'Your coffee plan',
				productDetails: 'Two 250 g bags',
			},
		};
		const result = await runPlan(parameters);
		expect(result.error).toBeUndefined();
		const body = sentBody();
		expect(body).toEqual({
			plan_name: parameters.planName,
			plan_description: 'Coffee beans, two bags - weekly.',
			billing_frequency: { frequency: 'weekly', interval: 2 },
			installment_amount: { currency: 'USD', value: 49.99 },
			terms: { unlimited: 'no', value: 24, discount_term: 3, discount_amount: 25 },
			initial_payment_amount: 10,
			final_payment_amount: 20.5,
			shipping_fee: 5,
			convenience_fee: 1.25,
			start_date: `${day(2)} 08:30`,
			expiry_date: `${day(400)} 08:30`,
			note: 'Launch campaign',
			customer_emails: 'a@example.com,b@example.com',
			customer_email_cc: 'boss@example.com',
			subject: 'Your coffee plan',
			product_details: 'Two 250 g bags',
		});
		expect(Object.keys(body)).toEqual([
			'plan_name',
			'plan_description',
			'billing_frequency',
			'installment_amount',
			'terms',
			'initial_payment_amount',
			'final_payment_amount',
			'shipping_fee',
			'convenience_fee',
			'start_date',
			'expiry_date',
			'note',
			'customer_emails',
			'customer_email_cc',
			'subject',
			'product_details',
		]);
	});

	it('converts dates to YYYY-MM-DD HH:mm in the workflow time zone', async () => {
		const zone = 'Asia/Dubai';
		const parameters = {
			resource: 'subscriptionPlan',
			operation: 'create',
			...base(),
			// An instant with Z, and a Luxon DateTime from $now: both read as Dubai wall time.
			startDate: `${day(3)}T20:15:00.000Z`,
			additionalFields: { expiryDate: '={{ $now.plus({ days: 30 }) }}' },
		} as INodeParameters;
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: 'harness.start', parameters: { items: [{}] } },
					{
						name: 'Gateway',
						type: GATEWAY,
						parameters,
						credentials: { [CREDENTIAL]: { id: CREDENTIAL, name: CREDENTIAL } },
					},
				],
				connections: { Start: { main: [[{ node: 'Gateway', type: 'main', index: 0 }]] } },
			},
			{ credentials: sandboxCredentials(sandbox), timezone: zone },
		);
		expect(result.error).toBeUndefined();
		const body = sentBody();
		const dubai = (instant: number) =>
			new Intl.DateTimeFormat('sv-SE', {
				timeZone: zone,
				dateStyle: 'short',
				timeStyle: 'short',
			}).format(instant);
		expect(body.start_date).toBe(dubai(Date.parse(`${day(3)}T20:15:00Z`)));
		expect(body.start_date).toBe(`${day(4)} 00:15`);
		expect(body.expiry_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
		expect((body.expiry_date as string).slice(0, 10)).toBe(
			dubai(Date.now() + 30 * 86_400_000).slice(0, 10),
		);
	});
});

describe('subscriptionPlan.create: every rule, valid values accepted by the service', () => {
	it.each<[string, IDataObject, IDataObject]>([
		[
			'unlimited terms: terms.value omitted',
			{ unlimitedTerms: true },
			{ terms: { unlimited: 'yes' } },
		],
		[
			'unlimited terms as "yes" from an expression',
			{ unlimitedTerms: '={{ "yes" }}' },
			{ terms: { unlimited: 'yes' } },
		],
		[
			'fixed terms as "no" from an expression',
			{ unlimitedTerms: '={{ "no" }}', terms: 6 },
			{ terms: { unlimited: 'no', value: 6 } },
		],
		['1 term', { terms: 1 }, { terms: { unlimited: 'no', value: 1 } }],
		['1999 terms', { terms: 1999 }, { terms: { unlimited: 'no', value: 1999 } }],
		['daily', { frequency: 'daily' }, { billing_frequency: { frequency: 'daily', interval: 1 } }],
		[
			'yearly every 3 years',
			{ frequency: 'yearly', interval: 3 },
			{ billing_frequency: { frequency: 'yearly', interval: 3 } },
		],
		[
			'a lower-case currency from an expression',
			{ currency: '={{ "omr" }}' },
			{ installment_amount: { currency: 'OMR', value: 100 } },
		],
		[
			'a padded plan name, sent trimmed',
			{ planName: '={{ "  Trimmed plan  " }}' },
			{ plan_name: 'Trimmed plan' },
		],
		[
			'amounts as numeric text',
			{
				installmentAmount: '={{ "75.5" }}',
				initialPaymentAmount: '={{ "1" }}',
				finalPaymentAmount: '={{ "75.50" }}',
			},
			{
				installment_amount: { currency: 'AED', value: 75.5 },
				initial_payment_amount: 1,
				final_payment_amount: 75.5,
			},
		],
		[
			'an installment of 1 with initial and final of 1',
			{ installmentAmount: 1, initialPaymentAmount: 1, finalPaymentAmount: 1 },
			{ installment_amount: { currency: 'AED', value: 1 } },
		],
		[
			'discount term 0: no discount sent',
			{ additionalFields: { discountTerm: 0 } },
			{ terms: { unlimited: 'no', value: 12 } },
		],
		[
			'a discount on the last term',
			{ additionalFields: { discountTerm: 12, discountAmount: 100 } },
			{ terms: { unlimited: 'no', value: 12, discount_term: 12, discount_amount: 100 } },
		],
		[
			'a discount term beyond any count with unlimited terms',
			{ unlimitedTerms: true, additionalFields: { discountTerm: 5000, discountAmount: 1 } },
			{ terms: { unlimited: 'yes', discount_term: 5000, discount_amount: 1 } },
		],
		[
			'fees of 0',
			{ additionalFields: { shippingFee: 0, convenienceFee: 0 } },
			{ shipping_fee: 0, convenience_fee: 0 },
		],
		[
			'a start today at midnight (today or later)',
			{ startDate: `${day(0)}T00:00:00` },
			{ start_date: `${day(0)} 00:00` },
		],
		[
			'an expiry one minute after the start',
			{ additionalFields: { expiryDate: `${day(1)}T09:01:00` } },
			{ expiry_date: `${day(1)} 09:01` },
		],
		[
			'a description of 250 allowed characters',
			{ additionalFields: { planDescription: 'Ab1 .,-'.repeat(35) + 'Ab1 .' } },
			{ plan_description: 'Ab1 .,-'.repeat(35) + 'Ab1 .' },
		],
		[
			'a description in another script',
			{ additionalFields: { planDescription: 'Café crème, été' } },
			{ plan_description: 'Café crème, été' },
		],
		[
			'a note of 250 characters',
			{ additionalFields: { note: 'n'.repeat(250) } },
			{ note: 'n'.repeat(250) },
		],
		[
			'40 recipients, 5 CC and a subject of 200',
			{
				email: {
					customerEmails: addresses(40),
					customerEmailCc: addresses(5, 'example.org'),
					subject: 's'.repeat(200),
				},
			},
			{
				customer_emails: addresses(40),
				customer_email_cc: addresses(5, 'example.org'),
				subject: 's'.repeat(200),
			},
		],
		[
			'product details of 200 without recipients',
			{ email: { productDetails: 'p'.repeat(200) } },
			{ ...NO_EMAIL, product_details: 'p'.repeat(200) },
		],
	])('%s', async (_, change, expected) => {
		const result = await runPlan({ ...base(), ...change });
		expect(result.error).toBeUndefined();
		expect(sentBody()).toMatchObject(expected);
		expect(result.outputs.Gateway[0].json.data_id).toEqual(expect.any(String));
	});
});

describe('subscriptionPlan.create: every rule, invalid values refused before sending', () => {
	const NOT_PLAIN = 'must be a plain number (no currency symbol, commas or spaces)';
	const DATE_FORM = 'must be a date and time YYYY-MM-DD HH:mm that exists';
	it.each<[string, IDataObject, string, string, unknown]>([
		['an empty plan name', { planName: '={{ "" }}' }, 'plan_name', 'is required', ''],
		[
			'a plan name of 51 characters',
			{ planName: 'n'.repeat(51) },
			'plan_name',
			'must be at most 50 characters',
			'n'.repeat(51),
		],
		[
			'a description of 251 characters',
			{ additionalFields: { planDescription: 'd'.repeat(251) } },
			'plan_description',
			'must be at most 250 characters',
			'd'.repeat(251),
		],
		[
			'a description with "!"',
			{ additionalFields: { planDescription: 'Best plan!' } },
			'plan_description',
			'may contain only letters, numbers, spaces, full stops, hyphens and commas',
			'Best plan!',
		],
		[
			'a description with "&"',
			{ additionalFields: { planDescription: 'Tea & cake' } },
			'plan_description',
			'may contain only letters, numbers, spaces, full stops, hyphens and commas',
			'Tea & cake',
		],
		[
			'frequency hourly',
			{ frequency: '={{ "hourly" }}' },
			'billing_frequency.frequency',
			'must be one of daily, weekly, monthly, yearly',
			'hourly',
		],
		['interval 0', { interval: 0 }, 'billing_frequency.interval', 'must be at least 1', 0],
		[
			'interval 1.5',
			{ interval: 1.5 },
			'billing_frequency.interval',
			'must be a whole number',
			1.5,
		],
		[
			'currency XYZ (no ISO 4217 code)',
			{ currency: '={{ "XYZ" }}' },
			'installment_amount.currency',
			'must be an ISO 4217 currency code such as USD',
			'XYZ',
		],
		[
			'an installment of 0.5',
			{ installmentAmount: 0.5, initialPaymentAmount: 1, finalPaymentAmount: 1 },
			'installment_amount.value',
			'must be at least 1',
			0.5,
		],
		[
			'an installment with a symbol',
			{ installmentAmount: '={{ "AED 100" }}' },
			'installment_amount.value',
			NOT_PLAIN,
			'AED 100',
		],
		[
			'unlimited terms "maybe"',
			{ unlimitedTerms: '={{ "maybe" }}' },
			'terms.unlimited',
			'must be true or false',
			'maybe',
		],
		['0 terms', { terms: 0 }, 'terms.value', 'must be at least 1', 0],
		['2000 terms', { terms: 2000 }, 'terms.value', 'must be at most 1999', 2000],
		[
			'a discount term after the last term',
			{ additionalFields: { discountTerm: 13, discountAmount: 50 } },
			'terms.discount_term',
			'must be at most terms.value (12) when terms are not unlimited',
			13,
		],
		[
			'a discount term of 1.5',
			{ additionalFields: { discountTerm: 1.5, discountAmount: 50 } },
			'terms.discount_term',
			'must be a whole number',
			1.5,
		],
		[
			'a discount term without an amount',
			{ additionalFields: { discountTerm: 2 } },
			'terms.discount_amount',
			'is required when terms.discount_term is above 0',
			'',
		],
		[
			'a discount amount above the installment',
			{ additionalFields: { discountTerm: 2, discountAmount: 100.5 } },
			'terms.discount_amount',
			'must not be above installment_amount.value (100)',
			100.5,
		],
		[
			'a negative discount amount',
			{ additionalFields: { discountTerm: 2, discountAmount: -1 } },
			'terms.discount_amount',
			'must be at least 0',
			-1,
		],
		[
			'an initial payment of 0',
			{ initialPaymentAmount: 0 },
			'initial_payment_amount',
			'must be at least 1',
			0,
		],
		[
			'an initial payment above the installment',
			{ initialPaymentAmount: 101 },
			'initial_payment_amount',
			'must not be above installment_amount.value (100)',
			101,
		],
		[
			'a final payment of 0.5',
			{ finalPaymentAmount: 0.5 },
			'final_payment_amount',
			'must be at least 1',
			0.5,
		],
		[
			'a final payment above the installment',
			{ finalPaymentAmount: '={{ "150" }}' },
			'final_payment_amount',
			'must not be above installment_amount.value (100)',
			150,
		],
		[
			'a negative shipping fee',
			{ additionalFields: { shippingFee: -1 } },
			'shipping_fee',
			'must be at least 0',
			-1,
		],
		[
			'a convenience fee with a comma',
			{ additionalFields: { convenienceFee: '={{ "1,5" }}' } },
			'convenience_fee',
			NOT_PLAIN,
			'1,5',
		],
		[
			'a start date yesterday',
			{ startDate: `${day(-1)}T23:59:00` },
			'start_date',
			`must be today (${day(0)}) or later`,
			`${day(-1)} 23:59`,
		],
		[
			'a start date that is no date',
			{ startDate: '={{ "next week" }}' },
			'start_date',
			DATE_FORM,
			'next week',
		],
		['an empty start date', { startDate: '={{ "" }}' }, 'start_date', 'is required', ''],
		[
			'a start date that does not exist (30 February)',
			{ startDate: '={{ "2031-02-30 10:00" }}' },
			'start_date',
			DATE_FORM,
			'2031-02-30 10:00',
		],
		[
			'a start time that does not exist',
			{ startDate: '={{ "2031-01-10 24:30" }}' },
			'start_date',
			DATE_FORM,
			'2031-01-10 24:30',
		],
		[
			'26 emoji as plan name (52 UTF-16 units)',
			{ planName: '😀'.repeat(26) },
			'plan_name',
			'must be at most 50 characters',
			'😀'.repeat(26),
		],
		[
			'an object as plan name',
			{ planName: '={{ { id: 7 } }}' },
			'plan_name',
			'must be text, not a object',
			{ id: 7 },
		],
		[
			'a plan name with a lone surrogate',
			{ planName: '={{ "ab\\uD800" }}' },
			'plan_name',
			'must not contain a broken Unicode character',
			'ab\uD800',
		],
		[
			'an installment of NaN',
			{ installmentAmount: '={{ NaN }}' },
			'installment_amount.value',
			'must be a finite number',
			null,
		],
		[
			'an expiry equal to the start',
			{ additionalFields: { expiryDate: `${day(1)}T09:00:00` } },
			'expiry_date',
			`must be after start_date (${day(1)} 09:00)`,
			`${day(1)} 09:00`,
		],
		[
			'an expiry before the start',
			{ additionalFields: { expiryDate: `${day(1)}T08:00:00` } },
			'expiry_date',
			`must be after start_date (${day(1)} 09:00)`,
			`${day(1)} 08:00`,
		],
		[
			'an expiry that is no date',
			{ additionalFields: { expiryDate: '={{ "31/12/2030" }}' } },
			'expiry_date',
			DATE_FORM,
			'31/12/2030',
		],
		[
			'a note of 251 characters',
			{ additionalFields: { note: 'n'.repeat(251) } },
			'note',
			'must be at most 250 characters',
			'n'.repeat(251),
		],
		[
			'41 recipients',
			{ email: { customerEmails: addresses(41), subject: 'Hi' } },
			'customer_emails',
			'must list at most 40 addresses (got 41)',
			addresses(41),
		],
		[
			'6 CC',
			{ email: { customerEmails: 'a@example.com', customerEmailCc: addresses(6), subject: 'Hi' } },
			'customer_email_cc',
			'must list at most 5 addresses (got 6)',
			addresses(6),
		],
		[
			'an invalid recipient',
			{ email: { customerEmails: 'a@example.com, nope', subject: 'Hi' } },
			'customer_emails',
			'must contain valid email addresses only',
			'nope',
		],
		[
			'an invalid CC',
			{
				email: { customerEmails: 'a@example.com', customerEmailCc: 'boss@example', subject: 'Hi' },
			},
			'customer_email_cc',
			'must contain valid email addresses only',
			'boss@example',
		],
		[
			'CC without recipients',
			{ email: { customerEmailCc: 'boss@example.com' } },
			'customer_email_cc',
			'must be empty when customer_emails is empty',
			'boss@example.com',
		],
		[
			'a subject without recipients',
			{ email: { subject: 'Hello' } },
			'subject',
			'must be empty when customer_emails is empty',
			'Hello',
		],
		[
			'recipients without a subject',
			{ email: { customerEmails: 'a@example.com' } },
			'subject',
			'is required when customer_emails is set',
			'',
		],
		[
			'a subject of 201 characters',
			{ email: { customerEmails: 'a@example.com', subject: 's'.repeat(201) } },
			'subject',
			'must be at most 200 characters',
			's'.repeat(201),
		],
		[
			'product details of 201 characters',
			{ email: { productDetails: 'p'.repeat(201) } },
			'product_details',
			'must be at most 200 characters',
			'p'.repeat(201),
		],
	])(
		'refuses %s, naming field, rule and value; nothing is sent',
		async (_, change, field, rule, value) => {
			const result = await runPlan({ ...base(), ...change });
			expect(result.error?.constructor.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(refusal(field, rule, value));
			expect((result.error as { description?: string }).description).toMatch(
				/^Nothing was sent to the service/,
			);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	it('lists every broken rule of one plan at once', async () => {
		const result = await runPlan({
			...base(),
			terms: 0,
			initialPaymentAmount: 500,
			email: { subject: 'Hi' },
		});
		expect(result.error?.message).toMatch(/^3 invalid fields: /);
		for (const field of [
			'Number of Terms: terms.value',
			'Initial Payment Amount: initial_payment_amount',
			'Email > Subject must be empty',
		]) {
			expect(result.error?.message).toContain(field);
		}
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('subscriptionPlan.create: the service', () => {
	it('checks the currency against ISO 4217 only: JPY is sent, and the account list is checked by the service', async () => {
		const result = await runPlan({ ...base(), currency: '={{ "jpy" }}' });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('"JPY" is not enabled on the merchant account');
		expect(requestsTo(sandbox, ADD)).toHaveLength(1);
	});

	it('refuses a second plan with the same name, frequency, currency and amount (NodeApiError), each sent once', async () => {
		const parameters = base();
		expect((await runPlan(parameters)).error).toBeUndefined();
		const again = await runPlan({ ...parameters, startDate: `${day(5)}T10:00:00` });
		expect(again.error?.constructor.name).toBe('NodeApiError');
		expect(again.error?.message).toContain('already exists');
		expect((again.error as { httpCode?: string }).httpCode).toBe('400');
		expect(requestsTo(sandbox, ADD)).toHaveLength(2);

		// Another currency makes it a different plan.
		expect((await runPlan({ ...parameters, currency: 'USD' })).error).toBeUndefined();
	});

	it('is sent again after HTTP 500 and created once: the service refuses the same plan twice', async () => {
		const before = sandbox.state.subscriptionPlans.size;
		sandbox.faults.inject({ kind: 'status500', path: ADD });
		const result = await runPlan(base());
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, ADD)).toHaveLength(2);
		expect(sandbox.state.subscriptionPlans.size).toBe(before + 1);
	});

	it('reads data_id, plan_id, link and qr_code nested under data as well', async () => {
		const png = Buffer.concat([PNG_SIGNATURE, Buffer.from('rest-of-image')]);
		const server = createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						status: 'success',
						code: '00',
						message: 'Plan created',
						data: {
							data_id: 'tok-9',
							plan_id: '9',
							link: 'https://pay.example.com/s/9',
							qr_code: `data:image/png;base64,${png.toString('base64')}`,
						},
					}),
				);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;
			const credentials = sandboxCredentials(sandbox).map((c) =>
				c.type === CREDENTIAL
					? { ...c, data: { ...c.data, baseUrl: `http://127.0.0.1:${port}` } }
					: c,
			);
			const result = await runPlan(base(), { credentials });
			expect(result.error).toBeUndefined();
			const [item] = result.outputs.Gateway;
			expect(item.json).toMatchObject({
				data_id: 'tok-9',
				plan_id: '9',
				link: 'https://pay.example.com/s/9',
				message: 'Plan created',
			});
			expect((await result.binary('Gateway', 0, 'qrCode')).equals(png)).toBe(true);
			expect(item.binary?.qrCode.fileName).toBe('plan-9.png');
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('subscriptionPlan.create: Continue On Fail', () => {
	it('pairs every result with its input item while the others go on', async () => {
		const taken = uniqueName();
		const result = await runPlan(
			{
				...base(),
				planName: '={{ $json.name }}',
				installmentAmount: '={{ $json.amount }}',
				initialPaymentAmount: 1,
				finalPaymentAmount: 1,
			},
			{
				continueOnFail: true,
				items: [
					{ name: taken, amount: 30 },
					{ name: uniqueName(), amount: 0 },
					{ name: taken, amount: 30 },
					{ name: uniqueName(), amount: '45' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const out = result.outputs.Gateway;
		expect(out.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json.plan_id).toEqual(expect.any(String));
		expect(out[0].binary?.qrCode).toBeDefined();
		expect(out[1].json).toMatchObject({
			violations: [{ field: 'installment_amount.value', rule: 'must be at least 1', value: 0 }],
		});
		expect(out[1].binary).toBeUndefined();
		expect(out[2].json).toMatchObject({ code: '400', httpCode: 400 });
		expect(out[2].json.error).toContain('already exists');
		expect(out[3].json.plan_id).toEqual(expect.any(String));
		expect(requestsTo(sandbox, ADD)).toHaveLength(3);
	});
});
