import type { INodeProperties } from 'n8n-workflow';

import { PaymentGateway } from '../../../nodes/PaymentGateway/PaymentGateway.node';

const { description } = new PaymentGateway();
const properties = description.properties;
const resources = (properties.find((p) => p.name === 'resource')!.options ?? []).map((o) =>
	String((o as { value: string }).value),
);

function operationsOf(resource: string): string[] {
	const selector = properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	return (selector?.options ?? []).map((o) => String((o as { value: string }).value));
}

const shownFor = (p: INodeProperties, resource: string, operation: string) => {
	const show = p.displayOptions?.show ?? {};
	return (
		(!show.resource || show.resource.includes(resource)) &&
		(!show.operation || show.operation.includes(operation))
	);
};

describe('node description', () => {
	it('offers every resource and operation of the service', () => {
		expect(Object.fromEntries(resources.map((r) => [r, operationsOf(r).sort()]))).toEqual({
			order: [
				'authorize',
				'chargeSavedCard',
				'createPayment',
				'createSplitPayment',
				'saveCard',
				'waitForPayment',
			],
			payment: ['capture', 'refund', 'void'],
			transaction: ['get', 'getMany', 'getPosOrder', 'uploadDocument'],
			invoiceItem: ['activate', 'create', 'deactivate', 'delete', 'get', 'getMany', 'update'],
			subscriptionPlan: ['create'],
			paymentLink: ['bulkCreate', 'deactivate'],
			payout: ['bulkCreate', 'waitForResults'],
		});
	});

	it('never shows two parameters of one name at the same time', () => {
		type Show = Record<string, unknown[]>;
		const rest = (p: INodeProperties): Show => {
			const { resource: _r, operation: _o, ...others } = (p.displayOptions?.show ?? {}) as Show;
			return others;
		};
		// Both can be shown together unless some condition they share has no common value.
		const together = (a: Show, b: Show) =>
			Object.keys(a).every((k) => !(k in b) || a[k].some((v) => b[k].includes(v)));
		const clashes: string[] = [];
		for (const resource of resources) {
			for (const operation of operationsOf(resource)) {
				const shown = properties.filter((q) => shownFor(q, resource, operation));
				shown.forEach((a, i) => {
					for (const b of shown.slice(i + 1)) {
						if (a.name === b.name && together(rest(a), rest(b)))
							clashes.push(`${resource}.${operation}: ${a.name}`);
					}
				});
			}
		}
		expect(clashes).toEqual([]);
	});

	it('selects credentials only by parameters without display conditions (n8n hides what those mention)', () => {
		// n8n's editor hides every parameter named in the display conditions of a parameter that
		// credentials depend on (isAuthRelatedParameter): Resource and Operation must not be such.
		const names = new Set(
			(description.credentials ?? []).flatMap((c) => Object.keys(c.displayOptions?.show ?? {})),
		);
		const authFields = properties.filter((p) => names.has(p.name));
		expect([...names].sort()).toEqual(['authentication', 'resource']);
		// Conditions on the node version only: the editor never hides a parameter for those.
		expect(authFields.map((p) => [p.name, p.displayOptions ?? null])).toEqual([
			['authentication', { show: { '@version': [1] } }],
			['authentication', { show: { '@version': [2, 3] } }],
			['resource', null],
		]);
	});

	it('is usable as a tool, with an action text on every operation', () => {
		expect(description.usableAsTool).toBe(true);
		for (const selector of properties.filter((p) => p.name === 'operation')) {
			for (const option of selector.options ?? [])
				expect((option as { action?: string }).action).toMatch(/^[A-Z][a-z]/);
		}
	});
});
