// Publishing a Payment Gateway Trigger is refused, naming the cause, where its exactly-once mode
// would be none; with Drop Duplicate Deliveries off, or where the mode holds, it is published.
import type { IHookFunctions } from 'n8n-workflow';

import { N8nInternalsError } from '../../../../nodes/n8n-internals';
import { assertExactlyOnce } from '../../../../nodes/PaymentGatewayTrigger/exactly-once/activation';
import { acceptingRows, fakeDoor } from '../../n8n-internals/fake-door';

const hook = (options: object) =>
	({
		getNode: () => ({ id: 'n1', name: 'Payment Gateway Trigger', type: 'x', typeVersion: 1 }),
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'options' ? options : fallback,
		logger: { info: jest.fn(), error: jest.fn(), warn: jest.fn() },
	}) as unknown as IHookFunctions;

const changedRows = new N8nInternalsError(
	"database rows (n8n's processed_data table)",
	'changed',
	'n8n 9.9.9',
	'@n8n/db has no ProcessedDataRepository',
);

test('refused where the mode would be none: what follows, what to do, the cause', async () => {
	const door = fakeDoor({ processedRows: changedRows });
	await expect(assertExactlyOnce(hook({}), door)).rejects.toThrow(
		/cannot tell a delivery from its retry.*503.*Drop Duplicate Deliveries.*database rows: CHANGED .*@n8n\/db has no ProcessedDataRepository/,
	);
});

test('published with Drop Duplicate Deliveries off, or where the mode holds', async () => {
	await expect(
		assertExactlyOnce(hook({ dropDuplicates: false }), fakeDoor({ processedRows: changedRows })),
	).resolves.toBeUndefined();
	const rows = acceptingRows;
	await expect(
		assertExactlyOnce(hook({}), fakeDoor({ processedRows: rows })),
	).resolves.toBeUndefined();
});
