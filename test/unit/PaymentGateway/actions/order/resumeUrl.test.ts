import type { IExecuteFunctions } from 'n8n-workflow';

type Module =
	typeof import('../../../../../nodes/PaymentGateway/actions/order/waitForPayment.resumeUrl');

/** A fresh copy of the module (its "said once" memory is per process). */
const fresh = (): Module => {
	let loaded: Module | undefined;
	jest.isolateModules(() => {
		loaded = require('../../../../../nodes/PaymentGateway/actions/order/waitForPayment.resumeUrl');
	});
	return loaded!;
};

const ctxWith = (resumeUrl: unknown) => {
	const warn = jest.fn();
	const ctx = {
		evaluateExpression: jest.fn(() => resumeUrl),
		logger: { warn },
	} as unknown as IExecuteFunctions;
	return { ctx, warn };
};

describe('Wait for Payment on an n8n that does not sign resume URLs', () => {
	it("says so once in n8n's log (n8n 1.x: no signature)", () => {
		const { noteUnsignedResumeUrl, UNSIGNED_RESUME_URL_NOTE } = fresh();
		const { ctx, warn } = ctxWith('http://127.0.0.1:5678/webhook-waiting/42');
		noteUnsignedResumeUrl(ctx);
		noteUnsignedResumeUrl(ctx);
		expect(warn.mock.calls).toEqual([[UNSIGNED_RESUME_URL_NOTE]]);
		expect(UNSIGNED_RESUME_URL_NOTE).toMatch(/notification secret/);
	});

	it('says nothing where n8n signs them (2.x), nor without a resume URL', () => {
		const { noteUnsignedResumeUrl } = fresh();
		for (const url of ['http://127.0.0.1:5678/webhook-waiting/42?signature=ab12', '', undefined]) {
			const { ctx, warn } = ctxWith(url);
			noteUnsignedResumeUrl(ctx);
			expect(warn).not.toHaveBeenCalled();
		}
	});
});
