import type { IExecuteFunctions } from 'n8n-workflow';

import { resolveParameter } from '../../../../nodes/PaymentGateway/helpers/context';

/**
 * A context whose raw parameters are given, and whose evaluation of an expression is visible:
 * n8n's answer is `evaluated:<raw>`, so a test sees whether the node asked n8n or read it itself.
 */
function fakeContext(parameters: Record<string, unknown>, items: Array<Record<string, unknown>>) {
	const calls = { raw: 0, evaluated: 0 };
	const evaluate = (value: unknown): unknown => {
		if (typeof value === 'string' && value.startsWith('=')) return `evaluated:${value}`;
		if (Array.isArray(value)) return value.map(evaluate);
		if (typeof value === 'object' && value !== null) {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, evaluate(v)]));
		}
		return value;
	};
	const ctx = {
		getNodeParameter: (
			name: string,
			_item: number,
			fallback: unknown,
			options?: { rawExpressions?: boolean },
		) => {
			const value = parameters[name] ?? fallback;
			if (options?.rawExpressions) {
				calls.raw++;
				return value;
			}
			calls.evaluated++;
			return evaluate(value);
		},
		getInputData: () => items.map((json) => ({ json })),
	} as unknown as IExecuteFunctions;
	return { ctx, calls };
}

describe('resolveParameter', () => {
	it('reads a parameter without expressions once per run, for every item', () => {
		const { ctx, calls } = fakeContext({ currency: 'AED' }, [{}, {}, {}]);
		expect([0, 1, 2].map((i) => resolveParameter(ctx, 'currency', i, null))).toEqual([
			'AED',
			'AED',
			'AED',
		]);
		expect(calls).toEqual({ raw: 1, evaluated: 0 });
	});

	it.each([
		['={{ $json.amount }}', 12.5],
		['={{$json.amount}}', 12.5],
		['={{ $json["Amount Due"] }}', '7'],
		["={{ $json['Amount Due'] }}", '7'],
		['={{ $json.flag }}', false],
		['={{ $json.nothing }}', null],
	])('reads %s from the item directly', (expression, expected) => {
		const { ctx, calls } = fakeContext({ amount: expression }, [
			{ amount: 12.5, 'Amount Due': '7', flag: false, nothing: null },
		]);
		expect(resolveParameter(ctx, 'amount', 0, null)).toBe(expected);
		expect(calls.evaluated).toBe(0);
	});

	it.each([
		['a field the item lacks', '={{ $json.missing }}', { amount: 1 }],
		['an object field', '={{ $json.amount }}', { amount: { value: 1 } }],
		['a list field', '={{ $json.amount }}', { amount: [1] }],
		['any other expression', '={{ $json.amount * 100 }}', { amount: 1 }],
		['another node', "={{ $('Sheet').item.json.amount }}", { amount: 1 }],
		['a reserved name', '={{ $json.constructor }}', { amount: 1 }],
	])('leaves %s to n8n', (_what, expression, json) => {
		const { ctx, calls } = fakeContext({ amount: expression }, [json]);
		expect(resolveParameter(ctx, 'amount', 0, null)).toBe(`evaluated:${expression}`);
		expect(calls.evaluated).toBe(1);
	});

	it('substitutes references inside a collection, and hands the whole collection to n8n when one is not plain', () => {
		const plain = fakeContext({ details: { name: '={{ $json.name }}', city: 'Dubai' } }, [
			{ name: 'Ann' },
		]);
		expect(resolveParameter(plain.ctx, 'details', 0, {})).toEqual({ name: 'Ann', city: 'Dubai' });
		expect(plain.calls.evaluated).toBe(0);

		const mixed = fakeContext(
			{ details: { name: '={{ $json.name }}', city: '={{ "Du" + "bai" }}' } },
			[{ name: 'Ann' }],
		);
		expect(resolveParameter(mixed.ctx, 'details', 0, {})).toEqual({
			name: 'evaluated:={{ $json.name }}',
			city: 'evaluated:={{ "Du" + "bai" }}',
		});
	});

	it('reads a parameter with expressions again for every item', () => {
		const { ctx, calls } = fakeContext({ id: '={{ $json.id }}' }, [{ id: 'a' }, { id: 'b' }]);
		expect([0, 1].map((i) => resolveParameter(ctx, 'id', i, null))).toEqual(['a', 'b']);
		expect(calls.raw).toBe(2);
	});
});
