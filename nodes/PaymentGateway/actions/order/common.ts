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
import { applyStatusDelivery } from './delivery';
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

/** Builds, checks and sends an order; retried only when it carries an m_order_id. */
export async function createOrder(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: OrderRequest,
): Promise<IDataObject> {
	const channel = getChannel(ctx, itemIndex);
	const data = buildOrder(ctx, itemIndex, request);
	const orderDetails = data.order_details as IDataObject;
	return await apiRequest.call(ctx, itemIndex, {
		channel,
		method: 'POST',
		path: '/orders/v1/create',
		body: { data },
		// The service refuses a repeated m_order_id, so only then can a retry not create a second order.
		retrySafe: orderDetails.m_order_id !== undefined,
		howToCheck: 'look the order up with Transaction > Get, by its Merchant Order ID',
		badRequestCauses:
			'for example the amount is missing or invalid, or the m_order_id was already used',
		codes: {
			PAYMENT_FAILED:
				'The payment service provider declined the immediate payment with the saved card.',
		},
		acceptFailure: request.acceptFailure,
		explainFailure: (failure) =>
			/duplicate m_order_id/i.test(failure.message)
				? {
						message: `The Merchant Order ID ${JSON.stringify(orderDetails.m_order_id)} was already used for another order [code ${failure.code}]`,
						description: `The service answered "${failure.message}": each order needs its own Merchant Order ID (m_order_id). No new order was created. Use a new ID (for example one from your shop or {{ $execution.id }}), or find the existing order with Transaction > Get Many (its items carry m_order_id).`,
					}
				: undefined,
		// The node's own repeat refused as a duplicate: its first attempt created the order.
		confirmDuplicate: (failure) =>
			/duplicate m_order_id/i.test(failure.message)
				? {
						confirmedByDuplicate: true,
						m_order_id: orderDetails.m_order_id,
						message:
							'The order was created by an earlier attempt whose answer was lost; the repeat was refused as a duplicate. Look it up with Transaction > Get Many (its items carry the Merchant Order ID, m_order_id).',
					}
				: undefined,
	});
}

/**
 * The create response as one item, with an ISO 8601 copy of order_creation_date and the amount as a
 * number: the service answers "AED 100.00" here but "100.00" in lists and webhooks.
 */
export function orderOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	response: IDataObject,
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
	return [{ json: { ...Object.fromEntries(lead), ...rest }, pairedItem: { item: itemIndex } }];
}
