import type { IDataObject } from 'n8n-workflow';

import * as invoiceItem from '../../nodes/PaymentGateway/actions/invoiceItem/InvoiceItem.resource';
import * as order from '../../nodes/PaymentGateway/actions/order/Order.resource';
import * as payment from '../../nodes/PaymentGateway/actions/payment/Payment.resource';
import * as paymentLink from '../../nodes/PaymentGateway/actions/paymentLink/PaymentLink.resource';
import * as payout from '../../nodes/PaymentGateway/actions/payout/Payout.resource';
import * as subscriptionPlan from '../../nodes/PaymentGateway/actions/subscriptionPlan/SubscriptionPlan.resource';
import * as transaction from '../../nodes/PaymentGateway/actions/transaction/Transaction.resource';
import type { FieldTable } from '../../nodes/PaymentGateway/fields/types';
import type { SheetSchema } from '../../nodes/PaymentGateway/spreadsheet/schema';
import { BASELINES, rememberSeed } from '../badInput/baselines';
import { BULK_BASELINES } from '../badInput/bulkBaselines';
import type { Baseline } from '../badInput/baselines';
import { itemsOf, rulesOfRequests, slotsOf, type FieldSlot } from '../badInput/sets';
import { BAD_EXPRESSION, badValuesFor, edgeValuesFor, type BadValue } from '../badInput/values';
import type { Sandbox } from '../sandbox';
import type { WireRule, WireRules } from '../sandbox/rules';
import { startSandbox } from '../sandbox';
import { runGateway } from './support';

/**
 * Generated bad input: for every field of every operation's table, values an expression can give
 * that break one rule (wrong shape, wrong type, out of range, broken text, empty where required),
 * each run as one item on top of a valid baseline. Every one must be refused by a clear error naming
 * the field, and nothing may reach the service.
 */
const RESOURCES = {
	invoiceItem,
	order,
	payment,
	paymentLink,
	payout,
	subscriptionPlan,
	transaction,
};

const operations = Object.entries(RESOURCES).flatMap(([resource, module]) =>
	Object.entries(module as Record<string, unknown>)
		.filter(
			([name, op]) =>
				name !== 'description' && typeof (op as { execute?: unknown }).execute === 'function',
		)
		.map(([name, op]) => ({
			key: `${resource}.${name}`,
			table: (op as { table?: FieldTable }).table,
			sheet: (op as { sheet?: SheetSchema }).sheet,
		})),
);

/**
 * Parameter values the node deliberately turns into something else rather than refusing, although
 * the wire refuses them: Discount Term 0 means "no discount term" and is left out of the body (the
 * seed: discount_amount is required only if discount_term is above 0).
 */
const TRANSLATED: Record<string, unknown[]> = {
	'subscriptionPlan.create terms.discount_term': [0],
};
const translated = (key: string, wire: string, bad: BadValue) =>
	TRANSLATED[`${key} ${wire}`]?.includes(bad.v) ?? false;

let sandbox: Sandbox;
const tally = { sets: 0, refused: 0, sent: 0, crashed: 0, unclear: [] as string[] };
/** Values just inside the sandbox's limits: each must pass the node's own checks. */
const edges = { sets: 0, accepted: 0, refused: [] as string[] };

/** Counts the edge values of one run: refused if the node named the field in a violation. */
function countEdges(
	key: string,
	label: string,
	values: BadValue[],
	refusedAt: (i: number) => boolean,
) {
	edges.sets += values.length;
	values.forEach((edge, i) => {
		if (refusedAt(i))
			edges.refused.push(`${key} ${label} ← ${edge.why}: ${JSON.stringify(edge.v)}`);
		else edges.accepted++;
	});
}

const named = (json: IDataObject, label: string, item?: number) =>
	((json.violations as Array<{ field: string; item?: number }> | undefined) ?? []).some(
		(v) => v.field === label && (item === undefined || v.item === item),
	);

/**
 * Bulk "from input items": every column of the sheet, broken once per generated value, one value per
 * input item (row), the other cells valid. The one upload must be refused naming each row's column.
 */
async function breakEveryColumn(key: string, sheet: SheetSchema, rules: WireRules): Promise<void> {
	const baseline = await BULK_BASELINES[key]();
	const parameters = { ...baseline.parameters, inputMode: 'items' };
	for (const column of sheet.columns) {
		const values = badValuesFor(column, rules[column.displayName]);
		sandbox.clearRequests();
		const result = await runGateway(sandbox, {
			parameters: { ...parameters, [column.name]: BAD_EXPRESSION },
			credentialType: baseline.credentialType,
			items: values.map(({ v, special, why }, i) => ({ ...baseline.row(i), v, special, why })),
			continueOnFail: true,
		});
		tally.sets += values.length;
		tally.sent += sandbox.requests.length;
		const json = (result.outputs.Gateway?.[0]?.json ?? {}) as IDataObject;
		const violations =
			(json.violations as Array<{ field: string; item?: number }> | undefined) ?? [];
		values.forEach((bad, i) => {
			if (violations.some((v) => v.field === column.displayName && v.item === i)) tally.refused++;
			else if (!json.violations && !json.code) tally.crashed++;
			else tally.unclear.push(`${key} ${column.displayName} ← ${bad.why}: ${String(json.error)}`);
		});
	}
}

/** Edge values of every column of a bulk sheet, one row each, in one run per column. */
async function edgeEveryColumn(key: string, sheet: SheetSchema, rules: WireRules): Promise<void> {
	const baseline = await BULK_BASELINES[key]();
	const parameters = { ...baseline.parameters, inputMode: 'items' };
	for (const column of sheet.columns) {
		const values = edgeValuesFor(column, rules[column.displayName]);
		if (values.length === 0) continue;
		const result = await runGateway(sandbox, {
			parameters: { ...parameters, [column.name]: BAD_EXPRESSION },
			credentialType: baseline.credentialType,
			items: values.map(({ v, why }, i) => ({ ...baseline.row(i), v, why })),
			continueOnFail: true,
		});
		const json = (result.outputs.Gateway?.[0]?.json ?? {}) as IDataObject;
		countEdges(key, column.displayName, values, (i) => named(json, column.displayName, i));
	}
}

/** Edge values of one field, one item each; they may reach the service, which is fine. */
async function edgeSlot(
	key: string,
	slot: FieldSlot,
	rule: WireRule | undefined,
	baseline: Baseline,
) {
	const values = edgeValuesFor(slot.field, rule);
	if (values.length === 0) return;
	const result = await runGateway(sandbox, {
		parameters: slot.withBad(baseline.parameters),
		credentialType: baseline.credentialType,
		binary: baseline.binary,
		items: itemsOf(values),
		continueOnFail: true,
	});
	const out = result.outputs.Gateway ?? [];
	countEdges(key, slot.label, values, (i) =>
		named((out[i]?.json ?? {}) as IDataObject, slot.label),
	);
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 11, transactionCount: 300 });
	rememberSeed(sandbox);
});
afterAll(async () => {
	await sandbox.stop();
	console.log(
		`bad input: ${tally.sets} sets, ${tally.refused} refused clearly, ${tally.sent} sent, ${tally.crashed} crashed`,
	);
	console.log(
		`edge values: ${edges.sets} sets, ${edges.accepted} accepted, ${edges.refused.length} refused`,
	);
});

describe('generated bad input', () => {
	it('covers every operation with a field table and a baseline', () => {
		expect(operations.filter((op) => !op.table || !BASELINES[op.key]).map((op) => op.key)).toEqual(
			[],
		);
	});

	describe.each(operations.filter((op) => op.table && BASELINES[op.key]))(
		'$key',
		({ key, table, sheet }) => {
			it('succeeds with the valid baseline, then refuses every generated bad value before sending', async () => {
				const baseline = await BASELINES[key](sandbox);
				const { credentialType, binary } = baseline;
				sandbox.clearRequests();
				const valid = await runGateway(sandbox, {
					parameters: baseline.parameters,
					credentialType,
					binary,
				});
				expect(valid.error).toBeUndefined();
				// The limits come from the sandbox's rules of the endpoints the valid run called.
				const rules = rulesOfRequests(sandbox.requests);
				expect(
					Object.keys(rules.fields).length + Object.keys(rules.columns).length,
				).toBeGreaterThan(0);

				for (const slot of slotsOf(table!)) {
					const values = badValuesFor(slot.field, rules.fields[slot.wire]).filter(
						(bad) => !translated(key, slot.wire, bad),
					);
					if (values.length === 0) continue;
					sandbox.clearRequests();
					const result = await runGateway(sandbox, {
						parameters: slot.withBad(baseline.parameters),
						credentialType,
						binary,
						items: itemsOf(values),
						continueOnFail: true,
					});
					tally.sets += values.length;
					tally.sent += sandbox.requests.length;
					const out = result.outputs.Gateway ?? [];
					values.forEach((bad, i) => {
						const json = (out[i]?.json ?? {}) as IDataObject;
						const violations = (json.violations as Array<{ field: string }> | undefined) ?? [];
						if (violations.some((v) => v.field === slot.label)) tally.refused++;
						else if (!json.violations && !json.code) tally.crashed++;
						else tally.unclear.push(`${key} ${slot.label} ← ${bad.why}: ${String(json.error)}`);
					});
				}
				if (sheet) await breakEveryColumn(key, sheet, rules.columns);
				expect(tally.unclear.filter((u) => u.startsWith(`${key} `))).toEqual([]);

				// Last: these may reach the service and use up what the baseline set up.
				for (const slot of slotsOf(table!))
					await edgeSlot(key, slot, rules.fields[slot.wire], baseline);
				if (sheet) await edgeEveryColumn(key, sheet, rules.columns);
				expect(edges.refused.filter((u) => u.startsWith(`${key} `))).toEqual([]);
			});
		},
	);

	it('accepts every value just inside the sandbox limits', () => {
		expect(edges.sets).toBeGreaterThanOrEqual(60);
		expect(edges.refused).toEqual([]);
		expect(edges.accepted).toBe(edges.sets);
	});

	it('adds up: every set refused clearly, none sent, none crashed', () => {
		expect(tally.sets).toBeGreaterThanOrEqual(2000);
		expect({ sent: tally.sent, crashed: tally.crashed, refused: tally.refused }).toEqual({
			sent: 0,
			crashed: 0,
			refused: tally.sets,
		});
	});
});
