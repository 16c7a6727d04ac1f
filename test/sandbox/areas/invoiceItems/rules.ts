import type { EndpointRules, WireRules } from '../../rules/types';

/** Invoice item fields of add and update (seed: Invoice item, Limits). */
const ITEM_FIELDS: WireRules = {
	item_name: { type: 'text', required: true, minLength: 1, maxLength: 50 },
	item_rate_per_unit: { type: 'number', required: true, above: 0, max: 9_999_999 },
	item_category: { type: 'text', required: true, maxLength: 100 },
	item_description: { type: 'text', maxLength: 200 },
};
const DATA_ID: WireRules = { data_id: { type: 'text', required: true } };

const itemPost = (name: string, fields: WireRules): EndpointRules => ({
	method: 'POST',
	path: `/invoice/v1/items/${name}`,
	fields,
});

export const INVOICE_ITEM_ADD = itemPost('add', ITEM_FIELDS);
export const INVOICE_ITEM_UPDATE = itemPost('update', { ...DATA_ID, ...ITEM_FIELDS });
export const INVOICE_ITEM_STATUS = ['activate', 'deactivate', 'delete'].map((name) =>
	itemPost(name, DATA_ID),
);
export const INVOICE_ITEM_DETAILS: EndpointRules = {
	method: 'GET',
	path: '/invoice/v1/items/details',
	fields: DATA_ID,
};
export const INVOICE_ITEM_LIST: EndpointRules = {
	method: 'GET',
	path: '/invoice/v1/items/list',
	fields: {
		perpage: { type: 'integer', required: true, min: 1, max: 1000 },
		page: { type: 'integer', required: true, min: 1, max: 1000 },
		status: { type: 'text', oneOf: ['Active', 'Deactivated'] },
	},
};
