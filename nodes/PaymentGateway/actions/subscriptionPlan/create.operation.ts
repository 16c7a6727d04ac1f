import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { readTable, toWire } from '../../fields/read';
import { earliestToday } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import { assertValid, toText } from '../../validation/rules';
import { planRules } from '../../validation/subscription';
import { planTable } from './fields';

const show = { resource: ['subscriptionPlan'], operation: ['create'] };

export const table = planTable;

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** The QR code's bytes and type from plain base64 or a data: URL. */
export function decodeQrCode(qrCode: string): { data: Buffer; mimeType: string } {
	const match = /^data:([^;,]*)(?:;[^,]*)?,(.*)$/s.exec(qrCode.trim());
	const mimeType = match?.[1] || 'image/png';
	return { data: Buffer.from(match ? match[2] : qrCode.trim(), 'base64'), mimeType };
}

/**
 * POST /subscriptions/v1/add. Every rule of the seed is checked first. Not retried automatically:
 * the service would create a second plan (or refuse the name) after a lost answer.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { values, violations } = readTable(this, itemIndex, table);
	const body = toWire(table, values);
	const timeZone = this.getTimezone();
	// Rules across fields only once every field holds on its own: each broken rule is named once.
	if (violations.length === 0) violations.push(...planRules(body, earliestToday(timeZone), timeZone));
	assertValid(this, itemIndex, violations);
	const binaryPropertyName = String((values.options as IDataObject).binaryPropertyName ?? 'qrCode');

	const response = await apiRequest.call(this, itemIndex, {
		channel: 'subscription',
		method: 'POST',
		path: '/subscriptions/v1/add',
		body,
		retrySafe: false,
	});

	// The seed puts the fields at the top level; some answers nest them under data.
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
		const fileName = `plan-${toText(json.plan_id) || toText(json.data_id) || 'qr-code'}.png`;
		item.binary = { [binaryPropertyName]: await this.helpers.prepareBinaryData(data, fileName, mimeType) };
	}
	return [item];
}
