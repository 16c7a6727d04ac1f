import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { fieldNames, readTable, toWire } from '../../fields/read';
import { earliestToday } from '../../helpers/dates';
import { assertValid } from '../../fields/violations';
import { planRules, shapePlanBody } from './rules';
import { planTable } from './fields';
import { doneAfterLostAnswer, sendWrite } from '../lostAnswer';
import { tableOperation } from '../operation';
import { refusesRepeat } from '../tool';
import { ADD_PLAN_PATH } from '../paths';

/** The plan's keys in the service's order (it reads JSON, but its logs and examples use this order). */
const SEED_ORDER = [
	'plan_name',
	'plan_description',
	'billing_frequency',
	'installment_amount',
	'terms',
	'initial_payment_amount',
	'final_payment_amount',
	'shipping_fee',
	'convenience_fee',
	'start_date',
	'expiry_date',
	'note',
	'customer_emails',
	'customer_email_cc',
	'subject',
	'product_details',
];

const inSeedOrder = (body: IDataObject): IDataObject =>
	Object.fromEntries(
		SEED_ORDER.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]),
	);

const textOf = (value: unknown) =>
	value === undefined || value === null ? '' : String(value).trim();

/** The QR code's bytes and type from plain base64 or a data: URL. */
export function decodeQrCode(qrCode: string): { data: Buffer; mimeType: string } {
	const match = /^data:([^;,]*)(?:;[^,]*)?,(.*)$/s.exec(qrCode.trim());
	const mimeType = match?.[1] || 'image/png';
	return { data: Buffer.from(match ? match[2] : qrCode.trim(), 'base64'), mimeType };
}

/** A plan is unique for its name, billing frequency, currency and installment amount. */
const ALREADY_EXISTS = /already exists/i;

/**
 * Sends the plan; a lost answer is sent again, and the service's refusal of the same plan again
 * says the first attempt created it. The service has no read of a plan, so its data_id and link
 * are then in the merchant dashboard only.
 */
async function sendPlan(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	retrySafe: boolean,
): Promise<IDataObject> {
	return await sendWrite(
		ctx,
		itemIndex,
		{
			channel: 'subscription',
			method: 'POST',
			path: ADD_PLAN_PATH,
			body: inSeedOrder(body),
			retrySafe,
			howToCheck: 'check the subscription plans in the merchant dashboard',
			confirmDuplicate: (failure) =>
				ALREADY_EXISTS.test(failure.message)
					? doneAfterLostAnswer(
							{
								plan_name: body.plan_name,
								confirmedByDuplicate: true,
								message: `The plan was created by an earlier attempt whose answer was lost; the repeat was refused: "${failure.message}". The service has no read of a plan: its data_id, link and QR code are in the merchant dashboard.`,
							},
							'The node sent the plan again and the service refused it as a plan that already exists (same name, billing frequency, currency and installment amount): the first attempt created it.',
						)
					: undefined,
		},
		{
			message: "The plan's answer was lost and no later attempt settled it",
			how: 'Sending the plan again is safe: the service creates it once, or refuses it when the same plan (name, billing frequency, currency, installment amount) exists. The service has no read of a plan: check the subscription plans in the merchant dashboard.',
		},
	);
}

/**
 * POST /subscriptions/v1/add. Every rule of the service is checked first; a lost answer is settled
 * by the service's refusal of the same plan (sendPlan).
 */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'subscriptionPlan',
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a recurring billing plan with its payment link and QR code',
		action: 'Create a subscription plan',
	},
	table: planTable,
	facts: refusesRepeat(
		'the service refuses a second plan with the same name, billing frequency, currency and installment amount',
	),
	tool: 'Creates a subscription plan (billing frequency, installment amount, terms, start date) and returns its link and QR code; can email it to customers. Creates a real plan.',
	run: async (ctx, itemIndex, table, facts) => {
		const { values, violations } = readTable(ctx, itemIndex, table);
		const timeZone = ctx.getTimezone();
		// Every broken rule at once, but a field refused on its own is not named again by a rule across fields.
		const named = new Set(violations.map((v) => v.field));
		const nameOf = (path: string) => fieldNames(table, path);
		violations.push(
			...planRules(values, nameOf, earliestToday(timeZone), timeZone).filter(
				(v) => !named.has(v.field),
			),
		);
		assertValid(ctx, itemIndex, violations);
		const body = shapePlanBody(toWire(table, values), timeZone);
		const binaryPropertyName = String(
			(values.options as IDataObject).binaryPropertyName ?? 'qrCode',
		);

		const response = await sendPlan(ctx, itemIndex, body, facts.retried);
		if (response.lostAnswer) return [{ json: response, pairedItem: { item: itemIndex } }];

		// The service puts the fields at the top level; some answers nest them under data.
		const nested =
			typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
				? (response.data as IDataObject)
				: {};
		const pick = (key: string) => response[key] ?? nested[key];
		const json: IDataObject = {
			data_id: pick('data_id'),
			plan_id: pick('plan_id'),
			link: pick('link'),
			message: response.message ?? nested.message,
			qr_code: pick('qr_code'),
		};
		const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
		if (typeof json.qr_code === 'string' && json.qr_code.trim() !== '') {
			const { data, mimeType } = decodeQrCode(json.qr_code);
			const fileName = `plan-${textOf(json.plan_id) || textOf(json.data_id) || 'qr-code'}.png`;
			item.binary = {
				[binaryPropertyName]: await ctx.helpers.prepareBinaryData(data, fileName, mimeType),
			};
		}
		return [item];
	},
});
