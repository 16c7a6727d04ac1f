import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Violation } from '../fields/types';

export type { Violation } from '../fields/types';
export { SUPPORTED_CURRENCIES } from '../fields/codes';

export const TRANSACTION_STATUSES = [
	'PENDING',
	'AUTHORISED',
	'CAPTURED',
	'PARTIALLY_CAPTURE',
	'VOID',
	'PARTIALLY_REFUNDED',
	'REFUNDED',
	'FAILED',
];

export function describeViolation(v: Violation): string {
	return `${v.field} ${v.rule} (received ${JSON.stringify(v.value) ?? String(v.value)})`;
}

/** Stops the item before anything is sent, naming every broken rule. */
export function assertValid(ctx: IExecuteFunctions, itemIndex: number, violations: Violation[]): void {
	if (violations.length === 0) return;
	const lines = violations.map(describeViolation);
	const message =
		violations.length === 1 ? `Invalid ${lines[0]}` : `${violations.length} invalid fields: ${lines.join('; ')}`;
	const error = new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: `Nothing was sent to the service. ${lines.map((l) => `- ${l}`).join('\n')}`,
	});
	error.context.violations = violations.map((v) => ({ ...v }));
	throw error;
}

export const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** A parameter value as trimmed text; nothing (undefined, null) becomes ''. */
export const toText = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/** Reads a date picker value, an ISO date-time or YYYY-MM-DD as the YYYY-MM-DD the service takes (the one calendar check). */
export { toCalendarDate as toIsoDate } from '../fields/coerce';

export const isDigits = (text: string) => /^\d+$/.test(text);

export const isCountryCode = (text: string) => /^[A-Za-z]{2}$/.test(text);

export const isCurrencyCode = (text: string) => /^[A-Za-z]{3}$/.test(text);

/** A plain number: no currency symbol, commas or spaces. */
export function toPlainNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
	return undefined;
}
