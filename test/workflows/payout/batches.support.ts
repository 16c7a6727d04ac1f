// What the Split Into Batches tests share: payout rows of both modes, Bulk Create from items or from
// an xlsx file with Split Into Batches on, and the check that every row was queued once.
import type { IDataObject } from 'n8n-workflow';

import { buildXlsx } from '../../../nodes/PaymentGateway/spreadsheet/xlsx';
import { runGateway } from '../support';
import { bulkCreate, HEADERS, queuedCounts, tagger, useSandbox } from './support';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `count` valid rows with references unique to this test run (`tag`). */
export function rows(tag: string, count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${i}`,
		'Payment Mode': i % 2 ? 'IMPSP2P' : 'NEFT',
		Amount: 100 + (i % 97) + 0.5,
		Remark: `Row ${i}`,
		'Beneficiary Name': 'Asha Rao',
		...(i % 2
			? { 'Beneficiary Mobile': '9876543210', 'Beneficiary MMID': '1234567' }
			: { 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' }),
	}));
}

const SPLIT = {
	resource: 'payout',
	operation: 'bulkCreate',
	currency: 'INR',
	splitIntoBatches: true,
};

export const statuses = (items: { json: IDataObject }[]) => items.map((item) => item.json.status);

/**
 * The file's sandbox (useSandbox), references unique to each test (`prefix`), Bulk Create with
 * Split Into Batches from items or from a file, and the check that each row was queued once.
 */
export function useBatchTests(prefix: string) {
	const sandbox = useSandbox();
	/** In the newest node version unless `typeVersion` (1-2 take Split Into Batches as a setting). */
	const fromItems = (
		items: IDataObject[],
		parameters: IDataObject = {},
		continueOnFail = false,
		typeVersion?: number,
		/** The same ID is the same workflow run again (the node's memory is kept per workflow). */
		workflowId?: string,
	) =>
		bulkCreate(
			sandbox(),
			items,
			{ splitIntoBatches: true, ...parameters },
			{
				workflowId,
				typeVersion,
				continueOnFail,
			},
		);

	const fromFile = async (items: IDataObject[], parameters: IDataObject = {}) => {
		const file = await buildXlsx(
			'Sheet1',
			HEADERS,
			items.map((r) => HEADERS.map((h) => r[h] as string | number | undefined)),
		);
		return await runGateway(sandbox(), {
			items: [{}],
			binary: [
				{
					property: 'data',
					fileName: 'payouts.xlsx',
					mimeType: XLSX,
					base64: file.toString('base64'),
				},
			],
			credentialType: 'paymentGatewayPayoutApi',
			parameters: { ...SPLIT, inputMode: 'binary', ...parameters } as never,
		});
	};

	/** Every row of the run queued exactly once, in batches of 500 in row order. */
	const expectEachRowOnce = (tag: string, count: number) => {
		const counts = queuedCounts(sandbox(), tag);
		expect(counts.size).toBe(count);
		expect([...counts.values()].every((n) => n === 1)).toBe(true);
		const batches = [...sandbox().state.payoutBatches.values()].filter((b) =>
			b.rows[0]['Reference No'].startsWith(`${tag}-`),
		);
		expect(batches.map((b) => b.rows.length)).toEqual(
			Array.from({ length: Math.ceil(count / 500) }, (_, i) => Math.min(500, count - i * 500)),
		);
		batches.forEach((b, i) => expect(b.rows[0]['Reference No']).toBe(`${tag}-${i * 500}`));
	};

	return { sandbox, tagOf: tagger(prefix), fromItems, fromFile, expectEachRowOnce };
}
