import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { FieldTable } from '../../fields/types';
import type { OperationOption } from '../operation';
import { tableOperation } from '../operation';
import type { OperationFacts } from '../tool';
import type { OrderRequest } from './common';
import { createOrder, orderOutput } from './common';
import type { NextStep } from './created';

type OrderOutput = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
) => INodeExecutionData[];

interface OrderOperationSpec<O extends OperationOption, F extends OperationFacts> {
	option: O;
	table: FieldTable;
	facts: F;
	tool: string;
	/** Parameters shown above the table's (a notice). */
	before?: INodeProperties[];
	/** What tells the order flows apart: their fixed class and action, their own rules and data. */
	request: Omit<OrderRequest, 'table'>;
	/** The created order as one item saying its next step, or an item of the flow's own. */
	output: NextStep | OrderOutput;
}

/**
 * An operation that creates an order (POST /orders/v1/create), declared as data: every order flow
 * reads, checks and sends its table through createOrder and differs only in what it fixes and outputs.
 */
export function orderOperation<const O extends OperationOption, F extends OperationFacts>({
	request,
	output,
	...spec
}: OrderOperationSpec<O, F>) {
	return tableOperation({
		...spec,
		resource: 'order',
		run: async (ctx, itemIndex, table) => {
			const response = await createOrder(ctx, itemIndex, { ...request, table });
			return typeof output === 'function'
				? output(ctx, itemIndex, response)
				: orderOutput(ctx, itemIndex, response, output);
		},
	});
}
