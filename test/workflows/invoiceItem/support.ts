import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { requestsTo, runGateway } from '../support';

export const ITEMS = '/invoice/v1/items';

/** A sandbox for one invoice item test file, its items and requests cleared before each test. */
export function itemSandbox(seed: number) {
	const box = { sandbox: undefined as unknown as Sandbox };
	beforeAll(async () => {
		box.sandbox = await startSandbox({ seed });
	});
	afterAll(async () => await box.sandbox.stop());
	beforeEach(() => {
		box.sandbox.faults.clear();
		box.sandbox.clearRequests();
		box.sandbox.state.invoiceItems.clear();
	});
	const runItem = (
		operation: string,
		parameters: IDataObject,
		extra: { items?: object[]; continueOnFail?: boolean } = {},
	) =>
		runGateway(box.sandbox, {
			...extra,
			credentialType: 'paymentGatewayInvoiceApi',
			parameters: { resource: 'invoiceItem', operation, ...(parameters as INodeParameters) },
		});
	/** The JSON body the sandbox received for the n-th request to items/<path>. */
	const bodyOf = (path: string, n = 0) =>
		JSON.parse(requestsTo(box.sandbox, `${ITEMS}/${path}`)[n].body.toString('utf8')) as IDataObject;
	/** Runs `operation` with `parameters` and expects a refusal naming `message`, with nothing sent. */
	const expectRefused = async (operation: string, parameters: IDataObject, message: string) => {
		const result = await runItem(operation, parameters);
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(message);
		expect((result.error as { description?: string }).description).toMatch(
			/^Nothing was sent to the service/,
		);
		expect(box.sandbox.requests).toHaveLength(0);
	};
	return { box, runItem, bodyOf, expectRefused };
}

export const VALID_ITEM = { itemName: 'Widget', ratePerUnit: 3, category: 'Goods' };

/** Every one of these is refused for create and update alike: the two share the item fields. */
export const BAD_ITEM_VALUES: Array<[string, IDataObject, string]> = [
	['a rate of 0', { ratePerUnit: 0 }, 'item_rate_per_unit must be above 0 (received 0)'],
	['a negative rate', { ratePerUnit: -5 }, 'item_rate_per_unit must be above 0 (received -5)'],
	[
		'a rate above the maximum',
		{ ratePerUnit: 10000000 },
		'item_rate_per_unit must be at most 9999999 (received 10000000)',
	],
	[
		'a rate text above the maximum',
		{ ratePerUnit: '={{ "9999999.01" }}' },
		'item_rate_per_unit must be at most 9999999',
	],
	[
		'a rate with a currency symbol',
		{ ratePerUnit: '={{ "AED 5" }}' },
		'item_rate_per_unit must be a plain number (no currency symbol, commas or spaces) (received "AED 5")',
	],
	[
		'a rate with commas',
		{ ratePerUnit: '={{ "1,000" }}' },
		'item_rate_per_unit must be a plain number',
	],
	['a rate of NaN', { ratePerUnit: '={{ NaN }}' }, 'item_rate_per_unit must be a finite number'],
	['no rate', { ratePerUnit: '={{ $json.missing }}' }, 'item_rate_per_unit is required'],
	[
		'a name of 51 characters',
		{ itemName: 'n'.repeat(51) },
		'item_name must be at most 50 characters',
	],
	[
		'a name of 26 emoji (52 UTF-16 units)',
		{ itemName: '😀'.repeat(26) },
		'item_name must be at most 50 characters',
	],
	[
		'an empty name from an expression',
		{ itemName: '={{ "" }}' },
		'item_name is required (received "")',
	],
	[
		'a name from an object',
		{ itemName: '={{ { name: "x" } }}' },
		'item_name must be text, not a object',
	],
	[
		'a name over two lines',
		{ itemName: '={{ "Tea\\nCake" }}' },
		'item_name must be one line without control characters',
	],
	['a blank category', { category: ' ' }, 'item_category is required'],
	[
		'a category of 101 characters',
		{ category: 'c'.repeat(101) },
		'item_category must be at most 100 characters',
	],
	[
		'a description of 201 characters',
		{ additionalFields: { description: 'd'.repeat(201) } },
		'item_description must be at most 200 characters',
	],
];
