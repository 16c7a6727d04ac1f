import { orderSandbox } from './support';

const { box, runOrder, sentData } = orderSandbox(43);

describe('order.createSplitPayment', () => {
	const recipients = (rows: Array<[string, string, number]>) => ({
		recipient: rows.map(([splitId, type, value]) => ({ splitId, type, value })),
	});

	it('encodes the recipients in custom_data exactly', async () => {
		const result = await runOrder('createSplitPayment', {
			amount: 200,
			currency: 'AED',
			transactionAction: 'AUTH',
			splitRecipients: recipients([
				['SPL01', 'P', 60],
				['SPL02', 'F', 12.5],
			]),
		});
		expect(result.error).toBeUndefined();
		expect(sentData()).toMatchObject({ class: 'ECOM', action: 'AUTH' });
		expect(sentData().custom_data).toEqual([
			{ alpha: '|SPLIT_PAYMENT' },
			{ beta: '|SPL01,P,60' },
			{ gamma: '|SPL02,F,12.5' },
			{ delta: '' },
			{ epsilon: '' },
		]);
	});

	it.each([
		[
			'more than four recipients',
			[
				['A', 'P', 10],
				['B', 'P', 10],
				['C', 'P', 10],
				['D', 'P', 10],
				['E', 'P', 10],
			],
			/at most 4/,
		],
		[
			'percentages above 100',
			[
				['A', 'P', 70],
				['B', 'P', 40],
			],
			/more than 100/,
		],
		[
			'flat amounts above the order amount',
			[
				['A', 'F', 150],
				['B', 'F', 60],
			],
			/more than the order amount/,
		],
		['no recipient', [], /at least one/],
		['an ID with a comma', [['A,B', 'P', 10]], /without \| or ,/],
	] as Array<[string, Array<[string, string, number]>, RegExp]>)(
		'refuses %s',
		async (_label, rows, message) => {
			const result = await runOrder('createSplitPayment', {
				amount: 200,
				currency: 'AED',
				splitRecipients: recipients(rows),
			});
			expect(result.error?.message).toMatch(message);
			expect(box.sandbox.requests).toHaveLength(0);
		},
	);

	it('reports a split refused by the account as the service error', async () => {
		box.sandbox.state.settings.splitEnabled = false;
		try {
			const result = await runOrder('createSplitPayment', {
				amount: 200,
				currency: 'AED',
				splitRecipients: recipients([['A', 'P', 10]]),
			});
			expect(result.error?.constructor.name).toBe('NodeApiError');
			expect(result.error?.message).toContain('403');
		} finally {
			box.sandbox.state.settings.splitEnabled = true;
		}
	});
});
