import type { INodeProperties } from 'n8n-workflow';

import * as invoiceItem from './invoiceItem/InvoiceItem.resource';
import type { NodeMap } from './node.type';
import * as order from './order/Order.resource';
import * as payment from './payment/Payment.resource';
import * as paymentLink from './paymentLink/PaymentLink.resource';
import * as payout from './payout/Payout.resource';
import * as subscriptionPlan from './subscriptionPlan/SubscriptionPlan.resource';
import * as transaction from './transaction/Transaction.resource';
import { LEGACY_TOOL_DESCRIPTIONS } from './tool.legacy';

type WithTool = { toolDescription: string };

/** Every operation of NodeMap exports its own tool description, or tsc fails. */
export const TOOL_OPERATIONS: { [R in keyof NodeMap]: Record<NodeMap[R], WithTool> } = {
	invoiceItem,
	order,
	payment,
	paymentLink,
	payout,
	subscriptionPlan,
	transaction,
};

/** The exports of a resource that carry a tool description but are no operation of NodeMap. */
type Stray<R extends keyof NodeMap, M> = Exclude<
	{ [K in keyof M]: M[K] extends WithTool ? K : never }[keyof M],
	NodeMap[R]
>;
type NoStray =
	| Stray<'invoiceItem', typeof invoiceItem>
	| Stray<'order', typeof order>
	| Stray<'payment', typeof payment>
	| Stray<'paymentLink', typeof paymentLink>
	| Stray<'payout', typeof payout>
	| Stray<'subscriptionPlan', typeof subscriptionPlan>
	| Stray<'transaction', typeof transaction>;
/** A stray operation (one NodeMap does not list) makes this `false` and tsc fails. */
const noStrayOperation: [NoStray] extends [never] ? true : false = true;
void noStrayOperation;

const VERSION_3 = { '@version': [{ _cnd: { gte: 3 } }] };
const VERSIONS_1_2 = { '@version': [{ _cnd: { lte: 2 } }] };

function descriptionProperty(
	resource: string,
	operation: string,
	text: string,
	versions: IDataObjectShow,
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 3 },
		displayOptions: {
			show: {
				'@tool': [true],
				descriptionType: ['manual'],
				resource: [resource],
				operation: [operation],
				...versions,
			},
		},
		description:
			'What the model reads about this tool: what it does, which IDs it needs, whether it moves money',
	};
}

type IDataObjectShow = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/** One property per operation and version range, from a resource → operation → text table. */
function descriptionProperties(
	table: Record<string, Record<string, string>>,
	versions: IDataObjectShow,
): INodeProperties[] {
	return Object.entries(table).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, text]) =>
			descriptionProperty(resource, operation, text, versions),
		),
	);
}

/** Resource → operation → the operation's own tool description (version 3). */
export const TOOL_DESCRIPTIONS = Object.fromEntries(
	Object.entries(TOOL_OPERATIONS).map(([resource, operations]) => [
		resource,
		Object.fromEntries(
			Object.entries(operations as Record<string, WithTool>).map(([operation, module]) => [
				operation,
				module.toolDescription,
			]),
		),
	]),
) as { [R in keyof NodeMap]: Record<NodeMap[R], string> };

/**
 * The tool description for n8n's tool variant of the node only ('@tool'): written for a model per
 * operation, editable by the builder. n8n adds its own pair of these parameters to a tool variant
 * only when the node has none; the names and the 'auto' value are n8n's, so saved tools keep working.
 */
export const toolDescriptionProperties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { '@tool': [true] } },
		options: [
			{ name: 'Set Automatically', value: 'auto', description: 'Only the name of the operation' },
			{
				name: 'Set Manually',
				value: 'manual',
				description: 'The description below, written for a model',
			},
		],
		default: 'manual',
	},
	...descriptionProperties(LEGACY_TOOL_DESCRIPTIONS, VERSIONS_1_2),
	...descriptionProperties(TOOL_DESCRIPTIONS, VERSION_3),
];
