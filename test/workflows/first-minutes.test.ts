import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { runGateway } from './support';

/** What a new user meets first: defaults, typed amounts, the credential chosen, the errors' wording. */
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 17, transactionCount: 40 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => sandbox.clearRequests());

const createPayment = (parameters: Record<string, unknown>, typeVersion?: number) =>
	runGateway(sandbox, {
		typeVersion,
		parameters: {
			resource: 'order',
			operation: 'createPayment',
			currency: 'AED',
			...parameters,
		} as never,
	});

describe('Amount as a new user types it', () => {
	it('version 2 starts with Amount empty, and running it asks for Amount; nothing is sent', async () => {
		const result = await createPayment({});
		expect(result.error?.message).toBe(
			'Invalid Amount: order_details.amount is required (received "")',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('0 typed in Amount is refused naming Amount, never sent as another amount', async () => {
		const result = await createPayment({ amount: 0 });
		expect(result.error?.message).toBe(
			'Invalid Amount: order_details.amount must be at least 1 (received 0)',
		);
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(String((result.error as { description?: string }).description)).toMatch(
			/^Nothing was sent to the service/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('version 1 keeps its default of 0 for saved workflows, refused the same way', async () => {
		const result = await createPayment({}, 1);
		expect(result.error?.message).toBe(
			'Invalid Amount: order_details.amount must be at least 1 (received 0)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('too many decimals for the currency names Amount', async () => {
		const result = await createPayment({ amount: 10.005 });
		expect(result.error?.message).toBe(
			'Invalid Amount: order_details.amount must have at most 2 decimal places in AED (received 10.005)',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('the created order carries its amount as a number beside the service text', async () => {
		const result = await createPayment({ amount: 1234.5 });
		expect(result.error).toBeUndefined();
		const json = result.outputs.Gateway[0].json;
		expect(json.amount).toMatch(/^AED 1,?234\.50$/);
		expect(json.amount_value).toBe(1234.5);
		// The order ID and the link to send come first: n8n's table shows them without scrolling.
		expect(Object.keys(json).slice(0, 2)).toEqual(['p_order_id', 'payment_link']);
	});
});

describe('a credential that cannot run the operation', () => {
	it('a version-1 order saved with the POS keys tells the user to pick another credential; nothing is sent', async () => {
		const result = await createPayment({ amount: 10, authentication: 'pos' }, 1);
		expect(result.error?.message).toBe(
			'This operation needs a credential of type "Hosted Solution Keys" or "S2S (Server-to-Server) Keys" or "SDK/Plugins Keys"',
		);
		expect(String((result.error as { description?: string }).description)).toContain(
			"Pick another credential in the node's Credential field",
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Request Options out of range', () => {
	it.each([
		[
			'maxRetries',
			20,
			'Max Retries (Request Options) must be a whole number from 0 to 10 (received 20)',
		],
		[
			'maxRetries',
			'1.5',
			'Max Retries (Request Options) must be a whole number from 0 to 10 (received "1.5")',
		],
		[
			'timeoutMs',
			'soon',
			'Timeout (Request Options) must be a number from 1 to 600000 (received "soon")',
		],
	])('%s %p is refused, never clamped; nothing is sent', async (option, value, message) => {
		const result = await createPayment({ amount: 10, requestOptions: { [option]: value } });
		expect(result.error?.message).toBe(message);
		expect(sandbox.requests).toHaveLength(0);
	});
});
