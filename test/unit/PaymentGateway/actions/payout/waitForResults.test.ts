import type { INode } from 'n8n-workflow';

import {
	CHECK_NOTE,
	firstWait,
	isLastCheck,
	nextWait,
} from '../../../../../nodes/PaymentGateway/actions/payout/waitForResults.checks';
import { runsAgainAtTimeOut } from '../../../../../nodes/PaymentGateway/actions/timeOutTurns';
import { nodeOutputs } from '../nodeOutputs';

describe('Payout > Wait for Results: the node outputs as n8n evaluates them', () => {
	const outputsFor = (parameters: Record<string, string>) => nodeOutputs(parameters, 3);

	it('three named outputs, Still Pending first', () => {
		expect(outputsFor({ resource: 'payout', operation: 'waitForResults' })).toEqual([
			{ type: 'main', displayName: 'Still Pending' },
			{ type: 'main', displayName: 'Paid' },
			{ type: 'main', displayName: 'Failed' },
		]);
	});

	it.each([
		{ resource: 'payout', operation: 'bulkCreate' },
		{ resource: 'payout' },
		{ operation: 'waitForResults' },
	])('one output otherwise (%p)', (parameters) => {
		expect(outputsFor(parameters as Record<string, string>)).toEqual(['main']);
	});
});

describe('Payout > Wait for Results: its checks', () => {
	const MINUTE = 60_000;
	const ctx = { getWorkflowDataProxy: () => ({ $runIndex: 0 }) } as never;

	it('come 1, 2, 4 and 8 minutes apart, then every 15, the last one at the wait limit', () => {
		const start = new Date('2026-11-01T00:00:00Z');
		let note = firstWait(ctx, ['n8n-a'], start, 60 * MINUTE);
		const gaps: number[] = [];
		let now = start;
		for (;;) {
			gaps.push((Date.parse(note.checkAt) - now.getTime()) / MINUTE);
			if (isLastCheck(note)) break;
			now = new Date(note.checkAt);
			note = nextWait(note, now);
		}
		expect(gaps).toEqual([1, 2, 4, 8, 15, 15, 15]);
		expect(note.checkAt).toBe('2026-11-01T01:00:00.000Z');
	});

	it.each([
		['0.25', [15, 30, 60, 120, 225, 225], 'a quarter of each step'],
		['0.001', [15, 15, 15, 15, 15, 15], 'never closer than 15 s, however small the scale'],
		['', [60, 120, 240, 480, 900, 900], 'unset: the product schedule'],
		['3', [60, 120, 240, 480, 900, 900], 'above 1: the product schedule'],
		['0', [60, 120, 240, 480, 900, 900], 'zero: the product schedule'],
		['-1', [60, 120, 240, 480, 900, 900], 'negative: the product schedule'],
		['fast', [60, 120, 240, 480, 900, 900], 'not a number: the product schedule'],
	])('PAYMENT_GATEWAY_RESULTS_CHECK_SCALE=%p: seconds between checks %p (%s)', (scale, seconds) => {
		const before = process.env.PAYMENT_GATEWAY_RESULTS_CHECK_SCALE;
		process.env.PAYMENT_GATEWAY_RESULTS_CHECK_SCALE = scale;
		try {
			const start = new Date('2026-11-01T00:00:00Z');
			let note = firstWait(ctx, ['n8n-a'], start, 86_400_000);
			const gaps: number[] = [];
			for (let now = start; gaps.length < 6; note = nextWait(note, now)) {
				gaps.push((Date.parse(note.checkAt) - now.getTime()) / 1000);
				now = new Date(note.checkAt);
			}
			expect(gaps).toEqual(seconds);
		} finally {
			if (before === undefined) delete process.env.PAYMENT_GATEWAY_RESULTS_CHECK_SCALE;
			else process.env.PAYMENT_GATEWAY_RESULTS_CHECK_SCALE = before;
		}
	});

	it('a limit shorter than the first step: one check, at the limit', () => {
		const start = new Date('2026-11-01T00:00:00Z');
		const note = firstWait(ctx, ['n8n-a'], start, 30_000);
		expect(note.checkAt).toBe('2026-11-01T00:00:30.000Z');
		expect(isLastCheck(note)).toBe(true);
	});
});

describe("the time-out look's selector: operations registered with their note", () => {
	const waiting = (parameters: Record<string, string>, context?: Record<string, unknown>) => ({
		node: {
			name: 'Gateway',
			type: 'n8n-nodes-payment-gateway.paymentGateway',
			parameters,
		} as unknown as INode,
		context: context as never,
	});
	const note = { requestIds: ['n8n-a'], runIndex: 0, limitAt: '2026-11-02T00:00:00Z' };

	it('runs a waiting Wait for Results node again when it noted its wait', () => {
		expect(
			runsAgainAtTimeOut(
				waiting({ resource: 'payout', operation: 'waitForResults' }, { [CHECK_NOTE]: note }),
			),
		).toBe(true);
	});

	it('and Wait for Payment with its own note, as before', () => {
		const paymentNote = { orderId: '1', runIndex: 0, waitTill: '2026-11-02T00:00:00Z' };
		expect(
			runsAgainAtTimeOut(
				waiting({ operation: 'waitForPayment' }, { paymentGatewayTimeOutTurn: paymentNote }),
			),
		).toBe(true);
	});

	it.each([
		['no note', { resource: 'payout', operation: 'waitForResults' }, undefined],
		[
			'the other operation’s note',
			{ resource: 'order', operation: 'waitForPayment' },
			{ [CHECK_NOTE]: note },
		],
		['another operation', { resource: 'payout', operation: 'bulkCreate' }, { [CHECK_NOTE]: note }],
	])('leaves n8n’s own time-out: %s', (_, parameters, context) => {
		expect(runsAgainAtTimeOut(waiting(parameters, context))).toBe(false);
	});
});

describe('Payout > Wait for Results: where n8n cannot run the node at its checks, it refuses to wait', () => {
	type Checks =
		typeof import('../../../../../nodes/PaymentGateway/actions/payout/waitForResults.checks');
	/** A fresh copy of the module and the door (each asks n8n's engine once per process). */
	const withCore = (core?: object): Checks => {
		jest.resetModules();
		if (core) jest.doMock('n8n-core', () => core);
		else jest.dontMock('n8n-core');
		return require('../../../../../nodes/PaymentGateway/actions/payout/waitForResults.checks');
	};
	afterAll(() => jest.dontMock('n8n-core'));
	const logger = { info: () => undefined, error: () => undefined, warn: () => undefined };
	const ctx = { getNode: () => ({ name: 'Wait', type: 'gateway' }), logger } as never;

	it("waits with the n8n-core this repository develops against (n8n's own engine, asked)", async () => {
		await expect(withCore().assertMayWait(ctx)).resolves.toBeUndefined();
	});

	it('refuses where n8n resumes a waiting node on its first output only (n8n 1.x, 2.0, 2.20)', async () => {
		class FirstOutputOnly {
			handleDisabledNode(inputData: { main: unknown[][] }) {
				return { data: [inputData.main[0]] };
			}
		}
		const checks = withCore({ WorkflowExecute: FirstOutputOnly });
		await expect(checks.assertMayWait(ctx)).rejects.toThrow(checks.NOT_IN_THIS_N8N);
	});

	it("refuses where n8n's time-out cannot be looked at (no handleWaitingState: a changed n8n)", async () => {
		class NoTimeOutLook {
			handleDisabledNode(inputData: { main: unknown[][] }) {
				return { data: inputData.main };
			}
		}
		const checks = withCore({ WorkflowExecute: NoTimeOutLook });
		await expect(checks.assertMayWait(ctx)).rejects.toThrow(checks.NOT_IN_THIS_N8N);
	});
});
