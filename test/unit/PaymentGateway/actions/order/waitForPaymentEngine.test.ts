type Module =
	typeof import('../../../../../nodes/PaymentGateway/actions/order/waitForPayment.engine');

/** A fresh copy of the module (it asks n8n's engine once per process), with n8n-core as given. */
const withCore = (core?: object): Module => {
	// The module imports n8n-core when first asked, after this returns: a fresh registry, not an
	// isolated one that the import would no longer see.
	jest.resetModules();
	if (core) jest.doMock('n8n-core', () => core);
	else jest.dontMock('n8n-core');
	return require('../../../../../nodes/PaymentGateway/actions/order/waitForPayment.engine');
};

/** n8n's engine before it forwarded every output of a resumed node: the first output only. */
class FirstOutputOnly {
	handleDisabledNode(inputData: { main: unknown[][] }) {
		return { data: [inputData.main[0]] };
	}
}

afterAll(() => jest.dontMock('n8n-core'));

describe('Wait for Payment: does this n8n resume a waiting node on every output?', () => {
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
