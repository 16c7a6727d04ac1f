import { randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import type { FieldValues } from '../../fields/read';
import { readTable, toWire } from '../../fields/read';
import type { FieldTable, Violation } from '../../fields/types';
import { coerce } from '../../fields/coerce';
import { apiRequest } from '../../transport';
import type { RequestSpec } from '../../transport';
import { assertValid } from '../../fields/violations';
import { getChannel } from '../channel';
import { doneAfterLostAnswer, settleWriteFailure } from '../lostAnswer';
import { ORDER_FACTS } from './facts';
import type { NextStep } from './created';
import { notPaidYet } from './created';
import { applyStatusDelivery } from './sendStatusToExecution';
import { ITEM_FIELDS, KEYED_VALUE_KEYS } from './fields';

/** Line items given as JSON use the service's names: each checked by the same item fields. */
function readJsonItems(raw: unknown, offset: number, violations: Violation[]): IDataObject[] {
	if (raw === undefined) return [];
	if (!Array.isArray(raw)) {
		violations.push({
			field: 'Line Items (JSON)',
			rule: 'must be a JSON array of items',
			value: raw,
		});
		return [];
	}
	const known = new Map(ITEM_FIELDS.map((field) => [field.wire as string, field]));
	return raw.map((item: unknown, i) => {
		const at = `items[${offset + i}]`;
		if (typeof item !== 'object' || item === null || Array.isArray(item)) {
			violations.push({ field: at, rule: 'must be an object', value: item });
			return {};
		}
		const out: IDataObject = {};
		for (const [key, value] of Object.entries(item as IDataObject)) {
			const field = known.get(key);
			if (!field) {
				const hint = key === 'name' ? ': use title' : key === 'sku' ? ': use reference_id' : '';
				violations.push({ field: `${at}.${key}`, rule: `is not a field of an item${hint}`, value });
				continue;
			}
			const result = coerce(field, value);
			if ('rule' in result) violations.push({ field: `${at}.${key}`, rule: result.rule, value });
			else if ('value' in result) out[key] = result.value as IDataObject[string];
		}
		return out;
	});
}

/** alpha … epsilon as the service takes them: five single-key objects, empty where unset. */
export const keyedValues = (values: FieldValues = {}): IDataObject[] =>
	KEYED_VALUE_KEYS.map((key) => ({ [key]: (values[key] as string | undefined) ?? '' }));

export interface OrderRequest {
	table: FieldTable;
	/** Fixed parts of the flow (class, action where the flow sets it). */
	fixed: IDataObject;
	/** Rules of the flow across fields, on the values and the built data. */
	rules?: (values: FieldValues, data: IDataObject) => Violation[];
	/** custom_data the flow builds itself (split payments). */
	customData?: (values: FieldValues) => IDataObject[];
	acceptFailure?: RequestSpec['acceptFailure'];
}

/** Reads, checks and builds the whole `data` object of an order; throws before sending on any violation. */
export function buildOrder(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: OrderRequest,
): IDataObject {
	const { values, violations } = readTable(ctx, itemIndex, request.table);
	const data = toWire(request.table, values, { ...request.fixed });
	const items = (values.items as FieldValues[]).map((entry) => toWire(ITEM_FIELDS, entry));
	const options = (values.options ?? {}) as FieldValues;
	data.items = [...items, ...readJsonItems(options.lineItemsJson, items.length, violations)];
	data.parameters = keyedValues(values.parameters as FieldValues);
	data.custom_data = request.customData
		? request.customData(values)
		: keyedValues(values.customData as FieldValues);
	violations.push(...(request.rules?.(values, data) ?? []));
	violations.push(...applyStatusDelivery(ctx, itemIndex, values, data));
	assertValid(ctx, itemIndex, violations);
	return data;
}

/**
 * The service gives m_order_id no format beyond "String, unique per order". A generated one keeps to
 * the narrowest identifier rule the service has (request_id: at most 30 characters), in letters,
 * digits and hyphens only, so no service-side format check can refuse it.
 */
export const GENERATED_ID_MAX_LENGTH = 30;

const PREFIX = 'n8n-';

/**
 * A Merchant Order ID for an order sent without one: the execution and item it belongs to, and a
 * random part, since an execution ID repeats across the calls of an AI agent's tool and a test
 * harness may have none. Made once per item before the first attempt, so the node's own repeats
 * carry it and the service's duplicate refusal settles a lost answer; a new run makes a new one.
 */
export function generateMerchantOrderId(
	executionId: string | undefined,
	itemIndex: number,
	random: string = randomBytes(4).toString('hex'),
): string {
	const run = (executionId ?? '').replace(/[^A-Za-z0-9]/g, '') || Date.now().toString(36);
	const tail = `-${itemIndex}-${random}`;
	const room = Math.max(1, GENERATED_ID_MAX_LENGTH - PREFIX.length - tail.length);
	return `${PREFIX}${run.slice(-room)}${tail}`.slice(0, GENERATED_ID_MAX_LENGTH);
}

/** The Merchant Order ID of an order: the one given, or one made for it. */
function merchantOrderIdOf(ctx: IExecuteFunctions, itemIndex: number, data: IDataObject): string {
	const details = data.order_details as IDataObject;
	const given = details.m_order_id;
	if (given !== undefined && given !== '') return String(given);
	details.m_order_id = generateMerchantOrderId(ctx.getExecutionId(), itemIndex);
	return String(details.m_order_id);
}

const DUPLICATE = /duplicate m_order_id/i;

/**
 * Builds, checks and sends an order. Every order carries a Merchant Order ID (one is made when the
 * field is empty), so a lost answer is repeated and settled by the service's duplicate refusal.
 */
export async function createOrder(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: OrderRequest,
): Promise<IDataObject> {
	const channel = getChannel(ctx, itemIndex);
	const data = buildOrder(ctx, itemIndex, request);
	const mOrderId = merchantOrderIdOf(ctx, itemIndex, data);
	try {
		const response = await apiRequest.call(ctx, itemIndex, {
			channel,
			method: 'POST',
			path: '/orders/v1/create',
			body: { data },
			// The service refuses a repeated m_order_id, so a repeat cannot create a second order.
			retrySafe: ORDER_FACTS.retried,
			howToCheck: `send it again with the same Merchant Order ID ${JSON.stringify(mOrderId)} (the service refuses the ID when the order exists), or look it up with Transaction > Get Many`,
			badRequestCauses:
				'for example the amount is missing or invalid, or the m_order_id was already used',
			codes: {
				PAYMENT_FAILED:
					'The payment service provider declined the immediate payment with the saved card.',
			},
			acceptFailure: request.acceptFailure,
			explainFailure: (failure) =>
				DUPLICATE.test(failure.message)
					? {
							message: `The Merchant Order ID ${JSON.stringify(mOrderId)} was already used for another order [code ${failure.code}]`,
							description: `The service answered "${failure.message}": each order needs its own Merchant Order ID (m_order_id). No new order was created. Use a new ID (for example one from your shop or {{ $execution.id }}), or leave the field empty to have one made, or find the existing order with Transaction > Get Many (its items carry m_order_id).`,
						}
					: undefined,
			// The node's own repeat refused as a duplicate: its first attempt created the order.
			confirmDuplicate: (failure) =>
				DUPLICATE.test(failure.message)
					? doneAfterLostAnswer(
							{
								confirmedByDuplicate: true,
								m_order_id: mOrderId,
								message:
									'The order was created by an earlier attempt whose answer was lost; the repeat was refused as a duplicate. Look it up with Transaction > Get Many (its items carry the Merchant Order ID, m_order_id).',
							},
							'The node sent the order again with the same Merchant Order ID and the service refused it as a duplicate: the first attempt created it.',
						)
					: undefined,
		});
		// The service echoes m_order_id; the one sent is what the workflow needs either way.
		if (response.m_order_id === undefined || response.m_order_id === '')
			response.m_order_id = mOrderId;
		return response;
	} catch (error) {
		throw settleWriteFailure(ctx, itemIndex, error, {
			message: `The order's answer was lost and no later attempt settled it; it may exist with Merchant Order ID ${JSON.stringify(mOrderId)}`,
			how: `An attempt's answer was lost and no later attempt settled it, so the node cannot tell whether the order was created. Send it again with Merchant Order ID ${JSON.stringify(mOrderId)}: the service creates it once, or refuses the ID if the order exists. Running the workflow again without that ID creates a new order.`,
		});
	}
}

/**
 * The create response as one item, with an ISO 8601 copy of order_creation_date and the amount as a
 * number: the service answers "AED 100.00" here but "100.00" in lists and webhooks. Every field of
 * the service is kept; `order_state`, `paid` and `next` say the order is not paid yet.
 */
export function orderOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
	step: NextStep,
): INodeExecutionData[] {
	const json = addIsoDates(response, ['order_creation_date'], ctx.getTimezone());
	// "Currency code followed by formatted amount": thousands may carry commas.
	const amount = /^(?:[A-Z]{3}\s*)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/.exec(
		String(json.amount ?? '').trim(),
	);
	if (amount) json.amount_value = Number(amount[1].replace(/,/g, '') + (amount[2] ?? ''));
	// What the user needs next comes first, so n8n's table shows it without scrolling.
	const { p_order_id, payment_link, ...rest } = json;
	const lead = Object.entries({ p_order_id, payment_link }).filter(([, v]) => v !== undefined);
	const state = notPaidYet(step, response);
	return [
		{ json: { ...Object.fromEntries(lead), ...state, ...rest }, pairedItem: { item: itemIndex } },
	];
}
