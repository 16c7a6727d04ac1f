import { randomBytes } from 'node:crypto';

import { HttpError, quote } from '../../core/http';
import { INVOICE_ITEM_ADD } from './rules';
import { ruleAt } from '../../rules/types';
import type { InvoiceItemRecord, SandboxState } from '../../core/state';

const RULES = INVOICE_ITEM_ADD.fields;
export const ITEM_RATE_MAX = ruleAt(RULES, 'item_rate_per_unit').max as number;
/** The one sandbox merchant's sub-merchant, shown by details and list. */
export const SUBMERCHANT_NAME = 'Sandbox Merchant';

const invalid = (message: string): never => {
	throw new HttpError(400, message);
};

/** YYYY-MM-DD HH:mm:ss in UTC: created_date and last_modified_date. */
export function formatItemDate(time: number): string {
	return new Date(time).toISOString().slice(0, 19).replace('T', ' ');
}

/** The body as an object, or 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return invalid('Request body must be a JSON object');
	}
	return body as Record<string, unknown>;
}

function text(body: Record<string, unknown>, name: string) {
	const { required, maxLength: max = Infinity } = ruleAt(RULES, name);
	const value = body[name];
	if (value === undefined || value === null || (required && value === '')) {
		return required ? invalid(`${name} is required`) : undefined;
	}
	if (typeof value !== 'string') return invalid(`${name} must be a string, got ${quote(value)}`);
	if (required && value.trim() === '') return invalid(`${name} is required`);
	if (value.length > max) {
		return invalid(`${name} must be at most ${max} characters, got ${value.length}`);
	}
	return value;
}

/** item_rate_per_unit: a number or numeric text, above 0 and at most 9999999. */
export function parseRate(value: unknown): number {
	if (value === undefined || value === null || value === '') {
		return invalid('item_rate_per_unit is required');
	}
	const numeric =
		(typeof value === 'number' && Number.isFinite(value)) ||
		(typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value));
	const rate = numeric ? Number(value) : NaN;
	const { above = 0, max = ITEM_RATE_MAX } = ruleAt(RULES, 'item_rate_per_unit');
	if (!(rate > above && rate <= max)) {
		const rule = `a number above ${above} and at most ${max}`;
		return invalid(`item_rate_per_unit must be ${rule}, got ${quote(value)}`);
	}
	return rate;
}

interface ItemFields {
	item_name: string;
	item_rate: number;
	item_category: string;
	/** undefined: not sent. */
	item_description?: string;
}

function itemFields(body: Record<string, unknown>): ItemFields {
	return {
		item_name: text(body, 'item_name') as string,
		item_rate: parseRate(body.item_rate_per_unit),
		item_category: text(body, 'item_category') as string,
		item_description: text(body, 'item_description'),
	};
}

const nameKey = (name: string) => name.trim().toLowerCase();

/** Names are unique per merchant, ignoring case, among items not deleted (deactivated count). */
function checkUniqueName(state: SandboxState, name: string, except?: string): void {
	for (const item of state.invoiceItems.values()) {
		if (item.data_id !== except && nameKey(item.item_name) === nameKey(name)) {
			invalid('Item name already exists');
		}
	}
}

/** The item a data_id names: 400 when missing, 404 when unknown (or deleted). */
export function findItem(state: SandboxState, dataId: unknown): InvoiceItemRecord {
	if (dataId === undefined || dataId === null || dataId === '') invalid('data_id is required');
	if (typeof dataId !== 'string') invalid(`data_id must be a string, got ${quote(dataId)}`);
	const item = state.invoiceItems.get(dataId as string);
	if (!item) throw new HttpError(404, 'Item not found');
	return item;
}

export function addItem(state: SandboxState, input: unknown, now = Date.now()): InvoiceItemRecord {
	const fields = itemFields(bodyObject(input));
	checkUniqueName(state, fields.item_name);
	const date = formatItemDate(now);
	const item: InvoiceItemRecord = {
		item_id: String(state.nextSequence('invoiceItem')),
		// Opaque like the service's encrypted token; URL-safe for the details query.
		data_id: randomBytes(18).toString('base64url'),
		item_name: fields.item_name,
		item_rate: fields.item_rate,
		item_category: fields.item_category,
		item_description: fields.item_description ?? '',
		submerchant_name: SUBMERCHANT_NAME,
		status: 'Active',
		created_date: date,
		last_modified_date: date,
	};
	state.invoiceItems.set(item.data_id, item);
	return item;
}

/** A seeded item, unique by its number: skips the name check, which costs O(n) per add. */
export function seedInvoiceItem(state: SandboxState, n: number): InvoiceItemRecord {
	const date = formatItemDate(Date.UTC(2026, 0, 1) + n * 60_000);
	const item: InvoiceItemRecord = {
		item_id: String(state.nextSequence('invoiceItem')),
		data_id: randomBytes(18).toString('base64url'),
		item_name: `Seeded item ${n}`,
		item_rate: 10 + (n % 90),
		item_category: n % 2 ? 'Services' : 'Goods',
		item_description: `Seeded description ${n}`,
		submerchant_name: SUBMERCHANT_NAME,
		status: 'Active',
		created_date: date,
		last_modified_date: date,
	};
	state.invoiceItems.set(item.data_id, item);
	return item;
}

/** Replaces name, rate and category; description only when sent. Status is kept. */
export function updateItem(
	state: SandboxState,
	input: unknown,
	now = Date.now(),
): InvoiceItemRecord {
	const body = bodyObject(input);
	const item = findItem(state, body.data_id);
	const fields = itemFields(body);
	checkUniqueName(state, fields.item_name, item.data_id);
	item.item_name = fields.item_name;
	item.item_rate = fields.item_rate;
	item.item_category = fields.item_category;
	if (fields.item_description !== undefined) item.item_description = fields.item_description;
	item.last_modified_date = formatItemDate(now);
	return item;
}

/** Active ↔ Deactivated; asking for the state the item is already in is a 400. */
export function setItemStatus(
	state: SandboxState,
	input: unknown,
	status: InvoiceItemRecord['status'],
	now = Date.now(),
): InvoiceItemRecord {
	const item = findItem(state, bodyObject(input).data_id);
	if (item.status === status) {
		invalid(`Item is already ${status === 'Active' ? 'active' : 'deactivated'}`);
	}
	item.status = status;
	item.last_modified_date = formatItemDate(now);
	return item;
}

/** Removed for good: details, list, update and status changes then answer 404. */
export function deleteItem(state: SandboxState, input: unknown): InvoiceItemRecord {
	const item = findItem(state, bodyObject(input).data_id);
	state.invoiceItems.delete(item.data_id);
	return item;
}

/** The details endpoint's data: exactly the spec's fields. */
export function itemDetails(item: InvoiceItemRecord) {
	return {
		item_id: item.item_id,
		data_id: item.data_id,
		item_name: item.item_name,
		item_rate: item.item_rate,
		item_category: item.item_category,
		item_description: item.item_description,
		submerchant_name: item.submerchant_name,
		status: item.status,
	};
}
