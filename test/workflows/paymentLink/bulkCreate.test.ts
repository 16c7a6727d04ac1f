import type { IDataObject } from 'n8n-workflow';

import { paymentLinkSchema } from '../../../nodes/PaymentGateway/spreadsheet/paymentLink';
import { buildXlsx, readXlsx } from '../../../nodes/PaymentGateway/spreadsheet/xlsx';
import { requestsTo, runGateway, useFileSandbox } from '../support';

const HEADERS = [
	'Currency',
	'Amount',
	'Shipping Fee',
	'Convenience Fee',
	'Qty Per Transaction',
	'No Of Transactions',
	'No Limit Per User',
	'Total Collection',
	'Overall Qty Allowed',
	'No Limit Over All',
	'Qty Frequency',
	'Is Expiry',
	'End Date',
	'Description',
	'Error Message',
	'Customer Name',
	'Customer Email',
	'Product Details',
	'Split Payment',
	'Tip',
];
const PARAMS = paymentLinkSchema('').columns.map((c) => c.name);
const UPLOAD = '/payment-links/v1/bulk-upload';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const sandbox = useFileSandbox((s) => {
	s.state.settings.paymentLinkStorageFailRows = [];
});

const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;

/** A product row as an upstream node would give it, with its own field names. */
const product = (i: number): IDataObject => ({
	sku: `P-${i}`,
	price: 100 + i,
	title: `Product ${i}`,
	buyer: 'Noor Rahman',
});

/** Maps the upstream fields to the columns with expressions, as a user would. */
const mapped = {
	currency: 'AED',
	amount: '={{ $json.price }}',
	shippingFee: '0',
	convenienceFee: '2.5',
	qtyPerTransaction: '1',
	noOfTransactions: '1',
	totalCollection: 'till_expiry',
	overallQtyAllowed: '10',
	qtyFrequency: 'till_expiry',
	isExpiry: '1',
	endDate: nextYear,
	description: '={{ $json.title }}',
	customerName: '={{ $json.buyer }}',
	productDetails: '={{ $json.sku }}',
	tip: '1',
};

const bulk = (
	items: IDataObject[],
	parameters: IDataObject,
	binary?: Buffer,
	typeVersion?: number,
) =>
	runGateway(sandbox(), {
		items,
		typeVersion,
		credentialType: 'paymentGatewayPaymentLinkApi',
		...(binary
			? {
					binary: [
						{
							property: 'data',
							fileName: 'links.xlsx',
							mimeType: XLSX,
							base64: binary.toString('base64'),
						},
					],
				}
			: {}),
		parameters: { resource: 'paymentLink', operation: 'bulkCreate', ...parameters } as never,
	});

describe('paymentLink.bulkCreate from input items', () => {
	it('sends 3 items as one upload with the 20 headers and the 3 mapped rows', async () => {
		const result = await bulk([product(1), product(2), product(3)], mapped);
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(1);

		const upload = sandbox().state.paymentLinkUploads.at(-1)!;
		const sheet = await readXlsx(upload.data);
		expect(sheet.headers).toEqual(HEADERS);
		const rows = sheet.rows.map((r) => Object.fromEntries(HEADERS.map((h, i) => [h, r.values[i]])));
		expect(rows).toHaveLength(3);
		expect(
			rows.map((r) => [r.Amount, r.Description, r['Customer Name'], r['Product Details']]),
		).toEqual([
			[101, 'Product 1', 'Noor Rahman', 'P-1'],
			[102, 'Product 2', 'Noor Rahman', 'P-2'],
			[103, 'Product 3', 'Noor Rahman', 'P-3'],
		]);
		expect(rows.every((r) => r['Convenience Fee'] === 2.5 && r['End Date'] === nextYear)).toBe(
			true,
		);
		// Tip is written as 0 without split payment, as the service keeps it.
		expect(rows.every((r) => String(r.Tip) === '0')).toBe(true);

		const out = result.outputs.Gateway;
		expect(out).toHaveLength(3);
		expect(out[0].json).toMatchObject({
			created: true,
			amount: expect.anything(),
			currency: 'AED',
		});
		expect(String(out[0].json.payment_link)).toContain('/checkout/');
		expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('stops on one invalid row among 50, naming it, with no request', async () => {
		const items = Array.from({ length: 50 }, (_, i) => product(i));
		items[36] = { ...items[36], buyer: 'Cher' };
		const result = await bulk(items, mapped);
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(
			/^1 row\(s\) break .*row 38 \(item 36\), Customer Name: must have the form Firstname Lastname \(received "Cher"\)/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('returns failed_rows when creation fails for some rows, keeping the others', async () => {
		sandbox().state.settings.paymentLinkStorageFailRows = [3];
		const result = await bulk([product(1), product(2), product(3)], {
			...mapped,
			output: 'summary',
		});
		const [summary] = result.outputs.Gateway;
		expect(summary.json).toMatchObject({ total_records: 3, links_created: 2, links_failed: 1 });
		expect(summary.json.failed_rows).toEqual([expect.objectContaining({ row: 3 })]);

		const perLink = await bulk([product(4), product(5), product(6)], mapped);
		expect(perLink.outputs.Gateway.map((i) => i.json.created)).toEqual([true, true, false]);
	});
});

/** Items as they come from sheets and databases: numbers, numeric text, padding, blanks, nulls, missing fields. */
const mixed = (i: number): IDataObject => ({
	Currency: i % 2 ? 'aed' : ' USD ',
	Amount: i % 3 ? 100 + i : `${100 + i}.50`,
	'Shipping Fee': i % 2 ? '0' : 0,
	'Convenience Fee': i % 2 ? ' 1.25' : 0,
	'Error Message': null,
	'Qty Per Transaction': 1,
	'No Of Transactions': '2',
	'No Limit Per User': i % 2 ? 1 : '',
	'Total Collection': 'per_month',
	'Overall Qty Allowed': ' 5 ',
	'Qty Frequency': 'per_day',
	'Is Expiry': i % 2 ? '1' : 0,
	'End Date': i % 2 ? `${nextYear}T00:00:00.000Z` : undefined,
	Description: `  Item ${i}  `,
	'Customer Email': i === 3 ? { to: 'x' } : 'a@example.com',
	'Split Payment': i % 2 ? '1' : undefined,
	Tip: 1,
});

/** Every column edited: the same field read through an expression, no longer the default text. */
const edited = Object.fromEntries(HEADERS.map((h, i) => [PARAMS[i], `={{ $json['${h}'] }}`]));

describe('paymentLink.bulkCreate: columns at their default read the item directly', () => {
	// Version 1–2 columns default to an expression, version 3's are empty: both read the item field.
	it.each([1, 2, 3])(
		'version %i: the same upload as edited columns evaluated per item',
		async (version) => {
			const items = [0, 1, 2, 4].map(mixed);
			expect((await bulk(items, {}, undefined, version)).error).toBeUndefined();
			expect((await bulk(items, edited)).error).toBeUndefined();
			const [direct, evaluated] = sandbox()
				.state.paymentLinkUploads.slice(-2)
				.map((u) => u.data);
			const rowsOf = async (file: Buffer) => (await readXlsx(file)).rows.map((r) => r.values);
			expect(await rowsOf(direct)).toEqual(await rowsOf(evaluated));
			expect((await rowsOf(direct))[1].slice(0, 2)).toEqual(['AED', 101]);
		},
	);

	it('gives the same refusal, naming the same rows and columns', async () => {
		const items = [0, 1, 2, 3].map(mixed);
		items[2] = { ...items[2], 'End Date': '2031-02-30', 'Is Expiry': 1 };
		const first = await bulk(items, {});
		const second = await bulk(items, edited);
		expect(first.error?.message).toMatch(
			/row 4 \(item 2\), End Date: must be a calendar date YYYY-MM-DD that exists/,
		);
		expect(first.error?.message).toMatch(
			/row 5 \(item 3\), Customer Email: must be text, not a object/,
		);
		expect(second.error?.message).toBe(first.error?.message);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('paymentLink.bulkCreate from a binary file', () => {
	const fileOf = async (rows: IDataObject[]) =>
		await buildXlsx(
			'Sheet1',
			HEADERS,
			rows.map((r) => HEADERS.map((h) => r[h] as string | number | undefined)),
		);
	const row = (amount: number): IDataObject => ({
		Currency: 'USD',
		Amount: amount,
		'Shipping Fee': 0,
		'Convenience Fee': 0,
		'Qty Per Transaction': 1,
		'No Of Transactions': 2,
		'Total Collection': 'per_month',
		'Overall Qty Allowed': 5,
		'Qty Frequency': 'per_day',
		'Is Expiry': 0,
	});

	it('reads, checks and uploads a file made like "Convert to File" does', async () => {
		const result = await bulk([{}], { inputMode: 'binary' }, await fileOf([row(10), row(20)]));
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway.map((i) => i.json.amount)).toHaveLength(2);
		expect(result.outputs.Gateway[0].pairedItem).toEqual({ item: 0 });
	});

	it('refuses a file with a bad row before sending', async () => {
		const result = await bulk(
			[{}],
			{ inputMode: 'binary' },
			await fileOf([row(10), { ...row(0), 'Is Expiry': 1 }]),
		);
		expect(result.error?.message).toMatch(/row 3, Amount: must be at least 1/);
		expect(result.error?.message).toMatch(/row 3, End Date: is required when Is Expiry is 1/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('reads a date cell as its calendar date and a true/false cell as 1/0', async () => {
		const headers = HEADERS;
		const cells = {
			...row(30),
			'Is Expiry': true,
			'End Date': new Date(`${nextYear}T00:00:00Z`),
			'Split Payment': false,
		};
		const file = await buildXlsx('Sheet1', headers, [
			headers.map((h) => cells[h as keyof typeof cells] as never),
		]);
		const result = await bulk([{}], { inputMode: 'binary' }, file);
		expect(result.error).toBeUndefined();
		const sent = await readXlsx(sandbox().state.paymentLinkUploads.at(-1)!.data);
		const back = Object.fromEntries(HEADERS.map((h, i) => [h, sent.rows[0].values[i]]));
		expect(back).toMatchObject({ 'Is Expiry': 1, 'End Date': nextYear, 'Split Payment': '0' });
	});

	it('refuses an End Date that does not exist (2031-02-30) before sending', async () => {
		const result = await bulk(
			[{}],
			{ inputMode: 'binary' },
			await fileOf([{ ...row(10), 'Is Expiry': 1, 'End Date': '2031-02-30' }]),
		);
		expect(result.error?.message).toMatch(
			/row 2, End Date: must be a calendar date YYYY-MM-DD that exists \(received "2031-02-30"\)/,
		);
		expect(result.error?.message).not.toMatch(/is required when Is Expiry/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses a file that is not .xlsx', async () => {
		const result = await runGateway(sandbox(), {
			items: [{}],
			credentialType: 'paymentGatewayPaymentLinkApi',
			binary: [
				{
					property: 'data',
					fileName: 'links.csv',
					mimeType: 'text/csv',
					base64: Buffer.from('Currency\nAED').toString('base64'),
				},
			],
			parameters: { resource: 'paymentLink', operation: 'bulkCreate', inputMode: 'binary' },
		});
		expect(result.error?.message).toMatch(/file, \(file\): must be an \.xlsx file/);
		expect(sandbox().requests).toHaveLength(0);
	});
});
