import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TransactionRecord } from '../../sandbox';
import { requestsTo, runGateway } from '../support';
import { expectE0044, MANAGE, paymentSandbox, UNSENT } from './support';

const { box, fresh, currencyWith, manage, sentBodies, statusViaList } = paymentSandbox(5);

describe('payment: capture, partial refund, refund of the rest', () => {
	it('takes a manual authorisation to REFUNDED, sending the flat body each time', async () => {
		const record = fresh('AUTHORISED');
		const total = Number(record.amount);
		const first = Math.floor(total / 3);
		const rest = Math.round((total - first) * 100) / 100;

		const capture = await manage('capture', record, total, {
			additionalFields: { reason: 'Shipped' },
		});
		expect(capture.error).toBeUndefined();
		expect(capture.outputs.Gateway).toEqual([
			{
				json: {
					status: 'CAPTURED',
					m_order_id: record.m_order_id,
					p_order_id: Number(record.p_order_id),
					transaction_id: Number(record.transaction_id),
					amount: record.amount,
					currency: record.currency,
					date: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/),
					date_iso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/),
					message: 'Captured Successfully.',
				},
				pairedItem: { item: 0 },
			},
		]);
		const { date, date_iso } = capture.outputs.Gateway[0].json as {
			date: string;
			date_iso: string;
		};
		expect(date_iso.slice(0, 10)).toBe(`${date.slice(6)}-${date.slice(3, 5)}-${date.slice(0, 2)}`);

		const partial = await manage('refund', record, first);
		expect(partial.error).toBeUndefined();
		expect(partial.outputs.Gateway[0].json).toMatchObject({
			status: 'PARTIALLY_REFUNDED',
			message: 'Refunded Successfully.',
			amount_left_to_refund: rest,
		});
		expect(partial.outputs.Gateway[0].json.amount_left_to_refund_how).toBe(
			`${record.amount} captured (the transaction as read just before the refund, CAPTURED) minus this refund of ${first}.`,
		);
		expect(await statusViaList(record.transaction_id)).toEqual(['PARTIALLY_REFUNDED']);

		const remainder = await manage('refund', record, rest);
		expect(remainder.error).toBeUndefined();
		expect(remainder.outputs.Gateway[0].json).toMatchObject({
			status: 'REFUNDED',
			amount_left_to_refund: 0,
			amount_left_to_refund_how: 'The service answered REFUNDED: nothing is left to refund.',
		});
		expect(await statusViaList(record.transaction_id)).toEqual(['REFUNDED']);

		// The POS lookup's history shows the three changes, newest last.
		const pos = await runGateway(box.sandbox, {
			credentialType: 'paymentGatewayPosApi',
			parameters: {
				resource: 'transaction',
				operation: 'getPosOrder',
				authentication: 'pos',
				orderId: record.p_order_id,
			},
		});
		const history = pos.outputs.Gateway[0].json.transaction_history as IDataObject[];
		expect(history.slice(-3).map((h) => [h.status, h.amount])).toEqual([
			['CAPTURED', record.amount],
			['PARTIALLY_REFUNDED', first.toFixed(2)],
			['REFUNDED', rest.toFixed(2)],
		]);

		const amount = { currencyCode: record.currency };
		expect(sentBodies()).toEqual([
			{
				action: 'CAPTURE',
				transaction_id: record.transaction_id,
				amount: { ...amount, value: total },
				reason: 'Shipped',
			},
			{
				action: 'REFUND',
				transaction_id: record.transaction_id,
				amount: { ...amount, value: first },
			},
			{
				action: 'REFUND',
				transaction_id: record.transaction_id,
				amount: { ...amount, value: rest },
			},
		]);
		const [request] = requestsTo(box.sandbox, MANAGE);
		expect(request.headers['content-type']).toMatch(/^application\/json/);
		expect(request.headers['merchant-key']).toBe(box.sandbox.keys.hosted.merchantKey);
	});
});

describe('payment.refund: the amount left to refund', () => {
	const refunded = (record: TransactionRecord) => Number(record.internal.amount_refunded);

	it('after earlier refunds the service shows no refunded total: left unknown, and why; the refund stands', async () => {
		const record = fresh('PARTIALLY_REFUNDED');
		const before = refunded(record);
		expect(Number(record.amount_captured) - before).toBeGreaterThan(2);
		const result = await manage('refund', record, 1);
		expect(result.error).toBeUndefined();
		const json = result.outputs.Gateway[0].json;
		expect(json).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_left_to_refund: null });
		expect(json.amount_left_to_refund_how).toMatch(
			/^Unknown: the transaction was already PARTIALLY_REFUNDED before this refund, and the service shows no total of earlier refunds/,
		);
		// The refund went through once: the service's own total moved by it.
		expect(refunded(record)).toBeCloseTo(before + 1, 5);
	});

	it('a refund of the rest after earlier refunds says 0 left', async () => {
		const record = fresh('PARTIALLY_REFUNDED');
		const rest = Math.round((Number(record.amount_captured) - refunded(record)) * 100) / 100;
		const result = await manage('refund', record, rest);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json).toMatchObject({
			status: 'REFUNDED',
			amount_left_to_refund: 0,
		});
		expect(record.status).toBe('REFUNDED');
	});

	it('a partial capture: what is left is what was captured less this refund', async () => {
		const record = fresh('PARTIALLY_CAPTURE');
		const captured = Number(record.amount_captured);
		expect(captured).toBeGreaterThan(2);
		const result = await manage('refund', record, 1);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json).toMatchObject({
			status: 'PARTIALLY_REFUNDED',
			amount_left_to_refund: Math.round((captured - 1) * 100) / 100,
		});
	});
});

describe('payment.refund: refusals by the service', () => {
	it('refund of an authorisation is E0044 with the human description', async () => {
		const record = fresh('AUTHORISED');
		const result = await manage('refund', record, 5);
		expectE0044(result.error, /authorisation cannot be refunded/);
		expect(record.status).toBe('AUTHORISED');
	});

	it('a refund when refunds are off on the MID is E0044', async () => {
		box.sandbox.state.settings.allowRefunds = false;
		const record = fresh('CAPTURED');
		const result = await manage('refund', record, 1);
		expectE0044(result.error, /Refunds are not enabled on the MID/);
	});

	it('an over-refund answered with HTTP 200 and success false is an error, not a success', async () => {
		const record = fresh('CAPTURED');
		const half = Math.floor(Number(record.amount) / 2);
		expect((await manage('refund', record, half)).error).toBeUndefined();

		const result = await manage('refund', record, record.amount);
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('refund amount exceeds the refundable balance');
		expect(result.error?.message).toContain('[code REFUND_EXCEEDS_BALANCE]');
		expect((result.error as { httpCode?: string }).httpCode).toBe('200');
		expect(result.outputs.Gateway ?? []).toEqual([]);
		expect(record.status).toBe('PARTIALLY_REFUNDED');
		expect(await statusViaList(record.transaction_id)).toEqual(['PARTIALLY_REFUNDED']);
	});

	// The refund reads the transaction list first, whose path starts with the manage path.
	it('is not sent again after an HTTP 500; a refund not seen is unknown, never "safe to run again"', async () => {
		const record = fresh('CAPTURED');
		box.sandbox.faults.inject({ kind: 'status500', count: 3, path: MANAGE, after: 1 });
		const result = await manage('refund', record, 1);
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(1);
		expect(record.status).toBe('CAPTURED');
		expect(result.error?.message).toBe(
			"The refund's answer was lost and the node cannot tell whether it went through",
		);
		const description = String((result.error as { description?: string }).description);
		expect(description).not.toMatch(/safe to run the refund again/);
		expect(description).toMatch(/it is not safe to send it again yet/);
	});

	it('is not sent again after a time-out; says when it looked and what the transaction showed', async () => {
		const record = fresh('CAPTURED');
		box.sandbox.faults.inject({ kind: 'timeout', delayMs: 2000, path: MANAGE, after: 1 });
		const result = await manage('refund', record, 1, { requestOptions: { timeoutMs: 300 } });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect((result.error as { description?: string }).description).toMatch(
			/^At \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z the transaction was CAPTURED with [\d.,]+ captured, as before the refund was sent: the refund had not been applied yet\. The service may still apply it, so it is not safe to send it again yet.* \(The answer to the request was lost: The service did not answer within 300 ms\.\)$/,
		);
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(1);
	});

	it('a refund the service applies after the look: the node never called it safe to repeat, and it went through once', async () => {
		const record = fresh('CAPTURED');
		// The answer is lost at once and the service applies the refund 4 s later, after the look.
		box.sandbox.faults.inject({ kind: 'applyLate', delayMs: 4000, path: MANAGE, after: 1 });
		const result = await manage('refund', record, 1, {}, { continueOnFail: true });
		const item = (result.outputs.Gateway ?? [])[0]?.json as IDataObject | undefined;
		const lost = ((item?.error as IDataObject | undefined)?.lostAnswer ??
			item?.lostAnswer ??
			{}) as IDataObject;
		expect(lost.outcome).toBe('unknown');
		expect(String(lost.how)).not.toMatch(/safe to run/);
		expect(record.status).toBe('CAPTURED');
		await new Promise((done) => setTimeout(done, 5000));
		expect(record.status).toBe('PARTIALLY_REFUNDED');
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(1);
	}, 20_000);
});

describe('payment.refund: rules checked before sending', () => {
	const record = UNSENT;

	it.each([
		['a refund below 1', 'refund', { amount: 0.5 }, 'amount.value', 'must be at least 1', 0.5],
		['a capture of 0', 'capture', { amount: 0 }, 'amount.value', 'must be above 0', 0],
		['a void below 0', 'void', { amount: -1 }, 'amount.value', 'must be above 0', -1],
		[
			'an amount with a symbol',
			'refund',
			{ amount: '={{ "AED 10" }}' },
			'amount.value',
			'must be a plain number (no currency symbol, commas or spaces)',
			'AED 10',
		],
		[
			'an unsupported currency',
			'refund',
			{ amount: 5, currency: '={{ "JPY" }}' },
			'amount.currencyCode',
			'must be one of AED, USD, EUR, GBP, INR, SAR, QAR, KWD, BHD, OMR',
			'JPY',
		],
		[
			'an empty transaction ID',
			'capture',
			{ amount: 5, transactionId: '={{ "  " }}' },
			'transaction_id',
			'is required',
			'  ',
		],
	] as const)(
		'refuses %s, naming field, rule and value; nothing is sent',
		async (_, operation, change, field, rule, value) => {
			const result = await manage(operation, record, 1, change as INodeParameters);
			expect(result.error?.constructor.name).toBe('NodeOperationError');
			expect(result.error?.message).toContain(field);
			expect(result.error?.message).toContain(rule);
			expect(result.error?.message).toContain(`(received ${JSON.stringify(value)})`);
			expect(box.sandbox.requests).toHaveLength(0);
		},
	);

	it.each(['capture', 'void', 'refund'] as const)(
		'%s: refuses more decimals than the currency has, from an expression too; nothing is sent',
		async (operation) => {
			const target = { transaction_id: '1', currency: 'USD' };
			const result = await manage(operation, target, '={{ "10.005" }}');
			expect(result.error?.message).toBe(
				'Invalid Amount: amount.value must have at most 2 decimal places in USD (received 10.005)',
			);
			expect(box.sandbox.requests).toHaveLength(0);
		},
	);

	it('takes three decimals in KWD', async () => {
		const target = fresh('CAPTURED', ['KWD']);
		const result = await manage('refund', target, 1.125);
		expect(result.error).toBeUndefined();
		expect(sentBodies()[0].amount).toEqual({ currencyCode: 'KWD', value: 1.125 });
	});

	it('takes a plain-number text and a lower-case currency from expressions', async () => {
		const target = fresh('CAPTURED');
		const result = await manage('refund', target, '={{ "1.00" }}', {
			currency: `={{ "${target.currency.toLowerCase()}" }}`,
		});
		expect(result.error).toBeUndefined();
		expect(sentBodies()[0].amount).toEqual({ currencyCode: target.currency, value: 1 });
	});
});

describe('payment: Continue On Fail', () => {
	it('gives a failed item paired to its input while the other items succeed', async () => {
		// One currency for all four items, so only the states differ.
		const currency = currencyWith(2, 1);
		const captured = fresh('CAPTURED', [currency]);
		const authorised = fresh('AUTHORISED', [currency]);
		const other = fresh('CAPTURED', [currency]);
		const result = await runGateway(box.sandbox, {
			continueOnFail: true,
			items: [
				{ id: captured.transaction_id, amount: 1 },
				{ id: authorised.transaction_id, amount: 1 },
				{ id: other.transaction_id, amount: 0.2 },
				{ id: other.transaction_id, amount: 2 },
			],
			parameters: {
				resource: 'payment',
				operation: 'refund',
				transactionId: '={{ $json.id }}',
				amount: '={{ $json.amount }}',
				currency: captured.currency,
			},
		});
		expect(result.error).toBeUndefined();
		const out = result.outputs.Gateway;
		expect(out.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json).toMatchObject({
			status: 'PARTIALLY_REFUNDED',
			transaction_id: Number(captured.transaction_id),
		});
		expect(out[1].json).toMatchObject({ code: 'E0044', httpCode: 400 });
		expect(out[1].json.description).toMatch(
			/not refundable or voidable, already refunded or voided/,
		);
		expect(out[1].json.error).toMatch(/authorisation cannot be refunded/);
		expect(out[2].json).toMatchObject({
			violations: [{ field: 'amount.value', rule: 'must be at least 1', value: 0.2 }],
		});
		expect(out[3].json).toMatchObject({
			status: 'PARTIALLY_REFUNDED',
			transaction_id: Number(other.transaction_id),
		});
		// The refused item was not sent.
		expect(requestsTo(box.sandbox, MANAGE)).toHaveLength(3);
	});
});
