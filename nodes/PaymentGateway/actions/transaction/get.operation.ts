import { NodeOperationError } from 'n8n-workflow';

import { readTable } from '../../fields/read';
import { addIsoDatesInPlace } from '../../helpers/dates';
import { listTransactions, withAmountValues } from './list';
import { assertValid } from '../../fields/violations';
import { getChannel } from '../channel';
import { pageOf } from '../list.pages';
import { tableOperation } from '../operation';

/** The list's two identifier filters, by what the user has at hand. */
const BY = {
	orderId: { query: 'p_order_id', name: 'Order ID' },
	transactionId: { query: 'transaction_id', name: 'Transaction ID' },
} as const;

/**
 * One transaction's current state, through GET /orders/v1/transaction-list filtered by one ID (the
 * service has no single-transaction endpoint outside POS). The newest match when an order has several.
 */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'transaction',
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get one transaction, with its current status, by order ID or transaction ID',
		action: 'Get a transaction',
	},
	table: [
		{
			name: 'getBy',
			displayName: 'Get By',
			type: 'options',
			required: true,
			options: [
				{ name: 'Order ID', value: 'orderId', description: "The service's order ID (p_order_id)" },
				{
					name: 'Transaction ID',
					value: 'transactionId',
					description: "The service's transaction ID",
				},
			],
		},
		{
			name: 'id',
			displayName: 'ID',
			type: 'text',
			required: true,
			description: 'The order ID or transaction ID to look up',
			ui: {
				hint: 'From Create Payment (p_order_id), a Payment Gateway Trigger item or Transaction > Get Many',
			},
		},
	],
	facts: { kind: 'read' },
	tool: 'Gets one transaction by its order ID (p_order_id) or its transaction ID: status, amounts, dates. Use it to check whether a payment, capture or refund went through.',
	run: async (ctx, itemIndex, table) => {
		const channel = getChannel(ctx, itemIndex);
		const { values, violations } = readTable(ctx, itemIndex, table);
		assertValid(ctx, itemIndex, violations);
		const by = BY[values.getBy as keyof typeof BY];
		const id = String(values.id);

		const response = await listTransactions(ctx, itemIndex, channel, {
			[by.query]: id,
			page: 1,
			perpage: 1,
		});
		const [record] = pageOf(response).records;
		if (!record) {
			throw new NodeOperationError(
				ctx.getNode(),
				`No transaction found with ${by.name} ${JSON.stringify(id)}`,
				{
					itemIndex,
					description: `The service's transaction list has no transaction with ${by.query} ${JSON.stringify(id)} for this credential's merchant. Check the ID and that the credential belongs to the merchant account that took the payment. An order created a moment ago appears once the customer has paid or the payment was attempted.`,
				},
			);
		}
		const json = withAmountValues(
			addIsoDatesInPlace(record, ['transaction_date'], ctx.getTimezone()),
		);
		return [{ json, pairedItem: { item: itemIndex } }];
	},
});
