// The example workflows run by hand (`n8n execute`), before any is published: scheduled payouts
// (validated, then one batch under the validation's Request ID), month-end (5% refunds of this
// month's captured orders of 1,000 or more, invoices for the others) and save card (an
// AUTH_REVERSAL order whose webhook URL is the charge workflow's trigger).
import { capturedOrder, MONTH_END, PAYOUTS, SAVE_CARD, type ExamplesEnv } from './examples.setup';

export function runByHandCases(getEnv: () => ExamplesEnv): void {
	it('scheduled payouts: validated, then the validated file submitted once under one Request ID', async () => {
		const { n8n, sandbox } = getEnv();
		const result = await n8n.execute(PAYOUTS.id);
		expect(result.run).toBeDefined();
		expect(result.code).toBe(0);

		const [report] = result.items('Validate payouts');
		expect(report.json).toMatchObject({
			validateOnly: true,
			valid: true,
			total_records: 3,
			failing_rows: 0,
			violations: [],
		});
		const requestId = String(report.json.request_id);
		expect(requestId).toMatch(/^payouts-\d{8}-\d{6}$/);

		const [submitted] = result.items('Submit payouts');
		expect(submitted.json).toMatchObject({
			request_id: requestId,
			total_records: 3,
			payouts_queued: 3,
		});
		expect(result.items('Rows to fix')).toHaveLength(0);

		expect([...sandbox.state.payoutBatches.keys()]).toEqual([requestId]);
		const batch = sandbox.state.payoutBatches.get(requestId)!;
		expect(batch).toMatchObject({ currency: 'INR', remark: 'Weekly vendor payouts' });
		expect(batch.rows.map((row) => [row['Reference No'], row['Payment Mode'], row.Amount])).toEqual(
			[
				['VENDOR-0001', 'NEFT', '12500.5'],
				['VENDOR-0002', 'IMPSP2P', '2400'],
				['VENDOR-0003', 'IFT', '780.25'],
			],
		);
		// One upload: validation sent nothing.
		expect(sandbox.requests.filter((r) => r.path.endsWith('/v1/bulk/payouts'))).toHaveLength(1);
	});

	it("month-end: 5% refunds of this month's captured orders of 1,000 or more, invoices for the others", async () => {
		const { n8n, sandbox } = getEnv();
		// Orders paid now, so this month has captured transactions whatever the date.
		const big = await capturedOrder(sandbox, 1500);
		const small = await capturedOrder(sandbox, 200);
		// One whose PSP takes no documents: its upload is refused (203) and listed, the others go on.
		const refusing = await capturedOrder(sandbox, 300);
		sandbox.state.transactionsById.get(refusing)!.psp =
			sandbox.state.settings.documentUnsupportedPsps[0];
		const monthStart = new Date();
		monthStart.setUTCDate(1);
		monthStart.setUTCHours(0, 0, 0, 0);
		const nextMonth = new Date(monthStart);
		nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
		const captured = sandbox.state.transactions.filter(
			(t) =>
				t.status === 'CAPTURED' &&
				t.internal.time >= monthStart.getTime() &&
				t.internal.time < nextMonth.getTime(),
		);
		const rebated = captured.filter((t) => Number(t.amount) >= 1000);
		const invoiced = captured.filter((t) => Number(t.amount) < 1000);
		expect(rebated.map((t) => t.transaction_id)).toContain(big);
		expect(invoiced.map((t) => t.transaction_id)).toContain(small);
		sandbox.clearRequests();

		const result = await n8n.execute(MONTH_END.id);
		expect(result.run).toBeDefined();
		expect(result.code).toBe(0);
		expect(result.items('Captured this month')).toHaveLength(captured.length);

		// Every refund reached the sandbox with 5% of the amount, in the transaction's currency.
		const refunds = sandbox.requests
			.filter((r) => r.path === '/orders/v1/transaction')
			.map(
				(r) =>
					JSON.parse(r.body.toString('utf8')) as {
						action: string;
						transaction_id: string;
						amount: { currencyCode: string; value: number };
					},
			);
		expect(refunds.map((r) => r.transaction_id).sort()).toEqual(
			rebated.map((t) => t.transaction_id).sort(),
		);
		for (const refund of refunds) {
			const record = sandbox.state.transactionsById.get(refund.transaction_id)!;
			expect(refund).toMatchObject({
				action: 'REFUND',
				amount: {
					currencyCode: record.currency,
					value: Math.round(Number(record.amount) * 5) / 100,
				},
			});
			expect(record.status).toBe('PARTIALLY_REFUNDED');
		}
		const refunded = result.items('Refund 5% rebate');
		expect(refunded).toHaveLength(rebated.length);
		for (const item of refunded) expect(item.json).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
		expect(result.items('Refunds to check')).toHaveLength(0);

		// Invoices: uploaded for the others; refused ones (a PSP without document support) listed.
		const documents = sandbox.state.documents.map((d) => d.transaction_id);
		const toCheck = result.items('Uploads to check');
		const uploadFailed = toCheck.map((i) => String(i.json.transaction_id));
		expect([...documents, ...uploadFailed].sort()).toEqual(
			invoiced.map((t) => t.transaction_id).sort(),
		);
		expect(documents).toContain(small);
		expect(uploadFailed).toContain(refusing);
		for (const id of uploadFailed)
			expect(sandbox.state.settings.documentUnsupportedPsps).toContain(
				sandbox.state.transactionsById.get(id)!.psp,
			);
		for (const item of toCheck)
			expect(item.json).toMatchObject({ code: '203', error: expect.any(String) });
		const mine = sandbox.state.documents.find((d) => d.transaction_id === small)!;
		expect(mine).toMatchObject({
			document_type: 'INVOICE',
			file_name: expect.stringMatching(/^INV-.+\.pdf$/),
		});
		expect(mine.data.subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});

	it("save card: an AUTH_REVERSAL order whose webhook goes to the charge workflow's trigger", async () => {
		const { n8n, sandbox } = getEnv();
		const result = await n8n.execute(SAVE_CARD.id);
		expect(result.code).toBe(0);
		const [order] = result.items('Save Card');
		expect(String(order.json.payment_link)).toContain(sandbox.checkoutUrl);
		const saveCardOrder = String(order.json.p_order_id);
		getEnv().saveCardOrder = saveCardOrder;

		const stored = sandbox.state.orders.get(saveCardOrder)!;
		expect(stored).toMatchObject({ class: 'ECOM', action: 'AUTH_REVERSAL' });
		expect(stored.request.data.customer_details.m_customer_id).toBe('CUST-1001');
		expect(stored.request.data.urls.webhook_url).toBe(getEnv().chargeUrl);
	});
}
