type Module = typeof import('../../../../nodes/PaymentGateway/actions/waitEngine') & {
	payment: typeof import('../../../../nodes/PaymentGateway/actions/order/waitForPayment.engine');
	results: typeof import('../../../../nodes/PaymentGateway/actions/payout/waitForResults.checks');
};

/** A fresh copy of the module (it asks n8n's engine once per process), with n8n-core as given. */
const withCore = (core?: object): Module => {
	// The module imports n8n-core when first asked, after this returns: a fresh registry, not an
	// isolated one that the import would no longer see.
	jest.resetModules();
	if (core) jest.doMock('n8n-core', () => core);
	else jest.dontMock('n8n-core');
	return {
		...require('../../../../nodes/PaymentGateway/actions/waitEngine'),
		payment: require('../../../../nodes/PaymentGateway/actions/order/waitForPayment.engine'),
		results: require('../../../../nodes/PaymentGateway/actions/payout/waitForResults.checks'),
	};
};

/** n8n's engine before it forwarded every output of a resumed node: the first output only. */
class FirstOutputOnly {
	handleDisabledNode(inputData: { main: unknown[][] }) {
		return { data: [inputData.main[0]] };
	}
}

afterAll(() => jest.dontMock('n8n-core'));

describe('Wait for Payment and Wait for Results: does this n8n resume a waiting node on every output?', () => {
	it("yes with the n8n-core this repository develops against (n8n's own engine, asked)", async () => {
		await expect(withCore().resumesOnEveryOutput()).resolves.toBe(true);
	});

	it('no where the engine passes on the first output only (n8n 1.x, 2.0, 2.20)', async () => {
		await expect(
			withCore({ WorkflowExecute: FirstOutputOnly }).resumesOnEveryOutput(),
		).resolves.toBe(false);
	});

	it('an engine without that method is a changed n8n: refused, naming the capability and release', async () => {
		await expect(withCore({ WorkflowExecute: class {} }).resumesOnEveryOutput()).rejects.toThrow(
			/n8n-core [\d.]+ is not what the Payment Gateway package knows for "resume engine .*WorkflowExecute.handleDisabledNode missing/,
		);
	});

	it('an engine whose method throws is a changed n8n too (before: taken as fine)', async () => {
		class Throws {
			handleDisabledNode(): never {
				throw new TypeError("Cannot read properties of undefined (reading 'runExecutionData')");
			}
		}
		await expect(withCore({ WorkflowExecute: Throws }).resumesOnEveryOutput()).rejects.toThrow(
			/resume engine .*handleDisabledNode failed: Cannot read properties/,
		);
	});
});

describe('the refusal users see where n8n resumes a waiting node on its first output only', () => {
	const logger = { info: () => undefined, error: () => undefined, warn: () => undefined };
	const ctx = { getNode: () => ({ name: 'Wait', type: 'gateway' }), logger } as never;
	const refusal = async (wait: (ctx: never) => Promise<void>) => {
		const error = await wait(ctx).then(
			() => undefined,
			(e: { message: string; description: string }) => e,
		);
		return [error?.message, error?.description];
	};

	it('Wait for Payment: its own words, nothing sent', async () => {
		const engine = withCore({ WorkflowExecute: FirstOutputOnly });
		expect(await refusal(engine.payment.assertResumesOnEveryOutput)).toEqual([
			'Wait for Payment is not available in this n8n: it resumes a waiting node on its first output only, so a payment would be lost instead of leaving on Paid or Failed',
			'Nothing waits and nothing was sent. Upgrade n8n to a release that resumes waiting nodes on every output (see the compatibility table in the documentation), or use the Payment Gateway Trigger with the order ID to continue when the final status arrives.',
		]);
	});

	it('Wait for Results: its own words, nothing routed', async () => {
		const checks = withCore({ WorkflowExecute: FirstOutputOnly });
		expect(await refusal(checks.results.assertMayWait)).toEqual([
			'Wait for Results is not available in this n8n: it cannot run a waiting node again at its checks and pass on every output, so the rows would never leave on Paid, Failed or Still Pending',
			"Nothing waits and nothing was routed. Read the batches' rows in the payout ledger with n8n's Data Table node (the data table \"Payout ledger …\" of the workflow's project), or receive each result with the Payment Gateway Payout Results Trigger. n8n 2.41.1 offers both (see the compatibility table in the documentation).",
		]);
	});
});
