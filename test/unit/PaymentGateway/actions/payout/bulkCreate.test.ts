import CryptoJS from 'crypto-js';
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { toolDescription } from '../../../../../nodes/PaymentGateway/actions/payout/bulkCreate.operation';
import { generateRequestId } from '../../../../../nodes/PaymentGateway/actions/payout/bulkCreate.plan';
import { payoutChecksum } from '../../../../../nodes/PaymentGateway/actions/payout/bulkCreate.upload';
import { PaymentGateway } from '../../../../../nodes/PaymentGateway/PaymentGateway.node';

describe('payout batch', () => {
	it('computes the checksum crypto-js computes for request_id|callback_url|remark', () => {
		const expected = CryptoJS.SHA256('BATCH-7|https://hooks.example.com/p|Nov run').toString(
			CryptoJS.enc.Hex,
		);
		expect(payoutChecksum('BATCH-7', 'https://hooks.example.com/p', 'Nov run')).toBe(expected);
		expect(payoutChecksum('BATCH-7', '', '')).toBe(
			CryptoJS.SHA256('BATCH-7||').toString(CryptoJS.enc.Hex),
		);
	});

	it('generates request IDs of at most 30 characters that differ', () => {
		const a = generateRequestId(new Date('2026-11-21T10:11:12Z'));
		expect(a).toMatch(/^n8n-20261121101112-[0-9a-f]{6}$/);
		expect(a.length).toBeLessThanOrEqual(30);
		expect(generateRequestId()).not.toBe(generateRequestId());
	});
});

describe('payout bulk create in the editor', () => {
	const type = new PaymentGateway();
	const { properties } = type.description;
	const node = (typeVersion: number): INode => ({
		id: 'p',
		name: 'Payouts',
		type: 'paymentGateway',
		typeVersion,
		position: [0, 0],
		parameters: {},
	});
	/** The parameters n8n's editor stores for a freshly chosen Payout > Bulk Create, defaults included. */
	const panel = (typeVersion: number) =>
		NodeHelpers.getNodeParameters(
			properties,
			{ resource: 'payout', operation: 'bulkCreate' },
			true,
			false,
			node(typeVersion),
			type.description,
		) as Record<string, unknown>;
	const shown = (typeVersion: number, name: string) =>
		properties.filter(
			(p) =>
				p.name === name &&
				NodeHelpers.displayParameter(
					{ resource: 'payout', operation: 'bulkCreate', inputMode: 'items' },
					p,
					node(typeVersion),
					type.description,
				),
		);

	it('version 3 stores no expression among its defaults: the editor resolves each one for every property on every change', () => {
		const values = panel(3);
		expect(values.referenceNo).toBe('');
		const expressions = Object.entries(values).filter(
			([, v]) => typeof v === 'string' && v.startsWith('='),
		);
		expect(expressions).toEqual([]);
		// And a fresh node has no issue to fix before it runs (an empty column reads its input field).
		const issues = NodeHelpers.getNodeParametersIssues(
			properties,
			{ ...node(3), parameters: values as INode['parameters'] },
			type.description,
		);
		expect(issues?.parameters ?? {}).toEqual({});
		// Versions 1-2 keep their defaults (the parameter contract holds them).
		expect(panel(2).referenceNo).toBe('={{ $json["Reference No"] }}');
	});

	it('version 3 has no Split Into Batches to find; versions 1-2 have it and a notice of what version 3 does', () => {
		expect(shown(3, 'splitIntoBatches')).toHaveLength(0);
		expect(shown(2, 'splitIntoBatches')).toHaveLength(1);
		expect(shown(1, 'splitIntoBatches')).toHaveLength(1);
		const notice = (v: number) => shown(v, 'payoutNotice').map((p) => p.displayName);
		expect(notice(2)).toEqual([expect.stringMatching(/pays everyone again.*version 3/)]);
		expect(notice(1)).toEqual(notice(2));
		expect(notice(3)).toEqual([
			expect.stringMatching(
				/known by its Reference No.*never sent again.*fails, paying no one.*new Reference No or use Options > Pay Again/,
			),
		]);
	});

	it('the batch Remark and the row Remark read differently; their names stay', () => {
		const labels = (name: string) => [...new Set(shown(3, name).map((p) => p.displayName))];
		expect(labels('remark')).toEqual(['Batch Remark']);
		expect(labels('rowRemark')).toEqual(['Row Remark']);
		expect([...new Set(shown(2, 'rowRemark').map((p) => p.displayName))]).toEqual(['Row Remark']);
	});

	it('Attempt is shown with Pay Again on only, default 2, in version 3', () => {
		const options = properties.find(
			(p) => p.name === 'options' && p.displayOptions?.show?.resource?.includes('payout'),
		);
		const attempt = (options?.options as INodeProperties[]).find(
			(p) => p.name === 'payAgainAttempt',
		) as INodeProperties;
		expect(attempt).toMatchObject({ displayName: 'Attempt', type: 'number', default: 2 });
		const root = { resource: 'payout', operation: 'bulkCreate' };
		const visible = (values: Record<string, unknown>, version: number) =>
			NodeHelpers.displayParameter(
				values as never,
				attempt,
				node(version),
				type.description,
				root as never,
			);
		expect(visible({ payAgain: true }, 3)).toBe(true);
		expect(visible({ payAgain: false }, 3)).toBe(false);
		expect(visible({}, 3)).toBe(false);
	});
});

describe('payout bulk create for AI agents', () => {
	// What the sandbox tests (test/workflows/payout/defaults.test.ts) prove, said to the model.
	it('says it moves money, that a queued Reference No is never sent again, that a call paying no one fails, and how to pay again on purpose', () => {
		expect(toolDescription).toMatch(/MOVES MONEY/);
		expect(toolDescription).toMatch(/batches of at most 500/);
		expect(toolDescription).toMatch(
			/remembers every Reference No it queued and never sends one again/,
		);
		expect(toolDescription).toMatch(/fails with 'Nothing was paid'/);
		expect(toolDescription).toMatch(/new Reference No \(or the Pay Again option\)/);
		expect(toolDescription).not.toMatch(/not retried/i);
	});
});
