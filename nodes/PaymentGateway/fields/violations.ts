import { NodeOperationError } from 'n8n-workflow';

import type { NodeContext } from '../helpers/context';

import type { Violation } from './types';

/** The field as the panel shows it, then as the service names it (when that differs). */
export function violationName(v: Violation): string {
	const panel = v.displayName?.toLowerCase();
	const service = v.field.toLowerCase();
	if (!v.displayName || panel === service) return v.field;
	// A field whose service name is its panel name ("Line Items (JSON)"): the panel path alone.
	if (panel!.endsWith(`> ${service}`)) return v.displayName;
	return `${v.displayName}: ${v.field}`;
}

export function describeViolation(v: Violation): string {
	return `${violationName(v)} ${v.rule} (received ${JSON.stringify(v.value) ?? String(v.value)})`;
}

/** Stops the item before anything is sent, naming every broken rule. */
export function assertValid(ctx: NodeContext, itemIndex: number, violations: Violation[]): void {
	if (violations.length === 0) return;
	const lines = violations.map(describeViolation);
	const message =
		violations.length === 1
			? `Invalid ${lines[0]}`
			: `${violations.length} invalid fields: ${lines.join('; ')}`;
	const error = new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: `Nothing was sent to the service. Correct ${violations.length === 1 ? 'this field' : 'these fields'} and run again:\n${lines.map((l) => `- ${l}`).join('\n')}`,
	});
	error.context.violations = violations.map((v) => ({ ...v }));
	throw error;
}
