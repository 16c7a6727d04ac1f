// The example workflows (examples/*.json) in real n8n against an in-process sandbox: imported as
// they are, with the credentials of examples/credentials.template.json (examples.setup.ts); manual
// ones run with `n8n execute` (examples.manual.ts), webhook and trigger ones published and driven
// over HTTP (examples.published.ts), the monthly payroll run as the editor's Execute workflow with
// its results workflow published (examples.payroll.ts). One n8n for all of them.
import { runByHandCases } from './examples.manual';
import { payrollCase } from './examples.payroll';
import { publishedCases } from './examples.published';
import { publishExamples, setUpExamples, type ExamplesEnv } from './examples.setup';

let env: ExamplesEnv;
const getEnv = () => env;

beforeAll(async () => {
	// Wait for Results' checks shortened to 30, 60, 120 s… (the payroll's results come 5 and 10 s
	// after its batch, before the first check).
	env = await setUpExamples({ PAYMENT_GATEWAY_RESULTS_CHECK_SCALE: '0.5' });
}, 300_000);

afterAll(async () => {
	await env?.n8n.dispose();
	await env?.sandbox.stop();
});

describe('example workflows, run by hand (n8n execute)', () => {
	runByHandCases(getEnv);

	describe('published, under n8n start', () => {
		beforeAll(async () => {
			await publishExamples(env);
		}, 900_000);

		publishedCases(getEnv);
		payrollCase(getEnv);
	});
});
