import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getChannel } from '../PaymentGateway/actions/channel';
import { requestOptionsProperty } from '../PaymentGateway/actions/common.descriptions';
import {
	rangeViolations,
	table as getManyTable,
} from '../PaymentGateway/actions/transaction/getMany.operation';
import { tableProperties } from '../PaymentGateway/fields/properties';
import { readTable, toWire } from '../PaymentGateway/fields/read';
import type { FieldTable } from '../PaymentGateway/fields/types';
import type { Channel } from '../PaymentGateway/transport';
import { assertValid } from '../PaymentGateway/fields/violations';
import { PAYMENT_EVENTS } from '../PaymentGatewayTrigger/events';

/**
 * Get Many's filters that keep a transaction in or out for good. Status is left to Events (a status
 * filter would hide every change away from that status); dates are the look-back window's; one
 * transaction or order ID is what Transaction > Get is for.
 */
const KEPT_FILTERS = [
	'cardBin',
	'currencyCode',
	'customerCountry',
	'customerEmail',
	'customerId',
	'customerMobile',
	'maxAmount',
	'minAmount',
	'paymentMethod',
	'paymentMethodId',
	'paymentToken',
	'processor',
];

/** Get Many's Filters collection (same names, rules and wire names), with the kept filters only. */
const filterTable: FieldTable = getManyTable.flatMap((entry) =>
	'group' in entry && entry.group === 'collection' && entry.name === 'filters'
		? [{ ...entry, fields: entry.fields.filter((field) => KEPT_FILTERS.includes(field.name)) }]
		: [],
);

export const MAX_LOOK_BACK_DAYS = 366;

const LOOK_BACK = { displayName: 'Look-Back Window (Days)', name: 'lookBackDays' };

export const properties: INodeProperties[] = [
	{
		displayName:
			'Checks the transaction list at the Poll Times set in this panel and starts the workflow once for each new transaction and each status change. No public URL is needed. Each poll reads every transaction of the look-back window, 100 per request.',
		name: 'pollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{ name: 'Hosted Solution Keys', value: 'hosted', description: 'The usual choice' },
			{ name: 'S2S (Server-to-Server) Keys', value: 's2s' },
			{ name: 'SDK/Plugins Keys', value: 'sdk' },
		],
		default: 'hosted',
		description: "Which channel's keys read the transaction list",
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [
			{ name: 'Any Event', value: '*', description: 'Every new transaction and status change' },
			...PAYMENT_EVENTS,
		],
		default: ['*'],
		required: true,
		description:
			'The events that start the workflow, named as the Payment Gateway Trigger names them. Card Tokenized is never seen here: the list shows a tokenization as an authorization.',
	},
	{
		...LOOK_BACK,
		type: 'number',
		default: 7,
		description:
			'How many days back, by transaction date, to watch for status changes. The list filters by transaction date only, so a refund of an older transaction is seen only while that transaction is inside this window.',
	},
	...tableProperties(filterTable),
	{
		...requestOptionsProperty,
		options: (requestOptionsProperty.options ?? []).filter(
			(option) => option.name !== 'parallelRequests',
		),
	},
];

export interface PollSettings {
	channel: Channel;
	events: string[];
	lookBackDays: number;
	/** The filters as query parameters of the list. */
	query: IDataObject;
}

/** Reads and checks the node's parameters; nothing is sent when one breaks a rule. */
export function readSettings(ctx: IExecuteFunctions): PollSettings {
	const channel = getChannel(ctx, 0);
	const events = ctx.getNodeParameter('events', 0, ['*']) as unknown;
	if (!Array.isArray(events) || events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one event under Events', {
			description: 'Nothing was sent to the service.',
		});
	}
	const given = ctx.getNodeParameter(LOOK_BACK.name, 0, 7) as unknown;
	const lookBackDays = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	if (
		typeof lookBackDays !== 'number' ||
		!Number.isInteger(lookBackDays) ||
		lookBackDays < 0 ||
		lookBackDays > MAX_LOOK_BACK_DAYS
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${LOOK_BACK.displayName} must be a whole number from 0 to ${MAX_LOOK_BACK_DAYS} (received ${JSON.stringify(given)})`,
			{ description: "Nothing was sent to the service. 0 watches today's transactions only." },
		);
	}
	const { values, violations } = readTable(ctx, 0, filterTable);
	const query = toWire(filterTable, values);
	violations.push(...rangeViolations(query));
	assertValid(ctx, 0, violations);
	return { channel, events: events.map(String), lookBackDays, query };
}
