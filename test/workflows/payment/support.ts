import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox, TransactionRecord } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { requestsTo, runGateway } from '../support';

export const MANAGE = '/orders/v1/transaction';

/**
 * A sandbox for one capture, void or refund test file: faults, requests and merchant settings
 * cleared before each test, and seeded transactions handed out once each.
 */
export function paymentSandbox(seed: number) {
	const box = { sandbox: undefined as unknown as Sandbox };
	beforeAll(async () => {
		box.sandbox = await startSandbox({ seed, transactionCount: 200 });
	});
	afterAll(async () => await box.sandbox.stop());
	beforeEach(() => {
		box.sandbox.faults.clear();
		box.sandbox.clearRequests();
		box.sandbox.state.resetSettings();
	});

	const records = () => box.sandbox.state.transactions as TransactionRecord[];
	const used = new Set<string>();
	/** A seeded transaction in `status` that no other test has touched. */
	function fresh(
		status: string,
		currencies = ['AED', 'USD', 'EUR', 'GBP', 'SAR'],
	): TransactionRecord {
		const record = records().find(
			(r) => r.status === status && currencies.includes(r.currency) && !used.has(r.transaction_id),
		);
		if (!record) throw new Error(`no unused ${status} transaction in the seed`);
		used.add(record.transaction_id);
		return record;
	}
	/** A currency with at least `captured` unused CAPTURED and `authorised` AUTHORISED transactions. */
	const currencyWith = (captured: number, authorised: number) =>
		['AED', 'USD', 'EUR', 'GBP', 'INR', 'SAR'].find(
			(c) =>
				records().filter(
					(r) => r.currency === c && r.status === 'CAPTURED' && !used.has(r.transaction_id),
				).length >= captured &&
				records().filter(
					(r) => r.currency === c && r.status === 'AUTHORISED' && !used.has(r.transaction_id),
				).length >= authorised,
		)!;

	const manage = (
		operation: 'capture' | 'void' | 'refund',
		record: Pick<TransactionRecord, 'transaction_id' | 'currency'>,
		amount: number | string,
		extra: INodeParameters = {},
		run: { continueOnFail?: boolean; items?: object[]; credentialType?: string } = {},
	) =>
		runGateway(box.sandbox, {
			parameters: {
				resource: 'payment',
				operation,
				transactionId: record.transaction_id,
				amount,
				currency: record.currency,
				...extra,
			},
			...run,
		});

	const sentBodies = () =>
		requestsTo(box.sandbox, MANAGE).map((r) => JSON.parse(r.body.toString('utf8')) as IDataObject);

	const statusViaList = async (transactionId: string) => {
		const result = await runGateway(box.sandbox, {
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				returnAll: true,
				filters: { transactionId },
			},
		});
		expect(result.error).toBeUndefined();
		return result.outputs.Gateway.map((i) => i.json.status);
	};

	return { box, fresh, currencyWith, manage, sentBodies, statusViaList };
}

/** The service's E0044 as the node reports it on capture, void and refund. */
export function expectE0044(error: unknown, message: RegExp): void {
	expect((error as Error).constructor.name).toBe('NodeApiError');
	expect((error as Error).message).toMatch(message);
	expect((error as Error).message).toContain('[code E0044]');
	expect((error as { description?: string }).description).toMatch(
		/not in a state that allows this: not refundable or voidable/,
	);
	expect((error as { httpCode?: string }).httpCode).toBe('400');
}

/** A transaction ID no test touches, for refusals made before sending. */
export const UNSENT = { transaction_id: '2600000001', currency: 'AED' };
