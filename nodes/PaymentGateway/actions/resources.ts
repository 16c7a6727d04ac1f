import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as invoiceItem from './invoiceItem/InvoiceItem.resource';
import type { OperationModule } from './operation';
import * as order from './order/Order.resource';
import * as payment from './payment/Payment.resource';
import * as paymentLink from './paymentLink/PaymentLink.resource';
import * as payout from './payout/Payout.resource';
import * as subscriptionPlan from './subscriptionPlan/SubscriptionPlan.resource';
import * as transaction from './transaction/Transaction.resource';

/** A resource's operations, each under the value of its option, or tsc fails. */
type Operations<M> = { [K in keyof M]: OperationModule & { option: { value: K } } };

interface Resource<M extends Operations<M>> {
	name: string;
	description: string;
	defaultOperation: keyof M & string;
	/** The resource's `*.resource.ts`: one line per operation, in the order of their parameters. */
	operations: M;
}

const resource = <M extends Operations<M>>(r: Resource<M>) => r;

/**
 * The node's resources, written once: the router, the tool texts, the node's parameters and
 * NodeMap (node.type.ts) are all read from here. Listed in the order of their parameters.
 */
export const RESOURCES = {
	order: resource({
		name: 'Order',
		description:
			'Create hosted orders, save cards, charge saved cards and split payments; wait for an order to be paid',
		defaultOperation: 'createPayment',
		operations: order,
	}),
	payment: resource({
		name: 'Payment',
		description: 'Capture, void or refund a payment',
		defaultOperation: 'capture',
		operations: payment,
	}),
	paymentLink: resource({
		name: 'Payment Link',
		description: 'Create payment links in bulk or deactivate one',
		defaultOperation: 'bulkCreate',
		operations: paymentLink,
	}),
	payout: resource({
		name: 'Payout',
		description: 'Send bulk payouts from a spreadsheet of beneficiaries and wait for their results',
		defaultOperation: 'bulkCreate',
		operations: payout,
	}),
	invoiceItem: resource({
		name: 'Invoice Item',
		description:
			'Reusable invoice line items: create, update, activate, deactivate, delete, get, list',
		defaultOperation: 'create',
		operations: invoiceItem,
	}),
	subscriptionPlan: resource({
		name: 'Subscription Plan',
		description: 'Create recurring billing plans with a payment link and QR code',
		defaultOperation: 'create',
		operations: subscriptionPlan,
	}),
	transaction: resource({
		name: 'Transaction',
		description: 'Transactions of every order, with filters',
		defaultOperation: 'getMany',
		operations: transaction,
	}),
};

export type ResourceName = keyof typeof RESOURCES;

/** Resource → its operations' modules, by operation value. */
export const operationsOf = (name: ResourceName) =>
	RESOURCES[name].operations as Record<string, OperationModule>;

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.entries(RESOURCES)
		.map(([value, { name, description }]) => ({ name, value, description }))
		.sort(byName),
	default: 'order',
};

/** A resource's Operation list (by name, as n8n lists them), then each operation's parameters. */
function resourceProperties(name: ResourceName): INodeProperties[] {
	const modules = Object.values(operationsOf(name));
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [name] } },
		options: modules.map(({ option }) => ({ ...option })).sort(byName),
		default: RESOURCES[name].defaultOperation,
	};
	return [selector, ...modules.flatMap((module) => module.description)];
}

/** Every resource's Operation list and parameters, in the order of RESOURCES. */
export const resourcesProperties: INodeProperties[] = (
	Object.keys(RESOURCES) as ResourceName[]
).flatMap(resourceProperties);

/** The operations of a resource but the ones named: what a `hide.operation` reads. */
export const operationsBut = <R extends ResourceName>(
	name: R,
	but: Array<keyof (typeof RESOURCES)[R]['operations']>,
): string[] =>
	Object.keys(operationsOf(name))
		.filter((operation) => !(but as string[]).includes(operation))
		.sort();
