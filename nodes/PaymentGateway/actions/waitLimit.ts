/**
 * The Wait Limit of the operations that pause an execution (Order → Wait for Payment, Payout →
 * Wait for Results): its two fields, declared once, and its reading in milliseconds.
 */
import type { FieldTable, Violation } from '../fields/types';

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
const MAX_WAIT_MS = 366 * UNIT_MS.days;

/** Wait Limit and Wait Limit Unit; `description` says what happens at the limit. */
export function waitLimitFields(description: string): FieldTable {
	return [
		{
			name: 'waitLimit',
			displayName: 'Wait Limit',
			type: 'number',
			above: 0,
			required: true,
			description,
			ui: { default: 1 },
		},
		{
			name: 'waitLimitUnit',
			displayName: 'Wait Limit Unit',
			type: 'options',
			required: true,
			options: [
				{ name: 'Minutes', value: 'minutes' },
				{ name: 'Hours', value: 'hours' },
				{ name: 'Days', value: 'days' },
			],
			ui: { default: 'days' },
		},
	];
}

/** The limit in milliseconds from the fields' checked values, and the rule of at most 366 days. */
export function waitMsOf(values: Record<string, unknown>): {
	waitMs: number;
	violations: Violation[];
} {
	const waitMs = Number(values.waitLimit) * (UNIT_MS[String(values.waitLimitUnit)] ?? NaN);
	const violations: Violation[] =
		waitMs > MAX_WAIT_MS
			? [{ field: 'Wait Limit', rule: 'must be at most 366 days', value: values.waitLimit }]
			: [];
	return { waitMs, violations };
}
