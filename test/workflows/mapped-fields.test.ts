// Fields mapped as plain $json references are read from the item directly (resolveParameter,
// helpers/context.ts): the outcome must be exactly what n8n's own evaluation of the same reference
// gives.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { WorkflowExpression } from 'n8n-workflow';

import type { Sandbox, TransactionRecord } from '../sandbox';
import { startSandbox } from '../sandbox';
import { requestsTo, runGateway } from './support';

const MANAGE = '/orders/v1/transaction';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 8, transactionCount: 60 });
});
afterAll(async () => await sandbox.stop());

/** The first `count` transactions, captured in full and not refunded, before every run. */
function refundable(count: number): TransactionRecord[] {
	const records = sandbox.state.transactions.slice(0, count) as TransactionRecord[];
	for (const record of records) {
		record.status = 'CAPTURED';
		record.amount_captured = record.amount;
		record.internal.amount_refunded = '0';
	}
	return records;
}

/** Items of every kind an expression may give: numbers as text, blanks, null, missing, objects, lists. */
function mixedItems(): IDataObject[] {
	const records = refundable(14);
	const amounts: unknown[] = [
		1,
		'2',
		' 1.5 ',
		'',
		null,
		undefined,
		{ value: 1 },
		[1],
		true,
		'abc',
		1.234,
		0,
		'1e0',
		-1,
	];
	const currencies: unknown[] = [
		'own',
		'own',
		'lower',
		'',
		'own',
		null,
		'own',
		'own',
		{ code: 'AED' },
		'own',
		'own',
		['AED'],
		'own',
		7,
	];
	const reasons: unknown[] = [
		'Damaged',
		'',
		null,
		5,
		['a'],
		undefined,
		' spaced ',
		'line\nbreak',
		'x'.repeat(300),
		'ok',
		false,
		'ok',
		{},
		'ok',
	];
	return records.map((record, i) => {
		const currency =
			currencies[i] === 'own'
				? record.currency
				: currencies[i] === 'lower'
					? record.currency.toLowerCase()
					: currencies[i];
		const item: IDataObject = { id: record.transaction_id };
		if (amounts[i] !== undefined) item.amount = amounts[i] as IDataObject[string];
		if (currency !== undefined) item['Currency Code'] = currency as IDataObject[string];
		if (reasons[i] !== undefined) item.reason = reasons[i] as IDataObject[string];
		return item;
	});
}

/** Refund with every field mapped; `wrap` turns a field reference into the expression used. */
async function refundAll(wrap: (reference: string) => string, items: IDataObject[]) {
	sandbox.clearRequests();
	const parameters: INodeParameters = {
		resource: 'payment',
		operation: 'refund',
		transactionId: wrap('$json.id'),
		amount: wrap('$json.amount'),
		currency: wrap('$json["Currency Code"]'),
		additionalFields: { reason: wrap("$json['reason']") },
	};
	const result = await runGateway(sandbox, { parameters, items, continueOnFail: true });
	expect(result.error).toBeUndefined();
	const outcomes = result.outputs.Gateway.map((item) => {
		const error = item.json.error as IDataObject | string | undefined;
		return error
			? { error: typeof error === 'string' ? error : error.message }
			: { status: item.json.status };
	});
	const sent = requestsTo(sandbox, MANAGE).map(
		(r) => JSON.parse(r.body.toString('utf8')) as IDataObject,
	);
	return { outcomes, sent };
}

describe('fields mapped as $json references', () => {
	it('give the same errors, outputs and bodies as n8n evaluating the same references', async () => {
		const items = mixedItems();
		const direct = await refundAll((reference) => `={{ ${reference} }}`, items);
		// Parentheses keep the meaning but are no plain reference: n8n evaluates these.
		const evaluated = await refundAll((reference) => `={{ (${reference}) }}`, mixedItems());
		expect(direct).toEqual(evaluated);
		expect(direct.sent.length).toBeGreaterThan(2);
		expect(direct.outcomes.filter((o) => 'error' in o).length).toBeGreaterThan(5);
	});

	it('are read from the item without evaluating an expression per field', async () => {
		const spy = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
		try {
			const items = refundable(5).map((r) => ({
				id: r.transaction_id,
				amount: 1,
				'Currency Code': r.currency,
				reason: 'Returned',
			}));
			const { sent } = await refundAll((reference) => `={{ ${reference} }}`, items);
			expect(sent).toHaveLength(5);
			const evaluatedReferences = spy.mock.calls.filter(
				([value]) => typeof value === 'string' && value.startsWith('={{ $json'),
			);
			expect(evaluatedReferences).toHaveLength(0);
		} finally {
			spy.mockRestore();
		}
	});
});
