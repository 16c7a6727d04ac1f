import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Each endpoint of the service is named in one product file (the operation that owns it), so a
// search for a path finds the code that calls it; the transport names none.
const ROOT = join(__dirname, '../../..');
const SERVICE_PATH =
	/['`](\/(?:orders|invoice|pos|subscriptions|payment-links)\/v1\/[a-z/-]+|\/v1\/(?:token|bulk\/payouts))/g;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** Service path → the product files whose code (not comments) names it. */
function pathsByFile(): Map<string, string[]> {
	const found = new Map<string, string[]>();
	for (const file of [
		...sourceFiles(join(ROOT, 'nodes')),
		...sourceFiles(join(ROOT, 'credentials')),
	]) {
		const code = readFileSync(file, 'utf8')
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/^\s*\/\/.*$/gm, '');
		for (const [, path] of code.matchAll(SERVICE_PATH)) {
			const files = found.get(path) ?? [];
			const name = relative(ROOT, file);
			if (!files.includes(name)) found.set(path, [...files, name]);
		}
	}
	return found;
}

describe('service endpoints', () => {
	const found = pathsByFile();

	it('finds the service paths the package calls', () => {
		// A pattern that stopped matching would pass the checks below vacuously.
		expect(found.size).toBeGreaterThanOrEqual(17);
		expect(found.get('/orders/v1/create')).toEqual([
			'nodes/PaymentGateway/actions/order/common.ts',
		]);
	});

	it('names each service path in one product file', () => {
		const shared = [...found].filter(([, files]) => files.length > 1);
		expect(shared).toEqual([]);
	});

	it('names no service path in the transport', () => {
		const inTransport = [...found].filter(([, files]) =>
			files.some((file) => file.includes('/transport/')),
		);
		expect(inTransport).toEqual([]);
	});
});
