import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { PaymentGatewayPollTrigger } from '../../nodes/PaymentGatewayPollTrigger/PaymentGatewayPollTrigger.node';
import { PaymentGatewayPayoutTrigger } from '../../nodes/PaymentGatewayPayoutTrigger/PaymentGatewayPayoutTrigger.node';
import * as invoiceItem from '../../nodes/PaymentGateway/actions/invoiceItem/InvoiceItem.resource';
import * as order from '../../nodes/PaymentGateway/actions/order/Order.resource';
import * as payment from '../../nodes/PaymentGateway/actions/payment/Payment.resource';
import * as paymentLink from '../../nodes/PaymentGateway/actions/paymentLink/PaymentLink.resource';
import * as payout from '../../nodes/PaymentGateway/actions/payout/Payout.resource';
import * as subscriptionPlan from '../../nodes/PaymentGateway/actions/subscriptionPlan/SubscriptionPlan.resource';
import * as transaction from '../../nodes/PaymentGateway/actions/transaction/Transaction.resource';
import type { Field, FieldTable } from '../../nodes/PaymentGateway/fields/types';

/**
 * docs/operations.md's parameter tables, generated from the nodes' own descriptions (and, for
 * operations declared as field tables, their rules). Prose around the tables is written by hand;
 * only the blocks between the markers are generated. UPDATE_DOCS=1 rewrites them.
 */
const RESOURCE_MODULES: Record<string, Record<string, unknown>> = {
	invoiceItem,
	order,
	payment,
	paymentLink,
	payout,
	subscriptionPlan,
	transaction,
};

export const TRIGGER_KEY = 'trigger';
export const POLL_TRIGGER_KEY = 'pollTrigger';
export const PAYOUT_TRIGGER_KEY = 'payoutTrigger';
const BEGIN = (key: string) => `<!-- BEGIN GENERATED PARAMETERS ${key} -->`;
const END = '<!-- END GENERATED PARAMETERS -->';
const BLOCK =
	/<!-- BEGIN GENERATED PARAMETERS (\S+) -->\n[\s\S]*?<!-- END GENERATED PARAMETERS -->/g;

export interface OperationRef {
	key: string;
	resource: { value: string; name: string };
	operation: { value: string; name: string; description?: string };
}

const actionNode = new PaymentGateway().description;
const triggerNode = new PaymentGatewayTrigger().description;
const pollTriggerNode = new PaymentGatewayPollTrigger().description;
const payoutTriggerNode = new PaymentGatewayPayoutTrigger().description;
const TRIGGERS: Record<string, INodeTypeDescription> = {
	[TRIGGER_KEY]: triggerNode,
	[POLL_TRIGGER_KEY]: pollTriggerNode,
	[PAYOUT_TRIGGER_KEY]: payoutTriggerNode,
};

/** Every resource and operation the action node offers, in the editor's order. */
export function operations(): OperationRef[] {
	const resourceProperty = actionNode.properties.find((p) => p.name === 'resource');
	const resources = (resourceProperty?.options ?? []) as INodePropertyOptions[];
	return resources.flatMap((resource) => {
		const operationProperty = actionNode.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		);
		return ((operationProperty?.options ?? []) as INodePropertyOptions[]).map((operation) => ({
			key: `${resource.value}:${operation.value}`,
			resource: { value: String(resource.value), name: resource.name },
			operation: {
				value: String(operation.value),
				name: operation.name,
				description: operation.description,
			},
		}));
	});
}

/** The GitHub anchor of a heading, for the codex and links. */
export function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

export const headingOf = (ref: OperationRef) => `${ref.resource.name}: ${ref.operation.name}`;

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const { show, hide } = property.displayOptions ?? {};
	if (show?.resource && !show.resource.includes(resource)) return false;
	if (show?.operation && !show.operation.includes(operation)) return false;
	if (hide?.resource?.includes(resource) || hide?.operation?.includes(operation)) return false;
	return !['resource', 'operation'].includes(property.name);
}

function condition(property: INodeProperties): string {
	const show = { ...(property.displayOptions?.show ?? {}) };
	delete show.resource;
	delete show.operation;
	// n8n's condition form ({ _cnd: { gte: 3 } }) in words: "3 or later".
	const word = (v: unknown) => {
		const c = (v as { _cnd?: Record<string, unknown> })?._cnd;
		if (!c) return String(v);
		const [[op, n]] = Object.entries(c);
		return op === 'gte' ? `${String(n)} or later` : `${op} ${String(n)}`;
	};
	const parts = Object.entries(show).map(
		([name, values]) => `${name} is ${(values ?? []).map(word).join(' or ')}`,
	);
	return parts.length ? `Shown when ${parts.join(' and ')}.` : '';
}

/** The rules of a field table entry, in words. */
export function rulesOf(field: Field): string {
	const rules: string[] = [];
	if (field.required) rules.push('required');
	const byType: Partial<Record<Field['type'], string>> = {
		email: 'a valid email address',
		url: 'a URL',
		webhookUrl: 'https:// (http:// only for loopback)',
		country: 'ISO 3166-1 alpha-2 code',
		digits: 'digits only',
		dialingCode: 'a dialing code',
		date: 'a date',
		json: 'JSON',
	};
	if (byType[field.type]) rules.push(byType[field.type] as string);
	if (field.type === 'currency') {
		rules.push(
			field.currencies === 'iso'
				? 'an active ISO 4217 code'
				: 'one of the ten supported currencies',
		);
	}
	if (field.integer) rules.push('a whole number');
	if (field.min !== undefined) rules.push(`at least ${field.min}`);
	if (field.above !== undefined) rules.push(`above ${field.above}`);
	if (field.max !== undefined) rules.push(`at most ${field.max}`);
	if (field.decimals !== undefined) rules.push(`at most ${field.decimals} decimal places`);
	if (field.minLength !== undefined && field.maxLength !== undefined) {
		rules.push(`${field.minLength}–${field.maxLength} characters`);
	} else if (field.maxLength !== undefined) rules.push(`at most ${field.maxLength} characters`);
	else if (field.minLength !== undefined) rules.push(`at least ${field.minLength} characters`);
	if (field.pattern) rules.push(field.pattern.rule);
	if (field.options) rules.push(`one of the options${field.caseInsensitive ? ' (any case)' : ''}`);
	return rules.join('; ');
}

function tableRules(resource: string, operation: string): Map<string, string> {
	const module = RESOURCE_MODULES[resource]?.[operation] as { table?: FieldTable } | undefined;
	const rules = new Map<string, string>();
	for (const entry of module?.table ?? []) {
		if ('group' in entry) {
			for (const field of entry.fields) rules.set(`${entry.name}.${field.name}`, rulesOf(field));
		} else rules.set(entry.name, rulesOf(entry));
	}
	return rules;
}

const cell = (text: unknown) =>
	String(text ?? '')
		.replace(/\|/g, '\\|')
		.replace(/\s*\n\s*/g, ' ')
		.trim();

function defaultOf(property: INodeProperties): string {
	const value = property.default;
	if (value === '' || value === undefined || value === null) return '';
	if (typeof value === 'object')
		return Object.keys(value).length ? `\`${JSON.stringify(value)}\`` : '';
	return `\`${String(value)}\``;
}

function optionsOf(property: INodeProperties): string {
	if (!['options', 'multiOptions'].includes(property.type)) return '';
	const options = (property.options ?? []) as INodePropertyOptions[];
	if (options.length === 0) return '';
	return `Options: ${options.map((o) => `${o.name} (\`${String(o.value)}\`)`).join(', ')}.`;
}

interface Row {
	parameter: string;
	type: string;
	def: string;
	details: string;
}

function rowsOf(property: INodeProperties, rules: Map<string, string>, path: string[] = []): Row[] {
	const name = [...path, property.name].join('.');
	const rule = rules.get(name);
	const sentence = (text?: string) =>
		text && !/[.!?:]$/.test(text.trim()) ? `${text.trim()}.` : text;
	const details = [
		sentence(property.description),
		optionsOf(property),
		condition(property),
		rule ? `Rules: ${rule}.` : '',
	]
		.filter(Boolean)
		.join(' ');
	const row: Row = {
		parameter: `${[...path.map(() => '↳ '), property.displayName].join('')} (\`${property.name}\`)${property.required ? ' *' : ''}`,
		type: property.type,
		def: defaultOf(property),
		details,
	};
	const children: Row[] = [];
	if (property.type === 'collection') {
		for (const option of (property.options ?? []) as INodeProperties[]) {
			children.push(...rowsOf(option, rules, [...path, property.name]));
		}
	}
	if (property.type === 'fixedCollection') {
		for (const entry of (property.options ?? []) as INodePropertyCollection[]) {
			for (const value of entry.values)
				children.push(...rowsOf(value, rules, [...path, property.name]));
		}
	}
	return [row, ...children];
}

function table(properties: INodeProperties[], rules: Map<string, string>): string {
	const rows = properties.flatMap((property) => rowsOf(property, rules));
	const lines = ['| Parameter | Type | Default | Description and rules |', '|---|---|---|---|'];
	for (const row of rows)
		lines.push(
			`| ${cell(row.parameter)} | ${row.type} | ${cell(row.def)} | ${cell(row.details)} |`,
		);
	return lines.join('\n');
}

function propertiesOf(description: INodeTypeDescription, ref?: OperationRef): INodeProperties[] {
	if (!ref) return description.properties;
	return description.properties.filter((p) => shownFor(p, ref.resource.value, ref.operation.value));
}

/** The generated block of one operation (or of the trigger), markers included. */
export function renderBlock(key: string): string {
	const ref = operations().find((op) => op.key === key);
	if (!TRIGGERS[key] && !ref) throw new Error(`Unknown operation ${key}`);
	const description = TRIGGERS[key] ?? actionNode;
	const rules = ref
		? tableRules(ref.resource.value, ref.operation.value)
		: new Map<string, string>();
	const body = table(propertiesOf(description, ref), rules);
	return `${BEGIN(key)}\n${body}\n\n\\* required\n${END}`;
}

export const allKeys = () => [
	...operations().map((op) => op.key),
	TRIGGER_KEY,
	POLL_TRIGGER_KEY,
	PAYOUT_TRIGGER_KEY,
];

/** The document with every block regenerated, unknown blocks dropped and missing ones appended. */
export function updateDoc(text: string): string {
	const known = new Set(allKeys());
	const seen = new Set<string>();
	let updated = text.replace(BLOCK, (_match, key: string) => {
		if (!known.has(key)) return '';
		seen.add(key);
		return renderBlock(key);
	});
	const missing = operations().filter((op) => !seen.has(op.key));
	for (const op of missing) {
		updated = `${updated.trimEnd()}\n\n### ${headingOf(op)}\n\n${op.operation.description ?? ''}\n\n${renderBlock(op.key)}\n`;
	}
	if (!seen.has(TRIGGER_KEY)) {
		updated = `${updated.trimEnd()}\n\n## Payment Gateway Trigger\n\n${renderBlock(TRIGGER_KEY)}\n`;
	}
	if (!seen.has(POLL_TRIGGER_KEY)) {
		updated = `${updated.trimEnd()}\n\n## Payment Gateway Poll Trigger\n\n${pollTriggerNode.description}. How it works: [the poll trigger](poll-trigger.md).\n\n${renderBlock(POLL_TRIGGER_KEY)}\n`;
	}
	if (!seen.has(PAYOUT_TRIGGER_KEY)) {
		updated = `${updated.trimEnd()}\n\n## Payment Gateway Payout Results Trigger\n\n${payoutTriggerNode.description}. How it works: [payout results](payout-results.md).\n\n${renderBlock(PAYOUT_TRIGGER_KEY)}\n`;
	}
	return updated;
}

/** Keys of the blocks a document holds, in order. */
export const blockKeys = (text: string) => [...text.matchAll(BLOCK)].map((m) => m[1]);
